"""What game.yaml can get wrong that its schema cannot see: a declaration that contradicts itself.

A stat whose `min` is above its `max`, a `pattern` that is not a regular expression, or a key, book, die or
category declared twice is reported here, in game.yaml where it is written. The game is then built from
a copy without the contradiction (the bounds dropped, the pattern accepting any text, the second
declaration left out), so the entries are not flooded with errors that all come from this one place, and
nothing downstream ever compiles a broken pattern.
"""
from __future__ import annotations

import re

from ..problems import Problems
from .yamlfile import YamlFile

ANY_TEXT = r"[\s\S]*"


def checked(yf: YamlFile, problems: Problems) -> dict:
    """game.yaml's data (schema-valid) with every contradiction reported and taken out."""
    data = dict(yf.data)
    data["books"] = _unique(yf, data.get("books"), ("books",), "id", "book", problems)
    data["dice"] = _unique(yf, data.get("dice"), ("dice",), "id", "die", problems)
    data["stat_line"] = _fields(yf, data.get("stat_line"), ("stat_line",), problems)
    if "weapon_profile" in data:
        data["weapon_profile"] = _fields(yf, data["weapon_profile"], ("weapon_profile",), problems)
    if isinstance(data.get("part_line"), dict):
        part = data["part_line"] = dict(data["part_line"])
        part["fields"] = _fields(yf, part.get("fields"), ("part_line", "fields"), problems)
    kinds = data["kinds"] = dict(data.get("kinds") or {})
    for kind, conf in kinds.items():
        if not isinstance(conf, dict):
            continue
        conf = kinds[kind] = dict(conf)
        if "fields" in conf:
            conf["fields"] = _fields(yf, conf["fields"], ("kinds", kind, "fields"), problems)
        if "categories" in conf:
            conf["categories"] = _unique(yf, conf["categories"], ("kinds", kind, "categories"), "id", "category",
                                         problems)
    return data


def _unique(yf: YamlFile, items, path: tuple, key: str, what: str, problems: Problems) -> list:
    return [item for _, item in _first_of_each(yf, items, path, key, what, problems)]


def _first_of_each(yf: YamlFile, items, path: tuple, key: str, what: str, problems: Problems) -> list[tuple]:
    """(index in the file, item) of the items whose `key` was not declared before; reports the others."""
    out, first = [], {}
    for i, item in enumerate(items or []):
        name = item.get(key) if isinstance(item, dict) else None
        if name in first:
            prev = yf.pos(path + (first[name], key))
            problems.error(yf.path, yf.pos(path + (i, key)), f"the {what} '{name}' is declared twice (first at line "
                           f"{prev.line}, column {prev.col})", "keep one of the two declarations")
            continue
        if name is not None:
            first[name] = i
        out.append((i, item))
    return out


def _fields(yf: YamlFile, items, path: tuple, problems: Problems) -> list:
    out = []
    for i, fd in _first_of_each(yf, items, path, "key", "field", problems):
        fd = dict(fd)
        where = path + (i,)
        lo, hi = fd.get("min"), fd.get("max")
        if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and lo > hi:
            problems.error(yf.path, yf.pos(where + ("min",)), f"field '{fd.get('key')}': min {lo:g} is greater than "
                           f"max {hi:g}", "swap them, or correct the one the book does not print")
            fd.pop("min")
            fd.pop("max")
        pattern = fd.get("pattern")
        if isinstance(pattern, str):
            try:
                re.compile(pattern)
            except (re.error, RecursionError, OverflowError) as exc:
                reason = getattr(exc, "msg", None) or str(exc)
                problems.error(yf.path, yf.pos(where + ("pattern",)), f"field '{fd.get('key')}': the pattern "
                               f"'{pattern}' is not a regular expression ({reason})",
                               "write a Python regular expression, e.g. '^[0-9]+\\([0-9]+\\)$'; put a backslash "
                               "before ( [ { + * ? where they stand for themselves")
                fd["pattern"] = ANY_TEXT
        out.append(fd)
    return out
