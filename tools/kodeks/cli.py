"""The `kodeks` command: validate, build, serve, new, stats, export."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape

from .outdir import OutputError, check_file, check_out, claim, explain
from .project import Checked, find_root, load_and_check


def _flags_take_no_value() -> None:
    """typer 0.29 labels every option of --help with the type of its value, switches too (`--no-pdf <bool>`),
    as if a switch took a value: a switch is shown bare."""
    from typer.core import TyperOption
    shown = TyperOption.display_type_rich
    if getattr(shown, "kodeks", False):
        return

    def display_type_rich(self, ctx):
        return None if self.is_flag else shown(self, ctx)

    display_type_rich.kodeks = True
    TyperOption.display_type_rich = display_type_rich


_flags_take_no_value()
app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="kodeks: YAML rules in, a bilingual cross-linked reference site out.")
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

ContentOpt = typer.Option(None, "--content", help="The content folder (default: content/ in the project root).")


def _paths(content: Optional[Path]) -> tuple[Path, Path]:
    root = find_root()
    return root, (content or root / "content")


def _fail(message: str, code: int = 2) -> NoReturn:
    """One line for a bad argument or a failure of the environment, and the exit code."""
    err.print(message, style="red", markup=False, soft_wrap=True)
    raise typer.Exit(code)


def _out_folder(out_dir: Path, root: Path, content_dir: Path, made: tuple[str, ...]) -> Path:
    """The output folder, checked before any work: not the project, its content, home or /, and the
    folders kodeks will replace in it (`made`) are its own."""
    try:
        out_dir = check_out(out_dir, root, content_dir)
        for name in made:
            claim(out_dir / name)
    except OutputError as exc:
        _fail(str(exc))
    return out_dir


def _out_file(path: Path, content_dir: Path, example: str) -> Path:
    try:
        return check_file(path, content_dir, example)
    except OutputError as exc:
        _fail(str(exc))


def _written(exc: OSError, target: Path) -> str:
    """explain() naming the file asked for, not the temporary file beside it that the write failed on."""
    failed = Path(str(exc.filename)) if exc.filename is not None else None
    return explain(exc, target if failed is None or failed.parent == target.parent else None)


def _report_problems(problems, after: str = "") -> bool:
    """Print every problem (errors and warnings); True if there are no errors. `after` says what the
    errors stopped ("nothing was built")."""
    for problem in problems.sorted():
        style = "red" if problem.severity == "error" else "yellow"
        err.print(problem.format(), style=style, markup=False, soft_wrap=True)
    n_err, n_warn = len(problems.errors), len(problems.warnings)
    if n_err:
        err.print(f"{n_err} error(s), {n_warn} warning(s)" + (f": {after}." if after else "."), style="bold red")
        return False
    return True


def _report(checked: Checked, quiet_ok: bool = False, after: str = "") -> bool:
    """Print every problem (errors and warnings); True if there are no errors."""
    if not _report_problems(checked.problems, after):
        return False
    n_warn = len(checked.problems.warnings)
    if not quiet_ok:
        out.print(f"[green]ok[/green]: {len(checked.kb.games)} games, {len(checked.kb.entries)} entries, "
                  f"{n_warn} warning(s)")
    return True


@app.command()
def validate(content: Optional[Path] = ContentOpt) -> None:
    """Check every content file; report every problem as path:line:col."""
    root, content_dir = _paths(content)
    checked = load_and_check(content_dir, root, keep=True)
    if not _report(checked):  # validate builds nothing, so says only how many
        raise typer.Exit(1)


@app.command()
def stats(content: Optional[Path] = ContentOpt,
          game: Optional[str] = typer.Option(None, "--game", help="Only this game."),
          json_out: bool = typer.Option(False, "--json", help="Print the figures as JSON.")) -> None:
    """Entries per game and kind, English coverage and gaps, as a table."""
    from .stats import compute, render_table
    root, content_dir = _paths(content)
    checked = load_and_check(content_dir, root, keep=True)
    if not _report(checked, quiet_ok=True):
        raise typer.Exit(1)
    if game and game not in checked.kb.games:
        err.print(f"unknown game '{game}'; games: {', '.join(checked.kb.games)}", style="red")
        raise typer.Exit(2)
    figures = compute(checked.kb, game)
    if json_out:
        import json
        out.print_json(json.dumps(figures, ensure_ascii=False))
    else:
        out.print(render_table(figures))


@app.command()
def build(content: Optional[Path] = ContentOpt,
          out_dir: Optional[Path] = typer.Option(None, "--out", help="Where to build (default: build/)."),
          templates: Optional[Path] = typer.Option(None, "--templates", help="A folder of templates that override kodeks' own."),
          sequential: bool = typer.Option(False, "--sequential", help="Build the two languages one after the other."),
          no_pdf: bool = typer.Option(False, "--no-pdf", help="Skip the card PDFs offered for download (faster previews)."),
          clean: bool = typer.Option(False, "--clean", help="Render every page again, not only those whose content changed.")) -> None:
    """Validate, then build the bilingual site into build/site (PL at /, EN at /en/). Only pages whose
    content changed since the last build are rendered again; --clean renders all."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from .site.build import BuildError, build_site, parse_cache
    root, content_dir = _paths(content)
    out_dir = _out_folder(out_dir or root / "build", root, content_dir, made=("site", "search"))
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=err,
                  transient=True) as progress:
        task = progress.add_task("validating content", total=None)
        checked = load_and_check(content_dir, root, keep=True, parse_cache=None if clean else parse_cache(out_dir))
        progress.stop_task(task)
    from .checks import placeholders
    checked.problems.escalate(placeholders.TODO, placeholders.NOT_PUBLISHED)  # a draft is never published
    if not _report(checked, quiet_ok=True, after="nothing was built"):
        raise typer.Exit(1)
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=err,
                  transient=True) as progress:
        task = progress.add_task("building", total=None)
        try:
            result = build_site(checked.kb, root, out_dir, templates,
                                progress=lambda step: progress.update(task, description=f"building: {step}"),
                                parallel=not sequential, pdf=not no_pdf, content=content_dir, clean=clean)
        except BuildError as exc:
            progress.stop()
            err.print(f"build failed: {exc}", style="bold red", markup=False, soft_wrap=True)
            for line in exc.details[:50]:
                err.print("  " + line, markup=False)
            raise typer.Exit(1)
    _summary(checked, result, root)


