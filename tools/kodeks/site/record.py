"""What a build was made from, as digests, so that the next build can tell what changed.

Three levels, from the cheapest check to the finest:
- `sources`: every file the build reads (content, the project's mkdocs.yml, template overrides) and the
  engine. Equal to the last build's: the site is up to date and nothing is done at all.
- `language_key`: what every page of one language depends on (engine, config without its navigation,
  theme). Different: every page of that language is rendered again.
- per page (site/partial.py): its Markdown and the part of the navigation it shows.

Making the Markdown is itself kept short by two caches in build/.cache: each YAML file's data by its bytes
(content/parsecache.py), and each page's Markdown with the facts of the model it was made from
(site/pagecache.py), so a small edit reads, renders and digests little more than what it touched.

The engine is kodeks' own files (code, templates, theme overrides, assets) and the versions of the
libraries that turn Markdown into pages, so a new kodeks or mkdocs never reuses a page made by the old one.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib import metadata
from pathlib import Path

BUILD_RECORD = ".kodeks-build.json"  # in the site's root, beside the Polish pages' record
RENDERERS = ("mkdocs", "mkdocs-material", "markdown", "pymdown-extensions", "nh3", "jinja2", "pygments",
             "whoosh-reloaded")
PACKAGE = Path(__file__).resolve().parents[1]


def _walk(folder: Path, h) -> None:
    """Every file below `folder` (names and bytes) into `h`, in a fixed order."""
    for dirpath, dirnames, names in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        rel = os.path.relpath(dirpath, folder)
        for name in sorted(names):
            if name.endswith(".pyc"):
                continue
            path = os.path.join(dirpath, name)
            h.update(f"\0{rel}/{name}\0".encode())
            try:
                with open(path, "rb") as fh:
                    h.update(hashlib.sha256(fh.read()).digest())
            except OSError:
                h.update(b"?")


def engine() -> str:
    """kodeks' own files and the versions of the libraries that render the site (read each time: a serve
    that runs for hours may see the theme overrides edited)."""
    h = hashlib.sha256(sys.version.encode())
    _walk(PACKAGE, h)
    for name in RENDERERS:
        try:
            h.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name}=-".encode())
    return h.hexdigest()[:32]


def sources(content: Path, config: Path, templates: Path | None, options: dict) -> str:
    """Everything a build reads, as one digest (see the module's doc)."""
    h = hashlib.sha256(engine().encode())
    h.update(json.dumps(options, sort_keys=True).encode())
    _walk(content, h)
    for extra in (config, templates):
        if extra is None:
            continue
        h.update(f"\0{extra.name}\0".encode())
        if extra.is_dir():
            _walk(extra, h)
        elif extra.is_file():
            h.update(hashlib.sha256(extra.read_bytes()).digest())
    return h.hexdigest()[:32]


def language_key(config: dict, base: Path) -> str:
    """What every page of one language depends on: the engine, the project's mkdocs.yml and the generated
    config but for where it is written and its navigation (which partial.py digests page by page)."""
    kept = {k: v for k, v in config.items() if k not in ("docs_dir", "site_dir", "nav", "INHERIT")}
    h = hashlib.sha256(engine().encode())
    h.update(json.dumps(kept, sort_keys=True, ensure_ascii=False, default=str).encode())
    try:
        h.update(base.read_bytes())
    except OSError:
        h.update(b"?")
    return h.hexdigest()[:32]


def read(site: Path) -> dict:
    """The last build's record in `site` ({} when there is none or it cannot be read)."""
    try:
        data = json.loads((site / BUILD_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write(site: Path, data: dict) -> None:
    tmp = site / (BUILD_RECORD + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    os.replace(tmp, site / BUILD_RECORD)


def forget(site: Path) -> None:
    """The site is about to change in place (`kodeks serve`): the next build may not skip its work."""
    data = read(site)
    if data.get("sources") is not None:
        data["sources"] = None
        write(site, data)
