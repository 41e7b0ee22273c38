"""kodeks benchmarks: validate, build, serve, search and cards, on the shipped content and on synthetic
content of 1k, 10k and 50k entries; prints a table of figures and the goals as ratios measured in this run.

    .venv/bin/python benchmarks/run.py                      # shipped content, 1k, 10k and 50k entries
    .venv/bin/python benchmarks/run.py --sizes 1000,10000   # fewer sizes
    .venv/bin/python benchmarks/run.py --build-sizes 1000,10000,50000   # full builds at 50k too (slow)

Each step runs in its own process (benchmarks/steps.py) so its peak memory is its own: the largest resident
set of the step's process or of any process it started (each mkdocs run is one). Synthetic content is generated into a temporary folder (benchmarks/synth.py), never committed. The
machine this runs on may be shared: ratios of figures taken side by side in one run are what the goals
compare, not absolute seconds.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks import synth  # noqa: E402

PY = sys.executable


def run_step(*args: str, timeout: int = 7200) -> tuple[dict, float]:
    """Run one step in a fresh process; returns (its figures, its peak memory in MB)."""
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'tools'}{os.pathsep}{ROOT}")
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([PY, "-m", "benchmarks.steps", *args], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace").strip().splitlines()
    if proc.returncode != 0 or not text:
        return {"error": f"exit {proc.returncode}"}, usage.ru_maxrss / 1024
    figures = json.loads(text[-1])
    if isinstance(figures, dict):
        # CPU seconds of the step and of the processes it waited for (the mkdocs workers): on a shared
        # machine they move less than wall seconds when a neighbour takes the cores for a while.
        figures.setdefault("cpu", usage.ru_utime + usage.ru_stime)
    return figures, usage.ru_maxrss / 1024


def validate_and_parse(content: Path, reps: int) -> tuple[dict, float, dict, float]:
    """`kodeks validate` and the parse floor, taking turns `reps` times: the median seconds of each, and the
    largest peak memory."""
    vs, ps, vm, pm = [], [], 0.0, 0.0
    for _ in range(reps):
        v, m = run_step("validate", str(content))
        vs.append(v)
        vm = max(vm, m)
        p, m = run_step("parse", str(content))
        ps.append(p)
        pm = max(pm, m)
        if "error" in v or "error" in p:
            return v, vm, p, pm
    v = dict(vs[0], seconds=statistics.median(x["seconds"] for x in vs), runs=reps)
    p = dict(ps[0], seconds=statistics.median(x["seconds"] for x in ps))
    return v, vm, p, pm


def _median_run(runs: list[dict]) -> dict:
    """The run whose total time is the median (its phases are reported with it)."""
    return sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]


def run_plain_mkdocs_together(configs: list[str]) -> tuple[float, float]:
    """Plain `mkdocs build` of several sites at once, one process each: (wall seconds until all are done,
    CPU seconds they took together)."""
    t = time.perf_counter()
    procs = [subprocess.Popen([PY, "-m", "mkdocs", "build", "-q", "-f", c], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for c in configs]
    cpu = 0.0
    for p in procs:
        _, _, usage = os.wait4(p.pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
    return time.perf_counter() - t, cpu


def run_plain_mkdocs(config: str) -> tuple[float, float]:
    """A plain `mkdocs build` of pages kodeks wrote: (seconds, peak MB)."""
    t = time.perf_counter()
    proc = subprocess.Popen([PY, "-m", "mkdocs", "build", "-q", "-f", config], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - t, usage.ru_maxrss / 1024


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, dict[str, str]]] = []  # (step, figure, {column: value})

    def add(self, step: str, figure: str, column: str, value: str) -> None:
        for s, f, cols in self.rows:
            if s == step and f == figure:
                cols[column] = value
                return
        self.rows.append((step, figure, {column: value}))

    def render(self, columns: list[str]) -> str:
        head = ["step", "figure"] + columns
        lines = [head] + [[s, f] + [c.get(col, "") for col in columns] for s, f, c in self.rows]
        widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
        out = []
        for i, r in enumerate(lines):
            out.append("| " + " | ".join(v.ljust(widths[j]) for j, v in enumerate(r)) + " |")
            if i == 0:
                out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        return "\n".join(out)


def fmt_s(x: float) -> str:
    return f"{x:.2f} s" if x < 100 else f"{x:.0f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,50000", help="synthetic sizes (entries), comma-separated")
    ap.add_argument("--build-sizes", default="1000,10000,50000",
                    help="sizes at which full builds and serve are measured")
    ap.add_argument("--light-above", type=int, default=10000,
                    help="above this size, builds are measured lightly: one parallel build beside plain mkdocs on "
                         "both languages at once, then the rebuilds (no sequential builds, no serve)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="builds and validation at 1k entries or fewer: runs of each, taking turns; the median is reported")
    ap.add_argument("--repeat-large", type=int, default=1,
                    help="the same above 1k entries (a round of the four builds at 10k takes about 28 minutes)")
    ap.add_argument("--no-browser", action="store_true", help="skip Chromium (time to first result, Lighthouse)")
    ap.add_argument("--work", type=Path, default=None, help="working folder (default: a temporary one)")
    ap.add_argument("--results", type=Path, default=None, help="also write the report to this Markdown file")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    build_sizes = {int(s) for s in args.build_sizes.split(",") if s}
    repeat, repeat_large = max(1, args.repeat), max(1, args.repeat_large)
    # Bytecode for kodeks, as an installed or once-run kodeks has: with PYTHONDONTWRITEBYTECODE set (as on
    # the machine these figures come from) every step would compile kodeks' modules again, which mkdocs,
    # installed with its bytecode, is spared.
    compileall.compile_dir(str(ROOT / "tools" / "kodeks"), quiet=1)
    work = args.work or Path(tempfile.mkdtemp(prefix="kodeks-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    table, goals, columns = Table(), [], []
    per_size: dict[str, dict[int, float]] = {}  # figure -> {entries: seconds}, for the growth factors
    started = time.time()

    def note(msg: str) -> None:
        print(f"[{time.time() - started:6.0f} s] {msg}", file=sys.stderr, flush=True)

    # -- the shipped content ---------------------------------------------------------------------------------
    shipped = ROOT / "content"
    col = "shipped"
    columns.append(col)
    note("shipped content: validate, parse, build, search index")
    v, vm, p, pm = validate_and_parse(shipped, repeat)
    table.add("validate", "entries", col, str(v.get("entries", "?")))
    table.add("validate", "time (entries/s)", col, f"{fmt_s(v['seconds'])} ({v['entries'] / v['seconds']:.0f}/s)")
    table.add("validate", "parse floor (ruamel C)", col, fmt_s(p["seconds"]))
    table.add("validate", "ratio to floor", col, f"{v['seconds'] / p['seconds']:.2f}x")
    table.add("validate", "peak memory", col, f"{vm:.0f} MB")
    out_dir = work / "shipped-build"
    # A copy: the rebuild and serve steps edit it.
    shipped_copy = work / "shipped-copy" / "content"
    shutil.rmtree(shipped_copy.parent, ignore_errors=True)
    shutil.copytree(shipped, shipped_copy)
    shutil.copy(ROOT / "mkdocs.yml", shipped_copy.parent / "mkdocs.yml")
    b, bm = run_step("build", str(shipped_copy), str(out_dir), "parallel")
    table.add("build (parallel)", "time", col, fmt_s(b["seconds"]))
    table.add("build (parallel)", "peak memory", col, f"{bm:.0f} MB")
    table.add("build (parallel)", "CPU time (all processes)", col, fmt_s(b["cpu"]))
    note("shipped content: plain mkdocs on the same pages, the two languages at once")
    preps = {lang: run_step("prepare", str(shipped_copy), str(work / "shipped-plain"), lang)[0] for lang in ("pl", "en")}
    plain_par, plain_cpu = run_plain_mkdocs_together([preps[lang]["config"] for lang in ("pl", "en")])
    table.add("plain mkdocs, PL + EN at once", "time", col, fmt_s(plain_par))
    table.add("plain mkdocs, PL + EN at once", "CPU time (both processes)", col, fmt_s(plain_cpu))
    table.add("build (parallel)", "ratio to plain mkdocs PL + EN at once", col, f"{b['seconds'] / plain_par:.2f}x")
    note("shipped content: kodeks build again, nothing changed and one entry edited; kodeks serve")
    rb, _ = run_step("rebuild", str(shipped_copy), str(out_dir))
    _rebuild_rows(table, goals, col, b["seconds"], rb)
    sv, _ = run_step("serve_start", str(shipped_copy), str(out_dir))
    if "error" in sv:
        table.add("serve after build", "serving", col, sv["error"])
    else:
        table.add("serve after build", "serving (last build current)", col, fmt_s(sv["serving"]))
        table.add("serve after build", "a new entry saved: its page written", col,
                  f"{fmt_s(sv['new_entry'])} ({sv['rendered']} pages rendered)")
        goals.append(("serve: serving after start, last build current (shipped)", fmt_s(sv["serving"]), "<= 5 s",
                      sv["serving"] <= 5))
        goals.append(("serve: a new entry visible (shipped)", fmt_s(sv["new_entry"]), "<= 5 s", sv["new_entry"] <= 5))
    idx, _ = run_step("siteindex", str(shipped))
    for lang in ("pl", "en"):
        kb = idx[lang] / 1024
        table.add("site search index", f"{lang.upper()} gzipped (+ summaries)", col,
                  f"{kb:.0f} KB (+ {idx[lang + '_summaries'] / 1024:.0f} KB)")
        goals.append((f"site search index {lang.upper()} (shipped)", f"{kb:.0f} KB", "<= 350 KB", kb <= 350))
    site = out_dir / "site"
    if not args.no_browser and site.is_dir():
        note("Chromium: time to first result")
        fr, _ = run_step("first_result", str(site))
        for lang in ("pl", "en"):
            if lang in fr:
                table.add("site search (Chromium)", f"first result {lang.upper()}, cold / warm", col,
                          f"{fr[lang]['cold']:.0f} / {fr[lang]['warm']:.0f} ms")
        note(f"Lighthouse (mobile), {LIGHTHOUSE_RUNS} runs per page")
        for name, scores in lighthouse(site, work):
            table.add(f"Lighthouse (mobile, median of {LIGHTHOUSE_RUNS})", name, col, scores if isinstance(scores, str) else
                      " / ".join(f"{scores[k]:.0f}" for k in ("performance", "accessibility", "best-practices")))
            if not isinstance(scores, str):
                ok = all(v >= 95 for v in scores.values())
                goals.append((f"Lighthouse {name} (perf / a11y / best practices)",
                              " / ".join(f"{v:.0f}" for v in scores.values()), ">= 95 each", ok))

    note("odds: Infinity face to face, burst 5 against burst 3, with the damage step")
    py_ms, js_ms = odds_timing(browser=not args.no_browser)
    table.add("odds (Infinity shooting B5 vs B3, 3 ARM rolls)", "Python / Chromium, median", col,
              f"{py_ms:.1f} / " + (f"{js_ms:.2f} ms" if js_ms is not None else "- ms"))
    if js_ms is not None:
        goals.append(("odds: face to face B5 vs B3 with damage, Chromium", f"{js_ms:.2f} ms", "<= 5 ms", js_ms <= 5))

    # -- synthetic content -----------------------------------------------------------------------------------
    for n in sizes:
        col = f"{n // 1000}k"
        columns.append(col)
        content = work / f"synth-{n}" / "content"
        note(f"{col}: generating")
        entries = synth.generate(content, n)
        shutil.copy(ROOT / "mkdocs.yml", content.parent / "mkdocs.yml")
        note(f"{col}: validate, parse floor")
        v, vm, p, pm = validate_and_parse(content, repeat if n <= 1000 else repeat_large)
        if "error" in v or not v.get("ok"):
            table.add("validate", "time (entries/s)", col, "failed")
            continue
        table.add("validate", "entries", col, str(v["entries"]))
        table.add("validate", "time (entries/s)", col, f"{fmt_s(v['seconds'])} ({v['entries'] / v['seconds']:.0f}/s)"
                  + (f" (median of {v['runs']})" if v["runs"] > 1 else ""))
        table.add("validate", "parse floor (ruamel C)", col, f"{fmt_s(p['seconds'])} ({p['files']} files)")
        ratio = v["seconds"] / p["seconds"]
        table.add("validate", "ratio to floor", col, f"{ratio:.2f}x")
        table.add("validate", "peak memory", col, f"{vm:.0f} MB (floor {pm:.0f} MB)")
        goals.append((f"validate / parse floor at {col}", f"{ratio:.2f}x", "<= 1.5x", ratio <= 1.5))
        per_size.setdefault("validate", {})[entries] = v["seconds"]
        note(f"{col}: whoosh")
        w, wm = run_step("whoosh", str(content), str(work / f"synth-{n}"))
        table.add("whoosh (PL)", "index build", col, fmt_s(w["build"]))
        table.add("whoosh (PL)", "query p50 / p95", col, f"{w['p50']:.1f} / {w['p95']:.1f} ms")
        table.add("whoosh (PL)", "peak memory", col, f"{wm:.0f} MB")
        per_size.setdefault("whoosh index build", {})[entries] = w["build"]
        per_size.setdefault("whoosh query p95", {})[entries] = w["p95"] / 1000
        if n == max(sizes):
            goals.append((f"whoosh query p95 at {col}", f"{w['p95']:.1f} ms", "<= 10 ms", w["p95"] <= 10))
        idx, _ = run_step("siteindex", str(content))
        for lang in ("pl", "en"):
            table.add("site search index", f"{lang.upper()} gzipped (+ summaries)", col,
                      f"{idx[lang] / 1024:.0f} KB (+ {idx[lang + '_summaries'] / 1024:.0f} KB)")
        if n not in build_sizes:
            continue
        # The three builds take turns, `repeat` times, and each figure is the median of its runs: on a shared
        # machine a slow minute then hits all three alike instead of one.
        reps = repeat if n <= 1000 else repeat_large
        preps = {lang: run_step("prepare", str(content), str(work / f"synth-{n}" / "plain"), lang)[0]
                 for lang in ("pl", "en")}
        if n > args.light_above:  # one full build and plain mkdocs on both languages at once, side by side; then rebuilds
            note(f"{col}: kodeks build, the two languages in parallel")
            b, bm = run_step("build", str(content), str(work / f"synth-{n}" / "par"), "parallel")
            note(f"{col}: plain mkdocs, the two languages at once")
            plain_par, plain_cpu = run_plain_mkdocs_together([preps[lang]["config"] for lang in ("pl", "en")])
            if "error" in b:
                table.add("build (parallel)", "time", col, "failed")
                continue
            table.add("build (parallel)", "time", col, fmt_s(b["seconds"]))
            table.add("build (parallel)", "CPU time (all processes)", col, fmt_s(b["cpu"]))
            table.add("plain mkdocs, PL + EN at once", "CPU time (both processes)", col, fmt_s(plain_cpu))
            per_size.setdefault("build (parallel), CPU time", {})[entries] = b["cpu"]
            per_size.setdefault("plain mkdocs, PL + EN at once, CPU time", {})[entries] = plain_cpu
            table.add("build (parallel)", "peak memory", col, f"{bm:.0f} MB")
            table.add("plain mkdocs, PL + EN at once", "time", col, fmt_s(plain_par))
            table.add("build (parallel)", "ratio to plain mkdocs PL + EN at once", col, f"{b['seconds'] / plain_par:.2f}x")
            per_size.setdefault("build (parallel)", {})[entries] = b["seconds"]
            per_size.setdefault("plain mkdocs, PL + EN at once", {})[entries] = plain_par
            note(f"{col}: kodeks build again, nothing changed and one entry edited")
            rb, _ = run_step("rebuild", str(content), str(work / f"synth-{n}" / "par"))
            _rebuild_rows(table, goals, col, b["seconds"], rb)
            continue
        seqs, pars, plains, plains_par = [], [], [], []
        sm = bm = plain_m = 0.0
        for r in range(reps):
            note(f"{col}: kodeks build, one language after the other ({r + 1}/{reps})")
            s, m = run_step("build", str(content), str(work / f"synth-{n}" / "seq"), "sequential")
            seqs.append(s)
            sm = max(sm, m)
            note(f"{col}: kodeks build, the two languages in parallel ({r + 1}/{reps})")
            b, m = run_step("build", str(content), str(work / f"synth-{n}" / "par"), "parallel")
            pars.append(b)
            bm = max(bm, m)
            note(f"{col}: plain mkdocs on the same pages ({r + 1}/{reps})")
            total = 0.0
            for lang in ("pl", "en"):
                secs, mem = run_plain_mkdocs(preps[lang]["config"])
                total += secs
                plain_m = max(plain_m, mem)
            plains.append(total)
            note(f"{col}: plain mkdocs, the two languages at once ({r + 1}/{reps})")
            plains_par.append(run_plain_mkdocs_together([preps[lang]["config"] for lang in ("pl", "en")])[0])
        if any("error" in x for x in seqs + pars):
            table.add("build", "time", col, "failed")
            continue
        s, b = _median_run(seqs), _median_run(pars)
        plain_s = statistics.median(plains)
        plain_par = statistics.median(plains_par)
        runs = f" (median of {reps})" if reps > 1 else ""
        table.add("build (sequential)", "time", col, fmt_s(s["seconds"]) + runs)
        table.add("build (sequential)", "phases", col, ", ".join(f"{k} {v:.0f}" for k, v in s["phases"].items()
                                                                 if k not in ("setup", "swap")))
        table.add("build (sequential)", "peak memory", col, f"{sm:.0f} MB")
        table.add("build (parallel)", "time", col, fmt_s(b["seconds"]) + runs)
        table.add("build (parallel)", "peak memory", col, f"{bm:.0f} MB")
        table.add("plain mkdocs, PL + EN", "time", col, fmt_s(plain_s) + runs)
        table.add("plain mkdocs, PL + EN", "peak memory", col, f"{plain_m:.0f} MB")
        over = s["seconds"] / plain_s
        mk_over = s["phases"].get("mkdocs", 0) / plain_s
        par = b["seconds"] / s["seconds"]
        table.add("build (sequential)", "ratio to plain mkdocs (mkdocs phase)", col, f"{over:.2f}x ({mk_over:.2f}x)")
        table.add("build (parallel)", "ratio to sequential", col, f"{par:.2f}x")
        over_par = b["seconds"] / plain_par
        table.add("plain mkdocs, PL + EN at once", "time", col, fmt_s(plain_par) + runs)
        table.add("build (parallel)", "ratio to plain mkdocs PL + EN at once", col, f"{over_par:.2f}x")
        # Three decimals: a ratio printed as 0.65x may be just above the goal.
        goals.append((f"build / plain mkdocs at {col}, one language after the other", f"{over:.3f}x", "<= 1.15x",
                      over <= 1.15))
        # Not a goal of the issue, which compares with a plain `mkdocs build` (one site at a time): what the
        # parallel build costs over mkdocs run twice at once, bounded by validation and the first pages.
        goals.append((f"build (parallel) / plain mkdocs at {col}, both at once", f"{over_par:.3f}x", "figure", None))
        goals.append((f"parallel / sequential build at {col}", f"{par:.3f}x", "<= 0.65x", par <= 0.65))
        per_size.setdefault("build (sequential)", {})[entries] = s["seconds"]
        per_size.setdefault("plain mkdocs", {})[entries] = plain_s
        per_size.setdefault("build (parallel)", {})[entries] = b["seconds"]
        per_size.setdefault("plain mkdocs, PL + EN at once", {})[entries] = plain_par
        note(f"{col}: kodeks build again, nothing changed and one entry edited")
        rb, _ = run_step("rebuild", str(content), str(work / f"synth-{n}" / "par"))
        _rebuild_rows(table, goals, col, b["seconds"], rb)
        note(f"{col}: kodeks serve, one entry saved")
        lv, lm = run_step("live", str(content), str(work / f"synth-{n}" / "live"))
        if "error" in lv:
            table.add("serve: one entry saved", "rule text", col, lv["error"])
        else:
            for name, what in (("rule", "a rule's text"), ("skill", "a skill's summary (on cards)")):
                f = lv[name]
                table.add("serve: one entry saved", f"{what}: pages rebuilt", col,
                          f"{fmt_s(f['page'])} ({f['pages']:.0f} pages per language; slowest {fmt_s(f['slowest'])})")
                table.add("serve: one entry saved", f"{what}: then index and print pages, search index", col,
                          fmt_s(f["index"]))
            table.add("serve: one entry saved", "peak memory", col, f"{lm:.0f} MB")
            per_size.setdefault("serve: rule saved", {})[entries] = lv["rule"]["page"]
            if n == 10000:
                for name in ("rule", "skill"):
                    goals.append((f"serve: one {name} saved, pages rebuilt at 10k", fmt_s(lv[name]["page"]), "<= 2 s",
                                  lv[name]["page"] <= 2))
        if not any(g[0].startswith("cards PDF") for g in goals):
            c, cm = run_step("cards", str(content), str(work / f"synth-{n}"), "200")
            if "error" not in c and c["cards"] >= 200:
                table.add("cards PDF", "200 units", col, f"{fmt_s(c['seconds'])} ({c['pages']} pages, "
                          f"{c['bytes'] / 1e6:.1f} MB, peak {cm:.0f} MB)")
                goals.append(("cards PDF for 200 units", fmt_s(c["seconds"]), "(measured)", True))

    # The sizes are the entries generated (10,020 for 10k): the two largest above 5,000 are 10k and 50k.
    pts = sorted((e, t) for e, t in per_size.get("build (parallel)", {}).items() if e > 5000)
    if len(pts) >= 2:
        (a, ta), (b, tb) = pts[-2], pts[-1]
        growth = (tb / ta) / (b / a)
        goals.append((f"full build growth {a // 1000}k -> {b // 1000}k (time ratio / entries ratio)", f"{growth:.2f}",
                      "<= 1.2", growth <= 1.2))
        cpu = per_size.get("build (parallel), CPU time", {})
        if a in cpu and b in cpu:  # the same ratio in CPU seconds: what the machine's other tenants move less
            goals.append((f"full build growth {a // 1000}k -> {b // 1000}k in CPU time", f"{(cpu[b] / cpu[a]) / (b / a):.2f}",
                          "figure", None))
    report = [f"kodeks benchmarks, {time.strftime('%Y-%m-%d %H:%M')}, {platform.node()}, {os.cpu_count()} cores, "
              f"{_memory_gb():.0f} GB, Python {platform.python_version()}, {time.time() - started:.0f} s in all", "",
              table.render(columns)]
    if per_size:
        report += ["", "growth per step: time ratio / entries ratio between consecutive sizes (1.00 = linear)", ""]
        for name, points in per_size.items():
            pts = sorted(points.items())
            factors = [f"{a // 1000}k→{b // 1000}k: {(tb / ta) / (b / a):.2f}"
                       for (a, ta), (b, tb) in zip(pts, pts[1:]) if ta > 0]
            if factors:
                report.append(f"    {name:28} " + ", ".join(factors))
    report += ["", "goals", ""]
    for name, value, goal, ok in goals:
        state = "    " if ok is None else "PASS" if ok else "MISS"
        report.append(f"    {state}  {name:56} {value:>18}   {'goal ' if ok is not None else ''}{goal}")
    text = "\n".join(report)
    print("\n" + text)
    if args.results:
        args.results.write_text("# Benchmark results\n\nWritten by `benchmarks/run.py --results " + str(args.results) +
                                "` (" + " ".join(sys.argv[1:]) + ").\n\n```\n" + text + "\n```\n", encoding="utf-8")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _rebuild_rows(table, goals, col: str, full: float, rb: dict) -> None:
    """The `rebuild` step's figures beside the full build they follow, and their goals."""
    if "error" in rb:
        table.add("build again", "nothing changed", col, rb["error"])
        return
    table.add("build again", "nothing changed (validate + build)", col,
              fmt_s(rb["unchanged"]) + ("" if rb["unchanged_info"]["unchanged"] else " (not skipped!)"))
    share = rb["edited"] / full
    table.add("build again", "one entry edited (validate + build)", col,
              f"{fmt_s(rb['edited'])} ({rb['edited_rendered']} pages rendered; {share:.1%} of the full build)")
    if col == "shipped":
        goals.append(("build with nothing changed (shipped)", fmt_s(rb["unchanged"]), "<= 5 s", rb["unchanged"] <= 5))
    if col == "10k":
        goals.append(("build after one entry edited at 10k / full build", f"{share:.1%}", "<= 10 %", share <= 0.10))