def _summary(checked: Checked, result, root: Path) -> None:
    from rich.table import Table
    kb = checked.kb
    table = Table(title="kodeks build", show_header=False, box=None)
    table.add_row("games", str(len(kb.games)))
    table.add_row("entries", str(len(kb.entries)))
    table.add_row("pages", f"{result.pages.get('pl', 0)} Polish, {result.pages.get('en', 0)} English")
    if result.unchanged:
        table.add_row("rendered", "none: nothing changed since the last build")
    elif result.rendered == result.pages:
        table.add_row("rendered", "every page")
    elif all(result.rendered.get(lang) is not None for lang in ("pl", "en")):
        table.add_row("rendered", f"{result.rendered['pl']} Polish, {result.rendered['en']} English "
                                  f"(the others are as the last build made them)")
    table.add_row("redirects", str(result.redirects))
    table.add_row("warnings", str(len(checked.problems.warnings)))
    table.add_row("time", f"{result.seconds:.1f} s")
    try:
        where = result.site.relative_to(root)
    except ValueError:
        where = result.site
    table.add_row("site", f"{where}/index.html (open it in a browser, or run: kodeks serve)")
    out.print(table)


@app.command()
def new(kind: str = typer.Argument(..., help="rule, skill, trait, weapon, unit, term..."),
        game: str = typer.Argument(..., help="The game id, e.g. ciernie-i-gwiazdy."),
        entry_id: str = typer.Argument(..., metavar="ID", help="The new entry's id (lowercase-slug)."),
        content: Optional[Path] = ContentOpt) -> None:
    """Write a schema-valid skeleton entry: content/GAME/KIND/ID.yaml."""
    from .content.loader import load
    from .problems import Problems
    from .skeleton import create
    root, content_dir = _paths(content)
    loaded = load(content_dir, Problems(root=root))
    if game not in loaded.kb.games:
        err.print(f"unknown game '{game}' (games with a valid game.yaml: {', '.join(loaded.kb.games) or 'none'})",
                  style="red")
        raise typer.Exit(2)
    existing = next((e for k, e in loaded.kb.entries.items() if (k.game, k.kind, k.id) == (game, kind, entry_id)),
                    None)
    if existing is not None:
        _fail(f"{kind} '{entry_id}' already exists in {game}, at {existing.file}:{existing.pos.line}:{existing.pos.col} "
              f"(fix: pick another id, or edit that entry)")
    try:
        path = create(content_dir, loaded.kb.games[game], kind, entry_id)
    except ValueError as exc:
        err.print(str(exc), style="red")
        raise typer.Exit(2)
    out.print(f"wrote {path}: fill in the TODOs, then run kodeks validate")


