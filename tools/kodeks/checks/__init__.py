"""Checks across files that a schema cannot express, run on the loaded model."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from ..content.loader import Loaded
from ..model.entry import Entry, Use
from ..model.game import FieldDef
from ..model.ids import Key
from ..model.kb import BackRef
from ..model.text import LOOSE_ID_RE, BiText
from ..model.values import Gap
from ..problems import Problems, did_you_mean
from . import addresses, odds, placeholders, safety

# Which kinds a structured reference may point to, by the field it is written in.
ALLOWED_KINDS = {
    "weapons": {"weapon"},
    "skills": {"skill", "trait"},
    "equipment": {"equipment"},
    "traits": {"trait"},
    "faction": {"faction"},
    "parent": {"rule"},
}


@dataclass
class Memo:
    """What the checks found per entry at the previous run of a long-lived process (`kodeks serve`). An entry
    that is the same object as before (its file was not changed) and refers to no entry that appeared or
    disappeared since is not checked again: its back-references are replayed. Entries with problems are
    always checked again."""

    games: dict = field(default_factory=dict)
    known: frozenset = frozenset()
    done: dict = field(default_factory=dict)  # Key -> (entry, keys it refers to, [(target key, BackRef)])


def refers_to(entry: Entry) -> set[Key]:
    keys = {use.key for _, use in entry.uses()}
    for _, text in entry.texts():
        for _, rich in text.items():
            keys.update(link.key for link in rich.links if link.key is not None)
    return keys


def run(loaded: Loaded, problems: Problems, memo: Memo | None = None) -> None:
    """Every semantic check; resolves references and fills the back-reference index."""
    kb = loaded.kb
    _redirects(loaded, problems)
    changed: set = set()
    if memo is not None:
        known = frozenset(kb.entries) | frozenset(kb.redirects) | frozenset(loaded.invalid_keys)
        if memo.games != kb.games:
            memo.done.clear()
        # A copy: the symmetric difference keeps the table size of its operands, and a small set in a
        # large table is slow to intersect with.
        changed = set(known ^ memo.known)
        memo.known, memo.games = known, dict(kb.games)
    for entry in sorted(kb.entries.values(), key=lambda e: e.order):
        if memo is None:
            _check_entry(loaded, entry, problems)
            continue
        done = memo.done.get(entry.key)
        if done is not None and done[0] is entry and not (done[1] & changed):
            for target, ref in done[2]:
                kb.backrefs[target].append(ref)
            continue
        refers, n_problems = refers_to(entry), len(problems.items)
        loaded.backref_log = []
        _check_entry(loaded, entry, problems)
        if len(problems.items) == n_problems:
            memo.done[entry.key] = (entry, refers, loaded.backref_log)
        else:
            memo.done.pop(entry.key, None)
        loaded.backref_log = None
    _rule_numbers(loaded, problems)
    _quick_reference(loaded, problems)
    odds.check(loaded, problems)
    _parent_cycles(loaded, problems)
    addresses.check(loaded, problems)
    _check_shadows(loaded, problems)
    placeholders.check(loaded, problems)
    for yf in loaded.files.values():
        safety.check_file(yf, problems)


def _backref(loaded: Loaded, target: Key, ref: BackRef) -> None:
    loaded.kb.backrefs[target].append(ref)
    if loaded.backref_log is not None:
        loaded.backref_log.append((target, ref))


def _check_entry(loaded: Loaded, entry: Entry, problems: Problems) -> None:
    kb = loaded.kb
    yf = loaded.yf(entry)
    game = kb.games[entry.game]
    base = entry.base
    for cit_i, cit in enumerate(entry.sources):
        if game.book(cit.book) is None:
            path = base + ("source",) + ((cit_i,) if len(entry.sources) > 1 or _is_list(yf, base) else ()) + ("book",)
            problems.error(entry.file, yf.pos(path), f"unknown book '{cit.book}'"
                           f"{did_you_mean(cit.book, [b.id for b in game.books])}",
                           "books are declared in game.yaml: " + ", ".join(b.id for b in game.books))
    kconf = game.kinds.get(entry.kind)
    if entry.category is not None:
        cats = [c.id for c in kconf.categories] if kconf else []
        if entry.category not in cats:
            problems.error(entry.file, yf.pos(base + ("category",)),
                           f"unknown category '{entry.category}' for {entry.kind}{did_you_mean(entry.category, cats)}",
                           f"declare it in game.yaml under kinds.{entry.kind}.categories" +
                           (" (declared: " + ", ".join(cats) + ")" if cats else ""))
    kfields = kconf.fields if kconf else []
    _check_values(loaded, entry, entry.values, kfields, base + ("values",), "value", problems,
                  f"kinds.{entry.kind}.fields")
    for i, lev in enumerate(entry.levels):
        _check_values(loaded, entry, lev.values, kfields, base + ("levels", i, "values"), "value", problems,
                      f"kinds.{entry.kind}.fields", required=False)
    if entry.stats:
        _check_values(loaded, entry, entry.stats, game.stat_line, base + ("stats",), "stat", problems,
                      "stat_line", required=entry.kind == "unit", modifiers=entry.kind != "unit")
    for i, part in enumerate(entry.parts):
        if game.part_line is None:
            problems.error(entry.file, yf.pos(base + ("parts",)), f"{game.id} has no per-part stats",
                           "remove `parts:` or declare `part_line` in game.yaml")
            break
        _check_values(loaded, entry, part.stats, game.part_line.fields, base + ("parts", i, "stats"), "stat",
                      problems, "part_line")
    for i, prof in enumerate(entry.profiles):
        if not game.weapon_profile:
            problems.error(entry.file, yf.pos(base + ("profiles",)), f"{game.id} declares no weapon profile fields",
                           "declare `weapon_profile` in game.yaml")
            break
        _check_values(loaded, entry, prof.values, game.weapon_profile, base + ("profiles", i, "values"),
                      "weapon profile field", problems, "weapon_profile")
    for group, use in entry.uses():
        _resolve_use(loaded, entry, group, use, problems)
    for path, text in entry.texts():
        _check_links(loaded, entry, base + path, text, problems)


def _quick_reference(loaded: Loaded, problems: Problems) -> None:
    kb = loaded.kb
    for game in kb.games.values():
        yf = loaded.files.get(game.path)
        for i, key in enumerate(game.shortcuts):
            if key is None or kb.get(key) is None:
                problems.error(game.path, yf.pos(("shortcuts", i)) if yf else None, f"shortcuts: unknown entry '{key}'",
                               "fix the reference (kind/id)")
        for i, (key, tables) in enumerate(game.quick_reference):
            pos = yf.pos(("quick_reference", i, "ref")) if yf else None
            entry = kb.get(key) if key else None
            if entry is None:
                problems.error(game.path, pos, f"quick_reference: unknown entry '{key}'", "fix the reference (kind/id)")
                continue
            for j, t in enumerate(tables or []):
                ok = (isinstance(t, int) and 1 <= t <= len(entry.tables)) or any(tab.id == t for tab in entry.tables)
                if not ok:
                    problems.error(game.path, yf.pos(("quick_reference", i, "tables", j)) if yf else None,
                                   f"quick_reference: {entry.kind}/{entry.id} has no table {t!r} "
                                   f"(it has {len(entry.tables)})", "give a table's number (1, 2, ...) or its id")


def _is_list(yf, base) -> bool:
    node = yf._value_at(base + ("source",))
    return isinstance(node, list)


def _redirects(loaded: Loaded, problems: Problems) -> None:
    kb = loaded.kb
    for entry in kb.entries.values():
        yf = loaded.yf(entry)
        for i, old in enumerate(entry.redirects):
            old_key = Key(entry.game, entry.kind, old)
            where = yf.pos(entry.base + ("redirects", i))
            if old_key in kb.entries:
                problems.error(entry.file, where, f"redirect '{old}' is the id of another {entry.kind}",
                               "a redirect must be a former id that no entry uses now")
            elif old_key in kb.redirects and kb.redirects[old_key] != entry.key:
                problems.error(entry.file, where, f"redirect '{old}' is claimed by two entries "
                               f"({kb.redirects[old_key]} and {entry.key})", "keep it on one of them")
            else:
                kb.redirects[old_key] = entry.key


def _field_ok(fd: FieldDef, v, modifiers: bool) -> bool:
    if isinstance(v, Gap):
        return True
    if isinstance(v, str):
        if v == "-" and fd.dash:
            return True
        if fd.enum and v in fd.enum:
            return True
        if fd.pattern:
            pattern = _compiled(fd.pattern)
            if pattern is None or pattern.fullmatch(v):
                return True  # (a pattern that is not a regex is reported in game.yaml)
        if modifiers and re.fullmatch(r"[+\-−]?\d+(\.\d+)?", v):
            return True
        return fd.type == "string" and not fd.enum and not fd.pattern
    if fd.type == "boolean":
        return isinstance(v, bool)
    if isinstance(v, bool):
        return False
    if fd.type == "integer" and isinstance(v, int) or fd.type == "number" and isinstance(v, (int, float)):
        if fd.min is not None and v < fd.min or fd.max is not None and v > fd.max:
            return modifiers
        return True
    return False


@lru_cache(maxsize=256)
def _compiled(pattern: str):
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return None


def _expected(fd: FieldDef) -> str:
    words = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false"}
    parts = [words[fd.type]]
    if fd.type in ("integer", "number") and (fd.min is not None or fd.max is not None):
        lo = "" if fd.min is None else f"{fd.min:g}"
        hi = "" if fd.max is None else f"{fd.max:g}"
        parts[0] += f" {lo}–{hi}" if lo and hi else (f" ≥ {lo}" if lo else f" ≤ {hi}")
    if fd.enum:
        parts.append("one of " + ", ".join(fd.enum))
    if fd.pattern:
        parts.append(f"text matching {fd.pattern}")
    if fd.dash:
        parts.append("'-'")
    parts.append("a gap {gap: true}")
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _check_values(loaded: Loaded, entry: Entry, values: dict, fields: list[FieldDef], path: tuple, what: str,
                  problems: Problems, declared_in: str, required: bool = True, modifiers: bool = False) -> None:
    yf = loaded.yf(entry)
    keys = [f.key for f in fields]
    by_key = {f.key: f for f in fields}
    for k, v in values.items():
        fd = by_key.get(k)
        if fd is None:
            problems.error(entry.file, yf.key_pos(path + (k,)),
                           f"{what} '{k}' is not defined for {entry.game}{did_you_mean(k, keys)}",
                           f"use one of {', '.join(keys)} (game.yaml {declared_in})" if keys else
                           f"declare it in game.yaml {declared_in} or remove it")
        elif not _field_ok(fd, v, modifiers):
            problems.error(entry.file, yf.pos(path + (k,)), f"{what} '{k}' = {v!r}: expected {_expected(fd)}",
                           "write the value as the book prints it, or a gap if the book does not give it")
    if required:
        for fd in fields:
            if fd.required and fd.key not in values and values is not None:
                problems.error(entry.file, yf.pos(path) if yf.locs.get(path) else entry.pos,
                               f"missing {what} '{fd.key}' ({fd.name.plain('en') or fd.name.plain('pl')})",
                               f"add `{fd.key}:`; write `{{gap: true}}` if the book does not give it")


def _suggest(loaded: Loaded, key: Key) -> str:
    kb = loaded.kb
    same_kind = [e.id for e in kb.entries.values() if e.game == key.game and e.kind == key.kind]
    hint = did_you_mean(key.id, same_kind)
    if hint:
        return hint
    others = [f"{e.kind}/{e.id}" for e in kb.entries.values() if e.game == key.game and e.id == key.id]
    if others:
        return f" (there is {others[0]})"
    return ""


def _known(loaded: Loaded, key: Key) -> bool:
    return (key in loaded.kb.entries or key in loaded.kb.redirects or key in loaded.invalid_keys
            or bool(loaded.unreadable) and ((key.game, key.kind) in loaded.unreadable
                                            or (key.game, None) in loaded.unreadable))


def _resolve_use(loaded: Loaded, entry: Entry, group: str, use: Use, problems: Problems) -> None:
    kb = loaded.kb
    yf = loaded.yf(entry)
    path = use.path

    def where():  # asked only for a problem: a file taken from the parse cache is composed for it
        return yf.pos(path + ("ref",)) if yf.locs.get(path + ("ref",)) else yf.pos(path)

    key = use.key
    if key.kind == "?":
        problems.error(entry.file, where(), f"'{key.id}' is not a valid reference", "write kind/id, e.g. skill/camouflage")
        return
    if key.game not in kb.games:
        problems.error(entry.file, where(), f"unknown game '{key.game}' in reference '{key}'{did_you_mean(key.game, kb.games)}",
                       "games are: " + ", ".join(kb.games))
        return
    allowed = ALLOWED_KINDS.get(group)
    if allowed and key.kind not in allowed:
        problems.error(entry.file, where(), f"'{group}' must refer to {' or '.join(sorted(allowed))}, not to a {key.kind} "
                       f"({key.kind}/{key.id})", "move it to the right list or fix the kind")
        return
    if not _known(loaded, key):
        problems.error(entry.file, where(), f"unknown {key.kind} '{key.id}' in {key.game}{_suggest(loaded, key)}",
                       f"create it (kodeks new {key.kind} {key.game} {key.id}) or fix the id")
        return
    target = kb.get(key)
    if target is not None:
        if target.key != key:
            use.key = target.key
        _backref(loaded, target.key, BackRef(entry, group))


def _check_links(loaded: Loaded, entry: Entry, path: tuple, text: BiText, problems: Problems) -> None:
    kb = loaded.kb
    yf = loaded.yf(entry)
    for lang, rich in text.items():
        lpath = path + (lang,)
        # A ](id: that the link grammar did not take is a malformed link (spaces, missing bracket...).
        loose = list(LOOSE_ID_RE.finditer(rich.source))
        spans = [(link.start, link.end) for link in rich.links] if len(loose) != len(rich.links) else []
        for m in loose if spans or not rich.links else ():
            # (Each well-formed link holds one ](id:, so equal counts mean every one was taken.)
            if not any(s <= m.start() < e for s, e in spans):
                bracket = rich.source.rfind("[", 0, m.start())
                problems.error(entry.file, yf.text_pos(lpath, bracket if bracket >= 0 else m.start()),
                               "a malformed id: link",
                               "write [words](id:kind/id) with no spaces inside the parentheses")
        for link in rich.links:
            pos = _LazyPos(yf, lpath, link.start)
            if link.key is None:
                problems.error(entry.file, pos, f"'{link.target}' is not a valid link target",
                               "write id:kind/id or id:game/kind/id, e.g. id:skill/camouflage")
                continue
            if link.key.game not in kb.games:
                problems.error(entry.file, pos, f"link to unknown game '{link.key.game}'"
                               f"{did_you_mean(link.key.game, kb.games)}", "games are: " + ", ".join(kb.games))
                continue
            if not _known(loaded, link.key):
                problems.error(entry.file, pos, f"link to unknown {link.key.kind} '{link.key.id}' in "
                               f"{link.key.game}{_suggest(loaded, link.key)}", "fix the id or create the entry")
                continue
            if not link.label.strip():
                problems.error(entry.file, pos, "a link with no words", "write the words inside [ ]")
            target = kb.get(link.key)
            if target is not None:
                link.key = target.key
                _backref(loaded, target.key, BackRef(entry, "link"))


class _LazyPos:
    """The position of a link, found in the file only when a problem is reported there."""

    def __init__(self, yf, path: tuple, offset: int):
        self.args = (yf, path, offset)

    def resolve(self):
        yf, path, offset = self.args
        return yf.text_pos(path, offset)


# Deeper sections than a book has (real content: 5 levels) that the site cannot show: every page lists its
# ancestors and the kind's index indents each level, so a chain of 3,000 sections built for 15 minutes
# into 900 MB before it was stopped.
MAX_RULE_DEPTH = 16


def _parent_cycles(loaded: Loaded, problems: Problems) -> None:
    """Rules that are their own ancestors, each cycle reported once, at its first rule in load order, with its
    members; and rules nested deeper than MAX_RULE_DEPTH, at the first level too deep. Every rule is visited
    once: the walk up from a rule stops at a rule an earlier walk passed, whose depth it then knows."""
    kb = loaded.kb
    depth: dict[Key, int | None] = {}  # None: on a cycle, or below one
    for entry in sorted((e for e in kb.entries.values() if e.kind == "rule"), key=lambda e: e.order):
        chain: list[Entry] = []
        on_chain: dict[Key, int] = {}
        cur, above = entry, -1
        while cur is not None:
            if cur.key in depth:
                above = depth[cur.key]
                break
            if cur.key in on_chain:
                cycle = chain[on_chain[cur.key]:]
                first = min(cycle, key=lambda e: e.order)
                i = cycle.index(first)
                members = cycle[i:] + cycle[:i] + [first]
                problems.error(first.file, loaded.yf(first).pos(first.parent.path),
                               f"rule '{first.id}' is its own ancestor ({' → '.join(e.id for e in members)})",
                               "point `parent` at a section above this one")
                above = None
                break
            on_chain[cur.key] = len(chain)
            chain.append(cur)
            cur = kb.entries.get(cur.parent.key) if cur.parent is not None else None
        for e in reversed(chain):
            above = None if above is None else above + 1
            depth[e.key] = above
            if above == MAX_RULE_DEPTH:
                problems.error(e.file, loaded.yf(e).pos(e.parent.path),
                               f"rule '{e.id}' is nested {MAX_RULE_DEPTH + 1} levels deep; the site shows at most "
                               f"{MAX_RULE_DEPTH}", "point `parent` at a section higher up")


def _check_shadows(loaded: Loaded, problems: Problems) -> None:
    """The checks across files on entries that failed their schema (see Loaded.shadows), so that one run
    reports all of a file's problems. What they refer to is not recorded: they are not in the model."""
    kb = loaded.kb
    backrefs, kb.backrefs = kb.backrefs, defaultdict(list)
    try:
        for entry in loaded.shadows:
            n = len(problems.items)
            try:
                _check_entry(loaded, entry, problems)
            except (AttributeError, TypeError, KeyError, ValueError, IndexError):
                # What is left of an entry that failed its schema can be odd beyond what the checks expect;
                # its file has errors already, so a check that cannot run on it takes back what it said.
                del problems.items[n:]
    finally:
        kb.backrefs = backrefs


def _rule_numbers(loaded: Loaded, problems: Problems) -> None:
    seen: dict[tuple[str, str], Entry] = {}
    for entry in sorted(loaded.kb.entries.values(), key=lambda e: e.order):
        if entry.kind != "rule" or not entry.number:
            continue
        k = (entry.game, entry.number)
        if k in seen:
            first = seen[k]
            problems.error(entry.file, loaded.yf(entry).pos(entry.base + ("number",)),
                           f"rule number {entry.number} is also used by '{first.id}'", "give each section its own number")
        else:
            seen[k] = entry
