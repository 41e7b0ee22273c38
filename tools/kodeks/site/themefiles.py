"""Files of the Material theme that the kodeks site never loads, left out of the built site.

kodeks has its own search (mkdocs.yml: `plugins: []`), so Material's lunr search and its search worker are
never requested, and source maps (*.map) serve only a developer's browser tools. Shipped, they were 2.2 MB
of each language's 3.6 MB of assets: downloaded by everyone who mirrors or saves the site, for nothing.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

FOLDERS = ("assets/javascripts/lunr", "assets/javascripts/workers")


def unused(rel: str) -> bool:
    """Whether `rel`, a path relative to a language's site root, is one of those files."""
    return rel.endswith(".map") or any(rel == f or rel.startswith(f + "/") for f in FOLDERS)


def remove(site: Path) -> int:
    """Delete them from one language's built site (not from a language site below it); returns the bytes
    removed."""
    removed = 0
    for folder in FOLDERS:
        for here, _, names in os.walk(site / folder):
            removed += sum(os.path.getsize(os.path.join(here, n)) for n in names)
        shutil.rmtree(site / folder, ignore_errors=True)
    for here, _, names in os.walk(site / "assets"):
        for name in names:
            if name.endswith(".map"):
                path = os.path.join(here, name)
                removed += os.path.getsize(path)
                os.remove(path)
    return removed
