"""Issue 23, the command line: output folders that hold a user's files, bad arguments and a hostile
environment (a file or a read-only folder as --out, a full disk, a busy port, clients that leave, SIGTERM),
`kodeks serve`'s answers (no listings, only its own Host, content errors shown in the page), and the
arguments of cards and search. Every case gives one clear line and an exit code, never a traceback, and no
file of the user's is deleted or overwritten."""
import errno
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.error import HTTPError, URLError

import pytest

from conftest import CONTENT, ROOT, run_kodeks

G = "ciernie-i-gwiazdy"


def kodeks(*args, cwd, env=None, timeout=1800):
    """The real CLI, with extra environment variables (HOME) when a case needs them."""
    full = dict(os.environ, PYTHONPATH=str(ROOT / "tools"), COLUMNS="200", NO_COLOR="1", **(env or {}))
    return subprocess.run([sys.executable, "-m", "kodeks", *map(str, args)], cwd=cwd, env=full, capture_output=True,
                          text=True, timeout=timeout)


def one_clear_line(proc, code=None):
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert proc.returncode != 0 if code is None else proc.returncode == code, (proc.returncode, proc.stderr)
    assert proc.stderr.strip(), "says what is wrong"


# --- output folders -----------------------------------------------------------------------------------------

def test_out_refuses_the_project_its_content_and_home(mini, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    for out, says in ((mini, "inside the content folder"), (mini / G, "inside the content folder"),
                      (mini / G / "skill", "inside the content folder"), (mini.parent, "project folder"),
                      (home, "home folder")):
        proc = kodeks("build", "--no-pdf", "--content", mini, "--out", out, cwd=mini.parent, env={"HOME": str(home)})
        one_clear_line(proc, 2)
        assert says in proc.stderr and "fix:" in proc.stderr
        assert not (out / "site").exists() and not (out / "search").exists()
    assert run_kodeks("validate", "--content", mini, cwd=mini.parent).returncode == 0, "content untouched"
    proc = kodeks("search", "unik", "--content", mini, "--out", mini, cwd=mini.parent)
    one_clear_line(proc, 2)
    assert not (mini / "search").exists()


def test_check_out_refuses_the_top_of_the_file_system(tmp_path):
    from kodeks.outdir import OutputError, check_out
    with pytest.raises(OutputError, match="top of the file system"):
        check_out(Path("/"), tmp_path, tmp_path / "content")
    assert check_out(tmp_path / "build", tmp_path, tmp_path / "content") == tmp_path / "build"


def test_build_never_replaces_a_folder_kodeks_did_not_make(mini, tmp_path):
    out = tmp_path / "out"
    (out / "site").mkdir(parents=True)
    (out / "site" / "thesis.txt").write_text("thesis", encoding="utf-8")
    (out / "search").mkdir()
    (out / "search" / "notes.txt").write_text("notes", encoding="utf-8")
    (out / ".work-1-x").mkdir()  # a name a killed build's folder would have, but not one
    (out / ".work-1-x" / "keep.txt").write_text("keep", encoding="utf-8")
    proc = kodeks("build", "--no-pdf", "--content", mini, "--out", out, cwd=mini.parent)
    one_clear_line(proc, 2)
    assert str(out / "site") in proc.stderr and "did not make" in proc.stderr
    assert (out / "site" / "thesis.txt").read_text(encoding="utf-8") == "thesis"
    (out / "site").rename(tmp_path / "moved-site")
    proc = kodeks("build", "--no-pdf", "--content", mini, "--out", out, cwd=mini.parent)
    one_clear_line(proc, 2)
    assert str(out / "search") in proc.stderr
    assert (out / "search" / "notes.txt").read_text(encoding="utf-8") == "notes"
    (out / "search").rename(tmp_path / "moved-search")
    # Once the folders are kodeks' own, a build replaces them, again and again; the user's folder stays.
    for _ in range(2):
        proc = kodeks("build", "--no-pdf", "--content", mini, "--out", out, cwd=mini.parent)
        assert proc.returncode == 0, proc.stderr
    assert (out / "site" / ".kodeks-made").is_file() and (out / "search" / ".kodeks-made").is_file()
    assert (out / ".work-1-x" / "keep.txt").is_file()


def test_folders_an_older_kodeks_built_are_still_replaced(tmp_path):
    from kodeks.outdir import OutputError, claim, ours
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "sw.js").write_text("", encoding="utf-8")
    (site / "assets" / "kodeks.js").write_text("", encoding="utf-8")
    search = tmp_path / "search"
    for lang in ("pl", "en"):
        (search / lang).mkdir(parents=True)
        (search / lang / "index.json").write_text("{}", encoding="utf-8")
    assert ours(site) and ours(search)
    claim(site)
    claim(tmp_path / "missing")
    (search / "mine.txt").write_text("mine", encoding="utf-8")
    assert not ours(search)
    with pytest.raises(OutputError, match="did not make"):
        claim(search)


