"""The whole knowledge base: games and entries, with lookups and back-references."""
from __future__ import annotations

from collections import defaultdict
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
        entry = self.entries.get(key)
        if entry is None and key in self.redirects:
            entry = self.entries.get(self.redirects[key])
        return entry

    def of(self, game: str, kind: str | None = None) -> list[Entry]:
        """Entries of a game (and kind), in book order for rules and by load order otherwise."""
        if kind == "rule":
            return self.rules_in_order(game)
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
        present = {k for (g, k), items in self._cached()["by"].items() if g == game and k and items}
        declared = set(self.games[game].kinds) if game in self.games else set()
        return [k for k in KIND_ORDER if k in present or k in declared]

    def children(self, entry: Entry) -> list[Entry]:
        return sorted(self._cached()["kids"].get(entry.key, []), key=_sibling_order)

    def rules_in_order(self, game: str) -> list[Entry]:
        """Rules depth-first in book order (parents before their sections)."""
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
        return len(self._ancestry(entry))

    def ancestors(self, entry: Entry) -> list[Entry]:
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
