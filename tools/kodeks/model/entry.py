"""An entry of any kind (rule, skill, weapon, unit, term...) with its kind-specific parts."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..problems import Pos
from .ids import Key
from .text import BiText
from .values import Value


@dataclass
class Citation:
    book: str
    section: str
    page: int | str | None = None
    lines: str | None = None


@dataclass
class Note:
    type: str
    text: BiText
    lines: str | None = None  # the source lines a ruling rests on


@dataclass
class Use:
    """A structured reference: a unit's weapon or skill, a weapon's trait, a rule's parent."""

    key: Key
    level: str | None = None
    count: int | None = None
    note: BiText | None = None
    path: tuple = ()  # where it was written, for errors


@dataclass
class Level:
    level: str
    name: BiText | None = None
    text: BiText | None = None
    values: dict[str, Value] = field(default_factory=dict)


@dataclass
class Table:
    caption: BiText
    columns: list
    rows: list[list]
    id: str | None = None
    notes: BiText | None = None


@dataclass
class Profile:
    values: dict[str, Value]
    name: BiText | None = None
    traits: list[Use] = field(default_factory=list)
    cost: Value | None = None
    text: BiText | None = None


@dataclass
class Part:
    name: BiText
    stats: dict[str, Value]


@dataclass
class Option:
    text: BiText
    cost: Value | None = None


@dataclass
class Entry:
    key: Key
    name: BiText
    sources: list[Citation]
    file: Path
    base: tuple  # path of this entry inside its file: () or (index,)
    # Where an entry stands is not what it is: an entry moved down by lines added above it is the same entry.
    pos: Pos = field(compare=False)
    order: int = field(compare=False)  # position in load order (files sorted, then entries in file order)
    summary: BiText | None = None
    text: BiText | None = None
    category: str | None = None
    aliases: dict[str, list[str]] = field(default_factory=dict)
    values: dict[str, Value] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    gaps: list[BiText] = field(default_factory=list)
    see_also: list[Use] = field(default_factory=list)
    redirects: list[str] = field(default_factory=list)
    levels: list[Level] = field(default_factory=list)
    # rule
    number: str | None = None
    parent: Use | None = None
    sort: int | None = None
    # weapon
    profiles: list[Profile] = field(default_factory=list)
    traits: list[Use] = field(default_factory=list)
    # unit and equipment
    faction: Use | None = None
    unit_type: BiText | None = None
    stats: dict[str, Value] = field(default_factory=dict)
    parts: list[Part] = field(default_factory=list)
    weapons: list[Use] = field(default_factory=list)
    skills: list[Use] = field(default_factory=list)
    equipment: list[Use] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)
    # term
    forms: dict[str, list[str]] = field(default_factory=dict)
    synonyms: dict[str, list[str]] = field(default_factory=dict)
    abbreviations: list[str] = field(default_factory=list)
    target: Use | None = None
    # What the entry was built from (its YAML, game and kind), as a digest: two builds can tell an unchanged
    # entry without comparing the objects (site/pagecache.py). Empty for an entry built in code.
    digest: str = field(default="", compare=False, repr=False)

    @property
    def game(self) -> str:
        return self.key.game

    @property
    def kind(self) -> str:
        return self.key.kind

    @property
    def id(self) -> str:
        return self.key.id

    def title(self, lang: str) -> str:
        """Name with the rule number in front where the book numbers the section."""
        name = self.name.plain(lang)
        return f"{self.number} {name}" if self.number else name

    def uses(self):
        """Every structured reference of this entry, with the field it sits in."""
        for group, items in (("weapons", self.weapons), ("skills", self.skills), ("equipment", self.equipment),
                             ("traits", self.traits), ("see_also", self.see_also)):
            for use in items:
                yield group, use
        for prof in self.profiles:
            for use in prof.traits:
                yield "traits", use
        for group, use in (("faction", self.faction), ("parent", self.parent), ("target", self.target)):
            if use is not None:
                yield group, use

    def texts(self):
        """Every bilingual text of this entry with its path in the file (links live in these)."""
        for name in ("name", "summary", "text", "unit_type"):
            value = getattr(self, name)
            if value is not None:
                yield ("type" if name == "unit_type" else name,), value
        for i, lev in enumerate(self.levels):
            for sub in ("name", "text"):
                if getattr(lev, sub) is not None:
                    yield ("levels", i, sub), getattr(lev, sub)
        for i, note in enumerate(self.notes):
            yield ("notes", i, "text"), note.text
        for i, gap in enumerate(self.gaps):
            yield ("gaps", i), gap
        for i, prof in enumerate(self.profiles):
            for sub in ("name", "text"):
                if getattr(prof, sub) is not None:
                    yield ("profiles", i, sub), getattr(prof, sub)
        for i, opt in enumerate(self.options):
            yield ("options", i, "text"), opt.text
        for group in ("weapons", "skills", "equipment"):
            for i, use in enumerate(getattr(self, group)):
                if use.note is not None:
                    yield (group, i, "note"), use.note
        for t, table in enumerate(self.tables):
            yield ("tables", t, "caption"), table.caption
            if table.notes is not None:
                yield ("tables", t, "notes"), table.notes
            for r, row in enumerate(table.rows):
                for c, cell in enumerate(row):
                    if isinstance(cell, BiText):
                        yield ("tables", t, "rows", r, c), cell
