"""`kodeks fmt`: content files in one canonical form, with every comment and every text kept.

Keys of an entry follow the order of the content model (id and name first, source last), bilingual texts
are pl then en, indentation is uniform and lines wrap at a fixed width. Keys no order list names come after
the listed ones: the fields kodeks knows, and the keys of stats, values and other mappings of the author's
own keys, in the order they were written (a stat line follows its book); then keys kodeks does not know, in
alphabetical order. A comment on lines of its own moves with the key below it. Values never change: the file
loads to the same data before and after, and formatting twice changes nothing.

A file is written whole or not at all, with its permissions kept; a link to a file stays a link (its
target is rewritten).
"""
from __future__ import annotations

import io
import json
import os
from functools import lru_cache
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .content.depth import MAX_DEPTH, too_deep
from .problems import Pos, printable
from .yamlcomments import put_above, put_trailing, take_trailing

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


# Mappings whose keys are the author's (stat keys, languages, kinds): all of them are known.
OWN_KEYS = {"stats", "values", "forms", "synonyms", "aliases", "kinds"}


@lru_cache(maxsize=1)
def _known_fields() -> frozenset:
    """Every field name the schemas define."""
    from .content.schemas import schema_dir
    names: set = set()
    stack = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(schema_dir().glob("*.schema.json"))]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                names.update(node["properties"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(names)


def _reorder(node: CommentedMap, order: list[str], own_keys: bool) -> None:
    keys = list(node.keys())
    known = _known_fields()
    rest = [k for k in keys if k not in order]
    wanted = ([k for k in order if k in node] + [k for k in rest if own_keys or k in known]
              + sorted((k for k in rest if not own_keys and k not in known), key=str))
    if wanted == keys:
        return
    above = {k: take_trailing(node, prev) for prev, k in zip(keys, keys[1:])}
    tail = take_trailing(node, keys[-1])
    for k in wanted:
        node.move_to_end(k)
    for k, text in above.items():
        if text:
            put_above(node, k, text)
    if tail:
        put_trailing(node, wanted[-1], tail)


def _walk(node, top: bool, order: list[str], own_keys: bool = False) -> None:
    if isinstance(node, CommentedMap):
        _reorder(node, order if top else NESTED_ORDER, own_keys)
        for k, v in node.items():
            _walk(v, False, order, k in OWN_KEYS)
    elif isinstance(node, CommentedSeq):
        for item in node:
            _walk(item, top, order)


class FormatError(YAMLError):
    """A file fmt cannot format, located: `line:col: what is wrong (fix: ...)`."""

    def __init__(self, pos: Pos, message: str, fix: str):
        super().__init__(printable(f"{pos.line}:{pos.col}: {message} (fix: {fix})"))
        self.pos, self.message, self.fix = pos, message, fix


def format_text(text: str, game_file: bool = False) -> str:
    """The canonical form of a content file's text (raises ruamel's errors on YAML it cannot read)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    y = _yaml()
    deep = too_deep(text, y.parse, gate=MAX_DEPTH)  # ruamel's Python composer fails far below what libyaml takes
    if deep is not None:
        raise FormatError(deep, f"nesting deeper than {MAX_DEPTH} levels", "flatten the structure")
    try:
        data = y.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = Pos(mark.line + 1, mark.column + 1) if mark is not None else Pos()
        raise FormatError(pos, f"YAML syntax: {exc.problem or exc.context}",
                          "run kodeks validate for the details") from None
    except (ValueError, TypeError, IndexError, KeyError, AttributeError) as exc:
        # ruamel's own constructors fail on some odd scalars (a float such as `1e2e3` splits into three
        # parts): what it cannot read, fmt cannot format; validate, with libyaml, says where the value is.
        raise FormatError(Pos(), f"YAML that fmt's reader cannot read ({type(exc).__name__}: {exc})",
                          "run kodeks validate for the details") from None
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
        _write(path, new)
    return True


def _write(path: Path, text: str) -> None:
    # Into a link's target: replacing the link by a file would cut it off from what it points to.
    target = path.resolve() if path.is_symlink() else path
    mode = target.stat().st_mode & 0o7777
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8", newline="\n") as fh:
            os.fchmod(fh.fileno(), mode)  # 600 stays 600: the new file would get the umask's 644
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a failed write (disk full, file size limit) leaves nothing behind
        raise
