"""The CLI as an author uses it: new -> validate, stats, serve's safety."""
import json
import socket
import threading
import urllib.request
from urllib.error import HTTPError

from conftest import run_kodeks


def test_new_writes_a_valid_skeleton_for_every_kind(mini):
    for kind in ("rule", "skill", "trait", "weapon", "unit", "term", "equipment", "faction"):
        proc = run_kodeks("new", kind, "ciernie-i-gwiazdy", f"new-{kind}", "--content", mini, cwd=mini.parent)
        assert proc.returncode == 0, proc.stderr
        path = mini / "ciernie-i-gwiazdy" / kind / f"new-{kind}.yaml"
        assert path.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=../../../schema/")
    proc = run_kodeks("validate", "--content", mini, cwd=mini.parent)
    assert proc.returncode == 0, proc.stderr


def test_new_refuses_bad_requests(mini):
    assert run_kodeks("new", "skill", "ciernie-i-gwiazdy", "Bad Id", "--content", mini, cwd=mini.parent).returncode == 2
    assert run_kodeks("new", "skill", "nope", "x", "--content", mini, cwd=mini.parent).returncode == 2
    proc = run_kodeks("new", "skill", "ciernie-i-gwiazdy", "dodge", "--content", mini, cwd=mini.parent)
    assert proc.returncode == 2 and "already exists" in proc.stderr
    proc = run_kodeks("new", "scenario", "ciernie-i-gwiazdy", "x", "--content", mini, cwd=mini.parent)
    assert proc.returncode == 0  # declared in game.yaml


def test_stats_counts_entries_translation_and_gaps(mini):
    proc = run_kodeks("stats", "--json", "--content", mini, cwd=mini.parent)
    data = json.loads(proc.stdout)
    game = data["games"]["ciernie-i-gwiazdy"]
    assert game["entries"] == 14
    assert game["kinds"]["rule"]["texts"] - game["kinds"]["rule"]["texts_en"] == 1  # the melee text
    assert game["kinds"]["unit"]["gaps"] == 1
    table = run_kodeks("stats", "--content", mini, cwd=mini.parent).stdout
    assert "ciernie-i-gwiazdy" in table and "English" in table


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_handler_stays_inside_the_site(tmp_path):
    from kodeks import serve as srv
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("hello", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    state = srv.State()
    port = _free_port()
    server = srv.serve(site, "127.0.0.1", port, state)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{port}"
        assert urllib.request.urlopen(base + "/index.html").read() == b"hello"
        for evil in ("/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "//../secret.txt"):
            try:
                body = urllib.request.urlopen(base + evil).read()
            except HTTPError as exc:
                assert exc.code == 404
            else:
                assert b"secret" not in body
        assert json.loads(urllib.request.urlopen(base + "/__kodeks/version").read())["version"] == 0
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.shutdown()
        server.server_close()


def test_shipped_content_is_in_canonical_form():
    from conftest import CONTENT, ROOT
    proc = run_kodeks("fmt", "--check", CONTENT, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
