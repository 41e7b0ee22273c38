"""One language's `mkdocs build`, in a process of its own: `python -m kodeks.site.mkdocs_worker CONFIG RESULT
PARENT_PID [PAGES] [--old OLD_SITE] [--key KEY]` writes to RESULT, as JSON, the warnings mkdocs logged (a broken
link is one) or the error it raised. PAGES, a pickled {docs-relative path: Markdown}, gives mkdocs the pages
from memory. With KEY, pages whose inputs are as when OLD_SITE was built are taken from it (site/partial.py).

The module imports nothing of kodeks and little else, on purpose. A process started by multiprocessing's
"spawn" imports the parent's main module (for `kodeks build`, the whole command line) and the module of the
function it runs before it does any work: 0.5 to 0.8 s per language, which at 1,000 entries was a fifth of
kodeks' overhead over a plain `mkdocs build`. Started as a plain command, this process is rendering pages
after 0.02 s plus mkdocs' own imports, as `mkdocs build` is.

The pages come in one file rather than one file each because a build never needs them on disk: writing a
thousand small files took 0.1 to 1.3 s per language on the same machine, depending on what the disk was
doing. `kodeks serve`, which rebuilds single pages later, and a plain `mkdocs build` still get files.
"""
from __future__ import annotations

import ctypes
import json
import logging
import os
import pickle
import signal
import sys
from contextlib import contextmanager

PAGES = "pages.pickle"  # beside the mkdocs config of a language
NAV = "nav.json"  # beside it too, when the config has no nav


@contextmanager
def mkdocs_warnings():
    """The warnings mkdocs logs inside the block (a broken link is one), as a list filled as they come."""
    warnings: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                warnings.append(record.getMessage())

    logger = logging.getLogger("mkdocs")
    handler = Collect()
    logger.addHandler(handler)
    try:
        yield warnings
    finally:
        logger.removeHandler(handler)


def die_with_parent(parent: int | None = None) -> None:
    """A build killed outright (SIGKILL) must not leave its mkdocs processes behind."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    orphaned = os.getppid() == 1 if parent is None else os.getppid() != parent
    if orphaned:  # the parent died before the call above
        os._exit(1)


def run_mkdocs(config_file: str, pages_file: str | None = None, warnings: list[str] | None = None,
               key: str | None = None, old_site: str | None = None, counts: dict | None = None) -> list[str]:
    """Build one mkdocs site; returns the warnings mkdocs logged (a broken link is one). `warnings`, if
    given, is filled as they come, so that a caller still has them when mkdocs raises. With `key` (what
    every page depends on: kodeks, config, theme), only pages whose inputs changed since the site in
    `old_site` was built are rendered (kodeks.site.partial), and `counts` gets how many were."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    logger = logging.getLogger("mkdocs")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    with mkdocs_warnings() as found:
        try:
            config = load_config(config_file)
            nav = os.path.join(os.path.dirname(config_file), NAV)
            if os.path.exists(nav):
                with open(nav, encoding="utf-8") as fh:
                    config["nav"] = json.load(fh)
            from kodeks.site.escape import sanitizer  # small: html, re and nh3
            config.plugins["kodeks-sanitizer"] = sanitizer()
            from kodeks.site.tidy import tidier  # small: re
            config.plugins["kodeks-tidy"] = tidier()
            from kodeks.site.navmemo import nav_memo  # small: posixpath
            config.plugins["kodeks-nav-memo"] = nav_memo()
            if pages_file is not None:
                with open(pages_file, "rb") as fh:
                    config.plugins["kodeks-pages"] = _pages_plugin(pickle.load(fh))
            if key is None:
                build(config)
            else:
                from kodeks.site import partial  # small: hashlib, json and mkdocs
                done = partial.build(config, old_site, key)
                if counts is not None:
                    counts.update(done)
        finally:
            if warnings is not None:
                warnings += found
    return found


def _pages_plugin(pages: dict[str, str]):
    from mkdocs.plugins import BasePlugin
    from mkdocs.structure.files import File

    class Pages(BasePlugin):
        """Adds the pages as files mkdocs holds in memory, before it builds the navigation from its files."""

        def on_files(self, files, config):
            for src_uri, text in pages.items():
                files.append(File.generated(config, src_uri, content=text))
            return files

    return Pages()


def main(argv: list[str]) -> int:
    config, result, parent, *rest = argv
    die_with_parent(int(parent))
    options = {}
    while len(rest) >= 2 and rest[-2] in ("--key", "--old"):
        options[rest[-2]] = rest[-1]
        rest = rest[:-2]
    said: list[str] = []
    counts: dict = {}
    try:
        outcome = {"warnings": run_mkdocs(config, rest[0] if rest else None, said, key=options.get("--key"),
                                          old_site=options.get("--old"), counts=counts), **counts}
    except BaseException as exc:  # noqa: BLE001 - mkdocs raises many kinds; the author needs the message
        # What mkdocs logged says why ("Aborted with a configuration error!" alone does not).
        outcome = {"error": f"{type(exc).__name__}: {exc}".strip(), "details": said}
    tmp = f"{result}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(outcome, fh)
    os.replace(tmp, result)  # whole or not at all: a missing file means the process died
    return 1 if "error" in outcome else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
