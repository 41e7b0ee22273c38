"""Read one YAML content file into plain data plus the position of every key and value.

The file is composed with libyaml (ruamel.yaml's C composer) and converted by hand, which keeps it
fast and lets us refuse what an author should never rely on: aliases (an alias bomb costs nothing to
parse but explodes when walked), merge keys, duplicate keys, byte-order marks, CRLF, NUL bytes and
text that is not UTF-8, control characters, NaN and infinity, and nesting deeper than content needs (libyaml
would crash on it). Every refusal is reported with its position, and reading goes on where it can, so one run
reports every problem.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver, implicit_resolvers
from ruamel.yaml.tag import Tag

from ..problems import Pos, Problems
from .depth import MAX_DEPTH, too_deep

MAX_FILE_BYTES = 1_000_000

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class Loc:
    """Where a value sits: the position of its key (for mapping values), of the value itself, and the
    scalar style ('|', '>', '"', "'" or None), which is needed to place positions inside text."""

    key: Pos | None
    value: Pos
    style: str | None = None


class Locs:
    """Positions of the values in a file, found in the composed node tree when asked for. Most files are
    valid and most positions are never needed, so nothing is computed up front."""

    def __init__(self, root=None, text: str | None = None, known: dict | None = None) -> None:
        self.root = root
        self._text = text  # composed when a position is first asked for (a file taken from a ParseCache)
        self._cache: dict[tuple, Loc | None] = dict(known or {})

    def entries(self, data) -> dict[tuple, Loc | None]:
        """The positions of the file's entries (the root, or each item of a list), which every load needs."""
        paths = [(i,) for i in range(len(data))] if isinstance(data, list) else []
        return {p: self.get(p) for p in [(), *paths]}

    def get(self, path: tuple, default=None) -> Loc | None:
        path = tuple(path)
        if path not in self._cache:
            self._cache[path] = self._find(path)
        found = self._cache[path]
        return default if found is None else found

    def __getitem__(self, path: tuple) -> Loc:
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found

    def __contains__(self, path: tuple) -> bool:
        return self.get(path) is not None

    def _find(self, path: tuple) -> Loc | None:
        if self.root is None and self._text is not None:
            self.root, self._text = _yaml.compose(self._text), None
        node, key_pos = self.root, None
        if node is None:
            return None
        for part in path:
            key_pos = None
            if isinstance(node, MappingNode) and isinstance(part, str):
                for knode, vnode in node.value:
                    if isinstance(knode, ScalarNode) and knode.value == part:
                        key_pos, node = _pos(knode.start_mark), vnode
                        break
                else:
                    return None
            elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
            else:
                return None
        style = node.style if isinstance(node, ScalarNode) else None
        return Loc(key_pos, _pos(node.start_mark), style)


@dataclass
class YamlFile:
    path: Path
    text: str = ""
    data: object = None
    locs: Locs = field(default_factory=Locs)
    ok: bool = False
    # Paths of values the reader refused and reported (an alias, NaN...); they read as None, and the schema's
    # complaint about that None would be a second error for the same mistake.
    refused: set = field(default_factory=set)

    def was_refused(self, path: tuple) -> bool:
        return bool(self.refused) and any(tuple(path[:n]) in self.refused for n in range(len(path) + 1))

    def pos(self, path: tuple, prefer_key: bool = False) -> Pos:
        """Position of the value at `path` (or its key); falls back to the nearest located ancestor."""
        p = tuple(path)
        while True:
            loc = self.locs.get(p)
            if loc is not None:
                if prefer_key and loc.key is not None:
                    return loc.key
                return loc.value
            if not p:
                return Pos(1, 1)
            p = p[:-1]

    def key_pos(self, path: tuple) -> Pos:
        return self.pos(path, prefer_key=True)

    def text_pos(self, path: tuple, offset: int) -> Pos:
        """Position of character `offset` of the string value at `path`."""
        loc = self.locs.get(tuple(path))
        if loc is None:
            return self.pos(path)
        value = self._value_at(path)
        if not isinstance(value, str):
            return loc.value
        before = value[:offset]
        nl = before.count("\n")
        col_in_line = len(before) - (before.rfind("\n") + 1)
        if loc.style in ("|", ">"):
            # Block scalar: the content starts on the line after the indicator, at its indentation.
            lines = self.text.splitlines()
            first = loc.value.line  # 0-based index of the next line == 1-based line of the indicator
            indent = 0
            for line in lines[first:]:
                if line.strip():
                    indent = len(line) - len(line.lstrip(" "))
                    break
            if loc.style == ">":
                nl = 0  # folded text: line breaks do not map one to one; stay on the first line
                col_in_line = min(offset, 200)
            return Pos(loc.value.line + 1 + nl, indent + col_in_line + 1)
        quote = 1 if loc.style in ('"', "'") else 0
        if nl:
            return Pos(loc.value.line + nl, col_in_line + 1)
        return Pos(loc.value.line, loc.value.col + quote + col_in_line)

    def _value_at(self, path: tuple):
        node = self.data
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node


