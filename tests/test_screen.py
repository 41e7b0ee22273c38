"""What a player sees, not what the DOM holds: the shipped site in Chromium at a phone's 390 px and a laptop's
960 and 1366 px. Each test measures boxes, lines and text on the screen. Screenshots of one page per kind at
390 and 1366 px go to build/screenshots/ for a reviewer to look at."""
import re

import pytest

from conftest import CONTENT, ROOT
from kodeks.project import load_and_check
from kodeks.site import urls

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
SHOTS = ROOT / "build" / "screenshots"


def _kb():
    return load_and_check(CONTENT, ROOT).kb


def one_page_per_kind() -> list[str]:
    """The first entry of every kind in every game, plus the kind's index, the game's home and quick reference."""
    kb = _kb()
    out = []
    for gid in kb.games:
        out.append(urls.html_path(urls.game_index(gid)))
        for kind in kb.kinds_of(gid):
            out.append(urls.html_path(urls.kind_index(gid, kind)))
            entries = kb.of(gid, kind)
            out.append(urls.html_path(urls.entry_path(entries[0])))
            longest = max(entries, key=lambda e: sum(len(t.plain("pl")) for _, t in e.texts()))
            if longest is not entries[0]:
                out.append(urls.html_path(urls.entry_path(longest)))
        if kb.games[gid].quick_reference:
            out.append(f"{gid}/quick.html")
    return out


# --- search ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", [390, 960, 1366])
def test_search_results_are_on_screen_after_typing(real_build, browser, width):
    ctx = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=width < 500, has_touch=width < 500)
    page = ctx.new_page()
    page.goto((real_build / "infinity" / "index.html").as_uri())
    box = page.locator("[data-kodeks-search] input")
    if width < 960:  # below 960 px the header shows a search button, as Material does
        page.locator("label.md-header__button[for=__search]").click()
    else:
        box.click()
    page.wait_for_function("document.activeElement && document.activeElement.matches('[data-kodeks-search] input')")
    page.keyboard.type("kamuflaz")
    first = page.locator(".md-search-result__link").first
    first.wait_for(state="visible", timeout=10000)
    # Fully shown once the theme's opening animation ends.
    page.wait_for_function("getComputedStyle(document.querySelector('.md-search__output')).opacity === '1'",
                           timeout=5000)
    page.wait_for_timeout(400)
    panel = page.locator(".md-search__output").bounding_box()
    item = first.bounding_box()
    assert panel and panel["height"] > 100 and panel["width"] > 200, panel
    assert 0 <= item["y"] and item["y"] + item["height"] <= 800 and 0 <= item["x"] and item["x"] + item["width"] <= width + 1, item
    assert "Kamuflaż" in first.inner_text()
    ctx.close()


# --- text ----------------------------------------------------------------------------------------------

def test_no_page_shows_markup_as_text(real_build):
    """Attribute lists and kodeks' data attributes belong in tags, never in what a reader sees."""
    bad = []
    for path in real_build.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        article = html.split("<article", 1)[-1].split("</article>", 1)[0]
        text = re.sub(r"<[^>]*>", " ", article)
        if "{:" in text or "data-kodeks" in text:
            bad.append(path.relative_to(real_build).as_posix())
    assert bad == [], f"{len(bad)} pages, e.g. {bad[:5]}"


def test_multi_paragraph_levels_keep_their_lists(real_build):
    html = (real_build / "infinity" / "skill" / "martial-arts.html").read_text(encoding="utf-8")
    levels = html.split('id="levels"', 1)[1]
    assert levels.count("<ul>") >= 3
    assert not re.search(r"<td[^>]*>[^<]*(<br\s*/?>|^)\s*- ", levels)


HEADINGS = """() => [...document.querySelectorAll('article h1, article h2, article h3, article h4')]
    .map(h => Number(h.tagName[1]))"""


def test_no_heading_level_is_skipped(real_build, browser):
    page = browser.new_page()
    skipped = []
    for rel in one_page_per_kind()[::2]:
        page.goto((real_build / rel).as_uri())
        levels = page.evaluate(HEADINGS)
        for a, b in zip(levels, levels[1:]):
            if b > a + 1:
                skipped.append((rel, a, b))
                break
    page.close()
    assert skipped == []


# --- tables on a phone ---------------------------------------------------------------------------------

TABLES = """() => {
  const out = {unreachable: [], split: []};
  const tables = [...document.querySelectorAll('article table')].filter(t => t.offsetParent !== null);
  for (const t of tables) {
    const r = t.getBoundingClientRect();
    if (r.right > innerWidth + 1) {
      // Wider than the screen: reachable only through a box of its own that scrolls and takes focus.
      let p = t.parentElement;
      while (p && p !== document.body && !['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) p = p.parentElement;
      if (!p || p === document.body || p.scrollWidth < r.width - 1 || p.tabIndex < 0)
        out.unreachable.push(t.rows[0] ? t.rows[0].innerText.slice(0, 60) : '?');
    }
    // Header cells and the first column: no word broken across lines.
    const cells = [...t.querySelectorAll('th'), ...[...t.rows].map(row => row.cells[0]).filter(Boolean)];
    for (const cell of cells) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      let node;
      while ((node = walker.nextNode())) {
        const re = /[\\p{L}\\p{N}]+/gu; let m;  // a run of letters; a break after a hyphen is allowed
        while ((m = re.exec(node.data))) {
          const range = document.createRange();
          range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
          if (tops.size > 1) out.split.push(m[0]);
        }
      }
    }
  }
  return out;
}"""


