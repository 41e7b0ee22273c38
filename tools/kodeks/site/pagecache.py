"""Each page's Markdown, made again only when something it shows changed since the last build.

A page is rendered from the model alone. While it is rendered, the knowledge base notes what the page asks of
it (model/kb.py `traced`: an entry by key, a kind's entries, what uses an entry, a game's glossary...). The
store keeps, per page, its Markdown and those facts with what each answered, as digests. The next build asks
each fact again of the new model (`fact_digest`, a lookup and a hash, far cheaper than rendering): a page
whose facts all answer the same is taken from the store, the others are rendered (and traced) again.

What any page may read without asking (the games, the former ids of entries, the templates, kodeks itself,
the language) is the store's key: when it differs, every page is rendered.

The store is a cache: it says what a page's Markdown is for given inputs, whatever happened to the site, so
it is written whenever it changed (atomically), and a store that is missing, unreadable or of another key
only means that every page is rendered.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from array import array
from pathlib import Path
from typing import Callable

from ..model.kb import KnowledgeBase, fact_digest, traced
from ..outdir import keep

FORMAT = 1
VERIFY = "KODEKS_PAGECACHE_VERIFY"  # set: every page is rendered too, and a stored page that differs is an error


def key(kb: KnowledgeBase, lang: str, engine: str, templates: Path | None) -> str:
    """What every page of `lang` may depend on besides the facts it asks (see the module's doc)."""
    h = hashlib.sha256(f"{FORMAT}\0{lang}\0{engine}\0".encode())
    for gid, game in kb.games.items():
        h.update(f"{gid}\0{game.digest or repr(game)}\0".encode())
    h.update(repr(sorted((str(a), str(b)) for a, b in kb.redirects.items())).encode())
    if templates is not None and templates.is_dir():
        from .record import _walk
        _walk(templates, h)
    return h.hexdigest()[:32]


class Store:
    """The pages of one language as last rendered, with what each was rendered from."""

    def __init__(self, path: Path | None, key: str, read: bool = True):
        """`read` False: every page is rendered (`kodeks build --clean`), and the store written anew."""
        self.path, self.key = path, key
        self.facts: list[tuple] = []
        self.digests: list[bytes] = []
        self.pages: dict[str, tuple[array, str]] = {}
        data = self._read() if read else None
        if data is not None:
            self.facts, self.digests, self.pages = data["facts"], data["digests"], data["pages"]

    def _read(self) -> dict | None:
        if self.path is None:
            return None
        try:
            with open(self.path, "rb") as fh:
                data = pickle.load(fh)
        except Exception:  # noqa: BLE001 - missing, cut short, from another kodeks: render every page
            return None
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != self.key:
            return None
        return data

    def render(self, kb: KnowledgeBase, makers: dict[str, Callable[[], str]]) -> tuple[dict[str, str], int]:
        """({path: Markdown} for every page of `makers`, how many were rendered); the store is brought up to
        date and written."""
        holds: list[bool | None] = [None] * len(self.facts)
        now: list[bytes | None] = [None] * len(self.facts)

        def still(i: int) -> bool:
            if holds[i] is None:
                now[i] = fact_digest(kb, self.facts[i])
                holds[i] = now[i] == self.digests[i]
            return holds[i]

        verify = bool(os.environ.get(VERIFY))
        out: dict[str, str] = {}
        fresh: dict[str, set] = {}
        kept: dict[str, tuple[array, str]] = {}
        for path, make in makers.items():
            hit = self.pages.get(path)
            if hit is not None and all(still(i) for i in hit[0]):
                out[path] = hit[1]
                kept[path] = hit
                if verify and make() != hit[1]:
                    raise AssertionError(f"pagecache: the stored Markdown of {path} is not what it renders to")
                continue
            with traced(kb) as reads:
                out[path] = make()
            fresh[path] = reads
        changed = bool(fresh) or len(kept) != len(self.pages) or not all(h is not False for h in holds)
        if changed:
            self._update(kb, kept, fresh, out, now)
            self._write()
        return out, len(fresh)

    def _update(self, kb: KnowledgeBase, kept: dict, fresh: dict[str, set], out: dict[str, str],
                now: list) -> None:
        # The table keeps its facts (kept pages keep their numbers), each with what it answers now; facts
        # new to it are added. Facts no page asks any more are dropped once they are half of the table.
        facts = self.facts
        digests = [d if d is not None else fact_digest(kb, f) for f, d in zip(facts, now)]
        index = {f: i for i, f in enumerate(facts)}
        pages = dict(kept)
        for path, reads in fresh.items():
            ids = array("I")
            for f in reads:
                i = index.get(f)
                if i is None:
                    i = index[f] = len(facts)
                    facts.append(f)
                    digests.append(fact_digest(kb, f))
                ids.append(i)
            pages[path] = (ids, out[path])
        self.facts, self.digests, self.pages = facts, digests, pages
        used = set()
        for ids, _ in pages.values():
            used.update(ids)
        if len(used) * 2 < len(facts):
            self._compact(used)

    def _compact(self, used: set[int]) -> None:
        order = sorted(used)
        remap = {old: new for new, old in enumerate(order)}
        self.facts = [self.facts[i] for i in order]
        self.digests = [self.digests[i] for i in order]
        self.pages = {p: (array("I", (remap[i] for i in ids)), text) for p, (ids, text) in self.pages.items()}

    def _write(self) -> None:
        if self.path is None:
            return
        keep(self.path, {"format": FORMAT, "key": self.key, "facts": self.facts, "digests": self.digests,
                         "pages": self.pages})
