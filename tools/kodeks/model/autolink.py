"""Glossary terms link themselves: one pass over a text with one trie of every term form.

Every form of every glossary term (its name, inflected forms, synonyms, abbreviations) goes into one trie
over lower-cased words; a text is scanned once, word by word, taking the longest form that starts at each
word. The first mention of each target in a section (a text, restarted at each Markdown heading) becomes a
link; headings, code, existing links and text marked `[words](nolink:)` are left alone, and an entry never
links to itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .ids import Key
from .kb import note

WORD_RE = re.compile(r"[^\W_]+(?:[-’'][^\W_]+)*", re.UNICODE)
CODE_RE = re.compile(r"`[^`\n]*`")
HEADING_RE = re.compile(r"^#{1,6} .*$", re.M)
HEADING_START_RE = re.compile(r"^#{1,6} ", re.M)
TAG_RE = re.compile(r"<[^>\n]+>")
LINK_SYNTAX_RE = re.compile(r"\]\([^)\n]*\)|\[[^\]\n]*\]\([^)\n]*\)")


@dataclass
class Node:
    children: dict[str, "Node"] = field(default_factory=dict)
    target: Key | None = None
    exact: tuple[str, ...] | None = None  # for abbreviations: the form must match letter case too


@dataclass
class Match:
    start: int
    end: int
    target: Key


class Linker:
    """The trie of one language's term forms, for one game (terms link within their own game)."""

    def __init__(self) -> None:
        self.root = Node()
        self.size = 0

    def add(self, form: str, target: Key, case_sensitive: bool = False) -> None:
        original = WORD_RE.findall(form)
        words = [w.lower() for w in original]
        if not words or (not case_sensitive and len("".join(words)) < 3):
            return  # one- and two-letter forms link only as case-sensitive abbreviations
        node = self.root
        for w in words:
            node = node.children.setdefault(w, Node())
        if node.target is None:  # the first term to claim a form keeps it
            node.target = target
            node.exact = tuple(original) if case_sensitive else None
            self.size += 1

    def matches(self, text: str) -> list[Match]:
        """Longest form at each word, left to right, never overlapping."""
        low = text.lower()
        if len(low) != len(text):  # a letter whose lower case is longer: positions would shift
            return self._matches_slow(text)
        # Words are looked up in the lower-cased copy by position: most words start no form, and for them
        # this is one slice and one dict lookup.
        spans = [m.span() for m in WORD_RE.finditer(low)]
        first = self.root.children
        out: list[Match] = []
        i, n = 0, len(spans)
        while i < n:
            s, e = spans[i]
            node = first.get(low[s:e])
            if node is None:
                i += 1
                continue
            best, j = None, i + 1
            while True:
                if node.target is not None and (node.exact is None or
                                                node.exact == tuple(text[a:b] for a, b in spans[i:j])):
                    best = (j, node.target)
                if j >= n or not node.children:
                    break
                s2, e2 = spans[j]
                nxt = node.children.get(low[s2:e2])
                if nxt is None or not _joins(text[spans[j - 1][1]:s2]):
                    break  # a phrase does not run across punctuation, Markdown marks or a paragraph break
                node, j = nxt, j + 1
            if best:
                out.append(Match(s, spans[best[0] - 1][1], best[1]))
                i = best[0]
            else:
                i += 1
        return out

    def _matches_slow(self, text: str) -> list[Match]:
        words = [(m.start(), m.end(), m.group(0).lower(), m.group(0)) for m in WORD_RE.finditer(text)]
        out: list[Match] = []
        i = 0
        while i < len(words):
            node, best, j = self.root, None, i
            while j < len(words) and words[j][2] in node.children:
                if j > i and not _joins(text[words[j - 1][1]:words[j][0]]):
                    break
                node = node.children[words[j][2]]
                j += 1
                if node.target is not None and (node.exact is None or
                                                node.exact == tuple(w[3] for w in words[i:j])):
                    best = (j, node.target)
            if best:
                out.append(Match(words[i][0], words[best[0] - 1][1], best[1]))
                i = best[0]
            else:
                i += 1
        return out


def _joins(gap: str) -> bool:
    """Words of one phrase are separated by spaces, at most one line break, or a hyphen."""
    return gap.strip(" \t-") == "" and gap.count("\n") <= 1 or gap.strip(" \t\n") == "" and gap.count("\n") <= 1


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Parts of a Markdown text that must not get links: headings, code, HTML tags, link syntax."""
    spans = [(m.start(), m.end()) for m in CODE_RE.finditer(text)]
    spans += [m.span() for m in HEADING_RE.finditer(text)]
    spans += [m.span() for m in TAG_RE.finditer(text)]
    spans += [m.span() for m in LINK_SYNTAX_RE.finditer(text)]
    return spans


def heading_starts(text: str) -> list[int]:
    return [m.start() for m in HEADING_START_RE.finditer(text)]


def build(kb, game: str, lang: str) -> Linker:
    """The linker of one game and language, from its glossary terms (cached on the knowledge base)."""
    note(kb, ("terms", game))
    cache = kb.__dict__.setdefault("_linkers", {})
    if (game, lang) in cache:
        return cache[(game, lang)]
    linker = Linker()
    terms = sorted((e for e in kb.entries.values() if e.game == game and e.kind == "term"), key=lambda e: e.order)
    for term in terms:
        target = term.target.key if term.target is not None else term.key
        if kb.get(target) is None:
            continue
        forms = [term.name.plain(lang)] if (lang == "pl" or term.name.en) else []
        forms += term.forms.get(lang, []) + term.synonyms.get(lang, [])
        for form in forms:
            linker.add(form, target)
        for abbr in term.abbreviations:
            linker.add(abbr, target, case_sensitive=True)
    cache[(game, lang)] = linker
    return linker