class _Resolver(VersionedResolver):
    """ruamel's resolver works out the YAML version for every scalar it resolves (most of the time spent
    reading a file). Content files are YAML 1.2; resolve against that table directly, and hand out one
    shared Tag per type so the converter can compare tags by identity."""

    _table: dict = {}
    _tags: dict = {}

    @classmethod
    def tag(cls, name: str) -> Tag:
        if name not in cls._tags:
            cls._tags[name] = Tag(suffix=name)
        return cls._tags[name]

    def resolve(self, kind, value, implicit):
        if kind is ScalarNode:
            if implicit[0]:
                table = _Resolver._table
                for tag, regexp in table.get(value[0] if value else "", ()):
                    if regexp.match(value):
                        return tag
                for tag, regexp in table.get(None, ()):
                    if regexp.match(value):
                        return tag
            return _T_STR
        return super().resolve(kind, value, implicit)


for _versions, _name, _regexp, _first in implicit_resolvers:
    if (1, 2) in _versions:
        for _ch in _first:
            _Resolver._table.setdefault(_ch, []).append((_Resolver.tag(_name), _regexp))

_yaml = YAML(typ="safe", pure=False)
_yaml.Resolver = _Resolver
_T_STR, _T_NULL, _T_MERGE = _Resolver.tag(_STR), _Resolver.tag(_NULL), _Resolver.tag(_MERGE)
_T_INT, _T_FLOAT, _T_BOOL = _Resolver.tag(_INT), _Resolver.tag(_FLOAT), _Resolver.tag(_BOOL)


def _pos(mark) -> Pos:
    return Pos(mark.line + 1, mark.column + 1)


def _line_col(text: str, offset: int) -> Pos:
    before = text[:offset]
    return Pos(before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1)


def _byte_pos(data: bytes, offset: int) -> Pos:
    before = data[:offset]
    return Pos(before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1)


def _decode(path: Path, data: bytes, problems: Problems) -> str | None:
    if data.startswith(b"\xef\xbb\xbf"):
        problems.error(path, Pos(1, 1), "the file starts with a byte-order mark (BOM)",
                       "save it as UTF-8 without BOM; `kodeks fmt` removes it")
        data = data[3:]
    nul = data.find(b"\x00")
    if nul >= 0:
        problems.error(path, _byte_pos(data, nul), "the file contains a NUL byte (it may be binary or UTF-16)",
                       "save it as UTF-8 text")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        guess = ""
        try:
            data.decode("cp1250")
            guess = " (they look like Windows-1250)"
        except UnicodeDecodeError:
            pass
        problems.error(path, _byte_pos(data, exc.start), f"bytes that are not UTF-8{guess}",
                       "re-save the file as UTF-8")
        return None
    cr = text.find("\r")
    if cr >= 0:
        problems.error(path, _line_col(text, cr), "Windows (CRLF) line ends",
                       "save the file with LF line ends; `kodeks fmt` converts them")
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        # libyaml refuses these too, but reports a character offset in a message of two lines.
        more = len(_NOT_PRINTABLE.findall(text)) - 1
        problems.error(path, _line_col(text, bad.start()), f"a control character U+{ord(bad.group()):04X} in the file"
                       + (f" ({more} more after it)" if more else ""),
                       "delete it: it is invisible and not text (an escape sequence or a paste from a terminal)")
        return None
    return text