@app.command()
def export(content: Optional[Path] = ContentOpt,
           output: Optional[Path] = typer.Option(None, "-o", "--output", help="Default: build/kb.json.")) -> None:
    """Write the whole knowledge base as one JSON file (build/kb.json; shape in README.md)."""
    from .export import write
    root, content_dir = _paths(content)
    output = _out_file(output or root / "build" / "kb.json", content_dir, "kb.json")
    checked = load_and_check(content_dir, root, keep=True)
    if not _report(checked, quiet_ok=True, after="nothing was written"):
        raise typer.Exit(1)
    try:
        n = write(checked.kb, output)
    except OSError as exc:
        _fail(f"export failed: {_written(exc, output)}", 1)
    out.print(f"wrote {output} ({n} entries)")


@app.command()
def serve(content: Optional[Path] = ContentOpt,
          host: str = typer.Option("127.0.0.1", help="Address to listen on (default: this machine only)."),
          port: int = typer.Option(8000, min=0, max=65535, help="Port (0: any free one)."),
          out_dir: Optional[Path] = typer.Option(None, "--out", help="Where to build (default: build/)."),
          templates: Optional[Path] = typer.Option(None, "--templates")) -> None:
    """Build, serve the site on http://127.0.0.1:8000 and rebuild when a content file changes."""
    import signal
    import threading

    from . import serve as srv
    from .site.build import BuildError
    from .site.live import LiveSite
    root, content_dir = _paths(content)
    out_dir = _out_folder(out_dir or root / "build", root, content_dir, made=("site", "search", "live"))
    state = srv.State()
    live = LiveSite(content_dir, root, out_dir, templates)
    try:
        # Listen before building: a busy port or a wrong --host is said at once, not after minutes of build.
        server = srv.serve(live.site, host, port, state)
    except srv.ServeError as exc:
        _fail(str(exc))
    watched_config = [root / "mkdocs.yml"] + ([templates] if templates else [])
    watched = [content_dir, root / "mkdocs.yml"] + ([templates] if templates else [])
    seen = srv.snapshot(watched)  # before the first build: a save during it is not missed
    config_seen = srv.snapshot(watched_config)

    def bump() -> None:
        # The changed entries' pages are written: reload them now, not after print pages and the index.
        with state.lock:
            state.version += 1

    def rebuild(first: bool = False) -> bool:
        nonlocal config_seen
        now = srv.snapshot(watched_config)
        try:
            if first:  # the site as the last build left it, brought up to date; the renderers start later
                result = live.build()
            elif now != config_seen or live.kb is None:  # mkdocs.yml or a template: every page may change
                result = live.full(ready=bump)
            else:
                result = live.update(ready=bump)
        except BuildError as exc:
            err.print(f"build failed: {exc}", style="red", markup=False, soft_wrap=True)
            for line in exc.details[:20]:
                err.print("  " + line, markup=False)
            state.failed(f"build failed: {exc}", exc.details)
            return False
        except Exception as exc:  # noqa: BLE001 - the watcher must live on to see the next save
            err.print(f"update failed: {type(exc).__name__}: {exc}", style="red", markup=False, soft_wrap=True)
            state.failed(f"update failed: {type(exc).__name__}: {exc}")
            live.kb = None  # the next save builds again
            return False
        config_seen = now
        kept = "the last good site is still served" if live.site.exists() else "nothing was built"
        if not _report_problems(result.problems, after=kept):
            errors = result.problems.errors
            state.failed(f"{len(errors)} error(s) in the content", [p.format() for p in result.problems.sorted()
                                                                   if p.severity == "error"])
            return False
        for line in result.warnings[:20]:
            err.print("  " + line, markup=False)
        state.fixed()
        if result.full:
            out.print(f"site up to date: {result.rendered} page(s) rendered in {result.seconds:.1f} s "
                      f"({result.pages} pages per language)")
        elif result.changed:
            out.print(f"{len(result.changed)} changed entr{'y' if len(result.changed) == 1 else 'ies'}: "
                      f"{result.pages} page(s) per language rebuilt in {result.seconds:.2f} s, "
                      f"search index in {result.index_seconds:.2f} s")
        return True

    def prepare_then_watch() -> None:
        try:
            live.prepare()
        except BuildError as exc:  # the next save tries again
            err.print(f"live preview not ready: {exc}", style="red", markup=False, soft_wrap=True)
        srv.watch(watched, rebuild, state, stop, before=seen)

    def stop_on_term(signum, frame) -> None:
        # A plain SIGTERM would end the process on the spot, leaving mkdocs' processes and their semaphores
        # behind (Python then warns of leaked semaphores): stop the way Ctrl+C does, through the finally below.
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop_on_term)
    stop = threading.Event()
    try:
        rebuild(first=True)
        if not live.site.exists():
            _fail("no site to serve: fix the errors above", 1)
        threading.Thread(target=prepare_then_watch, daemon=True).start()
        bound = server.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        out.print(f"serving http://{shown}:{bound}/ (Ctrl+C to stop); watching {content_dir}", markup=False)
        server.serve_forever()
    finally:
        stop.set()
        server.server_close()
        live.close()