ODDS_CASE = ("infinity", "shooting", {"burst": 5, "def_burst": 3, "armour_rolls": 3})


def odds_timing(browser: bool = True, runs: int = 30) -> tuple[float, float | None]:
    """Median milliseconds of one odds calculation (ODDS_CASE, from the shipped game.yaml): the exact Python
    evaluator (fractions) and assets/kodeks-odds.js in Chromium (what the site runs); None without a browser."""
    import yaml as pyyaml
    sys.path.insert(0, str(ROOT / "tools"))
    from kodeks.model.ids import parse_ref
    from kodeks.odds import evaluate, model
    game, calc_id, values = ODDS_CASE
    decl = pyyaml.safe_load((ROOT / "content" / game / "game.yaml").read_text(encoding="utf-8"))["odds"]
    odds = model.build(decl, game, lambda r: parse_ref(r, game))
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        evaluate.evaluate(odds, odds.calculator(calc_id), values)
        times.append((time.perf_counter() - t) * 1000)
    py_ms = statistics.median(times)
    if not browser or not os.path.exists("/usr/bin/chromium"):
        return py_ms, None
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        page = b.new_page()
        page.add_script_tag(path=str(ROOT / "tools" / "kodeks" / "site" / "assets" / "kodeks-odds.js"))
        js_ms = page.evaluate("""([decl, id, values, runs]) => {
            for (let i = 0; i < 5; i++) KodeksOdds.evaluate(decl, id, values);  // warm up the JIT
            const times = [];  // batches of 10: the browser's clock is coarser than one run
            for (let i = 0; i < runs; i++) {
                const t = performance.now();
                for (let j = 0; j < 10; j++) KodeksOdds.evaluate(decl, id, values);
                times.push((performance.now() - t) / 10);
            }
            times.sort((a, b) => a - b);
            return times[Math.floor(times.length / 2)];
        }""", [json.loads(json.dumps(decl)), calc_id, values, runs])
        b.close()
    return py_ms, js_ms