# What YAML allows in a file (its c-printable set, after CR became LF): no control characters but tab and
# line break, no C1 controls but NEL, no U+FFFE/U+FFFF.
_NOT_PRINTABLE = re.compile("[^\t\n\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _yaml_error(path: Path, exc: MarkedYAMLError, text: str, problems: Problems) -> None:
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    context = (exc.context or "").strip()
    mark = exc.problem_mark or exc.context_mark
    pos = _pos(mark) if mark is not None else Pos(1, 1)
    opened = _pos(exc.context_mark) if exc.context_mark is not None else None
    lines = text.splitlines()
    line = lines[pos.line - 1] if 0 < pos.line <= len(lines) else ""
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    fix = "check the indentation and quoting around this point"
    # libyaml names the place where it gave up; for what was left open, that is the end of the file or the
    # next line, while the mistake is where it was opened (the context mark).
    if "quoted scalar" in context and "end of stream" in problem and opened:
        pos, problem = opened, "a quote that is never closed (it opens here)"
        fix = "close the quote, or put text that contains this quote sign in the other kind of quotes"
    elif "flow sequence" in context or "flow mapping" in context:
        bracket, closer = ("[", "]") if "sequence" in context else ("{", "}")
        if opened and opened.line < pos.line:
            problem = (f"'{bracket}' is never closed (it opens here; at line {pos.line}, column {pos.col} "
                       f"a ',' or '{closer}' was expected)")
            pos = opened
            fix = f"close it with '{closer}' on the same line"
        else:
            problem = f"expected ',' or '{closer}' here (inside the '{bracket}' at column {opened.col if opened else 1})"
            fix = f"separate items with ', '; quote a text that contains {bracket} {closer} , or ': '"
    elif "simple key" in context and "':'" in problem and opened:
        pos, problem = opened, "a line that is neither `key: value` nor a list item `- ...` (no ':' after the key)"
        fix = "add ': ' after the key, or join the line to the text above it"
    elif "\t" in indent or "\\t" in problem or ("cannot start any token" in problem and line[pos.col - 1: pos.col] == "\t"):
        problem = "a tab character in the indentation"
        fix = "indent YAML with spaces, never tabs"
    elif "another document" in problem or "single document" in problem:
        problem = "more than one YAML document (a second '---')"
        fix = "keep one document per file; a list of entries goes in one document"
    elif "did not find expected key" in problem or "expected <block end>" in problem:
        if pos.col - 1 > len(indent):
            problem = "more text after a complete value"
            fix = "quote the whole value (e.g. name: '\"Ruch\" i strzał'), or start a new line for the next key"
        else:
            problem = "this line is not indented like the lines above it"
            fix = "indent it with as many spaces as the other keys or items it belongs with"
    elif "mapping values are not allowed" in problem:
        fix = "quote a value that contains ': ' (e.g. section: \"Rozdział 3: Ruch\")"
    elif "found character" in problem and "`" in problem:
        fix = "quote the value: a plain YAML value cannot start with a backquote"
    problems.error(path, pos, f"YAML syntax: {problem}", fix)


class _Converter:
    def __init__(self, yf: YamlFile, problems: Problems):
        self.yf = yf
        self.problems = problems
        self.seen: set[int] = set()
        self.ok = True
        self.aliases = False
        self.deep = False
        # An alias needs an anchor, and an anchor an '&': without one, scalars need not be tracked. A control
        # character can only come from an escape in double quotes (the file itself may hold none but NEL).
        self.anchors = "&" in yf.text
        self.nel = "\x85" in yf.text
        self.controls = "\\" in yf.text or self.nel
        self.path: list = []  # where the collection being converted sits, for `refused`

    def err(self, pos: Pos, message: str, fix: str = "") -> None:
        self.ok = False
        self.problems.error(self.yf.path, pos, message, fix)

    def refuse(self, pos: Pos | None, message: str, fix: str, key=None) -> None:
        if pos is not None:
            self.err(pos, message, fix)
        self.yf.refused.add(tuple(self.path) + ((key,) if key is not None else ()))

    def _child(self, node, key, depth: int):
        """The converted value of a collection's item `key`."""
        if node.__class__ is ScalarNode and not self.anchors:
            return self.scalar(node, key)  # (most nodes: no need to track the path down to them)
        self.path.append(key)
        try:
            return self.convert(node, depth)
        finally:
            self.path.pop()

    def convert(self, node, depth: int = 1):
        if id(node) in self.seen:
            self.aliases = True  # reported once per alias, at its own position, after conversion
            self.refuse(None, "", "")
            return None
        if isinstance(node, ScalarNode):
            if self.anchors:
                self.seen.add(id(node))
            return self.scalar(node, None)
        self.seen.add(id(node))
        if depth > MAX_DEPTH:
            # (Deeper than libyaml could compose safely was refused before composing: see too_deep.)
            self.refuse(None if self.deep else _pos(node.start_mark), f"nesting deeper than {MAX_DEPTH} levels",
                        "flatten the structure: an entry needs a few levels (fields, lists, bilingual texts)")
            self.deep = True
            return None
        if isinstance(node, MappingNode):
            out: dict = {}
            first: dict = {}
            for knode, vnode in node.value:
                ktag = knode.ctag
                if ktag is _T_MERGE or ktag is not _T_STR and knode.tag == _MERGE:
                    self.err(_pos(knode.start_mark), "YAML merge keys (<<) are not allowed", "write the fields out in full")
                    continue
                if not isinstance(knode, ScalarNode):
                    self.err(_pos(knode.start_mark), "a key must be a plain word, not a list or mapping", "use a word as the key")
                    continue
                key = knode.value
                if ktag is _T_NULL or key == "" or ktag is not _T_STR and knode.tag == _NULL:
                    self.err(_pos(knode.start_mark), "an empty key", "name the field, e.g. `name:`")
                    continue
                if key in first:
                    prev = _pos(first[key].start_mark)
                    self.err(_pos(knode.start_mark), f"duplicate key '{key}' (first at line {prev.line}, column {prev.col})",
                             "keep one of the two")
                    continue
                if self.controls and (knode.style == '"' or self.nel) and _CONTROL.search(key):
                    self.refuse(self._control_pos(knode, key), f"a control character in the key '{key}'",
                                "write the key in plain letters", key)
                first[key] = knode
                out[key] = self._child(vnode, key, depth + 1)
            return out
        if isinstance(node, SequenceNode):
            return [self._child(item, i, depth + 1) for i, item in enumerate(node.value)]
        return None

    def scalar(self, node: ScalarNode, key):
        """A scalar's value; `key`: where it sits in the collection being converted (None: at self.path)."""
        ctag, value = node.ctag, node.value
        if ctag is _T_STR or node.style in ("|", ">", "\"", "'"):
            if self.controls and (node.style == '"' or self.nel) and _CONTROL.search(value):
                return self._control(node, value, key)
            return value
        if ctag is _T_NULL:
            return None
        if ctag is _T_INT or ctag is _T_FLOAT or ctag is _T_BOOL:
            return self._number(node, key)
        tag = node.tag  # an explicit tag (!!str, !!int...) the author wrote
        if tag == _STR:
            return self._control(node, value, key) if self.controls and _CONTROL.search(value) else value
        if tag == _NULL:
            return None
        if tag in (_INT, _FLOAT, _BOOL):
            return self._number(node, key)
        return value  # timestamps and other tags stay as the text the author typed

    def _number(self, node: ScalarNode, key):
        try:
            value = _yaml.constructor.construct_object(node)
        except (YAMLError, ValueError):
            return node.value
        if isinstance(value, float) and not math.isfinite(value):
            # JSON has no NaN or infinity (kb.json would not parse), and NaN compares false to every bound,
            # which would switch a range check off.
            self.refuse(_pos(node.start_mark), f"'{node.value}' is not a number (NaN and infinity are not allowed)",
                        "write the number the book prints, or {gap: true} where it gives none", key)
            return None
        return value

    def _control(self, node: ScalarNode, value: str, key):
        char = _CONTROL.search(value).group()
        self.refuse(self._control_pos(node, value), f"a control character U+{ord(char):04X} in the text "
                    "(it could drive the terminal or break the page)",
                    "delete it; write a line break as a new line of a `|-` block and a tab as spaces", key)
        return None

    def _control_pos(self, node: ScalarNode, value: str) -> Pos:
        """Where the first control character of a scalar was written: an escape in double quotes (the file
        itself cannot hold one; the reader refused that earlier), else the character."""
        text = self.yf.text
        start, end = node.start_mark.index, node.end_mark.index
        raw = text[start:end]
        if node.style == '"':
            for m in _ESCAPE.finditer(raw):
                esc = m.group(1)
                char = chr(int(esc[1:], 16)) if esc[0] in "xuU" else _SHORT_ESCAPES.get(esc, "")
                if char and _CONTROL.match(char):
                    return _line_col(text, start + m.start())
        else:
            m = _CONTROL.search(raw)
            if m:
                return _line_col(text, start + m.start())
        return _pos(node.start_mark)


# Characters a text of content may not hold, whatever quoting produced them: C0 controls but tab and line
# break, DEL and the C1 controls (ESC and CSI drive terminals; NUL ends strings in C code that reads kb.json).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", re.S)
_SHORT_ESCAPES = {"0": "\x00", "a": "\x07", "b": "\x08", "v": "\x0b", "f": "\x0c", "r": "\r", "e": "\x1b",
                  "N": "\x85"}


def _report_aliases(path: Path, text: str, problems: Problems, limit: int = 5) -> None:
    """Composed nodes do not say where an alias was written; the event stream does."""
    from ruamel.yaml.events import AliasEvent
    found = [ev.start_mark for ev in _yaml.parse(text) if isinstance(ev, AliasEvent)]
    for mark in found[:limit]:
        problems.error(path, _pos(mark), "YAML aliases (*name) are not allowed",
                       "write the value out in full instead of referring to an anchor")
    if len(found) > limit:
        problems.error(path, _pos(found[limit]), f"{len(found) - limit} more YAML aliases in this file",
                       "write the values out in full")


def read_yaml(path: Path, problems: Problems, cache=None) -> YamlFile:
    """Read and convert one file; problems go to `problems`; `ok` is False if the data is unusable. With
    `cache` (content.parsecache.ParseCache), a file read before without a problem is not parsed again."""
    yf = YamlFile(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.error(path, Pos(1, 1), f"cannot read the file: {exc.strerror}", "check its permissions")
        return yf
    if len(raw) > MAX_FILE_BYTES:
        problems.error(path, Pos(1, 1), f"the file is {len(raw) / 1_000_000:.1f} MB; the limit is "
                       f"{MAX_FILE_BYTES // 1_000_000} MB", "split it into several files")
        return yf
    if not raw.strip():
        problems.error(path, Pos(1, 1), "the file is empty", "write an entry (`kodeks new` makes a skeleton) or delete the file")
        return yf
    digest = None
    if cache is not None:
        digest = cache.digest(raw)
        hit = cache.get(digest)
        if hit is not None:
            # Read before without a problem: the same bytes give the same data. Positions other than the
            # entries' are found when a check asks for one (then the file is composed).
            text = raw.decode("utf-8")
            yf.text, yf.data, yf.locs, yf.ok = text, hit[0], Locs(text=text, known=hit[1]), True
            return yf
    n_problems = len(problems.items)
    text = _decode(path, raw, problems)
    if text is None:
        return yf
    yf.text = text
    deep = too_deep(text, _yaml.parse)
    if deep is not None:
        problems.error(path, deep, f"nesting deeper than {MAX_DEPTH} levels",
                       "flatten the structure: an entry needs a few levels (fields, lists, bilingual texts)")
        return yf
    try:
        node = _yaml.compose(text)
    except MarkedYAMLError as exc:
        _yaml_error(path, exc, text, problems)
        return yf
    except YAMLError as exc:  # pragma: no cover - libyaml reports marked errors
        problems.error(path, Pos(1, 1), f"YAML: {exc}", "check the file's syntax")
        return yf
    if node is None:
        problems.error(path, Pos(1, 1), "the file holds only comments", "write an entry or delete the file")
        return yf
    yf.locs = Locs(node)
    conv = _Converter(yf, problems)
    try:
        yf.data = conv.convert(node)
    except RecursionError:  # pragma: no cover - too_deep refused it before composing
        problems.error(path, Pos(1, 1), f"nesting deeper than {MAX_DEPTH} levels", "flatten the structure")
        return yf
    if conv.aliases:
        _report_aliases(path, text, problems)
    # Refused constructs were reported; what remains is still checked so one run reports everything.
    yf.ok = True
    if cache is not None and len(problems.items) == n_problems and not yf.refused:
        cache.put(digest, (yf.data, yf.locs.entries(yf.data)))
    return yf
