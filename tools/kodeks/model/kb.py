"""The whole knowledge base: games and entries, with lookups and back-references."""
from __future__ import annotations

import hashlib
import pickle
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field

from .entry import Entry
from .game import Game
from .ids import Key

KIND_ORDER = ("rule", "skill", "trait", "action", "weapon", "equipment", "unit", "faction", "terrain",
              "state", "marker", "scenario", "term")


@dataclass
class BackRef:
    source: Entry
    how: str  # "link" (a link in a text) or a structured field: weapons, skills, equipment, traits...


@dataclass
class KnowledgeBase:
    games: dict[str, Game] = field(default_factory=dict)
    entries: dict[Key, Entry] = field(default_factory=dict)
    redirects: dict[Key, Key] = field(default_factory=dict)  # old key -> current key
    backrefs: dict[Key, list[BackRef]] = field(default_factory=lambda: defaultdict(list))
    # Lookups by game and kind, children and rule order, computed once per state of `entries`: each page
    # asks for them, and scanning every entry per page made the build grow with the square of the content.
    _index: dict = field(default_factory=dict, repr=False, compare=False)
    _stamp: tuple = field(default=(), repr=False, compare=False)
    _generation: int = field(default=0, repr=False, compare=False)
    # While a page is rendered (`traced`): what it asks of the model, as facts (see `fact_digest`).
    _reads: set | None = field(default=None, repr=False, compare=False)

    def invalidate(self) -> None:
        """Call after replacing entries in place (adding or removing entries is noticed on its own)."""
        self._generation += 1

    def _cached(self) -> dict:
        stamp = (len(self.entries), self._generation)
        if self._stamp != stamp:
            by: dict = defaultdict(list)
            kids: dict = defaultdict(list)
            for e in self.entries.values():
                by[(e.game, e.kind)].append(e)
                by[(e.game, None)].append(e)
                if e.kind == "rule" and e.parent:
                    kids[e.parent.key].append(e)
            self._index = {"by": by, "kids": kids, "sorted": {}, "rules": {}}
            self._stamp = stamp
        return self._index

    def memo(self, name: str) -> dict:
        """A dict for renderers' derived values, emptied whenever the entries change."""
        return self._cached().setdefault(name, {})

    def get(self, key: Key | None) -> Entry | None:
        if key is None:
            return None
        if self._reads is not None:
            self._reads.add(("get", key))
        entry = self.entries.get(key)
        if entry is None and key in self.redirects:
            entry = self.entries.get(self.redirects[key])
        return entry

    def of(self, game: str, kind: str | None = None) -> list[Entry]:
        """Entries of a game (and kind), in book order for rules and by load order otherwise."""
        if kind == "rule":
            return self.rules_in_order(game)
        if self._reads is not None:
            self._reads.add(("of", game, kind))
        idx = self._cached()
        key = (game, kind)
        if key not in idx["sorted"]:
            idx["sorted"][key] = sorted(idx["by"].get(key, []), key=lambda e: (self._category_index(e), e.order))
        return list(idx["sorted"][key])

    def _category_index(self, entry: Entry) -> int:
        """Entries follow the order of their categories in game.yaml, then the order of files and entries."""
        conf = self.games[entry.game].kinds.get(entry.kind) if entry.game in self.games else None
        if conf is None or entry.category is None:
            return 10**6
        ids = [c.id for c in conf.categories]
        return ids.index(entry.category) if entry.category in ids else 10**6

    def kinds_of(self, game: str) -> list[str]:
        if self._reads is not None:
            self._reads.add(("kinds", game))
        present = {k for (g, k), items in self._cached()["by"].items() if g == game and k and items}
        declared = set(self.games[game].kinds) if game in self.games else set()
        return [k for k in KIND_ORDER if k in present or k in declared]

    def children(self, entry: Entry) -> list[Entry]:
        if self._reads is not None:
            self._reads.add(("children", entry.key))
        return sorted(self._cached()["kids"].get(entry.key, []), key=_sibling_order)

    def rules_in_order(self, game: str) -> list[Entry]:
        """Rules depth-first in book order (parents before their sections)."""
        if self._reads is not None:
            self._reads.add(("of", game, "rule"))
        idx = self._cached()
        if game in idx["rules"]:
            return list(idx["rules"][game])
        rules = idx["by"].get((game, "rule"), [])
        by_parent: dict[Key | None, list[Entry]] = defaultdict(list)
        keys = {e.key for e in rules}
        for e in rules:
            parent = e.parent.key if e.parent and e.parent.key in keys else None
            by_parent[parent].append(e)
        out: list[Entry] = []
        seen: set[Key] = set()
        # Depth first with a stack of its own: a chain of sections may be deeper than Python's recursion.
        stack = [iter(sorted(by_parent.get(None, []), key=_sibling_order))]
        while stack:
            e = next(stack[-1], None)
            if e is None:
                stack.pop()
                continue
            if e.key in seen:
                continue
            seen.add(e.key)
            out.append(e)
            stack.append(iter(sorted(by_parent.get(e.key, []), key=_sibling_order)))
        # Rules caught in a parent cycle are reported by the validator; still list them.
        out.extend(sorted((e for e in rules if e.key not in seen), key=lambda e: e.order))
        idx["rules"][game] = out
        return list(out)

    def depth(self, entry: Entry) -> int:
        if self._reads is not None:
            self._reads.add(("ancestors", entry.key))
        return len(self._ancestry(entry))

    def ancestors(self, entry: Entry) -> list[Entry]:
        if self._reads is not None:
            self._reads.add(("ancestors", entry.key))
        return list(self._ancestry(entry))

    def _ancestry(self, entry: Entry) -> tuple[Entry, ...]:
        """The entry's ancestors, root first; remembered per entry, so that asking for every rule of a long
        chain costs one walk, not one per rule."""
        memo = self.memo("ancestry")
        chain, on_chain = [], set()
        cur = entry
        while cur.key not in memo:
            if cur.key in on_chain:
                return self._ancestry_in_cycle(entry)
            on_chain.add(cur.key)
            chain.append(cur)
            parent = self.entries.get(cur.parent.key) if cur.parent else None
            if parent is None:
                memo[cur.key] = ()
                break
            cur = parent
        for e in reversed(chain):  # down the chain: each entry's is its parent's plus the parent
            if e.key not in memo:
                parent = self.entries[e.parent.key]
                memo[e.key] = memo[parent.key] + (parent,)
        return memo[entry.key]

    def _ancestry_in_cycle(self, entry: Entry) -> tuple[Entry, ...]:
        # A parent cycle is an error the validator reports; the walk stops where it comes round.
        out, seen = [], {entry.key}
        cur = entry
        while cur.parent:
            parent = self.entries.get(cur.parent.key)
            if parent is None or parent.key in seen:
                break
            seen.add(parent.key)
            out.append(parent)
            cur = parent
        return tuple(reversed(out))

    def used_by(self, key: Key) -> dict[str, list[tuple[Entry, str]]]:
        """Entries that link to or carry `key`, grouped by their kind, each once, in order."""
        if self._reads is not None:
            self._reads.add(("used_by", key))
        groups: dict[str, dict[Key, tuple[Entry, str]]] = defaultdict(dict)
        for ref in self.backrefs.get(key, []):
            if ref.source.key == key:
                continue
            slot = groups[ref.source.kind]
            if ref.source.key not in slot or slot[ref.source.key][1] == "link":
                slot[ref.source.key] = (ref.source, ref.how)
        return {kind: sorted(v.values(), key=lambda t: t[0].order)
                for kind, v in sorted(groups.items(), key=lambda kv: KIND_ORDER.index(kv[0]) if kv[0] in KIND_ORDER else 99)}


