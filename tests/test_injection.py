"""No script from content runs: every string of content, whatever its field, reaches the page through one
escaping boundary (kodeks.site.escape), and the validator points at what it refuses.

The payloads are the attack run's (shared/audits/attack-2026-11-28.md): Markdown attribute lists,
reference-style and entity-spelled javascript: links, raw HTML behind a quoted `>`, YAML escapes that the
front matter used to decode, and structured fields (citations, table cells, levels, term forms, option costs,
string values, game.yaml) that the old check never read. Each payload calls alert() with its own number.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from conftest import MINI, ROOT, run_kodeks
from kodeks.site.escape import author_markdown, html_fragment, md_text

VECTORS = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<a href='javascript:alert(1)'>x</a>",
    "[x](javascript:alert(1))", "<svg onload=alert(1)>", "<iframe src=//evil>", "<b onmouseover=alert(1)>x</b>",
    "[x](JaVaScRiPt:alert(1))", "<style>*{}</style>", "<math><mi xlink:href=javascript:alert(1)>",
    "x ![i](https://127.0.0.1:9/x.png){: onerror=alert(1) }", "[r][r]\n\n[r]: javascript:alert(1)",
    '<img alt=">" src=x onerror=alert(1)>', "> <img src=x onerror=alert(1)>", "<javascript:alert(1)>",
    "[k](&#106;avascript:alert(1))", "[k](<javascript:alert(1)>)", "[k](data:text/html,<script>alert(1)</script>)",
    "x {: onclick=alert(1) }", "| a |\n|--|\n| <img src=x onerror=alert(1)> |", "<details open ontoggle=alert(1)>",
]
EXTENSIONS = ["attr_list", "md_in_html", "tables", "def_list", "admonition", "pymdownx.details"]


def _rendered(text: str) -> str:
    return html_fragment(markdown.markdown(text, extensions=EXTENSIONS))


def _assert_inert(out: str) -> None:
    tags = re.findall(r"<([a-z0-9]+)([^>]*)>", out, re.I)
    for name, attrs in tags:
        assert name.lower() not in {"script", "img", "svg", "iframe", "style", "math", "mi"}, out
        assert not re.search(r"\son[a-z]+\s*=", attrs, re.I), out
        assert not re.search(r"(href|src)\s*=\s*\"?\s*(javascript|data|vbscript):", attrs, re.I), out


@pytest.mark.parametrize("vector", VECTORS)
def test_author_markdown_renders_without_a_script(vector):
    _assert_inert(_rendered(author_markdown(vector)))


@pytest.mark.parametrize("vector", VECTORS)
def test_the_last_boundary_holds_even_for_markdown_that_skipped_the_first(vector):
    _assert_inert(_rendered(vector))


@pytest.mark.parametrize("vector", VECTORS + ["a [b] {#c} *d* _e_ `f` | g \\h", "Ścieżka C:\\gry\\q"])
def test_a_plain_string_renders_as_exactly_itself(vector):
    out = markdown.markdown(md_text(vector), extensions=EXTENSIONS)
    assert re.fullmatch(r"<p>[^<>]*</p>", out), out
    import html
    assert html.unescape(out[3:-4]) == " ".join(vector.replace("\n", " ").split(" ")), out


# --- the whole path: content -> validate -> build -> Chromium -------------------------------------------

PAYLOAD_ENTRY = r"""
id: xss
name: {pl: 'Test <img alt=">" src=x onerror=alert(2101)>', en: 'Nazwa \x3cimg src=x onerror=alert(2102)\x3e'}
summary: {pl: 'Opis ![i](https://127.0.0.1:9/x.png){: onerror=alert(2103) }', en: 'Opis \x22\x3e\x3cimg src=x onerror=alert(2104)\x3e'}
text:
  pl: |-
    Zob. [instrukcję][r], <javascript:alert(2105)>, [k](&#106;avascript:alert(2106)) i [z](id:skill/dodge){: onclick=alert(2107) }.

    [r]: javascript:alert(2108)

    <img alt=">" src=x onerror=alert(2109)>

    > <img src=x onerror=alert(2110)>
  en: 'Zob. [<img src=x onerror=alert(2111)>](id:skill/dodge) <a href="&#106;avascript:alert(2112)">x</a>'
levels:
  - level: '<img src=x onerror=alert(2113)>'
    text: {pl: 'poziom <svg onload=alert(2114)>'}
tables:
  - caption: {pl: '<img src=x onerror=alert(2115)>'}
    columns: ['<img src=x onerror=alert(2116)>', {pl: b}]
    rows: [['<img src=x onerror=alert(2117)>', {pl: '<b onmouseover=alert(2118)>x</b> {: onclick=alert(2119) }'}]]
notes:
  - {type: errata, text: {pl: '<details open ontoggle=alert(2120)>'}}
source: {book: tgb, section: '<img src=x onerror=alert(2121)>'}
"""

PAYLOAD_TERM = r"""
id: xss-term
name: {pl: 'Termin <img src=x onerror=alert(2201)>'}
text: {pl: 'Definicja.'}
target: skill/xss
forms: {pl: ['<img src=x onerror=alert(2202)>']}
synonyms: {pl: ['<img src=x onerror=alert(2203)>']}
abbreviations: ['<img src=x onerror=alert(2204)>']
source: {book: tgb, section: X}
"""


def _payload_content(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(MINI, content)
    game = content / "ciernie-i-gwiazdy"
    (game / "skill" / "xss.yaml").write_text(PAYLOAD_ENTRY, encoding="utf-8")
    (game / "term" / "xss.yaml").write_text(PAYLOAD_TERM, encoding="utf-8")
    unit = (game / "unit" / "speeder.yaml").read_text(encoding="utf-8")
    unit = unit.replace("weapons: [weapon/badm-cannon]", "weapons: [weapon/badm-cannon]\nskills:\n  - {ref: skill/xss, "
                        "level: '<img src=x onerror=alert(2301)>'}\noptions:\n  - text: {pl: Opcja}\n"
                        "    cost: '<img src=x onerror=alert(2302)>'")
    (game / "unit" / "speeder.yaml").write_text(unit, encoding="utf-8")
    gy = (game / "game.yaml").read_text(encoding="utf-8")
    gy = gy.replace("  pl: Ciernie i Gwiazdy\n", "  pl: Ciernie <img src=x onerror=alert(2401)>\n", 1)
    gy = gy.replace("authors: [Radosław „Lumis” Tendera]", "authors: ['<img src=x onerror=alert(2402)>']")
    gy = gy.replace("name: {pl: Akcje podstawowe, en: Basic actions}",
                    "name: {pl: 'Akcje <img src=x onerror=alert(2403)>', en: Basic actions}")
    (game / "game.yaml").write_text(gy, encoding="utf-8")
    return content


def test_validate_points_at_every_payload(tmp_path):
    content = _payload_content(tmp_path)
    proc = run_kodeks("validate", "--content", content, cwd=tmp_path)
    assert proc.returncode == 1
    out = proc.stdout + proc.stderr
    errors = [line for line in out.splitlines() if ": error: " in line]
    located = [line for line in errors if re.match(r".+\.yaml:\d+:\d+: error: ", line)]
    assert located == errors
    unsafe = [line for line in errors if re.search(r"raw HTML|attribute list|javascript: address", line)]
    assert unsafe == errors, "only the payloads are wrong with this content:\n" + "\n".join(set(errors) - set(unsafe))
    numbers = set()
    for path in (content / "ciernie-i-gwiazdy").rglob("*.yaml"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for line in unsafe:
            file, row = line.split(":")[0], int(line.split(":")[1])
            if Path(file).name == path.name and Path(file).parent.name == path.parent.name:
                numbers.update(re.findall(r"alert\((\d+)\)", lines[row - 1]))
    payloads = set(re.findall(r"alert\((\d+)\)", "".join(p.read_text(encoding="utf-8")
                                                         for p in (content / "ciernie-i-gwiazdy").rglob("*.yaml"))))
    # Every line that holds a payload is reported (a line with two reports one of them).
    assert payloads - numbers == set(), f"not reported: {sorted(payloads - numbers)}"


BUILD_ANYWAY = """
import sys
from pathlib import Path
from kodeks.project import load_and_check
from kodeks.site.build import build_site
content, out = Path(sys.argv[1]), Path(sys.argv[2])
checked = load_and_check(content)
errors = [p for p in checked.problems.items if p.severity == "error"]
assert all(any(w in p.message for w in ("raw HTML", "attribute list", "javascript: address")) for p in errors), errors
try:
    build_site(checked.loaded.kb, content.parent, out, pdf=False)
except Exception as exc:
    sys.exit(f"{exc}: {getattr(exc, 'details', None) or exc.args}")
"""


@pytest.fixture(scope="module")
def payload_site(tmp_path_factory):
    """The payload content built as if its errors had been ignored: what reaches the page is the renderer's
    business alone."""
    tmp = tmp_path_factory.mktemp("inject")
    content = _payload_content(tmp)
    # mkdocs would stop the build at the odd addresses; let it report them as information instead.
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (tmp / "mkdocs.yml").write_text(re.sub(r"(unrecognized_links|not_found|anchors): warn", r"\1: info", config),
                                    encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"))
    proc = subprocess.run([sys.executable, "-c", BUILD_ANYWAY, str(content), str(tmp / "out")], cwd=tmp, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return tmp / "out" / "site"


PROBE = """() => {
  const bad = [];
  const ok = new Set(["http:", "https:", "mailto:", "file:", "about:"]);
  for (const el of document.querySelectorAll("*")) {
    for (const a of el.attributes) {
      if (/^on/i.test(a.name)) bad.push(el.tagName + " " + a.name + "=" + a.value);
    }
    for (const name of ["href", "src", "action", "formaction", "xlink:href"]) {
      const v = el.getAttribute(name);
      if (v === null) continue;
      let proto;
      try { proto = new URL(v, location.href).protocol; } catch (e) { continue; }
      if (!ok.has(proto)) bad.push(el.tagName + " " + name + "=" + v);
    }
  }
  // A click on a link or on an element with a handler is covered by the two checks above (no on...
  // attribute, no address outside http(s)/mailto); hovering is tried as well.
  for (const el of document.querySelectorAll("article *")) {
    for (const type of ["mouseover", "mouseenter", "focus"]) {
      el.dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true}));
    }
  }
  return bad;
}"""


def test_no_payload_runs_in_chromium(payload_site, browser):
    pages = sorted(p for p in payload_site.rglob("*.html") if "ciernie-i-gwiazdy" in p.parts
                   and 'http-equiv="refresh"' not in p.read_text(encoding="utf-8"))  # redirect stubs move on
    assert len(pages) > 40
    dialogs, bad = [], []
    context = browser.new_context()
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append((page.url, d.message)), d.dismiss()))
    for path in pages:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        bad += [f"{path.name}: {b}" for b in page.evaluate(PROBE)]
        page.wait_for_timeout(20)
    # The search box: a payload name typed and its results shown.
    page.goto((payload_site / "ciernie-i-gwiazdy" / "skill" / "index.html").as_uri())
    page.keyboard.press("/")
    page.keyboard.type("Test img onerror")
    page.wait_for_timeout(500)
    for result in page.query_selector_all(".kodeks-search__result, .md-search-result__item"):
        result.hover()
    context.close()
    assert dialogs == [], dialogs
    assert bad == [], "\n".join(bad[:20])


def test_payload_text_shows_as_text(payload_site):
    html = (payload_site / "ciernie-i-gwiazdy" / "skill" / "xss.html").read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "&lt;img" in title and "<img" not in title
    assert re.search(r'<h1 id="xss">Test &lt;img alt="?&gt;"? src=x onerror=alert\(2101\)&gt;', html), \
        re.search(r"<h1.*?</h1>", html, re.S).group(0)
    en = (payload_site / "en" / "ciernie-i-gwiazdy" / "skill" / "xss.html").read_text(encoding="utf-8")
    # The YAML escape stays as the author typed it: no second decoding in the front matter.
    assert "Nazwa \\x3cimg" in en
    desc = re.search(r'<meta name="description" content="([^"]*)"', en).group(1)
    assert "\\x22\\x3e\\x3cimg" in desc