def test_search_out_must_be_a_folder_with_no_search_folder_of_the_users(mini, tmp_path):
    proc = kodeks("search", "unik", "--content", mini, "--out", tmp_path / "no" / "such", cwd=mini.parent)
    one_clear_line(proc, 2)
    assert not (tmp_path / "no").exists()
    a_file = tmp_path / "passwd"
    a_file.write_text("root:x:0:0\n", encoding="utf-8")
    proc = kodeks("search", "unik", "--content", mini, "--out", a_file, cwd=mini.parent)
    one_clear_line(proc, 2)
    assert a_file.read_text(encoding="utf-8") == "root:x:0:0\n"
    out = tmp_path / "out"
    (out / "search").mkdir(parents=True)
    (out / "search" / "notes.txt").write_text("notes", encoding="utf-8")
    proc = kodeks("search", "unik", "--content", mini, "--out", out, cwd=mini.parent)
    one_clear_line(proc, 2)
    assert (out / "search" / "notes.txt").is_file() and not (out / "search" / "pl").exists()


# --- no traceback: files, read-only folders, full disks -------------------------------------------------------

def test_build_out_a_file_is_refused(mini, tmp_path):
    a_file = tmp_path / "afile"
    a_file.write_text("x", encoding="utf-8")
    proc = kodeks("build", "--no-pdf", "--content", mini, "--out", a_file, cwd=mini.parent)
    one_clear_line(proc, 2)
    assert "is a file" in proc.stderr and a_file.read_text(encoding="utf-8") == "x"


def _namespace():
    """A user and mount namespace, where a tmpfs or a read-only mount can be made without being root."""
    if not shutil.which("unshare"):
        pytest.skip("no unshare")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("no user namespaces here")


def _in_namespace(script, cwd, timeout=1800):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"), COLUMNS="200", NO_COLOR="1")
    return subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_a_read_only_out_folder_is_one_line(mini, tmp_path):
    _namespace()
    ro = tmp_path / "ro"
    ro.mkdir()
    k = f"{sys.executable} -m kodeks"
    proc = _in_namespace(f"mount --bind -o ro {ro} {ro} && {k} build --no-pdf --content {mini} --out {ro}", mini.parent)
    one_clear_line(proc, 1)
    assert "read-only file system" in proc.stderr


@pytest.mark.parametrize("size,command,says", [
    ("4k", "export -o {dir}/kb.json", "export failed: {dir}/kb.json: disk full"),
    ("1m", "build --no-pdf --out {dir}", "disk full"),
    ("8k", "cards ciernie-i-gwiazdy --units heavy-drone -o {dir}/cards.pdf", "cards not written: {dir}/cards.pdf: disk full"),
])
def test_a_full_disk_says_disk_full_and_leaves_no_half_file(mini, tmp_path, size, command, says):
    _namespace()
    full = tmp_path / "full"
    full.mkdir()
    k = f"{sys.executable} -m kodeks"
    proc = _in_namespace(f"mount -t tmpfs -o size={size} tmpfs {full} && {k} {command.format(dir=full)} --content {mini}; "
                         f"rc=$?; echo; ls -A {full}; exit $rc", mini.parent)
    one_clear_line(proc, 1)
    assert says.format(dir=full) in proc.stderr
    if not command.startswith("build"):
        assert proc.stdout.strip().splitlines()[-1:] in ([], [""]), "nothing left in the full folder"


def test_mkdocs_stopping_on_a_full_disk_is_said(tmp_path):
    from kodeks.site.build import BuildError, Mkdocs

    class Stopped:
        returncode = 1

        def wait(self):
            return 1

    errors = tmp_path / "mkdocs-stderr.txt"
    errors.write_text("Traceback (most recent call last):\nOSError: [Errno 28] No space left on device\n", encoding="utf-8")
    mkdocs = Mkdocs(parallel=True)
    mkdocs.procs["pl"] = (Stopped(), tmp_path / "mkdocs-result.json", errors)
    with pytest.raises(BuildError, match="disk full; the process stopped"):
        mkdocs.warnings()


