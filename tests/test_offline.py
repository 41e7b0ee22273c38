"""The site away from a plain visit, in Chromium as a player sees it: Material's unused files left out, each
language's 404 page readable wherever it is shown (from disk, at a host's root, under a sub-path), and each
language's service worker answering only for its own pages, offline with a readable page for one it never
saved.

The site is the mini fixture's, built for this module; KODEKS_TEST_SITE=path/to/site runs the same tests on a
site built by hand (the shipped content has the pages used here too). Screenshots go to SHOTS."""
import http.server
import json
import os
import re
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import MINI, run_kodeks
from kodeks.site.notsaved import WORDS as NOT_SAVED

SHOTS = Path("/tmp/kodeks-shots/offline")
SIZES = {390: {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
               "device_scale_factor": 2},
         1366: {"viewport": {"width": 1366, "height": 900}}}
NOT_FOUND = {"pl": "404 – Nie znaleziono strony", "en": "404 – Page not found"}
GAME = "ciernie-i-gwiazdy"
ENTRY = {"pl": ("ciernie-i-gwiazdy/rule/melee.html", "Walka wręcz"), "en": ("ciernie-i-gwiazdy/rule/melee.html", "Melee")}
UNSAVED = "ciernie-i-gwiazdy/unit/speeder.html"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if os.environ.get("KODEKS_TEST_SITE"):
        return Path(os.environ["KODEKS_TEST_SITE"]).resolve()
    out = tmp_path_factory.mktemp("offline")
    run_kodeks("build", "--content", MINI, "--out", out, "--no-pdf", cwd=MINI.parent, check=True)
    return out / "site"


class Host:
    """The built site over http on 127.0.0.1 at `mount` ("/" or a sub-path), as a static host serves it: a
    missing address gets a 404.html with status 404, the nearest one above it (Cloudflare Pages) or, with
    `root_404`, the site root's (GitHub Pages, Netlify). While `down`, every connection is dropped unanswered,
    as when the network is gone (the service worker's own requests too)."""

    def __init__(self, site: Path, mount: str = "/", root_404: bool = False):
        host, self.down = self, False

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(site), **kwargs)

            def log_message(self, *args):
                pass

            def end_headers(self):
                # Only the service worker may keep pages: the browser's HTTP cache would answer offline too.
                self.send_header("Cache-Control", "no-store")
                super().end_headers()

            def do_GET(self):
                if host.down:
                    self.close_connection = True
                    return
                path = urlsplit(self.path).path
                if not path.startswith(mount):
                    return self.send_error(404)
                rel = unquote(path[len(mount):])
                target = site / rel
                if target.is_dir() and (target / "index.html").is_file():
                    if not path.endswith("/"):
                        self.send_response(301)
                        self.send_header("Location", path + "/")
                        self.end_headers()
                        return
                    target = target / "index.html"
                if target.is_file():
                    self.path = "/" + target.relative_to(site).as_posix()
                    return super().do_GET()
                folder = site if root_404 else target.parent
                while not (folder / "404.html").is_file() and folder != site and site in folder.parents:
                    folder = folder.parent
                body = (folder / "404.html").read_bytes()
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{mount}"


@pytest.fixture(scope="module")
def hosts(site):
    made = {"/": Host(site), "/kodeks/": Host(site, "/kodeks/"), "github": Host(site, "/kodeks/", root_404=True)}
    yield made
    for h in made.values():
        h.server.shutdown()


@pytest.fixture
def host(hosts):
    """The site at a host's root; the network is back up after each test."""
    yield hosts["/"]
    hosts["/"].down = False


@pytest.fixture
def sub_host(hosts):
    yield hosts["/kodeks/"]
    hosts["/kodeks/"].down = False


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _h1(page) -> str:
    return page.locator("article h1").inner_text().strip(" ¶\n")


def _look(page) -> dict:
    """What tells a styled page from an unstyled one, as the player sees it."""
    return page.evaluate("""() => {
        const header = document.querySelector('.md-header'), h1 = document.querySelector('article h1');
        const hs = getComputedStyle(header), r = header.getBoundingClientRect();
        return {header: hs.backgroundColor, position: hs.position, headerHeight: Math.round(r.height),
                h1: getComputedStyle(h1).fontSize, font: getComputedStyle(document.body).fontFamily};
    }""")


def _seen(page, selector: str, width: int, height: int) -> dict:
    """The box of the first element matching `selector`, asserted visible and wholly inside the window."""
    el = page.locator(selector).first
    assert el.is_visible(), selector
    box = el.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (selector, box)
    return box