def _search_index(root: Path, content_dir: Path, out_dir: Path, lang: str):
    """The search index of `lang` (build/search), built from the content first if build/ has none, or one
    that an older kodeks wrote."""
    from .search.engine import Engine, build as build_index, current
    folder = out_dir / "search" / lang
    if current(folder):
        try:
            return Engine(folder, lang)
        except Exception:  # noqa: BLE001 - an index this kodeks cannot read is rebuilt, as an older one is
            pass
    checked = load_and_check(content_dir, root, keep=True)
    if not _report(checked, quiet_ok=True, after="no search index was built"):
        raise typer.Exit(1)
    from .outdir import make
    try:
        make(out_dir / "search")
        for lg in ("pl", "en"):
            build_index(checked.kb, lg, out_dir / "search" / lg)
    except OSError as exc:
        _fail(f"search index not written: {explain(exc)}", 1)
    return Engine(folder, lang)


@app.command()
def search(query: str = typer.Argument(..., help="What to look for, as you would type it at the table."),
           game: Optional[str] = typer.Option(None, "--game", help="Only this game (id)."),
           kind: Optional[str] = typer.Option(None, "--kind", help="Only this kind: rule, skill, weapon..."),
           lang: str = typer.Option("pl", "--lang", help="pl or en."),
           limit: int = typer.Option(10, "--limit", min=1, max=100),
           json_out: bool = typer.Option(False, "--json", help="Print the results as JSON."),
           content: Optional[Path] = ContentOpt,
           out_dir: Optional[Path] = typer.Option(None, "--out", help="Where the build is (default: build/).")) -> None:
    """Search the knowledge base (Polish or English, with or without Polish letters, any inflected form)."""
    import json

    from .content.schemas import KINDS
    from .problems import did_you_mean
    if lang not in ("pl", "en"):
        _fail("--lang must be pl or en")
    if kind is not None and kind not in KINDS:
        _fail(f"unknown kind '{kind}'{did_you_mean(kind, KINDS)} (known: {', '.join(KINDS)})")
    root, content_dir = _paths(content)
    if out_dir is not None and not out_dir.is_dir():
        # An index written to a folder made for it by mistake (a typo) would be 4 MB left somewhere.
        _fail(f"--out {out_dir}: no such folder (fix: build there first with kodeks build --out {out_dir}, "
              f"or leave --out out to use build/)")
    out_dir = _out_folder(out_dir or root / "build", root, content_dir, made=("search",))
    engine = _search_index(root, content_dir, out_dir, lang)
    if game and game not in engine.games:
        _fail(f"unknown game '{game}'{did_you_mean(game, engine.games)} (games: {', '.join(sorted(engine.games))})")
    result = engine.search(query, game=game, kind=kind, limit=limit,
                           mark=("<mark>", "</mark>") if json_out else ("[bold yellow]", "[/bold yellow]"))
    if json_out:
        print(json.dumps({"query": result.query, "message": result.message, "suggestion": result.suggestion,
                          "results": [h.__dict__ for h in result.hits]}, ensure_ascii=False, indent=1))
        return
    if result.message:
        out.print(result.message)
        return
    if not result.hits:
        dym = "did you mean" if lang == "en" else "czy chodziło o"
        nothing = "nothing found" if lang == "en" else "nic nie znaleziono"
        out.print(f"{nothing}" + (f"; {dym}: [bold]{escape(result.suggestion)}[/bold]?" if result.suggestion else ""))
        raise typer.Exit(1)
    for i, h in enumerate(result.hits, 1):
        out.print(f"[bold]{i}. {escape(h.title)}[/bold]  [dim]{escape(h.kind_label)} · {escape(h.game_name)}[/dim]")
        out.print("   " + _markup_snippet(h.snippet))
        out.print(f"   [cyan]build/site/{escape(h.url)}[/cyan]")