def test_cards_output_that_is_no_file_is_one_line(mini, tmp_path):
    folder = tmp_path / "cardsdir"
    folder.mkdir()
    for output in ("/", folder):
        proc = kodeks("cards", G, "--content", mini, "-o", output, cwd=mini.parent)
        one_clear_line(proc, 2)
        assert "is a folder" in proc.stderr
    assert not list(tmp_path.glob("cardsdir.*.tmp"))
    proc = kodeks("cards", G, "--content", mini, "--units", "speeder", "-o", "/proc/x", cwd=mini.parent)
    one_clear_line(proc, 1)
    assert "cards not written: /proc/x:" in proc.stderr
    proc = kodeks("export", "--content", mini, "-o", folder, cwd=mini.parent)
    one_clear_line(proc, 2)
    for command in (("cards", G, "-o", mini / G / "cards.pdf"), ("export", "-o", mini / G / "kb.json")):
        proc = kodeks(*command, "--content", mini, cwd=mini.parent)
        one_clear_line(proc, 2)
        assert "inside the content folder" in proc.stderr
    assert sorted(p.name for p in (mini / G).iterdir() if p.is_file()) == ["game.yaml"]


def test_a_pdf_that_cannot_be_put_in_place_leaves_no_temporary_file(mini, tmp_path):
    from kodeks.cards.content import cards_for
    from kodeks.cards.pdf import write_pdf
    from kodeks.project import load_and_check
    kb = load_and_check(mini, mini.parent).kb
    target = tmp_path / "out" / "taken"
    target.mkdir(parents=True)
    with pytest.raises(IsADirectoryError):
        write_pdf(kb, cards_for(kb, G, "pl")[:1], target)
    assert sorted(p.name for p in target.parent.iterdir()) == ["taken"]


# --- serve ---------------------------------------------------------------------------------------------------

def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_checks_port_and_host_before_building(mini, tmp_path):
    out = tmp_path / "out"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = kodeks("serve", "--content", mini, "--out", out, "--port", port, cwd=mini.parent)
        one_clear_line(proc, 2)
        assert f"port {port} is in use" in proc.stderr
    for args in (("--port", "99999"), ("--host", "999.1.1.1", "--port", _free_port()),
                 ("--host", "no-such-host.invalid", "--port", _free_port())):
        start = time.perf_counter()
        proc = kodeks("serve", "--content", mini, "--out", out, *args, cwd=mini.parent)
        one_clear_line(proc, 2)
        assert time.perf_counter() - start < 300  # before any build (a build here is minutes); no speed goal
    assert not (out / "live").exists(), "nothing was built"


@pytest.fixture
def server(tmp_path):
    from kodeks import serve as srv
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "assets" / "big.js").write_bytes(b"x" * (8 << 20))
    (site / "index.html").write_text("hello", encoding="utf-8")
    state = srv.State()
    server = srv.serve(site, "127.0.0.1", 0, state)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server, state
    server.shutdown()
    server.server_close()


