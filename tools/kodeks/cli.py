"""The `kodeks` command: validate, build, serve, new, stats, export."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from .project import Checked, find_root, load_and_check

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="kodeks: YAML rules in, a bilingual cross-linked reference site out.")
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

ContentOpt = typer.Option(None, "--content", help="The content folder (default: content/ in the project root).")


def _paths(content: Optional[Path]) -> tuple[Path, Path]:
    root = find_root()
    return root, (content or root / "content")


def _report(checked: Checked, quiet_ok: bool = False) -> bool:
    """Print every problem (errors and warnings); True if there are no errors."""
    for problem in checked.problems.sorted():
        style = "red" if problem.severity == "error" else "yellow"
        err.print(problem.format(), style=style, markup=False, soft_wrap=True)
    n_err, n_warn = len(checked.problems.errors), len(checked.problems.warnings)
    if n_err:
        err.print(f"{n_err} error(s), {n_warn} warning(s): nothing was built.", style="bold red")
        return False
    if not quiet_ok:
        out.print(f"[green]ok[/green]: {len(checked.kb.games)} games, {len(checked.kb.entries)} entries, "
                  f"{n_warn} warning(s)")
    return True


@app.command()
def validate(content: Optional[Path] = ContentOpt) -> None:
    """Check every content file; report every problem as path:line:col."""
    root, content_dir = _paths(content)
    checked = load_and_check(content_dir, root)
    if not _report(checked):
        raise typer.Exit(1)


@app.command()
def stats(content: Optional[Path] = ContentOpt,
          game: Optional[str] = typer.Option(None, "--game", help="Only this game."),
          json_out: bool = typer.Option(False, "--json", help="Print the figures as JSON.")) -> None:
    """Entries per game and kind, English coverage and gaps, as a table."""
    from .stats import compute, render_table
    root, content_dir = _paths(content)
    checked = load_and_check(content_dir, root)
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


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted", style="yellow")
        sys.exit(130)


if __name__ == "__main__":
    main()
