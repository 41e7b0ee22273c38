"""One benchmark step per run, in its own process so that its peak memory is its own: `python -m
benchmarks.steps STEP ARGS...` prints one line of JSON with the step's figures. benchmarks/run.py runs
them and prints the table."""
from __future__ import annotations

import gzip
import json
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))


def parse(content: str) -> dict:
    """The floor: parse every YAML file with ruamel's C-accelerated safe loader, nothing else."""
    from ruamel.yaml import YAML
    files = sorted(p for p in Path(content).rglob("*.yaml"))
    y = YAML(typ="safe", pure=False)
    t = time.perf_counter()
    for f in files:
        y.load(f.read_bytes())
    return {"seconds": time.perf_counter() - t, "files": len(files)}


def validate(content: str) -> dict:
    from kodeks.project import load_and_check
    t = time.perf_counter()
    checked = load_and_check(Path(content), Path(content).parent, keep=True)
    return {"seconds": time.perf_counter() - t, "entries": len(checked.kb.entries), "ok": checked.ok}


def build(content: str, out: str, mode: str) -> dict:
    """A full `kodeks build` (every page rendered, as `--clean`; without the cards PDFs, measured on their
    own), phase by phase."""
    from kodeks.project import load_and_check
    from kodeks.site.build import build_site
    # Each mark starts a phase: the interval after it carries its name.
    marks = [("validate", time.perf_counter())]
    checked = load_and_check(Path(content), Path(content).parent, keep=True)
    marks.append(("setup", time.perf_counter()))
    if not checked.ok:
        return {"error": "content has errors"}
    build_site(checked.kb, Path(content).parent, Path(out), pdf=False, parallel=mode == "parallel",
               progress=lambda what: marks.append((what, time.perf_counter())), content=Path(content), clean=True)
    marks.append(("end", time.perf_counter()))
    phases: dict[str, float] = {}
    for (name, t0), (_, t1) in zip(marks, marks[1:]):
        key = name.split(" (")[0]
        phases[key] = phases.get(key, 0.0) + (t1 - t0)
    return {"seconds": marks[-1][1] - marks[0][1], "phases": phases}


def _cli_build(content: Path, out: Path) -> tuple[float, dict]:
    """What `kodeks build` does after a full build into `out`: validate, then an incremental build."""
    from kodeks.project import load_and_check
    from kodeks.site.build import build_site, parse_cache
    t = time.perf_counter()
    checked = load_and_check(content, content.parent, keep=True, parse_cache=parse_cache(out))
    if not checked.ok:
        raise SystemExit("content has errors")
    result = build_site(checked.kb, content.parent, out, pdf=False, content=content)
    return time.perf_counter() - t, {"rendered": sum(result.rendered.values()), "unchanged": result.unchanged}


def rebuild(content: str, out: str) -> dict:
    """After a full build into `out` (the `build` step): `kodeks build` with nothing changed, then with one
    entry's text edited (an entry several pages link to: a skill's summary shows in their link previews)."""
    content_p, out_p = Path(content), Path(out)
    same, same_info = _cli_build(content_p, out_p)
    files = sorted(content_p.rglob("skill/*.yaml"))
    _edit(files[0], "summary", 99)
    edited, edited_info = _cli_build(content_p, out_p)
    return {"unchanged": same, "unchanged_info": same_info, "edited": edited, **{"edited_" + k: v for k, v in edited_info.items()}}


def serve_start(content: str, out: str) -> dict:
    """`kodeks serve` after `kodeks build` (the `build` step, into `out`): seconds until the site is served
    (validation and a build with nothing to do), then, once its renderers are up, from saving a new entry
    to its page being written."""
    from kodeks.site.live import LiveSite
    content_p = Path(content)
    t = time.perf_counter()
    site = LiveSite(content_p, content_p.parent, Path(out))
    first = site.build()
    serving = time.perf_counter() - t
    if not first.ok:
        return {"error": "content has errors"}
    site.prepare()
    source = sorted(content_p.rglob("skill/*.yaml"))[0]
    text = source.read_text(encoding="utf-8")
    new = source.with_name("zz-benchmark-new.yaml")
    from ruamel.yaml import YAML
    y = YAML()
    y.width = 4096
    data = y.load(text)
    item = data[0] if isinstance(data, list) else data
    item["id"] = "zz-benchmark-new"
    item["name"]["pl"] = item["name"]["en"] = "Zz benchmark"
    for field in ("aliases", "former_ids", "number"):
        item.pop(field, None)
    shown: list[float] = []
    t = time.perf_counter()
    with new.open("w", encoding="utf-8") as fh:
        y.dump([item] if isinstance(data, list) else item, fh)
    result = site.update(ready=lambda: shown.append(time.perf_counter() - t))
    site.close()
    new.unlink()
    if not result.ok or not shown:
        return {"error": "the new entry was refused"}
    return {"serving": serving, "new_entry": shown[0], "rendered": result.rendered}


def prepare(content: str, work: str, lang: str) -> dict:
    """Write the pages kodeks generates for one language, for a plain mkdocs build of the same pages."""
    from kodeks.project import load_and_check
    from kodeks.site.build import write_language
    checked = load_and_check(Path(content), Path(content).parent, keep=True)
    shutil.rmtree(Path(work) / lang, ignore_errors=True)
    cfg, n = write_language(checked.kb, lang, Path(work), Path(content).parent, None)
    return {"config": str(cfg), "pages": n}


def _edit(path: Path, field: str, i: int) -> None:
    """Change the Polish text of one field of the first entry in a file, as an author saving it would."""
    from ruamel.yaml import YAML
    y = YAML()
    y.width = 4096
    data = y.load(path.read_text(encoding="utf-8"))
    item = data[0] if isinstance(data, list) else data
    item[field]["pl"] = f"{item[field]['pl']} (zmiana {i})"
    with path.open("w", encoding="utf-8") as fh:
        y.dump(data, fh)


