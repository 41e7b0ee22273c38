"""Search quality and speed, side by side: kodeks CLI (whoosh), kodeks site search (headless Chromium) and the
stock mkdocs-material search (lunr) on the same pages.

    .venv/bin/python benchmarks/search_quality.py [--no-baseline]

Prints top-1 and top-3 hit rates over tests/search/queries*.yaml for each engine, whoosh index build time,
query latency p50/p95, and the site's search index size per language (gzipped).
"""
from __future__ import annotations

import argparse
import gzip
import http.server
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from ruamel.yaml import YAML  # noqa: E402

from kodeks.project import load_and_check  # noqa: E402
from kodeks.search import browser as browser_index  # noqa: E402
from kodeks.search.engine import Engine, build as build_whoosh  # noqa: E402
from kodeks.search.index import build_index  # noqa: E402
from kodeks.site import urls  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def load_queries() -> list[dict]:
    return [q for f in sorted((ROOT / "tests/search").glob("queries*.yaml"))
            for q in YAML(typ="safe").load(f.read_text(encoding="utf-8"))]


def game_of(q: dict) -> str:
    """The game whose pages the player searches from: the game of the entry they mean."""
    return q.get("game") or q["expect"].split("/")[0]


def rank(found: list[str], expected: str) -> int | None:
    return found.index(expected) + 1 if expected in found else None


def rates(ranks: list[int | None]) -> tuple[float, float]:
    n = len(ranks) or 1
    return (100 * sum(1 for r in ranks if r == 1) / n, 100 * sum(1 for r in ranks if r and r <= 3) / n)


def cli_ranks(kb, queries, folder: Path) -> tuple[list, list[float]]:
    engines = {lang: Engine(folder / lang, lang) for lang in ("pl", "en")}
    ranks, times = [], []
    for q in queries:
        t = time.perf_counter()
        result = engines[q["lang"]].search(q["q"], limit=10, prefer=game_of(q))
        times.append((time.perf_counter() - t) * 1000)
        ranks.append(rank([h.key for h in result.hits], q["expect"]))
    return ranks, times


def site_ranks(kb, queries, site: Path, browser) -> list:
    url_to_key = {}
    for e in kb.entries.values():
        for lang in ("pl", "en"):
            url_to_key[urls.site_url(e.key, kb, lang)] = str(e.key)
    ranks = []
    pages = {}
    for lang in ("pl", "en"):
        page = browser.new_page()
        page.goto((site / ("en/" if lang == "en" else "") / "index.html").resolve().as_uri())
        page.evaluate("() => new Promise(r => window.kodeksSearch.load(() => r()))")
        pages[lang] = page
    for q in queries:
        page = pages[q["lang"]]
        urls_found = page.evaluate(
            "([q, g]) => window.kodeksSearch.search(q, 10, g).hits.map(h => window.KODEKS_INDEX.docs[h[0]][1])",
            [q["q"], game_of(q)])
        ranks.append(rank([url_to_key.get(u) for u in urls_found], q["expect"]))
    for p in pages.values():
        p.close()
    return ranks


def baseline_site(kb, work: Path) -> Path:
    """The same pages built with mkdocs-material's own search plugin and theme (no kodeks overrides)."""
    import yaml as pyyaml
    from kodeks.site.build import write_language
    from kodeks.site.mkdocs_worker import run_mkdocs
    sites = {}
    for lang in ("pl", "en"):
        cfg_path, _ = write_language(kb, lang, work, ROOT, None)
        cfg = pyyaml.safe_load(cfg_path.read_text(encoding="utf-8"))
        cfg["plugins"] = [{"search": {"lang": "en"}}]
        cfg["theme"] = {"language": lang}
        cfg_path.write_text(pyyaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")
        run_mkdocs(str(cfg_path))
        sites[lang] = work / lang / "site"
    (sites["pl"] / "en").symlink_to(sites["en"], target_is_directory=True)
    return sites["pl"]


def serve(folder: Path):
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(folder), **k)  # noqa: E731
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def baseline_ranks(kb, queries, site: Path, browser) -> list:
    # Addresses carry rule numbers: map them back to keys through the model, as the kodeks site's are.
    url_to_key = {urls.site_url(e.key, kb, lang): str(e.key) for e in kb.entries.values() for lang in ("pl", "en")}
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    ranks = []
    pages = {}
    for lang in ("pl", "en"):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        pages[lang] = page
    for q in queries:
        page = pages[q["lang"]]
        start = base + ("en/" if q["lang"] == "en" else "") + game_of(q) + "/index.html"
        if page.url != start:
            page.goto(start)
        box = page.locator(".md-search__input")
        box.click()
        box.fill("")
        # Material searches on key events: type the query (fill() alone leaves it at "start typing").
        box.type(q["q"], delay=5)
        try:
            page.wait_for_selector(".md-search-result__item", timeout=1500)
        except Exception:  # noqa: BLE001 - no result at all is a result (a miss)
            pass
        page.wait_for_timeout(200)
        hrefs = page.locator(".md-search-result__item > a").evaluate_all("els => els.map(e => e.href)")
        keys = [url_to_key.get(h.split(base, 1)[-1].split("#")[0]) for h in hrefs[:10]]
        ranks.append(rank(keys, q["expect"]))
    for p in pages.values():
        p.close()
    server.shutdown()
    return ranks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-baseline", action="store_true", help="skip the stock mkdocs-material search")
    ap.add_argument("--content", type=Path, default=ROOT / "content")
    ap.add_argument("--site", type=Path, default=ROOT / "build" / "site", help="the built site to test")
    args = ap.parse_args()
    checked = load_and_check(args.content, ROOT)
    if not checked.ok:
        print("content has errors; run kodeks validate")
        return 1
    kb = checked.kb
    queries = load_queries()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t = time.perf_counter()
        for lang in ("pl", "en"):
            build_whoosh(kb, lang, tmp / "search" / lang)
        build_s = time.perf_counter() - t
        cli, times = cli_ranks(kb, queries, tmp / "search")
        sizes = {}
        for lang in ("pl", "en"):
            sizes[lang] = len(gzip.compress(browser_index.script(build_index(kb, lang)).encode("utf-8")))
        site = args.site
        rows = [("kodeks CLI (whoosh)", *rates(cli))]
        from playwright.sync_api import sync_playwright
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            if (site / "assets/kodeks-index.js").is_file():
                rows.append(("kodeks site (Chromium, file://)", *rates(site_ranks(kb, queries, site, browser))))
            else:
                print("no built site in build/site: run kodeks build to measure the site search")
            if not args.no_baseline:
                base_site = baseline_site(kb, tmp / "baseline")
                rows.append(("stock mkdocs-material search", *rates(baseline_ranks(kb, queries, base_site, browser))))
            browser.close()
    print(f"\nsearch quality over {len(queries)} queries (tests/search/queries*.yaml, five games)")
    print(f"{'engine':34} {'top-1':>7} {'top-3':>7}")
    for name, top1, top3 in rows:
        print(f"{name:34} {top1:6.1f}% {top3:6.1f}%")
    print(f"\nwhoosh index build (PL + EN, {len(kb.entries)} entries): {build_s:.2f} s")
    print(f"whoosh query latency: p50 {statistics.median(times):.1f} ms, "
          f"p95 {statistics.quantiles(times, n=20)[18]:.1f} ms")
    for lang, size in sizes.items():
        print(f"site search index {lang.upper()}: {size / 1024:.0f} KB gzipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
