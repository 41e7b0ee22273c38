"""Where things are: the project root, content/, build/, and how a run loads and checks content."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import checks
from .content.loader import Loaded, load
from .problems import Problems


def find_root(start: Path | None = None) -> Path:
    """The nearest folder upwards that has content/ or mkdocs.yml; else the current folder."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "mkdocs.yml").is_file() and (folder / "content").is_dir():
            return folder
    return here


@dataclass
class Checked:
    loaded: Loaded
    problems: Problems
    extra_units: list = None

    @property
    def kb(self):
        return self.loaded.kb

    @property
    def ok(self) -> bool:
        return not self.problems.errors


def load_and_check(content: Path, root: Path | None = None, extra: Path | None = None,
                   extra_game: str | None = None, keep: bool = False, parse_cache: Path | None = None) -> Checked:
    """Load content/ (and a player's extra folder for one game) and run every check; usable only when `ok`.

    `keep`: the caller is a command that holds the model until its process ends (see gc_paused).
    `parse_cache`: a file where the data of the files read is kept for the next run (content/parsecache.py)."""
    from .content.loader import load_extra
    from .content.parsecache import ParseCache
    problems = Problems(root=root or content.parent)
    parsed = ParseCache(parse_cache) if parse_cache is not None else None
    with gc_paused(freeze=keep):
        loaded = load(content, problems, parsed=parsed)
        checked = Checked(loaded, problems)
        if extra is not None and extra_game is not None:
            checked.extra_units = load_extra(loaded, extra, extra_game, problems)
        checks.run(loaded, problems)
    if parsed is not None:
        parsed.save()
    return checked


def extra_folder_problem(folder: Path, root: Path, content: Path) -> str | None:
    """What is wrong with `folder` as a player's folder of extra units (`cards --extra`), or None. Looked at
    from its top only, before it is read: a wrong folder (/, home) would otherwise be walked whole, every
    YAML file in it reported as a bad unit."""
    from .content.schemas import KINDS
    fix = "(fix: pass a folder that holds your units' YAML files, other entries in subfolders named after their kind)"
    if not folder.is_dir():
        return f"no such folder {fix}"
    real = folder.resolve()
    if real == Path(real.anchor) or real == Path.home().resolve() or real == root.resolve():
        return f"that is not a folder of units {fix}"
    if real == content.resolve() or content.resolve() in real.parents:
        return f"that is inside the content folder, which is read anyway {fix}"
    try:
        children = [c for c in folder.iterdir() if not c.name.startswith(".")]
    except OSError as exc:
        return f"cannot be read ({exc.strerror}) {fix}"
    strays = sorted(c.name for c in children if c.is_dir() and c.name not in KINDS)
    if strays:
        shown = ", ".join(strays[:5]) + (f" and {len(strays) - 5} more" if len(strays) > 5 else "")
        return f"not a folder of units: its subfolders {shown} are not kinds ({', '.join(KINDS)}) {fix}"
    if not any(c.suffix.lower() in (".yaml", ".yml") for c in children if c.is_file()) \
            and not any(c.is_dir() for c in children):
        return f"holds no YAML files {fix}"
    return None


@contextmanager
def gc_paused(freeze: bool = False):
    """No cycle collection inside the block. Loading builds millions of objects that all stay alive, and each
    full collection walks every one of them: at 10,000 entries that was half of the validation time, and it
    grew faster than the content. What the block leaves as cyclic garbage is collected after it.

    With `freeze`, every object alive at the end of the block is left out of all later collections, for a
    process that keeps them until it exits (a command of the CLI). Otherwise the collector walks them all
    again once per generation only to find them alive: 0.45 s of a build at 1,000 entries. A long-lived
    process that replaces its model (`kodeks serve`) must not freeze: the old model's cycles would stay."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was:
            gc.enable()