def _recorder(page) -> list:
    """Failed requests and console errors of `page` (a missing page's own 404 status excepted)."""
    bad = []
    page.on("console", lambda m: bad.append(f"console: {m.text} {m.location.get('url', '')}")
            if m.type == "error" and m.location.get("url") != page.url else None)
    page.on("pageerror", lambda e: bad.append(f"error: {e}"))
    page.on("requestfailed", lambda r: bad.append(f"failed: {r.url}"))
    page.on("response", lambda r: bad.append(f"{r.status}: {r.url}")
            if r.status >= 400 and r.request.resource_type != "document" else None)
    return bad


# -- what is shipped ---------------------------------------------------------------------------------------

def _unused(rel: str) -> bool:
    return rel.endswith(".map") or "/lunr/" in rel or "/workers/" in rel


def test_materials_unused_files_are_neither_shipped_nor_precached(site):
    for lang_site in (site, site / "en"):
        shipped = [p.relative_to(lang_site).as_posix() for p in (lang_site / "assets").rglob("*") if p.is_file()]
        assert [f for f in shipped if _unused(f)] == []
        shell = json.loads(re.search(r"const SHELL = (.*);", (lang_site / "sw.js").read_text(encoding="utf-8")).group(1))
        assert [f for f in shell if _unused(f)] == []
        assert [f for f in shell if f != "./" and not (lang_site / f).is_file()] == []


@pytest.mark.parametrize("rel", ["index.html", ENTRY["pl"][0], "en/" + ENTRY["en"][0], f"{GAME}/cards/index.html",
                                 "en/" + UNSAVED])
def test_pages_still_load_everything_they_ask_for(host, browser, rel):
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    bad = _recorder(page)
    page.goto(host.url + rel)
    box = page.locator("[data-kodeks-search] input")
    if box.is_visible():
        box.click()
        box.fill("walka")
        page.locator(".md-search-result__item").first.wait_for()
    page.wait_for_timeout(300)
    ctx.close()
    assert bad == [], "\n".join(bad)


# -- 404 -----------------------------------------------------------------------------------------------------

def _home_look(browser, site: Path, lang: str, size: dict) -> dict:
    ctx = browser.new_context(**size)
    page = ctx.new_page()
    page.goto((site / ("en/" if lang == "en" else "") / "index.html").as_uri())
    look = _look(page)
    ctx.close()
    return look


def _check_404(page, lang: str, width: int, reference: dict, home: str) -> None:
    height = SIZES[width]["viewport"]["height"]
    assert page.evaluate("document.documentElement.lang") == lang
    assert _h1(page) == NOT_FOUND[lang]
    _seen(page, "article h1", width, height)
    _seen(page, "article p", width, height)
    assert _look(page) == reference  # styled as every page: Material's header, type and fonts
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    links = page.locator("article p a").evaluate_all("els => els.map(a => a.href)")
    assert links == [home]
    logo = page.locator(".md-header .md-logo").get_attribute("href")
    assert page.evaluate("h => new URL(h, document.baseURI).href", logo) == home


@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize("lang", ["pl", "en"])
def test_404_in_its_language_readable_from_disk(site, browser, lang, width):
    reference = _home_look(browser, site, lang, SIZES[width])
    ctx = browser.new_context(**SIZES[width])
    page = ctx.new_page()
    bad = _recorder(page)
    lang_site = site / "en" if lang == "en" else site
    page.goto((lang_site / "404.html").as_uri())
    _check_404(page, lang, width, reference, (lang_site / "index.html").as_uri())
    _shot(page, f"404-disk-{lang}-{width}")
    ctx.close()
    assert bad == [], "\n".join(bad)


@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize("mount", ["/", "/kodeks/", "github"])
def test_404_readable_wherever_a_host_shows_it(site, hosts, browser, mount, width):
    """At the host's root and under a sub-path; directly, and in place of missing pages at any depth."""
    host = hosts[mount]
    cases = [("pl", "404.html"), ("pl", "nope.html"), ("pl", f"{GAME}/unit/nope.html"), ("pl", f"{GAME}/nope/deeper/"),
             ("en", "en/404.html"), ("en", f"en/{GAME}/skill/nope.html")]
    if mount == "github":  # one 404.html, the Polish one, for every missing address: the English site's too
        cases = [("pl", rel) for _, rel in cases if rel != "en/404.html"]
    refs = {lang: _home_look(browser, site, lang, SIZES[width]) for lang in ("pl", "en")}
    ctx = browser.new_context(service_workers="block", **SIZES[width])
    page = ctx.new_page()
    bad = _recorder(page)
    for lang, rel in cases:
        response = page.goto(host.url + rel)
        assert response.status == (200 if rel.endswith("404.html") else 404), rel
        home = host.url + ("en/" if lang == "en" else "") + "index.html"
        _check_404(page, lang, width, refs[lang], home)
        assert page.request.get(home).status == 200
        used = page.evaluate("""() => [...document.querySelectorAll('link[rel=stylesheet], script[src], link[rel=icon]')]
                                .map(e => e.href || e.src)""")
        assert used and all(page.request.get(u).status == 200 for u in used), used
        # Shown in place of a deeper page, its assets are looked for once below that page's folder: the
        # browser reads ahead of the script that sets the page's base. Nothing else may fail.
        below = (host.url + rel).rsplit("/", 1)[0] + "/assets/"
        assert [b for b in bad if below not in b] == [], rel
        bad.clear()
    _shot(page, f"404-{mount.strip('/') or 'root'}-deep-{width}")
    ctx.close()


