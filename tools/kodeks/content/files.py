"""Which files of a content folder are read, and a word about every one that is not.

A file kodeks passes over without a word is content an author believes published: `skill/Jump.YAML`, a
units file dropped beside game.yaml, a link to a file that was moved. Each gets a warning. A folder that
cannot be read is one error about the folder (the caller then does not report its entries as missing).
Names starting with a dot (editors' and version control's files) are passed over in silence.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..problems import Pos, Problems

SUFFIXES = (".yaml", ".yml")


def _hidden(name: str) -> bool:
    return name.startswith(".")


def subfolders(folder: Path, problems: Problems) -> list[Path] | None:
    """The folders in `folder`, sorted; None (reported) if it cannot be read."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError as exc:
        _unreadable(folder, exc, problems)
        return None
    return sorted(Path(e.path) for e in entries if not _hidden(e.name) and _is_dir(e))


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def stray(folder: Path, problems: Problems, allowed: tuple[str, ...], where: str) -> None:
    """Warn about each file directly in `folder` that is not one of `allowed` (nothing reads it)."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return  # reported by whoever lists the folder's subfolders
    for e in entries:
        if _hidden(e.name) or e.name in allowed or _is_dir(e):
            continue
        _warn_skipped(Path(e.path), problems, f"files {where} are not read")


def yaml_files(folder: Path, problems: Problems) -> tuple[list[Path], bool]:
    """Every `.yaml`/`.yml` file under `folder`, sorted, and whether the whole folder could be read. Other
    files, folder links and dangling links are reported as not read."""
    found: list[Path] = []
    complete = True

    def failed(exc: OSError) -> None:
        nonlocal complete
        complete = False
        _unreadable(Path(exc.filename or folder), exc, problems)

    for top, dirs, files in os.walk(folder, onerror=failed):
        base = Path(top)
        for name in sorted(dirs):
            if not _hidden(name) and (base / name).is_symlink():
                problems.warning(base / name, Pos(1, 1), "a link to a folder is not followed: nothing in it is read",
                                 "move or copy the folder here instead of linking it")
        dirs[:] = sorted(d for d in dirs if not _hidden(d))
        for name in files:
            if _hidden(name):
                continue
            path = base / name
            if path.suffix not in SUFFIXES:
                _warn_skipped(path, problems, "only .yaml files hold entries")
            elif not path.is_file():
                problems.warning(path, Pos(1, 1), "a link to a file that does not exist: nothing is read",
                                 "point the link at the file, or delete it")
            else:
                found.append(path)
    return sorted(found), complete


def _warn_skipped(path: Path, problems: Problems, why: str) -> None:
    if path.suffix.lower() in SUFFIXES and path.suffix not in SUFFIXES:
        problems.warning(path, Pos(1, 1), f"not read: the extension '{path.suffix}' is not lower case",
                         f"rename it to {path.stem}.yaml")
    elif path.is_symlink() and not path.exists():
        problems.warning(path, Pos(1, 1), "a link to a file that does not exist: nothing is read",
                         "point the link at the file, or delete it")
    else:
        problems.warning(path, Pos(1, 1), f"not read: {why}",
                         "move entries into a kind folder (e.g. skill/) as .yaml files, or delete the file")


def _unreadable(folder: Path, exc: OSError, problems: Problems) -> None:
    problems.error(folder, Pos(1, 1), f"cannot read the folder: {exc.strerror or exc}",
                   "check its permissions (kodeks needs to list and read it)")