def _get(port, path, host=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if host is not None:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read()
    except HTTPError as exc:
        return exc.code, b""


def test_serve_lists_no_folder_and_answers_only_its_own_host(server):
    srv_, _ = server
    port = srv_.server_address[1]
    assert _get(port, "/assets/") == (404, b"")
    assert _get(port, "/index.html") == (200, b"hello")
    assert _get(port, "/", host=f"localhost:{port}") == (200, b"hello")
    for evil in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", f"127.0.0.1.evil.example:{port}", ""):
        assert _get(port, "/index.html", host=evil)[0] in (403, 421), evil
        assert _get(port, "/__kodeks/version", host=evil)[0] in (403, 421), evil


def test_host_header_rules():
    from kodeks.serve import host_allowed
    assert host_allowed("127.0.0.1:8000", "127.0.0.1", 8000)
    assert host_allowed("LOCALHOST:8000", "127.0.0.1", 8000)
    assert host_allowed("[::1]:8000", "::1", 8000)
    assert host_allowed("192.168.1.5:8000", "0.0.0.0", 8000)  # listening on all addresses: any address of it
    assert host_allowed("preview.lan:8000", "preview.lan", 8000)
    assert host_allowed("localhost", "127.0.0.1", 80)
    assert not host_allowed("attacker.example:8000", "0.0.0.0", 8000)
    assert not host_allowed("192.168.1.5:8000", "127.0.0.1", 8000)
    assert not host_allowed("localhost:8001", "127.0.0.1", 8000)
    assert not host_allowed("localhost", "127.0.0.1", 8000)
    assert not host_allowed(None, "127.0.0.1", 8000)


def test_clients_that_leave_print_no_traceback(server, capfd):
    srv_, _ = server
    port = srv_.server_address[1]
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /assets/big.js HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        s.recv(100)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # reset, at once
        s.close()
    time.sleep(1)
    assert _get(port, "/index.html") == (200, b"hello"), "still serving"
    printed = capfd.readouterr().err
    assert "Traceback" not in printed and "BrokenPipe" not in printed and "ConnectionReset" not in printed


def _start_serve(mini, tmp_path):
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"), COLUMNS="200", NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "kodeks", "serve", "--content", str(mini), "--out",
                             str(tmp_path / "out"), "--port", str(port)], cwd=mini.parent, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 180
    while time.time() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=2)
            return proc, port
        except (URLError, OSError):
            time.sleep(0.3)
    proc.kill()
    raise AssertionError("serve did not start: " + proc.communicate()[1])


def _version(port):
    return json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/__kodeks/version", timeout=10).read())


def _until(check, seconds=90):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError("timed out")


def test_serve_says_content_errors_to_the_page_and_stops_cleanly_on_sigterm(mini, tmp_path):
    dodge = mini / G / "skill" / "dodge.yaml"
    good = dodge.read_text(encoding="utf-8")
    proc, port = _start_serve(mini, tmp_path)
    try:
        assert _version(port)["error"] == ""
        dodge.write_text("id: dodge\nname: {pl: [\n", encoding="utf-8")
        data = _until(lambda: (lambda d: d if d["error"] else None)(_version(port)))
        assert any(re.match(r"ciernie-i-gwiazdy/skill/dodge\.yaml:\d+:\d+: error: ", line) or
                   re.search(r"skill/dodge\.yaml:\d+:\d+: error: ", line) for line in data["problems"]), data
        assert _get(port, "/ciernie-i-gwiazdy/skill/dodge.html")[0] == 200, "the last good site is served"
        dodge.write_text(good, encoding="utf-8")
        _until(lambda: not _version(port)["error"])
    finally:
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 0, stderr
    assert "leaked" not in stderr and "Traceback" not in stderr, stderr


def test_the_open_page_shows_a_content_error_until_it_is_fixed(mini, tmp_path, browser):
    dodge = mini / G / "skill" / "dodge.yaml"
    good = dodge.read_text(encoding="utf-8")
    proc, port = _start_serve(mini, tmp_path)
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/ciernie-i-gwiazdy/skill/dodge.html")
        page.wait_for_timeout(1500)  # the page has asked for the version once
        assert page.locator(".kodeks-live-error").count() == 0
        dodge.write_text("id: dodge\nname: {pl: '<img src=x onerror=alert(1)>'\n", encoding="utf-8")
        banner = page.locator(".kodeks-live-error")
        banner.wait_for(state="visible", timeout=90000)
        assert "skill/dodge.yaml:" in banner.inner_text()
        assert page.locator(".kodeks-live-error img").count() == 0, "the lines are text"
        dodge.write_text(good, encoding="utf-8")
        banner.wait_for(state="detached", timeout=90000)
        page.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=600)


# --- cards and search arguments -------------------------------------------------------------------------------

@pytest.mark.parametrize("units,says", [
    ("heavy-drone:0", "the count must be 1 or more"),
    ("", "--units is empty"),
    (" , ", "--units is empty"),
    ("heavy-drone:x", "the count must be a whole number"),
    ("heavy-dron", "did you mean 'heavy-drone'"),
    ("nosuch", "units: heavy-drone, huge, speeder"),
])
def test_cards_units_must_name_known_units_at_least_once(mini, tmp_path, units, says):
    proc = kodeks("cards", G, "--content", mini, "--units", units, "-o", tmp_path / "c.pdf", cwd=mini.parent)
    one_clear_line(proc, 2)
    assert says in proc.stderr and not (tmp_path / "c.pdf").exists()


