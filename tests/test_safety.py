"""Bad input never breaks the site: sanitised HTML, atomic builds (even under SIGKILL), no tracebacks."""
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

from conftest import ROOT, run_kodeks

THEME_INLINE = ("var palette=__md_get(", "var target=document.getElementById(location.hash", "__md_scope=new URL(")
# kodeks' 404 page finds the site's root when a host shows it at a deeper address (overrides/404.html).
ROOT_FINDER = "(function(){var p=location.pathname"


def test_every_page_has_only_the_theme_and_project_scripts(real_build):
    pages = 0
    for page in real_build.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        pages += 1
        for attrs, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
            src = re.search(r'src="([^"]+)"', attrs)
            if src:
                name = src.group(1).split("/assets/")[-1] if "/assets/" in src.group(1) else src.group(1)
                assert re.fullmatch(r"(assets/)?(javascripts/bundle\.[0-9a-f]+\.min\.js|kodeks(-[a-z]+)?\.js)",
                                    name.removeprefix("../") if not name.startswith("assets") else name), (page, src.group(1))
            elif 'id="__config"' in attrs and 'type="application/json"' in attrs:
                continue
            else:
                assert body.strip().startswith(THEME_INLINE) or (
                    page.name == "404.html" and body.strip().startswith(ROOT_FINDER)), (page, body[:80])
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html, re.I), page
        assert "javascript:" not in html.lower(), page
    assert pages > 1000


def _build(content, out, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"))
    return subprocess.Popen([sys.executable, "-m", "kodeks", "build", "--no-pdf", "--content", str(content),
                             "--out", str(out)], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_build_killed_half_way_leaves_the_previous_site(tmp_path, mini):
    out = tmp_path / "out"
    run_kodeks("build", "--no-pdf", "--content", mini, "--out", out, cwd=mini.parent, check=True)
    before = {p.relative_to(out / "site"): p.read_bytes() for p in (out / "site").rglob("*") if p.is_file()}
    # Change the content so a finished build would differ, then kill builds at several moments.
    dodge = mini / "ciernie-i-gwiazdy/skill/dodge.yaml"
    dodge.write_text(dodge.read_text(encoding="utf-8").replace("name: {pl: Unik, en: Dodge}",
                                                             "name: {pl: Unik zmieniony, en: Dodge changed}"),
                     encoding="utf-8")
    for delay in (0.5, 1.5, 2.5):
        proc = _build(mini, out, mini.parent)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        after = {p.relative_to(out / "site"): p.read_bytes() for p in (out / "site").rglob("*") if p.is_file()}
        if after != before:  # the build won the race and finished: then it must be complete and new
            assert "Unik zmieniony" in (out / "site/ciernie-i-gwiazdy/skill/dodge.html").read_text(encoding="utf-8")
            break
        assert after == before
    # The killed builds' mkdocs workers died with them.
    time.sleep(0.5)
    left = []
    for cmdline in pathlib.Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(out).encode() in cmdline.read_bytes():
                left.append(cmdline.parent.name)
        except OSError:
            pass
    assert not left, "workers of a killed build are still running"
    # A following build recovers and cleans up what the killed ones left.
    run_kodeks("build", "--no-pdf", "--content", mini, "--out", out, cwd=mini.parent, check=True)
    assert "Unik zmieniony" in (out / "site/ciernie-i-gwiazdy/skill/dodge.html").read_text(encoding="utf-8")
    assert not list(out.glob(".work-*")) and not list(out.glob(".site-old-*"))


def test_a_broken_link_in_an_overriding_template_fails_the_build_and_keeps_the_site(tmp_path, mini):
    # --out is relative: mkdocs must still find the pages (it reads config paths relative to the config).
    run_kodeks("build", "--no-pdf", "--content", mini, "--out", "out", cwd=mini.parent, check=True)
    before = (mini.parent / "out/site/index.html").read_bytes()
    templates = tmp_path / "templates"
    templates.mkdir()
    home = (ROOT / "tools/kodeks/templates/home.md.j2").read_text(encoding="utf-8")
    (templates / "home.md.j2").write_text(home + "\n[gone](missing-page.md)\n", encoding="utf-8")
    proc = run_kodeks("build", "--no-pdf", "--content", mini, "--out", "out", "--templates", templates,
                      cwd=mini.parent)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "mkdocs reported problems" in proc.stderr and "missing-page.md" in proc.stderr
    assert "[pl]" in proc.stderr and "[en]" in proc.stderr
    assert (mini.parent / "out/site/index.html").read_bytes() == before
    assert not list((mini.parent / "out").glob(".work-*"))


def test_a_bad_mkdocs_config_is_reported_with_mkdocs_reason(tmp_path, mini):
    (mini.parent / "mkdocs.yml").write_text("theme:\n  name: no-such-theme\n", encoding="utf-8")
    proc = run_kodeks("build", "--no-pdf", "--content", mini, cwd=mini.parent)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    # mkdocs' own words for what is wrong, not only that it gave up.
    assert "mkdocs failed" in proc.stderr and "site_name" in proc.stderr
    assert not (mini.parent / "build/site").exists()
