"""Bilingual text and the one inline grammar of kodeks: Markdown with `id:` links.

Text is parsed once into parts (plain Markdown and links); every renderer (pages, cards, search,
export) reads the parts instead of re-parsing the Markdown.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .ids import Key, parse_ref

# [label](id:kind/id) or [label](id:game/kind/id?level=3); labels may contain escaped brackets.
# [label](nolink:) keeps glossary auto-linking away from the words.
LINK_RE = re.compile(r"\[(?P<label>(?:[^\[\]\\]|\\.)*)\]\((?P<scheme>id|nolink):(?P<target>[^)\s]*)\)")
LOOSE_ID_RE = re.compile(r"\]\(\s*id:")


@dataclass
class Link:
    label: str
    target: str  # as written, for messages
    key: Key | None  # None when malformed
    level: str | None
    start: int
    end: int
    nolink: bool = False


@dataclass
class RichText:
    source: str
    parts: list = field(default_factory=list)  # str | Link

    @property
    def links(self) -> list[Link]:
        """The id: links (not the nolink: marks)."""
        return [p for p in self.parts if isinstance(p, Link) and not p.nolink]

    def plain(self) -> str:
        """The text with links replaced by their labels (for search, summaries, cards)."""
        return "".join(p.label if isinstance(p, Link) else p for p in self.parts)

    def __bool__(self) -> bool:
        return bool(self.source)


def parse_rich(source: str, game: str) -> RichText:
    parts: list = []
    pos = 0
    for m in LINK_RE.finditer(source):
        if m.start() > pos:
            parts.append(source[pos:m.start()])
        target = m.group("target")
        if m.group("scheme") == "nolink":
            parts.append(Link(m.group("label"), "nolink:", None, None, m.start(), m.end(), nolink=True))
            pos = m.end()
            continue
        ref, _, query = target.partition("?")
        level = None
        if query.startswith("level="):
            level = query[len("level="):].replace("+", " ") or None
        parts.append(Link(m.group("label"), target, parse_ref(ref, game), level, m.start(), m.end()))
        pos = m.end()
    if pos < len(source):
        parts.append(source[pos:])
    return RichText(source, parts)


@dataclass
class BiText:
    """Polish is always there; English may be missing (shown as Polish, marked 'not yet translated')."""

    pl: RichText
    en: RichText | None = None

    def get(self, lang: str) -> tuple[RichText, bool]:
        """(text, is it in `lang`)."""
        if lang == "en":
            return (self.en, True) if self.en else (self.pl, False)
        return self.pl, True

    def text(self, lang: str) -> str:
        return self.get(lang)[0].source

    def plain(self, lang: str) -> str:
        return self.get(lang)[0].plain()

    def has(self, lang: str) -> bool:
        return bool(self.pl) if lang == "pl" else bool(self.en)

    def items(self):
        yield "pl", self.pl
        if self.en:
            yield "en", self.en
