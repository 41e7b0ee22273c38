"""End to end in Debian's Chromium: the site as players use it, on a laptop, a phone, offline and from disk."""
import functools
import http.server
import threading

import pytest

from conftest import CONTENT, ROOT
from kodeks.project import load_and_check
from kodeks.site import urls





@pytest.fixture(scope="module")
def served(real_build):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(real_build))
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def sample_pages(limit_per_kind=2):
    kb = load_and_check(CONTENT, ROOT).kb
    out = ["index.html"]
    for gid in kb.games:
        out.append(urls.html_path(urls.game_index(gid)))
        for kind in kb.kinds_of(gid):
            out.append(urls.html_path(urls.kind_index(gid, kind)))
            out += [urls.html_path(urls.entry_path(e)) for e in kb.of(gid, kind)[:limit_per_kind]]
        if kb.of(gid, "unit"):
            out.append(f"{gid}/cards/index.html")
        if kb.games[gid].quick_reference:
            out.append(f"{gid}/quick.html")
    return out


def test_no_console_errors_on_pages_of_every_kind(real_build, browser):
    page = browser.new_page()
    errors = []
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    pages = sample_pages()
    for rel in pages[::2] + ["en/" + p for p in pages[1::2]]:
        page.goto((real_build / rel).resolve().as_uri())
    page.close()
    assert errors == []


def test_language_switch_lands_on_the_same_entry(real_build, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    rel = "ciernie-i-gwiazdy/skill/medicine.html"
    page.goto((real_build / rel).resolve().as_uri())
    with page.expect_navigation():
        page.locator(".md-header [hreflang=en]").first.dispatch_event("click")
    assert page.url.endswith("/en/" + rel)
    with page.expect_navigation():
        page.locator(".md-header [hreflang=pl]").first.dispatch_event("click")
    assert page.url.endswith("/site/" + rel)
    page.close()


def test_game_switcher_reaches_every_game(real_build, browser):
    page = browser.new_page()
    page.goto((real_build / "ciernie-i-gwiazdy/rule/melee.html").resolve().as_uri())
    links = page.locator(".kodeks-games .md-select__link").evaluate_all("els => els.map(e => e.href)")
    kb_games = load_and_check(CONTENT, ROOT).kb.games
    assert len(links) == len(kb_games)
    for href in links:
        assert (real_build / href.split("/site/")[1]).is_file()
    page.close()


@pytest.mark.parametrize("rel", ["ciernie-i-gwiazdy/unit/universal-combat-vehicle.html",
                                 "ciernie-i-gwiazdy/weapon/index.html", "ciernie-i-gwiazdy/rule/melee.html",
                                 "ciernie-i-gwiazdy/cards/index.html", "en/warzone-eternal/rule/armour-tests.html"])
def test_phone_width_nothing_overflows_and_controls_are_44px(real_build, browser, rel):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                              device_scale_factor=2)
    page = ctx.new_page()
    page.goto((real_build / rel).resolve().as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= 361
    # Wide tables scroll inside their own box rather than widening the page.
    overflowing = page.evaluate("""() => [...document.querySelectorAll('.md-content table')].filter(t => {
        const r = t.getBoundingClientRect(); if (r.width <= 360) return false;
        let p = t.parentElement; while (p && getComputedStyle(p).overflowX === 'visible') p = p.parentElement;
        return !p || p === document.body; }).length""")
    assert overflowing == 0
    small = page.evaluate("""() => [...document.querySelectorAll(
        '.md-header__button, .md-search__input, .md-typeset .md-button, .kodeks-copy, .md-typeset button')]
        .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect().height).filter(h => h < 43.5)""")
    assert small == []
    ctx.close()


def test_dark_mode_follows_the_system(real_build, browser):
    ctx = browser.new_context(color_scheme="dark")
    page = ctx.new_page()
    page.goto((real_build / "ciernie-i-gwiazdy/index.html").resolve().as_uri())
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    ctx.close()


def _controlled(browser, url: str):
    """A new browser context whose page at `url` is controlled by the site's service worker."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(url)
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()  # now controlled by the worker
    return ctx, page


def test_site_works_offline_after_the_first_visit(served, browser):
    ctx, page = _controlled(browser, served + "ciernie-i-gwiazdy/index.html")
    page.goto(served + "ciernie-i-gwiazdy/rule/melee.html")  # a page the player opens
    page.wait_for_timeout(300)
    ctx.set_offline(True)
    for rel in ("ciernie-i-gwiazdy/rule/melee.html", "ciernie-i-gwiazdy/weapon/index.html", "index.html"):
        page.goto(served + rel)
        assert page.locator("article h1").count() == 1, rel
    box = page.locator("[data-kodeks-search] input")  # search works offline too
    box.click()
    box.fill("kamuflazem")
    page.wait_for_selector(".md-search-result__item")
    ctx.close()


def test_a_whole_game_can_be_saved_for_offline(served, browser):
    ctx, page = _controlled(browser, served + "neuroshima-hex-duel/index.html")
    page.locator("[data-kodeks-offline]").click()
    page.wait_for_function("document.querySelector('[data-kodeks-offline]').textContent === 'Zapisano'", timeout=120000)
    ctx.set_offline(True)
    page.goto(served + "neuroshima-hex-duel/unit/smart-hq.html")
    assert page.locator("article h1").count() == 1
    ctx.close()


def test_nothing_is_fetched_from_the_internet(real_build, browser):
    page = browser.new_page()
    external = []
    page.on("request", lambda r: external.append(r.url) if r.url.startswith(("http://", "https://")) else None)
    for rel in ("index.html", "ciernie-i-gwiazdy/unit/speeder.html", "en/warzone-eternal/rule/line-of-sight.html"):
        page.goto((real_build / rel).resolve().as_uri())
        box = page.locator("[data-kodeks-search] input")
        box.click()
        box.fill("test")
        page.wait_for_timeout(200)
    page.close()
    assert external == []
