"""What goes on a unit's card, in one language: everything needed at the table, because paper has no hover."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model.entry import Entry, Use
from ..model.game import FieldDef
from ..model.ids import Key
from ..model.kb import KnowledgeBase
from ..model.values import Gap, show
from ..site.i18n import t


@dataclass
class Cell:
    text: str
    gap: bool = False


@dataclass
class Reminder:
    """A skill, trait, piece of equipment or weapon rule with its level and a one-line reminder."""

    key: Key
    name: str
    level: str | None
    reminder: str
    ruling: bool = False  # the entry holds a kodeks ruling: marked ⚖ on the card


@dataclass
class Card:
    key: Key
    game: str
    title: str
    subtitle: str  # faction · type
    cost: str
    stat_head: list[tuple[str, str]] = field(default_factory=list)  # (abbreviation, full name)
    stat_row: list[Cell] = field(default_factory=list)
    part_title: str = ""
    part_head: list[tuple[str, str]] = field(default_factory=list)
    part_rows: list[tuple[str, list[Cell]]] = field(default_factory=list)
    weapon_head: list[tuple[str, str]] = field(default_factory=list)
    weapon_rows: list[tuple[str, list[Cell], str]] = field(default_factory=list)  # name, cells, rules
    skills: list[Reminder] = field(default_factory=list)
    equipment: list[Reminder] = field(default_factory=list)
    weapon_rules: list[Reminder] = field(default_factory=list)
    text: str = ""  # for units whose rules are only prose (e.g. tiles' abilities)
    source: str = ""
    has_gap: bool = False
    ruling: bool = False  # the unit's own entry holds a kodeks ruling
    weapon_rulings: list[bool] = field(default_factory=list)  # per weapon row
    count: int = 1  # how many of this unit a roster has: that many cards are printed

    @property
    def rules_used(self) -> list[Key]:
        seen: dict[Key, None] = {}
        for r in self.skills + self.equipment + self.weapon_rules:
            seen.setdefault(r.key, None)
        return list(seen)

    def signature(self) -> tuple:
        """Identical cards (same unit, same content) fold into one when a roster has several."""
        return (self.key,)

    @property
    def has_ruling(self) -> bool:
        return self.ruling or any(self.weapon_rulings) or any(r.ruling for r in self.skills + self.equipment
                                                               + self.weapon_rules)


def has_ruling(entry: Entry | None) -> bool:
    return entry is not None and any(n.type == "ruling" for n in entry.notes)


def _cell(value, fd: FieldDef | None = None) -> Cell:
    if isinstance(value, Gap):
        return Cell("—", True)
    if value is None:
        return Cell("")
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    return Cell(show(value, signed=bool(fd and fd.signed), unit=fd.unit if fd and numeric else ""))


def _reminder(kb: KnowledgeBase, use: Use, lang: str) -> Reminder | None:
    target = kb.get(use.key)
    if target is None:
        return None
    text = target.summary.plain(lang) if target.summary else ""
    if use.level:
        lv = next((x for x in target.levels if x.level == use.level), None)
        if lv is not None and lv.text:
            text = (text + " " if text else "") + f"({use.level}: {lv.text.plain(lang)})"
    return Reminder(target.key, target.name.plain(lang), use.level, text, has_ruling(target))


_MD = re.compile(r"(\*\*|__|`|^#+\s*|\|)", re.M)


def _is_family(kb: KnowledgeBase, use: Use) -> bool:
    """A weapon family (its catalogue heading) is not a rule to remind of on every weapon row."""
    target = kb.get(use.key)
    return bool(target and target.category and "family" in target.category)


def _fields(fields: list[FieldDef], rows: list[dict]) -> list[FieldDef]:
    return [f for f in fields if any(f.key in r for r in rows)]


def card(kb: KnowledgeBase, unit: Entry, lang: str) -> Card:
    game = kb.games[unit.game]
    faction = kb.get(unit.faction.key) if unit.faction else None
    subtitle = " · ".join(x for x in (faction.name.plain(lang) if faction else "",
                                      unit.unit_type.plain(lang) if unit.unit_type else "") if x)
    kconf = game.kinds.get("unit")
    cost_bits = []
    for key in ("cost", "count"):
        if key in unit.values:
            fd = kconf.field(key) if kconf else None
            label = fd.label(lang) if fd else key
            cost_bits.append(f"{label} {_cell(unit.values[key], fd).text}")
    c = Card(key=unit.key, game=unit.game, title=unit.title(lang), subtitle=subtitle, cost=" · ".join(cost_bits))
    stats = _fields(game.stat_line, [unit.stats])
    c.stat_head = [(f.label(lang), f.name.plain(lang)) for f in stats]
    c.stat_row = [_cell(unit.stats.get(f.key), f) for f in stats]
    if unit.parts and game.part_line:
        pf = _fields(game.part_line.fields, [p.stats for p in unit.parts])
        c.part_title = game.part_line.name.plain(lang)
        c.part_head = [(f.label(lang), f.name.plain(lang)) for f in pf]
        c.part_rows = [(p.name.plain(lang), [_cell(p.stats.get(f.key), f) for f in pf]) for p in unit.parts]
    weapons = [(use, kb.get(use.key)) for use in unit.weapons]
    weapons = [(u, w) for u, w in weapons if w is not None]
    profiles = [p.values for _, w in weapons for p in w.profiles]
    wf = _fields(game.weapon_profile, profiles)
    c.weapon_head = [(f.label(lang), f.name.plain(lang)) for f in wf]
    rule_uses: list[Use] = []
    for use, weapon in weapons:
        for i, prof in enumerate(weapon.profiles):
            name = weapon.name.plain(lang) if i == 0 else "↳ " + (prof.name.plain(lang) if prof.name else "")
            if i == 0 and use.count:
                name = f"{use.count}× {name}"
            if i == 0 and prof.name and len(weapon.profiles) > 1:
                name += f" ({prof.name.plain(lang)})"
            traits = [u for u in (weapon.traits if i == 0 else []) + prof.traits if not _is_family(kb, u)]
            rules = ", ".join((kb.get(t.key).name.plain(lang) if kb.get(t.key) else t.key.id) + (f" {t.level}" if t.level else "")
                              for t in traits)
            rule_uses += traits
            c.weapon_rows.append((name, [_cell(prof.values.get(f.key), f) for f in wf], rules))
            c.weapon_rulings.append(i == 0 and has_ruling(weapon))
    c.skills = [r for r in (_reminder(kb, u, lang) for u in unit.skills) if r]
    c.equipment = [r for r in (_reminder(kb, u, lang) for u in unit.equipment) if r]
    seen = set()
    for u in rule_uses:
        if u.key not in seen and not _is_family(kb, u):
            seen.add(u.key)
            r = _reminder(kb, Use(u.key), lang)
            if r:
                c.weapon_rules.append(r)
    if not (c.skills or c.weapon_rows) and unit.text:
        plain = _MD.sub(" ", unit.text.plain(lang))
        c.text = plain if len(plain) < 600 else plain[:597].rsplit(" ", 1)[0] + "…"
    cit = unit.sources[0]
    book = game.book(cit.book)
    c.source = f"{book.title.plain(lang) if book else cit.book} — {cit.section}"
    c.ruling = has_ruling(unit)
    c.has_gap = any(cell.gap for cell in c.stat_row) or any(cell.gap for _, cells, _ in c.weapon_rows for cell in cells) \
        or any(cell.gap for _, cells in c.part_rows for cell in cells)
    return c


def cards_for(kb: KnowledgeBase, game: str, lang: str, faction: str | None = None,
              units: list[str] | None = None) -> list[Card]:
    out = []
    for unit in kb.of(game, "unit"):
        if faction and not (unit.faction and unit.faction.key.id == faction):
            continue
        if units is not None and unit.id not in units:
            continue
        out.append(card(kb, unit, lang))
    return out


def legend(lang: str) -> str:
    return t(lang, "gap_legend")