def live(content: str, out: str) -> dict:
    """`kodeks serve`: a full build, then saves of one entry: a rule's text and a skill's summary (the skill
    is on unit cards, so print pages follow), three times each; the median seconds from the start of an
    update to the pages that show the entry written (and the slowest of the three), and then to the index
    and print pages and the search index updated."""
    from kodeks.site.live import LiveSite
    root = Path(content).parent
    site = LiveSite(Path(content), root, Path(out))
    t = time.perf_counter()
    first = site.full()
    full = time.perf_counter() - t
    if not first.ok:
        return {"error": "content has errors"}
    out_figures: dict = {"full": full}
    for name, kind, field in (("rule", "rule", "text"), ("skill", "skill", "summary")):
        files = sorted(Path(content).rglob(f"{kind}/*.yaml"))
        page, index, pages = [], [], []
        for i in range(3):
            _edit(files[i % len(files)], field, i)
            result = site.update()
            if not result.ok or result.full:
                return {"error": f"update was {'a full build' if result.full else 'refused'}"}
            page.append(result.seconds)
            index.append(result.index_seconds)
            pages.append(result.pages)
        out_figures[name] = {"page": statistics.median(page), "slowest": max(page),
                             "index": statistics.median(index), "pages": statistics.median(pages)}
    site.close()
    return out_figures


def _queries(kb, n: int) -> list[str]:
    """What players type: names, lowercased, without Polish letters, one letter wrong, two words."""
    from kodeks.textfold import fold
    rnd = random.Random(7)
    names = [e.title("pl") for e in kb.entries.values()]
    out = []
    for i in range(n):
        name = rnd.choice(names)
        form = i % 4
        if form == 1:
            name = fold(name)
        elif form == 2 and len(name) > 5:
            j = rnd.randrange(1, len(name) - 1)
            name = name[:j] + "x" + name[j + 1:]
        elif form == 3:
            name = name.split()[0] + " " + rnd.choice(["zasięg", "ruch", "walka", "broń", "test"])
        out.append(name.lower())
    return out


def whoosh(content: str, out: str) -> dict:
    from kodeks.project import load_and_check
    from kodeks.search.engine import Engine, build as build_index
    checked = load_and_check(Path(content), Path(content).parent, keep=True)
    folder = Path(out) / "search-pl"
    t = time.perf_counter()
    build_index(checked.kb, "pl", folder)
    built = time.perf_counter() - t
    engine = Engine(folder, "pl")
    queries = _queries(checked.kb, 300)
    for q in queries[:20]:
        engine.search(q)  # warm the caches as a running CLI or server would be
    times = []
    for q in queries:
        t = time.perf_counter()
        engine.search(q)
        times.append((time.perf_counter() - t) * 1000)
    return {"build": built, "p50": statistics.median(times), "p95": statistics.quantiles(times, n=20)[18],
            "queries": len(times)}


def siteindex(content: str) -> dict:
    from kodeks.project import load_and_check
    from kodeks.search.browser import script, summaries_script
    from kodeks.search.index import build
    checked = load_and_check(Path(content), Path(content).parent, keep=True)
    out = {}
    for lang in ("pl", "en"):
        built = build(checked.kb, lang)
        out[lang] = len(gzip.compress(script(built.index).encode("utf-8"), 9))
        out[lang + "_summaries"] = len(gzip.compress(summaries_script(built.summaries).encode("utf-8"), 9))
    return out


def first_result(site: str) -> dict:
    """Headless Chromium opens a game's page from disk, types a query; ms until the first result shows,
    for a cold page (the index loads) and then per query."""
    from playwright.sync_api import sync_playwright
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        for lang, queries in (("pl", ["kamuflazem", "walki wrecz", "zasieg", "rozkaz", "pancerz"]),
                              ("en", ["camouflage", "melee", "range", "order", "armour"])):
            cold, warm = [], []
            for i, q in enumerate(queries):
                page = browser.new_page()
                page.goto((Path(site) / ("en" if lang == "en" else "") / "infinity" / "index.html").resolve().as_uri())
                box = page.locator("[data-kodeks-search] input")
                box.click()
                t = time.perf_counter()
                box.fill(q)
                page.wait_for_selector(".md-search-result__item", timeout=20000)
                cold.append((time.perf_counter() - t) * 1000)
                box.fill("")
                t = time.perf_counter()
                box.fill(queries[(i + 1) % len(queries)])
                page.wait_for_selector(".md-search-result__item", timeout=20000)
                warm.append((time.perf_counter() - t) * 1000)
                page.close()
            out[lang] = {"cold": statistics.median(cold), "warm": statistics.median(warm)}
        browser.close()
    return out


def cards(content: str, out: str, n: str) -> dict:
    from kodeks.cards.content import cards_for
    from kodeks.cards.pdf import write_pdf
    from kodeks.project import load_and_check
    checked = load_and_check(Path(content), Path(content).parent, keep=True)
    kb = checked.kb
    game = max(kb.games, key=lambda g: len(kb.of(g, "unit")))
    chosen = cards_for(kb, game, "pl")[: int(n)]
    t = time.perf_counter()
    info = write_pdf(kb, chosen, Path(out) / "cards.pdf", "pl")
    return {"seconds": time.perf_counter() - t, "cards": len(chosen), "pages": info["pages"],
            "bytes": (Path(out) / "cards.pdf").stat().st_size}


def main() -> None:
    step, *args = sys.argv[1:]
    result = globals()[step](*args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
