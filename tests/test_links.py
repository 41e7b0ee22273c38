"""Glossary links: the automaton, auto-linking rules, previews (hover and tap), levels, used-by, permalinks."""
import re
from pathlib import Path

import pytest

from conftest import MINI
from kodeks.model import autolink
from kodeks.model.ids import Key
from kodeks.model.text import parse_rich
from kodeks.project import load_and_check
from kodeks.site.render import Page

G = "ciernie-i-gwiazdy"


@pytest.fixture(scope="module")
def kb():
    return load_and_check(MINI, MINI.parent).kb


def render(kb, source, entry_key=Key(G, "rule", "dice"), lang="pl"):
    page = Page(kb, lang, f"{G}/rule/dice.md", kb.get(entry_key))
    return page.rich(parse_rich(source, G), autolink=True)


def test_trie_takes_the_longest_form_and_respects_case_of_abbreviations():
    linker = autolink.Linker()
    linker.add("walka", Key(G, "rule", "a"))
    linker.add("walka wręcz", Key(G, "rule", "melee"))
    linker.add("WW", Key(G, "term", "ww"), case_sensitive=True)
    found = [(m.start, m.end, m.target.id) for m in linker.matches("Walka wręcz i walka; WW, ww.")]
    assert found == [(0, 11, "melee"), (14, 19, "a"), (21, 23, "ww")]


def test_inflected_form_links_first_mention_only(kb):
    out = render(kb, "Model z unikiem. Drugi unik nie.")
    assert out.count("../skill/dodge.html") == 1 and '<a href="../skill/dodge.html"' in out and ">unikiem</a>" in out


def test_never_in_headings_code_existing_links_or_nolink(kb):
    out = render(kb, "# Unik\n\n`unik` [Unik](nolink:) i [inny](id:rule/melee) unik")
    assert out.startswith('# Unik\n\n`unik` Unik i <a href="melee.html"')
    assert out.count("dodge.html") == 1 and out.endswith('<a href="../skill/dodge.html" title="Każdy poziom utrudnia '
                                                         'trafienie modelu o 1." data-kodeks-kind="umiejętność" '
                                                         'data-kodeks-name="Unik">unik</a>')


def test_a_new_section_links_again_and_an_entry_never_links_itself(kb):
    out = render(kb, "unik\n\n## Dalej\n\nunik")
    assert out.count("dodge.html") == 2
    assert "dodge.html" not in render(kb, "unik", entry_key=Key(G, "skill", "dodge"))


def test_english_forms_link_in_english(kb):
    out = render(kb, "A dodges b.", lang="en")
    assert '<a href="../skill/dodge.html"' in out and ">dodges</a>" in out


def test_link_with_a_level_carries_the_level(kb):
    page = Page(kb, "pl", f"{G}/rule/melee.md", kb.get(Key(G, "rule", "melee")))
    out = page.rich(parse_rich("[Unik II](id:skill/dodge?level=II)", G))
    assert 'data-kodeks-level="II"' in out


# --- in the browser ---------------------------------------------------------------------------------



def uri(site: Path, rel: str) -> str:
    return (site / rel).resolve().as_uri()


@pytest.mark.parametrize("lang,prefix,title", [("pl", "", "Walka wręcz"), ("en", "en/", "Melee")])
def test_hover_shows_preview_in_the_page_language(real_build, browser, lang, prefix, title):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(uri(real_build, f"{prefix}{G}/action/melee-attack.html"))
    link = page.locator(f".md-content a[data-kodeks-name='{title}']").first
    link.hover()
    preview = page.locator(".kodeks-preview")
    preview.wait_for(state="visible")
    assert title in preview.inner_text()
    assert ("Otwórz" if lang == "pl" else "Open") in preview.inner_text()
    page.close()


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_tap_opens_preview_on_touch_screen_then_follows(real_build, browser, prefix):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    start = uri(real_build, f"{prefix}{G}/action/melee-attack.html")
    page.goto(start)
    link = page.locator(".md-content a[data-kodeks-kind]").first
    link.scroll_into_view_if_needed()
    link.tap()
    preview = page.locator(".kodeks-preview")
    preview.wait_for(state="visible")
    assert page.url == start
    with page.expect_navigation():
        preview.locator(".kodeks-preview__open").tap()
    assert page.url != start
    ctx.close()


@pytest.mark.parametrize("prefix,word", [("", "walce wręcz"), ("en/", "close combat")])
def test_inflected_term_in_rule_text_is_linked(real_build, browser, prefix, word):
    page = browser.new_page()
    page.goto(uri(real_build, f"{prefix}{G}/action/assault-action.html" if prefix else f"{G}/action/absorb.html"))
    hrefs = page.locator(".md-content a").evaluate_all(
        "(els, w) => els.filter(e => e.textContent.trim().toLowerCase() === w).map(e => e.getAttribute('href'))", word)
    assert hrefs and all(h.endswith("rule/melee.html") for h in hrefs)
    page.close()


@pytest.mark.parametrize("prefix,heading,unit", [("", "Używane przez", "Niszczyciel"), ("en/", "Used by", "Destroyer")])
def test_skill_page_lists_the_units_that_have_it(real_build, browser, prefix, heading, unit):
    page = browser.new_page()
    page.goto(uri(real_build, f"{prefix}{G}/skill/regeneration.html"))
    section = page.locator(f"h2:has-text('{heading}') + ul")
    assert unit in section.inner_text()
    page.close()


def test_copy_link_button_and_rule_permalinks(real_build, browser):
    page = browser.new_page()
    page.goto(uri(real_build, f"{G}/skill/dodge.html"))
    button = page.locator("[data-kodeks-copy]")
    button.click()
    page.wait_for_timeout(100)
    assert button.inner_text() in ("Skopiowano", "Kopiuj odnośnik")
    page.close()
    assert re.search(r'class="headerlink" href="#', (real_build / f"{G}/rule/melee.html").read_text(encoding="utf-8"))


def test_a_phrase_does_not_run_across_punctuation_marks_or_paragraphs():
    linker = autolink.Linker()
    linker.add("walka wręcz", Key(G, "rule", "melee"))
    assert [m.target.id for m in linker.matches("walka\nwręcz")] == ["melee"]
    for text in ("walka (wręcz", "**walka** wręcz", "walka.\n\nwręcz", "walka, wręcz"):
        assert linker.matches(text) == [], text