# -- the service workers -------------------------------------------------------------------------------------

def _controlled(browser, url: str, **size):
    """A new browser context (its own workers and caches) whose page at `url` is controlled by its worker."""
    ctx = browser.new_context(**size)
    page = ctx.new_page()
    page.goto(url)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
    page.reload()
    assert page.evaluate("() => !!navigator.serviceWorker.controller")
    return ctx, page


def _kept(page, url: str) -> None:
    """Wait until the worker has stored `url` (it does so after answering)."""
    for _ in range(50):
        if page.evaluate("u => caches.match(u).then(Boolean)", url):
            return
        time.sleep(0.1)
    raise AssertionError(f"{url} was not kept")


def _go_offline(ctx, host) -> None:
    host.down = True
    ctx.set_offline(True)


@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize("lang", ["pl", "en"])
def test_a_page_not_saved_says_so_offline_styled_with_links_home_and_to_its_game(sub_host, browser, lang, width):
    height = SIZES[width]["viewport"]["height"]
    root = sub_host.url + ("en/" if lang == "en" else "")
    ctx, page = _controlled(browser, root + "index.html", **SIZES[width])
    reference = _look(page)
    _go_offline(ctx, sub_host)
    bad = _recorder(page)
    page.goto(root + UNSAVED)
    assert page.evaluate("document.documentElement.lang") == lang
    assert _h1(page) == NOT_SAVED[lang]["title"]
    _seen(page, "article h1", width, height)
    _seen(page, "article p", width, height)
    # Styled from the worker's cache, whatever the address's depth (its header has no menu: nothing to list).
    assert {**_look(page), "headerHeight": None} == {**reference, "headerHeight": None}
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    buttons = page.locator("article .md-button")
    assert buttons.evaluate_all("els => els.map(a => a.href)") == [root + f"{GAME}/index.html", root + "index.html",
                                                                  root + UNSAVED]
    for i in range(buttons.count()):
        _seen(page, f"article .md-button >> nth={i}", width, height)
    _shot(page, f"not-saved-{lang}-{width}")
    assert bad == [], "\n".join(bad)
    buttons.first.click()  # the game's page is kept with the app: it opens offline
    page.wait_for_url(root + f"{GAME}/index.html")
    assert _h1(page) in ("Ciernie i Gwiazdy", "Thorns and Stars (Ciernie i Gwiazdy)")
    page.go_back()
    page.locator("article .md-button").nth(1).click()
    page.wait_for_url(root + "index.html")
    assert page.locator("article h1").count() == 1
    ctx.close()


def test_the_polish_worker_leaves_the_english_pages_to_the_english_one(host, browser):
    ctx, page = _controlled(browser, host.url + "index.html")
    response = page.goto(host.url + "en/index.html")
    assert not response.from_service_worker  # not through the Polish worker
    ctx.close()
    ctx, page = _controlled(browser, host.url + "index.html")  # only the Polish worker is installed
    _go_offline(ctx, host)
    try:
        page.goto(host.url + "en/index.html")
        shown = page.evaluate("document.documentElement.lang")
    except Exception:  # the browser's own "no connection" page
        shown = None
    ctx.close()
    assert shown != "pl", "the Polish worker answered an English address (with the Polish home)"


def test_each_language_keeps_its_pages_offline_after_the_other_is_visited(host, browser):
    ctx, page = _controlled(browser, host.url + "index.html")
    page.goto(host.url + ENTRY["pl"][0])
    _kept(page, host.url + ENTRY["pl"][0])
    page.goto(host.url + "en/index.html")  # the English worker installs now
    page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
    page.reload()
    page.goto(host.url + "en/" + ENTRY["en"][0])
    _kept(page, host.url + "en/" + ENTRY["en"][0])
    _go_offline(ctx, host)
    for lang, prefix in (("pl", ""), ("en", "en/")):
        for rel, title in ((ENTRY[lang][0], ENTRY[lang][1]), ("index.html", "kodeks")):
            page.goto(host.url + prefix + rel)
            assert page.evaluate("document.documentElement.lang") == lang, prefix + rel
            assert _h1(page) == title, prefix + rel
        page.goto(host.url + prefix + UNSAVED)
        assert _h1(page) == NOT_SAVED[lang]["title"]
    ctx.close()