def test_every_table_column_can_be_reached_and_no_word_is_split_on_a_phone(real_build, browser):
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    unreachable, split = [], []
    for rel in one_page_per_kind():
        page.goto((real_build / rel).as_uri())
        page.wait_for_timeout(350)  # the theme wraps tables, kodeks.js makes the wide ones focusable
        found = page.evaluate(TABLES)
        unreachable += [f"{rel}: {t}" for t in found["unreachable"]]
        split += [f"{rel}: {w}" for w in found["split"]]
    ctx.close()
    assert unreachable == [], "\n".join(unreachable[:10])
    assert split == [], "\n".join(split[:20])


def test_an_abbreviation_in_a_table_head_is_named_on_tap(real_build, browser):
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto((real_build / "warzone-4-1" / "unit" / "index.html").as_uri())
    abbr = page.locator("article th abbr[title]").first
    full = abbr.get_attribute("title")
    abbr.tap()
    tip = page.locator(".kodeks-abbr-tip")
    assert tip.is_visible() and full in tip.inner_text()
    box = tip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    ctx.close()


# --- browsing ------------------------------------------------------------------------------------------

def test_the_games_menu_shows_every_game_on_a_phone(real_build, browser):
    kb = _kb()
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto((real_build / "infinity" / "index.html").as_uri())
    # Closed, the menu covers nothing: the page under the header takes the taps.
    covered = page.evaluate("""() => { const out = [];
        for (let y = 60; y < 400; y += 20) for (let x = 10; x < 390; x += 40) {
          const e = document.elementFromPoint(x, y); if (e && e.closest('.md-select')) out.push([x, y]); }
        return out; }""")
    assert covered == [], f"the closed games menu covers the page at {covered[:5]}"
    page.locator(".kodeks-games .md-header__button").first.tap()
    page.wait_for_timeout(400)  # the theme's opening transition
    box = page.evaluate("(() => { const r = document.querySelector('.kodeks-games .md-select__inner')"
                        ".getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()")
    assert box[0] >= 0 and box[2] <= 390 and box[3] <= 844, f"the menu lies outside the screen: {box}"
    links = page.locator(".kodeks-games .md-select__link")
    assert links.count() == len(kb.games)
    for i in range(links.count()):
        r = links.nth(i).bounding_box()
        assert box[0] - 1 <= r["x"] and r["x"] + r["width"] <= min(box[2], 390) + 1, (links.nth(i).inner_text(), r, box)
        assert box[1] - 1 <= r["y"] and r["y"] + r["height"] <= min(box[3], 844) + 1, (links.nth(i).inner_text(), r, box)
        assert r["height"] < 60, f"{links.nth(i).inner_text()!r} wraps"
    ctx.close()


def test_no_section_repeats_the_table_of_contents_title(real_build):
    for rel in one_page_per_kind():
        html = (real_build / rel).read_text(encoding="utf-8")
        article = html.split("<article", 1)[-1]
        assert not re.search(r"<h[23][^>]*>\s*(Spis treści|Contents)\s*<", article), rel


def test_a_game_home_leads_to_its_most_used_rules_in_one_tap(real_build, browser):
    kb = _kb()
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    for gid, game in kb.games.items():
        page.goto((real_build / gid / "index.html").as_uri())
        links = page.locator(".kodeks-shortcuts a")
        assert links.count() >= len(game.shortcuts) + bool(game.quick_reference) >= 5, gid
        first = links.first.bounding_box()
        assert first["y"] + first["height"] <= 844, f"{gid}: shortcuts below the first screen"
        with page.expect_navigation():
            links.nth(1).tap()
        assert page.url.endswith(urls.html_path(urls.entry_path(kb.get(game.shortcuts[0])))), (gid, page.url)
    ctx.close()


def test_in_a_list_that_shows_summaries_a_tap_follows_the_link(real_build, browser):
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto((real_build / "infinity" / "rule" / "index.html").as_uri())
    link = page.locator("article .kodeks-direct a[data-kodeks-kind]").nth(2)
    href = link.get_attribute("href")
    link.evaluate("a => a.scrollIntoView({block: 'center'})")  # clear of the fixed header
    with page.expect_navigation():
        link.tap()
    assert page.url.endswith(href.split("/")[-1])
    # In running text, the first tap still previews.
    page.goto((real_build / "infinity" / "skill" / "martial-arts.html").as_uri())
    inline = page.locator("article p a[data-kodeks-kind]").first
    inline.evaluate("a => a.scrollIntoView({block: 'center'})")
    inline.tap()
    assert page.locator(".kodeks-preview").is_visible()
    ctx.close()


# --- screenshots -------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", [390, 1366])
def test_screenshots_of_one_page_per_kind(real_build, browser, width):
    """Saved for a reviewer (build/screenshots/WIDTH/...). Each must show the page's title on the first screen."""
    kb = _kb()
    ctx = browser.new_context(**(PHONE if width == 390 else {"viewport": {"width": width, "height": 900}}))
    page = ctx.new_page()
    folder = SHOTS / str(width)
    folder.mkdir(parents=True, exist_ok=True)
    seen = set()
    for gid in kb.games:
        for kind in kb.kinds_of(gid):
            if kind in seen:
                continue
            seen.add(kind)
            rel = urls.html_path(urls.entry_path(kb.of(gid, kind)[0]))
            page.goto((real_build / rel).as_uri())
            page.wait_for_timeout(200)
            h1 = page.locator("article h1").bounding_box()
            assert h1 and 0 < h1["y"] < 900 and h1["x"] >= 0 and h1["x"] + h1["width"] <= width + 1, rel
            page.screenshot(path=str(folder / f"{kind}.png"), full_page=True)
    ctx.close()
    assert len(list(folder.glob("*.png"))) >= 10
