"""Where kodeks may write, and what to say when it cannot.

An output folder (`--out`) receives folders kodeks makes whole and later replaces whole: site/ and search/
(live/ for `kodeks serve`). Each gets a marker file when it is made, and kodeks replaces a folder only if
the marker is there, or if it is a site or search index that a kodeks from before the markers built. A
folder of the user's that happens to have one of those names is never deleted: the build stops and says so.
The project itself, its content, the home folder and / are refused as output folders outright.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path

MARKER = ".kodeks-made"
_MARKER_TEXT = "kodeks made this folder and replaces it whole at the next build: keep nothing of yours here.\n"


class OutputError(Exception):
    """A place kodeks must not or cannot write to; the message is one line that says what to do."""


def check_out(out: Path, root: Path, content: Path, option: str = "--out") -> Path:
    """`out` as an absolute path, if kodeks may make its folders in it; OutputError otherwise."""
    out = out.expanduser().absolute()
    real = out.resolve()
    fix = f"pass a folder of its own, e.g. {option} build"
    if real == Path(real.anchor):
        raise OutputError(f"{option} {out}: kodeks does not write into the top of the file system (fix: {fix})")
    if real == Path.home().resolve():
        raise OutputError(f"{option} {out}: kodeks does not write into your home folder (fix: {fix})")
    if real == root.resolve():
        raise OutputError(f"{option} {out}: that is the project folder itself (fix: {fix})")
    content_real = content.resolve()
    if real == content_real or content_real in real.parents:
        raise OutputError(f"{option} {out}: that is inside the content folder, where every folder is read as "
                          f"content (fix: {fix})")
    if out.exists() and not out.is_dir():
        raise OutputError(f"{option} {out}: that is a file, not a folder (fix: {fix})")
    return out


def check_file(path: Path, content: Path, example: str, option: str = "-o") -> Path:
    """`path` as an absolute path, if kodeks may write a file there (PDF, JSON); OutputError otherwise.
    `example` is a file name to suggest when `path` is a folder."""
    given = str(path)
    path = path.expanduser().absolute()
    if given.endswith(("/", os.sep)) or path.is_dir() or path.name in ("", ".", ".."):
        raise OutputError(f"{option} {given}: that is a folder; kodeks writes one file "
                          f"(fix: name the file, e.g. {option} {Path(given) / example})")
    content_real = content.resolve()
    if content_real in path.resolve().parents:
        raise OutputError(f"{option} {given}: that is inside the content folder, where every file is read as "
                          f"content (fix: write it elsewhere, e.g. into build/)")
    return path


def ours(folder: Path) -> bool:
    """Whether kodeks made `folder` (site/, search/ or live/ of an output folder)."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    if (folder / MARKER).is_file():
        return True
    # Made by a kodeks from before the markers: recognised by what only kodeks puts there.
    if (folder / "sw.js").is_file() and (folder / "assets" / "kodeks.js").is_file():
        return True  # a site
    children = [c for c in folder.iterdir()]
    if children and all(c.name in ("pl", "en", "pl.tmp", "en.tmp") for c in children):
        return all((c / "index.json").is_file() for c in children if not c.name.endswith(".tmp"))  # search/
    if children and all(c.name == "current" or c.name.startswith(".next-") for c in children):
        return (folder / "current" / "pl" / "mkdocs.yml").is_file()  # live/
    return False


def claim(folder: Path) -> None:
    """Make sure kodeks may replace or fill `folder`: it is missing or kodeks made it; OutputError if not."""
    if not folder.exists() and not folder.is_symlink():
        return
    if not ours(folder):
        raise OutputError(f"{folder} exists and kodeks did not make it (it has no {MARKER} file); kodeks "
                          f"replaces only folders it built (fix: move that folder away, or build elsewhere "
                          f"with --out DIR)")


def make(folder: Path) -> Path:
    """Create `folder` (claimed before) if needed and mark it as kodeks'."""
    folder.mkdir(parents=True, exist_ok=True)
    mark(folder)
    return folder


def mark(folder: Path) -> None:
    marker = folder / MARKER
    if not marker.is_file():
        marker.write_text(_MARKER_TEXT, encoding="utf-8")


_REASONS = {
    errno.ENOSPC: ("disk full", "free some space, or write elsewhere"),
    errno.EDQUOT: ("disk quota exceeded", "free some space, or write elsewhere"),
    errno.EROFS: ("read-only file system", "write to a folder you can write to"),
    errno.EACCES: ("permission denied", "write to a folder you can write to"),
    errno.EPERM: ("not permitted", "write to a folder you can write to"),
    errno.ENOTDIR: ("a file stands where a folder should be", "pass a folder, or move the file away"),
    errno.EISDIR: ("that is a folder, not a file", "name a file"),
    errno.ENOENT: ("no such file or folder", "check the path"),
    errno.EFBIG: ("file too large", "check the file size limit (ulimit -f)"),
    errno.ENAMETOOLONG: ("name too long", "use a shorter path"),
    errno.EINVAL: ("not a place files can be written to", "write to an ordinary folder"),
}


def explain(exc: OSError, where: Path | str | None = None) -> str:
    """One line for an OSError: where (`where`, else the file the error names), what, and what to do."""
    what, fix = _REASONS.get(exc.errno, (exc.strerror or str(exc), ""))
    where = where if where is not None else exc.filename if exc.filename is not None else ""
    text = f"{where}: {what}" if where else what
    return f"{text} (fix: {fix})" if fix else text


def disk_full(exc: BaseException | None = None, text: str = "", folder: Path | None = None) -> bool:
    """Whether a failure was the disk running full: the error itself, what a child process printed, or the
    folder it wrote to having no space left."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    if "No space left on device" in text or "[Errno 28]" in text or "Disk quota exceeded" in text:
        return True
    if folder is not None:
        try:
            st = os.statvfs(folder)
        except OSError:
            return False
        return st.f_bavail == 0 and st.f_blocks > 0
    return False


def keep(path: Path, data) -> None:
    """Pickle `data` into a cache file of kodeks', whole or not at all (written beside it, then renamed over
    it). A failed write (disk full...) leaves no file and raises nothing: a cache is only a cache, and the
    build stops where it writes the site."""
    import pickle
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