def _markup_snippet(snippet: str) -> str:
    # The snippet carries rich markup around matches only; everything else is escaped.
    parts = re.split(r"(\[bold yellow\]|\[/bold yellow\])", snippet)
    return "".join(p if p in ("[bold yellow]", "[/bold yellow]") else escape(p) for p in parts)


@app.command()
def forms(term: str = typer.Argument(..., help="A Polish term in the nominative, e.g. 'walka wręcz'.")) -> None:
    """Print the Polish inflected forms of a term (needs the optional morfeusz2), ready for a term's `forms:`."""
    from .forms import Unavailable, inflect
    try:
        result = inflect(term)
    except Unavailable as exc:
        err.print(str(exc), style="red")
        raise typer.Exit(2)
    print("forms:\n  pl: [" + ", ".join(result) + "]")


@app.command()
def cards(game: str = typer.Argument(..., help="The game id."),
          output: Path = typer.Option(..., "-o", "--output", help="The PDF to write."),
          faction: Optional[str] = typer.Option(None, "--faction", help="Only this faction's units (id)."),
          units: Optional[str] = typer.Option(None, "--units", help="Only these units: id,id:2,... (a count prints "
                                                                  "that many cards)."),
          extra: Optional[Path] = typer.Option(None, "--extra", help="A folder of your own units (YAML), validated "
                                                                    "like the shipped content."),
          size: str = typer.Option("poker", "--size", help="poker (63×88 mm), tarot (70×120 mm) or a6; a card that "
                                                          "does not fit takes the next larger size."),
          paper: str = typer.Option("a4", "--paper", help="a4 or letter."),
          lang: str = typer.Option("pl", "--lang", help="pl or en."),
          content: Optional[Path] = ContentOpt,
          templates: Optional[Path] = typer.Option(None, "--templates", help="Override card.html.j2.")) -> None:
    """Print unit cards to a PDF (WeasyPrint): stats, weapons, skill reminders, and the rules they use."""
    from .cards.content import card as make_card, cards_for
    from .cards.layout import PAPERS, SIZES
    from .cards.pdf import write_pdf
    from .problems import did_you_mean
    from .project import extra_folder_problem
    for name, value, allowed in (("--size", size, SIZES), ("--paper", paper, PAPERS), ("--lang", lang, ("pl", "en"))):
        if value not in allowed:
            _fail(f"{name} must be one of: {', '.join(allowed)}")
    counts = _unit_counts(units) if units is not None else {}
    root, content_dir = _paths(content)
    output = _out_file(output, content_dir, "cards.pdf")
    if extra is not None:
        problem = extra_folder_problem(extra, root, content_dir)
        if problem:
            _fail(f"--extra {extra}: {problem}")
    checked = load_and_check(content_dir, root, extra=extra, extra_game=game if extra else None, keep=True)
    if not _report(checked, quiet_ok=True, after="no cards were printed"):
        raise typer.Exit(1)
    kb = checked.kb
    if game not in kb.games:
        _fail(f"unknown game '{game}'{did_you_mean(game, kb.games)} (games: {', '.join(kb.games)})")
    factions = sorted(e.id for e in kb.of(game, "faction"))
    if faction is not None and faction not in factions:
        _fail(f"unknown faction '{faction}' in {game}{did_you_mean(faction, factions)} "
              f"(factions: {', '.join(factions) or 'none'})")
    chosen = cards_for(kb, game, lang, faction=faction)
    if extra is not None:
        extra_keys = set(checked.extra_units or [])
        chosen = [c for c in chosen if c.key not in extra_keys] + [make_card(kb, kb.get(k), lang) for k in checked.extra_units or []]
    if counts:
        known = sorted({c.key.id for c in chosen})
        unknown = [u for u in counts if u not in known]
        if unknown:
            among = f"{game}" + (f", faction {faction}" if faction else "")
            hint = did_you_mean(unknown[0], known) if len(unknown) == 1 else ""
            shown = ", ".join(known[:40]) + (f" and {len(known) - 40} more" if len(known) > 40 else "")
            _fail(f"unknown unit(s) in {among}: {', '.join(unknown)}{hint} (units: {shown or 'none'})")
        chosen = [c for c in chosen if c.key.id in counts]
        for c in chosen:
            c.count = counts[c.key.id]
    if not chosen:
        _fail("no units to print" + (f": faction {faction} has none" if faction else ""), 1)
    try:
        info = write_pdf(kb, chosen, output, lang, size, paper, templates)
    except OSError as exc:
        _fail(f"cards not written: {_written(exc, output)}", 1)
    out.print(f"wrote {output}: {info['cards']} cards on {info['pages']} pages "
              f"({', '.join(f'{n} {s}' for s, n in info['sizes'].items() if n)})")


