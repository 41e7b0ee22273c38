"""Outside checkers on the built site: the W3C Nu HTML checker on every page, axe-core (WCAG 2.1 AA) on a
sample of pages and states (search open, a preview open, a card sheet) at phone and laptop sizes."""
import json
import os
import pathlib
import shutil
import subprocess

import pytest

from conftest import ROOT
from test_screen import PHONE, one_page_per_kind

VNU = pathlib.Path(os.environ.get("KODEKS_VNU_JAR", ROOT / "build" / "tools" / "node_modules" / "vnu-jar" / "build"
                                  / "dist" / "vnu.jar"))
# Markup of mkdocs-material itself, not kodeks': a section's index page gets the label of a table-of-contents
# toggle the theme does not render there, and the theme's drawer and search toggles (checkboxes) carry
# autocomplete="off", which the checker now allows only on text-like inputs. Fixing either means forking the
# theme's base and navigation templates.
THEME_MARKUP = ('<label class="md-nav__title" for="__toc">', '<input class="md-toggle" data-md-toggle=')


def test_the_nu_checker_finds_no_error_in_kodeks_markup(real_build):
    if not VNU.is_file():
        pytest.fail(f"the Nu checker is missing: run `make {VNU.relative_to(ROOT)}` (it needs npm and java)")
    if not shutil.which("java"):
        pytest.fail("java is missing (apt install default-jre-headless)")
    proc = subprocess.run(["java", "-Xss8m", "-jar", str(VNU), "--errors-only", "--format", "json", "--skip-non-html",
                           str(real_build)], capture_output=True, text=True)
    messages = json.loads(proc.stderr or '{"messages": []}')["messages"]
    pages = {m.get("url") for m in messages}
    ours = [m for m in messages if not any(t in m.get("extract", "") for t in THEME_MARKUP)]
    shown = "\n".join(f"{m.get('url', '')[-70:]}:{m.get('lastLine')}: {m['message'][:140]}" for m in ours[:20])
    assert ours == [], f"{len(ours)} errors on {len(pages)} pages:\n{shown}"


AXE = pathlib.Path(__import__("axe_playwright_python").__file__).parent / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _axe(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
                           WCAG)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}× e.g. {v['nodes'][0]['target']})" for v in result["violations"]]


def _states(real_build):
    """(name, page address, what to do on the page before checking)."""
    out = [(rel, rel, None) for rel in one_page_per_kind()[::3]]
    out += [("en/" + rel, "en/" + rel, None) for rel in one_page_per_kind()[1::9]]
    out.append(("search open", "infinity/index.html", "search"))
    out.append(("preview open", "infinity/skill/martial-arts.html", "preview"))
    out.append(("card sheet", "ciernie-i-gwiazdy/cards/index.html", None))
    out.append(("404", "404.html", None))
    return out


@pytest.mark.parametrize("width", [390, 1366])
def test_axe_finds_no_wcag_21_aa_violation(real_build, browser, width):
    ctx = browser.new_context(**(PHONE if width == 390 else {"viewport": {"width": width, "height": 900}}))
    page = ctx.new_page()
    found = []
    for name, rel, action in _states(real_build):
        page.goto((real_build / rel).as_uri())
        page.wait_for_timeout(300)
        if action == "search":
            if width < 960:
                page.locator("label.md-header__button[for=__search]").click()
            else:
                page.locator("[data-kodeks-search] input").click()
            page.wait_for_function("document.activeElement.matches('[data-kodeks-search] input')")
            page.keyboard.type("kamuflaz")
            page.locator(".md-search-result__link").first.wait_for(state="visible")
            page.wait_for_timeout(400)
        elif action == "preview":
            link = page.locator("article p a[data-kodeks-kind]").first
            link.tap() if width == 390 else link.hover()
            page.locator(".kodeks-preview").wait_for(state="visible")
            page.locator(".kodeks-preview__open").hover()
        found += [f"{name}: {v}" for v in _axe(page)]
    ctx.close()
    assert found == [], "\n".join(found)
