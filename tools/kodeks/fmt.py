"""`kodeks fmt`: content files in one canonical form, with every comment and every text kept.

Keys of an entry follow the order of the content model (id and name first, source last), bilingual texts
are pl then en, indentation is uniform and lines wrap at a fixed width. Values never change: the file
loads to the same data before and after, and formatting twice changes nothing.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

ENTRY_ORDER = ["id", "name", "number", "parent", "order", "category", "faction", "type", "summary", "text",
               "stats", "parts", "profiles", "traits", "weapons", "skills", "equipment", "options", "values",
               "levels", "forms", "synonyms", "abbreviations", "target", "tables", "aliases", "notes", "gaps",
               "see_also", "source", "redirects"]
GAME_ORDER = ["id", "name", "summary", "edition", "publisher", "authors", "trademarks", "books", "dice",
              "stat_line", "part_line", "weapon_profile", "kinds", "notes"]
NESTED_ORDER = ["pl", "en", "key", "abbr", "ref", "level", "count", "type", "book", "section", "page", "lines", "gap",
                "caption", "columns", "rows"]
WIDTH = 120


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = WIDTH
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def _reorder(node: CommentedMap, order: list[str]) -> None:
    keys = list(node.keys())
    wanted = [k for k in order if k in node] + [k for k in keys if k not in order]
    if wanted == keys:
        return
    for k in wanted:
        node.move_to_end(k)


def _walk(node, top: bool, order: list[str]) -> None:
    if isinstance(node, CommentedMap):
        _reorder(node, order if top else NESTED_ORDER)
        for v in node.values():
            _walk(v, False, order)
    elif isinstance(node, CommentedSeq):
        for item in node:
            _walk(item, top, order)


def format_text(text: str, game_file: bool = False) -> str:
    """The canonical form of a content file's text (raises ruamel's errors on YAML it cannot read)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    y = _yaml()
    data = y.load(text)
    if data is None:
        return text
    order = GAME_ORDER if game_file else ENTRY_ORDER
    if isinstance(data, CommentedSeq):
        for item in data:
            _walk(item, True, order)
    else:
        _walk(data, True, order)
    buf = io.StringIO()
    y.dump(data, buf)
    return buf.getvalue()


def format_file(path: Path, write: bool = True) -> bool:
    """Format one file in place (atomically); True if it changed."""
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig")
    new = format_text(text, game_file=path.name == "game.yaml")
    if new == text and not raw.startswith(b"\xef\xbb\xbf"):
        return False
    if write:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(new, encoding="utf-8", newline="\n")
        tmp.replace(path)
    return True
