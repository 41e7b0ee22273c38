"""The `kodeks` command: validate, build, serve, new, stats, export."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from .project import Checked, find_root, load_and_check

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="kodeks: YAML rules in, a bilingual cross-linked reference site out.")
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

ContentOpt = typer.Option(None, "--content", help="The content folder (default: content/ in the project root).")


def _paths(content: Optional[Path]) -> tuple[Path, Path]:
    root = find_root()
    return root, (content or root / "content")


def _report_problems(problems) -> bool:
    """Print every problem (errors and warnings); True if there are no errors."""
    for problem in problems.sorted():
        style = "red" if problem.severity == "error" else "yellow"
        err.print(problem.format(), style=style, markup=False, soft_wrap=True)
    n_err, n_warn = len(problems.errors), len(problems.warnings)
    if n_err:
        err.print(f"{n_err} error(s), {n_warn} warning(s): nothing was built.", style="bold red")
        return False
    return True


def _report(checked: Checked, quiet_ok: bool = False) -> bool:
    """Print every problem (errors and warnings); True if there are no errors."""
    if not _report_problems(checked.problems):
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
    if not _report(checked):
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
          no_pdf: bool = typer.Option(False, "--no-pdf", help="Skip the card PDFs offered for download (faster previews).")) -> None:
    """Validate, then build the bilingual site into build/site (PL at /, EN at /en/)."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from .site.build import BuildError, build_site
    root, content_dir = _paths(content)
    out_dir = out_dir or root / "build"
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=err,
                  transient=True) as progress:
        task = progress.add_task("validating content", total=None)
        checked = load_and_check(content_dir, root, keep=True)
        progress.stop_task(task)
    if not _report(checked, quiet_ok=True):
        raise typer.Exit(1)
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=err,
                  transient=True) as progress:
        task = progress.add_task("building", total=None)
        try:
            result = build_site(checked.kb, root, out_dir, templates,
                                progress=lambda step: progress.update(task, description=f"building: {step}"),
                                parallel=not sequential, pdf=not no_pdf)
        except BuildError as exc:
            progress.stop()
            err.print(f"build failed: {exc}", style="bold red")
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
    checked = load_and_check(content_dir, root, keep=True)
    if not _report(checked, quiet_ok=True):
        raise typer.Exit(1)
    output = output or root / "build" / "kb.json"
    n = write(checked.kb, output)
    out.print(f"wrote {output} ({n} entries)")


