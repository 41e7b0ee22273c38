"""Page addresses. Every renderer that needs an address (pages, search, export, cards) asks here.

Addresses are stable: they derive from the game, kind and id; a numbered rule's address starts with its
number (players cite '5.7.2'), and former ids get redirect pages.
"""
from __future__ import annotations

from functools import lru_cache

from ..model.entry import Entry
from ..model.ids import Key


def entry_slug(entry: Entry) -> str:
    if entry.kind == "rule" and entry.number:
        return entry.number.replace(".", "-").lower() + "-" + entry.id
    return entry.id


def entry_path(entry: Entry) -> str:
    """Path of the entry's Markdown page inside a language's docs folder."""
    return f"{entry.game}/{entry.kind}/{entry_slug(entry)}.md"


def html_path(md_path: str) -> str:
    return md_path[:-3] + ".html"


def kind_index(game: str, kind: str) -> str:
    return f"{game}/{kind}/index.md"


def game_index(game: str) -> str:
    return f"{game}/index.md"


def relative(from_md: str, to_md: str, anchor: str = "") -> str:
    """A relative link from one page to another (mkdocs rewrites .md to .html and checks it)."""
    return _relative(from_md, to_md) + (f"#{anchor}" if anchor else "")


@lru_cache(maxsize=65536)
def _relative(from_md: str, to_md: str) -> str:
    # Both are clean paths from the site root; posixpath.relpath would also resolve them against the
    # working directory, which costs more than everything else in linking a page.
    src = from_md.split("/")[:-1]
    dst = to_md.split("/")
    common = 0
    while common < len(src) and common < len(dst) - 1 and src[common] == dst[common]:
        common += 1
    return "/".join([".."] * (len(src) - common) + dst[common:])


def redirect_paths(entry: Entry) -> list[str]:
    """Old page paths that must keep working: former ids."""
    out = []
    for old in entry.redirects:
        out.append(f"{entry.game}/{entry.kind}/{old}.md")
    if entry.kind == "rule" and entry.number:
        out.append(f"{entry.game}/{entry.kind}/{entry.id}.md")  # the address without the number
    return out


def site_url(key: Key, kb, lang: str = "pl") -> str | None:
    """Site-relative address of an entry's page (for search results, export)."""
    entry = kb.get(key)
    if entry is None:
        return None
    prefix = "" if lang == "pl" else "en/"
    return prefix + html_path(entry_path(entry))