def _memory_gb() -> float:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1e9
    except (ValueError, OSError):
        return 0.0


def lighthouse(site: Path, work: Path) -> list[tuple[str, dict | str]]:
    """Lighthouse's mobile profile on a game's home, a rule and a unit page, served over http on localhost;
    each score is the median of LIGHTHOUSE_RUNS runs."""
    import http.server
    import threading
    lh = _lighthouse_bin(work)
    if lh is None:
        return [("all pages", "lighthouse not installed (npm install failed)")]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _gzip_handler(site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    pages = [("game home", "infinity/index.html"),
             ("rule page", next(p for p in sorted((site / "warzone-4-1/rule").glob("*.html")) if p.name != "index.html")
              .relative_to(site).as_posix()),
             ("unit page", "ciernie-i-gwiazdy/unit/" + sorted(p.name for p in (site / "ciernie-i-gwiazdy/unit").glob("*.html")
                                                              if p.name != "index.html")[0])]
    # The longest rule page of the shipped content (Warzone 4.1's chapter on skills), where the theme's work
    # grows with the page.
    long_rule = site / "warzone-4-1/rule/15-skills.html"
    if long_rule.is_file():
        pages.append(("long rule page", long_rule.relative_to(site).as_posix()))
    out = []
    for name, rel in pages:
        runs, failed = [], None
        # Lighthouse's performance score moves by several points between runs on one machine (89 to 98 here
        # on the same page); its authors advise the median of several runs.
        for _ in range(LIGHTHOUSE_RUNS):
            scores = _lighthouse_once(lh, base + rel, work / f"lh-{name.replace(' ', '-')}.json")
            if isinstance(scores, str):
                failed = scores
                break
            runs.append(scores)
        if failed:
            out.append((name, failed))
            continue
        out.append((f"{name} ({rel})", {k: statistics.median(r[k] for r in runs) for k in runs[0]}))
    server.shutdown()
    return out


LIGHTHOUSE_RUNS = 3


def _lighthouse_once(lh: Path, url: str, report: Path) -> dict | str:
    proc = subprocess.run([str(lh), url, "--quiet", "--output=json", f"--output-path={report}",
                           "--only-categories=performance,accessibility,best-practices",
                           "--chrome-path=/usr/bin/chromium", "--form-factor=mobile",
                           "--chrome-flags=--headless=new --no-sandbox --disable-gpu "
                           "--disable-background-networking --disable-component-update"],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 or not report.is_file():
        return f"failed: {proc.stderr.strip().splitlines()[-1:] or proc.returncode}"
    cats = json.loads(report.read_text(encoding="utf-8"))["categories"]
    return {k: cats[k]["score"] * 100 for k in ("performance", "accessibility", "best-practices")}


def _gzip_handler(site: Path):
    """Static files as a web host serves them: text compressed with gzip (every static host does), so that
    Lighthouse measures the site and not a development server."""
    import gzip as gz
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=str(site), **k)

        def log_message(self, *a):
            pass

        def send_head(self):
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            text = path.suffix in (".html", ".css", ".js", ".json", ".svg", ".webmanifest", ".xml")
            if not (text and path.is_file() and "gzip" in self.headers.get("Accept-Encoding", "")):
                return super().send_head()
            import io
            body = gz.compress(path.read_bytes(), 6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "max-age=3600")
            self.end_headers()
            return io.BytesIO(body)

    return Handler


def _lighthouse_bin(work: Path) -> Path | None:
    """npm's lighthouse, installed on first use into benchmarks/.node (not committed)."""
    prefix = ROOT / "benchmarks" / ".node"
    binary = prefix / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists() and shutil.which("npm"):
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(prefix), "lighthouse@12"],
                       capture_output=True, timeout=900)
    return binary if binary.exists() else None


if __name__ == "__main__":
    sys.exit(main())