def _unit_counts(units: str) -> dict[str, int]:
    """--units 'id,id:2' as {id: count}; a bad part exits with a message (a count of 0 would print nothing
    the roster asked for, an empty list everything)."""
    counts: dict[str, int] = {}
    parts = [part.strip() for part in units.split(",")]
    if not any(parts):
        _fail("--units is empty (fix: name the units to print, e.g. --units id,id:2, or leave --units out to "
              "print every unit)")
    for part in parts:
        if not part:
            continue  # a trailing comma
        uid, colon, n = part.partition(":")
        uid = uid.strip()
        if not uid:
            _fail(f"--units: '{part}' has no unit id (fix: write id or id:count)")
        if colon and not re.fullmatch(r"[0-9]+", n.strip()):
            _fail(f"--units: '{part}': the count must be a whole number (fix: write id or id:count, e.g. {uid}:2)")
        count = int(n) if colon else 1
        if count < 1:
            _fail(f"--units: '{part}': the count must be 1 or more (fix: leave the unit out, or write {uid}:1)")
        counts[uid] = counts.get(uid, 0) + count
    return counts


@app.command()
def fmt(paths: Optional[list[Path]] = typer.Argument(None, help="Files or folders (default: content/)."),
        check: bool = typer.Option(False, "--check", help="Change nothing; exit 1 if a file is not in canonical form.")) -> None:
    """Rewrite content files in canonical form (key order, indentation, width), keeping comments and texts."""
    from ruamel.yaml.error import YAMLError

    from .fmt import format_file
    root = find_root()
    targets = paths or [root / "content"]
    files = []
    for t in targets:
        files += sorted(t.rglob("*.yaml")) if t.is_dir() else [t]
    changed, failed = [], []
    for f in files:
        try:
            if format_file(f, write=not check):
                changed.append(f)
        except (YAMLError, UnicodeDecodeError, OSError) as exc:
            failed.append(f)
            err.print(f"{f}: not formatted: {str(exc).splitlines()[0]} (run kodeks validate for details)", style="red",
                      markup=False)
    for f in changed:
        out.print(("would reformat " if check else "reformatted ") + str(f), markup=False)
    out.print(f"{len(files)} files, {len(changed)} {'to reformat' if check else 'reformatted'}, {len(failed)} unreadable")
    if failed or (check and changed):
        raise typer.Exit(1)


