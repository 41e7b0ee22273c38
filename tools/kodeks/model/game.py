"""A game: names, books, dice, stat line, weapon profile and the kinds it uses (from game.yaml)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .text import BiText


@dataclass
class FieldDef:
    key: str
    name: BiText
    abbr: BiText | None
    type: str
    min: float | None = None
    max: float | None = None
    signed: bool = False
    dash: bool = False
    pattern: str | None = None
    enum: list[str] = field(default_factory=list)
    unit: str = ""
    required: bool = False
    description: BiText | None = None

    def label(self, lang: str) -> str:
        return (self.abbr or self.name).plain(lang)


@dataclass
class Book:
    id: str
    title: BiText
    source_file: str = ""
    language: str = "pl"
    notes: BiText | None = None


@dataclass
class Die:
    id: str
    name: BiText
    sides: int | None = None
    text: BiText | None = None


@dataclass
class Category:
    id: str
    name: BiText
    summary: BiText | None = None


@dataclass
class KindConfig:
    kind: str
    name: BiText | None = None
    summary: BiText | None = None
    categories: list[Category] = field(default_factory=list)
    fields: list[FieldDef] = field(default_factory=list)

    def category(self, cid: str) -> Category | None:
        return next((c for c in self.categories if c.id == cid), None)

    def field(self, key: str) -> FieldDef | None:
        return next((f for f in self.fields if f.key == key), None)


@dataclass
class PartLine:
    name: BiText
    fields: list[FieldDef]


@dataclass
class Game:
    id: str
    name: BiText
    edition: BiText
    publisher: BiText
    books: list[Book]
    dice: list[Die]
    stat_line: list[FieldDef]
    kinds: dict[str, KindConfig]
    summary: BiText | None = None
    authors: list[str] = field(default_factory=list)
    trademarks: BiText | None = None
    part_line: PartLine | None = None
    weapon_profile: list[FieldDef] = field(default_factory=list)
    notes: list = field(default_factory=list)
    quick_reference: list = field(default_factory=list)  # [(Key, [table number or id] | None)]
    shortcuts: list = field(default_factory=list)  # [Key]: the entries linked at the top of the game's page
    odds: object = None  # kodeks.odds.model.Odds: how its dice tests work (game.yaml `odds:`), if it has any
    path: Path | None = None
    digest: str = field(default="", compare=False, repr=False)  # of game.yaml's data, as Entry.digest

    def book(self, bid: str) -> Book | None:
        return next((b for b in self.books if b.id == bid), None)

    def stat(self, key: str) -> FieldDef | None:
        return next((f for f in self.stat_line if f.key == key), None)