def test_cards_faction_and_extra_folder_are_checked(mini, tmp_path):
    proc = kodeks("cards", G, "--content", mini, "--faction", "nosuch", "-o", tmp_path / "c.pdf", cwd=mini.parent)
    one_clear_line(proc, 2)
    assert "unknown faction 'nosuch'" in proc.stderr and "army-list" in proc.stderr
    start = time.perf_counter()
    for folder in ("/", mini.parent, tmp_path / "nothing-here"):
        proc = kodeks("cards", G, "--content", mini, "--extra", folder, "-o", tmp_path / "c.pdf", cwd=mini.parent)
        one_clear_line(proc, 2)
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    # Generous on a busy machine; walking the whole file system took far longer (and 11,260 errors).
    assert time.perf_counter() - start < 300, "refused from the folder's top, not by walking it"


@pytest.mark.parametrize("kind,says", [("nosuch", "unknown kind 'nosuch'"), ("rules", "did you mean 'rule'")])
def test_search_unknown_kind_is_said(mini, tmp_path, kind, says):
    proc = kodeks("search", "unik", "--kind", kind, "--content", mini, "--out", tmp_path, cwd=mini.parent)
    one_clear_line(proc, 2)
    assert says in proc.stderr and "known: rule, skill" in proc.stderr


def test_search_box_counts_results_in_polish():
    if not shutil.which("node"):
        pytest.skip("no node")
    script = ROOT / "tools/kodeks/site/assets/kodeks-search.js"
    js = ("global.window={};global.document={readyState:'complete',querySelector:()=>null};"
          f"require({json.dumps(str(script))});"
          "console.log(JSON.stringify([1,2,4,5,11,12,14,21,22,25,102,112,122].map(n=>window.kodeksSearch.count(n,'pl'))"
          ".concat([window.kodeksSearch.count(1,'en'),window.kodeksSearch.count(3,'en')])))")
    proc = subprocess.run(["node", "-e", js], capture_output=True, text=True, timeout=600)
    assert json.loads(proc.stdout) == ["1 wynik", "2 wyniki", "4 wyniki", "5 wyników", "11 wyników", "12 wyników",
                                       "14 wyników", "21 wyników", "22 wyniki", "25 wyników", "102 wyniki",
                                       "112 wyników", "122 wyniki", "1 result", "3 results"]


# --- help, validate, new, the README ---------------------------------------------------------------------

def test_help_shows_switches_as_switches():
    for command in ("build", "stats", "fmt", "search"):
        proc = run_kodeks(command, "--help")
        assert proc.returncode == 0
        assert "<bool>" not in proc.stdout, proc.stdout
    assert "--no-pdf" in run_kodeks("build", "--help").stdout


def test_validate_does_not_say_nothing_was_built(mini):
    (mini / G / "skill" / "broken.yaml").write_text("id: broken\n", encoding="utf-8")
    proc = run_kodeks("validate", "--content", mini, cwd=mini.parent)
    assert proc.returncode == 1 and "error(s)" in proc.stderr and "built" not in proc.stderr


def test_new_on_an_existing_id_says_where_it_is(mini):
    proc = run_kodeks("new", "rule", G, "melee", "--content", mini, cwd=mini.parent)
    one_clear_line(proc, 2)
    assert "rule 'melee' already exists" in proc.stderr and "01-basics.yaml:13:" in proc.stderr
    assert not (mini / G / "rule" / "melee.yaml").exists()


def test_the_readme_example_of_new_works_on_the_shipped_game(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Authoring an entry"):]
    kind, game, entry_id = re.search(r"kodeks new (\S+) (\S+) (\S+)", section).groups()
    content = tmp_path / "content"
    shutil.copytree(CONTENT / game, content / game)
    proc = run_kodeks("new", kind, game, entry_id, "--content", content, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    written = content / game / kind / f"{entry_id}.yaml"
    assert written.is_file() and f"content/{game}/{kind}/{entry_id}.yaml" in section


def test_explain_says_disk_full():
    from kodeks.outdir import explain
    assert explain(OSError(errno.ENOSPC, "No space left on device", "/x/kb.json")).startswith("/x/kb.json: disk full")
    assert "read-only" in explain(OSError(errno.EROFS, "Read-only file system", "/x"))