@app.command()
def serve(content: Optional[Path] = ContentOpt,
          host: str = typer.Option("127.0.0.1", help="Address to listen on (default: this machine only)."),
          port: int = typer.Option(8000, help="Port."),
          out_dir: Optional[Path] = typer.Option(None, "--out", help="Where to build (default: build/)."),
          templates: Optional[Path] = typer.Option(None, "--templates")) -> None:
    """Build, serve the site on http://127.0.0.1:8000 and rebuild when a content file changes."""
    import threading

    from . import serve as srv
    from .site.build import BuildError
    from .site.live import LiveSite
    root, content_dir = _paths(content)
    out_dir = out_dir or root / "build"
    state = srv.State()
    live = LiveSite(content_dir, root, out_dir, templates)
    watched_config = [root / "mkdocs.yml"] + ([templates] if templates else [])
    config_seen = srv.snapshot(watched_config)

    def bump() -> None:
        # The changed entries' pages are written: reload them now, not after print pages and the index.
        with state.lock:
            state.version += 1

    def rebuild() -> bool:
        nonlocal config_seen
        now = srv.snapshot(watched_config)
        try:
            # A change of mkdocs.yml or of a template touches every page: build everything.
            result = live.full() if now != config_seen or live.kb is None else live.update(ready=bump)
        except BuildError as exc:
            err.print(f"build failed: {exc}", style="red")
            state.last_error = str(exc)
            return False
        config_seen = now
        if not _report_problems(result.problems):
            state.last_error = "content has errors"
            return False
        for line in result.warnings[:20]:
            err.print("  " + line, markup=False)
        state.last_error = ""
        if result.full:
            out.print(f"built {result.pages} pages per language in {result.seconds:.1f} s")
        elif result.changed:
            out.print(f"{len(result.changed)} changed entr{'y' if len(result.changed) == 1 else 'ies'}: "
                      f"{result.pages} page(s) per language rebuilt in {result.seconds:.2f} s, "
                      f"search index in {result.index_seconds:.2f} s")
        return True

    rebuild()
    if not live.site.exists():
        err.print("no site to serve: fix the errors above", style="red")
        raise typer.Exit(1)
    server = srv.serve(live.site, host, port, state)
    stop = threading.Event()
    watched = [content_dir, root / "mkdocs.yml"] + ([templates] if templates else [])
    threading.Thread(target=srv.watch, args=(watched, rebuild, state, stop), daemon=True).start()
    out.print(f"serving http://{host}:{port}/ (Ctrl+C to stop); watching {content_dir}")
    try:
        server.serve_forever()
    finally:
        stop.set()
        server.server_close()


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
    if not _report(checked, quiet_ok=True):
        raise typer.Exit(1)
    for lg in ("pl", "en"):
        build_index(checked.kb, lg, out_dir / "search" / lg)
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
    if lang not in ("pl", "en"):
        err.print("--lang must be pl or en", style="red")
        raise typer.Exit(2)
    root, content_dir = _paths(content)
    engine = _search_index(root, content_dir, out_dir or root / "build", lang)
    if game and game not in engine.games:
        err.print(f"unknown game '{game}'; games: {', '.join(sorted(engine.games))}", style="red")
        raise typer.Exit(2)
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
          units: Optional[str] = typer.Option(None, "--units", help="Only these units: id,id:2,... (a count folds "
                                                                  "identical cards into one marked ×N)."),
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
    for name, value, allowed in (("--size", size, SIZES), ("--paper", paper, PAPERS), ("--lang", lang, ("pl", "en"))):
        if value not in allowed:
            err.print(f"{name} must be one of: {', '.join(allowed)}", style="red")
            raise typer.Exit(2)
    root, content_dir = _paths(content)
    checked = load_and_check(content_dir, root, extra=extra, extra_game=game if extra else None, keep=True)
    if not _report(checked, quiet_ok=True):
        raise typer.Exit(1)
    kb = checked.kb
    if game not in kb.games:
        err.print(f"unknown game '{game}'; games: {', '.join(kb.games)}", style="red")
        raise typer.Exit(2)
    chosen = cards_for(kb, game, lang, faction=faction)
    if extra is not None:
        extra_keys = set(checked.extra_units or [])
        chosen = [c for c in chosen if c.key not in extra_keys] + [make_card(kb, kb.get(k), lang) for k in checked.extra_units or []]
    counts: dict[str, int] = {}
    if units:
        for part in units.split(","):
            uid, _, n = part.strip().partition(":")
            if not uid:
                continue
            if not n.isdigit() and n:
                err.print(f"--units: '{part}' should be id or id:count", style="red")
                raise typer.Exit(2)
            counts[uid] = counts.get(uid, 0) + int(n or 1)
        known = {c.key.id for c in chosen}
        unknown = [u for u in counts if u not in known]
        if unknown:
            err.print(f"unknown unit(s) in {game}: {', '.join(unknown)}", style="red")
            raise typer.Exit(2)
        chosen = [c for c in chosen if c.key.id in counts]
        for c in chosen:
            c.count = counts[c.key.id]
    if not chosen:
        err.print("no units to print", style="red")
        raise typer.Exit(1)
    info = write_pdf(kb, chosen, output, lang, size, paper, templates)
    out.print(f"wrote {output}: {info['cards']} cards on {info['pages']} pages "
              f"({', '.join(f'{n} {s}' for s, n in info['sizes'].items() if n)})")


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


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted", style="yellow")
        sys.exit(130)


if __name__ == "__main__":
    main()
