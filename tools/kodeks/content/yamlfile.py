"""Read one YAML content file into plain data plus the position of every key and value.

The file is composed with libyaml (ruamel.yaml's C composer) and converted by hand, which keeps it
fast and lets us refuse what an author should never rely on: aliases (an alias bomb costs nothing to
parse but explodes when walked), merge keys, duplicate keys, byte-order marks, CRLF, NUL bytes and
text that is not UTF-8. Every refusal is reported with its position, and reading goes on where it can,
so one run reports every problem.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver, implicit_resolvers
from ruamel.yaml.tag import Tag

from ..problems import Pos, Problems

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

    def __init__(self, root=None) -> None:
        self.root = root
        self._cache: dict[tuple, Loc | None] = {}

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
    return text


def _yaml_error(path: Path, exc: MarkedYAMLError, text: str, problems: Problems) -> None:
    mark = exc.problem_mark or exc.context_mark
    pos = _pos(mark) if mark is not None else Pos(1, 1)
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    fix = "check the indentation and quoting around this point"
    line = text.splitlines()[pos.line - 1] if 0 < pos.line <= len(text.splitlines()) else ""
    if "\t" in line[: max(pos.col, 1)] or "cannot start any token" in problem and "\t" in line:
        problem = "a tab character in the indentation"
        fix = "indent YAML with spaces, never tabs"
    elif "another document" in problem or "single document" in problem:
        problem = "more than one YAML document (a second '---')"
        fix = "keep one document per file; a list of entries goes in one document"
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

    def err(self, pos: Pos, message: str, fix: str = "") -> None:
        self.ok = False
        self.problems.error(self.yf.path, pos, message, fix)

    def convert(self, node):
        if id(node) in self.seen:
            self.aliases = True  # reported once per alias, at its own position, after conversion
            return None
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        self.seen.add(id(node))
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
                first[key] = knode
                out[key] = self.convert(vnode)
            return out
        if isinstance(node, SequenceNode):
            return [self.convert(item) for item in node.value]
        return None

    def scalar(self, node: ScalarNode):
        ctag, value = node.ctag, node.value
        if ctag is _T_STR or node.style in ("|", ">", "\"", "'"):
            return value
        if ctag is _T_NULL:
            return None
        if ctag is _T_INT or ctag is _T_FLOAT or ctag is _T_BOOL:
            try:
                return _yaml.constructor.construct_object(node)
            except (YAMLError, ValueError):
                return value
            return value
        tag = node.tag  # an explicit tag (!!str, !!int...) the author wrote
        if tag == _STR:
            return value
        if tag == _NULL:
            return None
        if tag in (_INT, _FLOAT, _BOOL):
            try:
                return _yaml.constructor.construct_object(node)
            except (YAMLError, ValueError):
                return value
        return value  # timestamps and other tags stay as the text the author typed


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


def read_yaml(path: Path, problems: Problems) -> YamlFile:
    """Read and convert one file; problems go to `problems`; `ok` is False if the data is unusable."""
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
    text = _decode(path, raw, problems)
    if text is None:
        return yf
    yf.text = text
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
    except RecursionError:
        problems.error(path, Pos(1, 1), "the YAML is nested too deeply", "flatten the structure")
        return yf
    if conv.aliases:
        _report_aliases(path, text, problems)
    # Refused constructs were reported; what remains is still checked so one run reports everything.
    yf.ok = True
    return yf