@app.command()
def odds(game: str = typer.Argument(..., help="The game id, e.g. infinity."),
         calculator: Optional[str] = typer.Argument(None, help="The calculator (leave out to list them)."),
         sets: Optional[list[str]] = typer.Option(None, "--set", help="An input: id=value (repeatable), e.g. --set bs=12."),
         attacker: Optional[str] = typer.Option(None, "--attacker", help="A unit (id) whose stats prefill the inputs."),
         defender: Optional[str] = typer.Option(None, "--defender", help="A unit (id) whose stats prefill the inputs."),
         weapon: Optional[str] = typer.Option(None, "--weapon", help="A weapon (id) whose profile prefills the inputs."),
         profile: int = typer.Option(1, "--profile", help="Which of the weapon's profiles (ammunition, mode): 1, 2, ..."),
         band: Optional[str] = typer.Option(None, "--band", help="The weapon's range band: its column (e.g. medium, sr), or 'none' (default: the first it prints)."),
         lang: str = typer.Option("pl", "--lang", help="pl or en."),
         json_out: bool = typer.Option(False, "--json", help="Print the numbers as JSON (exact fractions under 'exact')."),
         content: Optional[Path] = ContentOpt) -> None:
    """Exact chances of a dice test from the game's `odds:` declaration: hits, wounds, face-to-face results."""
    import json

    from .odds.evaluate import OddsError, evaluate
    from .odds.report import as_json, prefill, table
    from .problems import did_you_mean
    if lang not in ("pl", "en"):
        _fail("--lang must be pl or en")
    values: dict = {}
    for item in sets or []:
        key, eq, text = item.partition("=")
        key, text = key.strip(), text.strip().replace("\u2212", "-")
        if not eq or not key or not re.fullmatch(r"[+-]?[0-9]{1,6}", text):
            _fail(f"--set {item}: write id=whole number, e.g. --set bs=12")
        values[key] = int(text)
    root, content_dir = _paths(content)
    checked = load_and_check(content_dir, root, keep=True)
    if not _report(checked, quiet_ok=True, after="no odds were computed"):
        raise typer.Exit(1)
    kb = checked.kb
    with_odds = [g for g in kb.games if kb.games[g].odds is not None]
    if game not in kb.games or kb.games[game].odds is None:
        why = "has no dice to compute" if game in kb.games else "is not a game"
        _fail(f"'{game}' {why}{did_you_mean(game, with_odds)} (known: {', '.join(with_odds)})")
    g = kb.games[game]
    calcs = [c.id for c in g.odds.calculators]
    if calculator is None:
        for c in g.odds.calculators:
            out.print(f"[bold]{escape(c.id)}[/bold]  {escape(c.name.plain(lang) if c.name else '')}")
            out.print("   " + escape(", ".join(f"{i.id}={i.default}" for i in c.inputs)))
        return
    calc = g.odds.calculator(calculator)
    if calc is None:
        _fail(f"unknown calculator '{calculator}' for {game}{did_you_mean(calculator, calcs)} (known: {', '.join(calcs)})")
    entries = {}
    for option, kind, ident in (("--attacker", "unit", attacker), ("--defender", "unit", defender),
                                ("--weapon", "weapon", weapon)):
        if ident is None:
            continue
        entry = next((e for e in kb.of(game, kind) if e.id == ident), None)
        if entry is None:
            known = sorted(e.id for e in kb.of(game, kind))
            _fail(f"{option}: unknown {kind} '{ident}' in {game}{did_you_mean(ident, known)} "
                  f"(known: {', '.join(known[:30])}{' ...' if len(known) > 30 else ''})")
        entries[option] = entry
    wpn = entries.get("--weapon")
    if wpn is None and (band is not None or profile != 1):
        _fail("--band and --profile pick from a weapon's profile: give --weapon too")
    band_index: Optional[int] = 0
    if wpn is not None and calc.weapon is not None and not calc.weapon.takes(wpn):
        _fail(f"--weapon {wpn.id}: {calculator} takes weapons of the categories {', '.join(calc.weapon.categories)}, "
              f"not {wpn.category}")
    if wpn is not None:
        from .odds.weapon import bands as weapon_bands
        if not 1 <= profile <= len(wpn.profiles):
            _fail(f"--profile {profile}: {wpn.id} has {len(wpn.profiles)} profile(s) (known: "
                  + ", ".join(f"{i + 1} {p.name.plain(lang) if p.name else ''}".strip() for i, p in enumerate(wpn.profiles)) + ")")
        fields = {f.key: f for f in g.weapon_profile}
        offered = [b[0] for b in weapon_bands(calc, wpn.profiles[profile - 1], fields, lang)]
        if band is not None:
            if band == "none":
                band_index = None
            elif band in offered:
                band_index = offered.index(band)
            else:
                _fail(f"--band {band}: {wpn.id} prints no such band for {calculator}{did_you_mean(band, offered)} "
                      f"(known: {', '.join(offered + ['none'])})")
    filled, sources = prefill(kb, game, calc, entries.get("--attacker"), entries.get("--defender"), wpn,
                              profile=profile - 1, band=band_index, lang=lang)
    unknown = [k for k in values if calc.input(k) is None]
    if unknown:
        ids = [i.id for i in calc.inputs]
        _fail(f"unknown input '{unknown[0]}' for {game} {calculator}{did_you_mean(unknown[0], ids)} (known: {', '.join(ids)})")
    sources.update({k: "--set" for k in values})
    try:
        outcome = evaluate(g.odds, calc, {**filled, **values})
    except OddsError as exc:
        _fail(f"{game} {calculator}: {exc}")
    if json_out:
        print(json.dumps(as_json(game, outcome), ensure_ascii=False, indent=1))
        return
    out.print(table(g.name.plain(lang), calc, outcome, sources, lang))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted", style="yellow")
        sys.exit(130)
    except BrokenPipeError:
        # The reader of the output left (`kodeks search x | head -1`): nothing more to say, to anyone.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as exc:
        # A write or read the commands do not expect to fail (they report their own): one line, no traceback.
        err.print(f"kodeks: {explain(exc)}", style="red", markup=False, soft_wrap=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