def _sibling_order(e: Entry):
    return (e.sort if e.sort is not None else 10**9, _number_key(e.number), e.order)


def _number_key(number: str | None):
    if not number:
        return ()
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in number.split("."))


# --- what a page read of the model --------------------------------------------------------------------------
#
# A page is rendered from its own entry and what it asks of the knowledge base: entries by key, a kind's
# entries, a rule's children and ancestors, what uses an entry, a game's glossary (for links in text). While a
# page is rendered inside `traced`, each such question is noted as a fact: ("get", key), ("of", game, kind),
# ("kinds", game), ("children", key), ("ancestors", key), ("used_by", key), ("terms", game). `fact_digest`
# answers a fact on a model as a digest of the entries it returns (their keys, order and digests), so a later
# build can tell whether the page would come out the same without rendering it (site/pagecache.py). What every
# page may read besides (the games, the former ids) is digested once, by the caller.


@contextmanager
def traced(kb: KnowledgeBase):
    """The set of facts the block asks of `kb`."""
    before = kb._reads
    kb._reads = reads = set()
    try:
        yield reads
    finally:
        kb._reads = before


def note(kb: KnowledgeBase, fact: tuple) -> None:
    """Record a fact read outside the lookups above (a game's glossary, read by model.autolink)."""
    if kb._reads is not None:
        kb._reads.add(fact)


def entry_digest(entry: Entry) -> str:
    """The digest of what an entry was built from; for an entry built in code, of the entry itself."""
    if entry.digest:
        return entry.digest
    return hashlib.blake2b(pickle.dumps((entry, entry.pos, entry.order)), digest_size=16).hexdigest()


def _listed(entries) -> list:
    return [(str(e.key), entry_digest(e)) for e in entries]


def fact_digest(kb: KnowledgeBase, fact: tuple) -> bytes:
    """What `fact` answers on `kb`, as a digest (see `traced`)."""
    was, kb._reads = kb._reads, None
    try:
        name = fact[0]
        if name == "get":
            entry = kb.get(fact[1])
            value = None if entry is None else (str(entry.key), entry_digest(entry))
        elif name == "of":
            value = _listed(kb.of(fact[1], fact[2]))
        elif name == "kinds":
            value = kb.kinds_of(fact[1])
        elif name == "children":
            value = _listed(sorted(kb._cached()["kids"].get(fact[1], []), key=_sibling_order))
        elif name == "ancestors":
            entry = kb.entries.get(fact[1])
            value = None if entry is None else (entry_digest(entry), _listed(kb.ancestors(entry)))
        elif name == "used_by":
            value = [(kind, [(str(e.key), how, entry_digest(e)) for e, how in items])
                     for kind, items in kb.used_by(fact[1]).items()]
        elif name == "terms":
            terms = sorted((e for e in kb.entries.values() if e.game == fact[1] and e.kind == "term"),
                           key=lambda e: e.order)
            value = [(str(e.key), entry_digest(e), None if e.target is None else str(getattr(kb.get(e.target.key), "key", None)))
                     for e in terms]
        else:
            raise ValueError(f"unknown fact {fact!r}")
    finally:
        kb._reads = was
    return hashlib.blake2b(repr(value).encode(), digest_size=12).digest()
