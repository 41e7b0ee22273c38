"""An odds declaration (game.yaml `odds:`), read into objects the evaluator and the checks share.

The data is schema-valid when it gets here (schema/odds.schema.json); what a schema cannot see, an expression
that does not parse, is kept beside the step as a `BadExpr` for kodeks.checks.odds to report where it is
written. Nothing here knows a game: every rule a declaration names is a generic building block.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model.text import BiText
from .expr import ExprError, parse

# Names the evaluator gives the per-hit expressions of a face-to-face roll, beside the inputs.
RESERVED = ("defender_passed",)
MAX_DICE = 20  # dice in one step; beyond this a declaration or an input is wrong, not a bigger table


@dataclass(frozen=True)
class BadExpr:
    text: str
    message: str
    offset: int


def expr(text, default: str | None = None):
    """An Expr, or a BadExpr that says why `text` is not one; None when absent with no default."""
    if text is None:
        if default is None:
            return None
        text = default
    try:
        return parse(text)
    except ExprError as exc:
        return BadExpr(str(text), str(exc), exc.offset)


@dataclass
class RollRules:
    """How one die is read against a target T. Each field may be None in a step: then the game's `roll:`
    applies."""

    pass_op: str | None = None  # "<=", "<", ">=", ">"
    clamp: tuple | None = None  # (low, high): T is first brought into this range
    natural: dict | None = None  # face -> True (passes) / False (fails), whatever T is
    critical_equal: bool | None = None  # a passing roll equal to T is a critical
    critical_faces: tuple | None = None  # faces that are a critical success whatever T is
    extra_criticals_above_die: bool | None = None  # T above the die: counts as the die, each point over
    # adds a critical face counting down from the die's size

    def over(self, base: "RollRules") -> "RollRules":
        """These rules where given, `base` elsewhere."""
        return RollRules(*(mine if mine is not None else theirs
                           for mine, theirs in zip(self.astuple(), base.astuple())))

    def astuple(self) -> tuple:
        return (self.pass_op, self.clamp, self.natural, self.critical_equal, self.critical_faces,
                self.extra_criticals_above_die)


GAME_DEFAULTS = RollRules("<=", None, {}, False, (), False)


@dataclass
class Input:
    id: str
    name: BiText | None
    kind: str = "number"  # or "flag": 0 or 1
    default: int = 0
    min: int | None = None
    max: int | None = None
    source: str | None = None  # `from`: attacker.stats.KEY, defender.stats.KEY or weapon.profile.KEY
    rule: object = None  # Key | None


@dataclass
class Jam:
    at: object  # Expr: a natural roll at or above it jams
    stops_burst: bool = False  # the dice rolled after it in the same burst miss
    misses: bool = False  # the jamming die misses even if it passed
    rule: object = None


@dataclass
class Dice:
    """The attacker's or the defender's roll: `dice` d(die) each read against `target`."""

    target: object
    dice: object
    rules: RollRules
    automatic_failure: object = None  # Expr: above 0, the roll fails whatever the dice show
    jam: Jam | None = None
    rule: object = None
    # a face-to-face roll only (the defence):
    compare: str = "higher_roll_wins"
    critical_beats_pass: bool = True
    ties: str = "cancel"


@dataclass
class Band:
    up_to: int | None  # the highest failure margin (roll past the target) this band covers; None: no limit
    wounds: int
    status: BiText | None = None
    status_key: str | None = None


@dataclass
class Save:
    target: object
    rolls: object
    rules: RollRules  # pass_op / clamp / natural only
    worst_of: bool = False
    bands: list = field(default_factory=list)
    rule: object = None


@dataclass
class CriticalHit:
    failed_saves: object = None  # Expr: this many of the hit's saves fail without a roll
    add: dict = field(default_factory=dict)  # input id -> Expr added to it for this hit
    rule: object = None


@dataclass
class PerHit:
    save: Save | None
    wounds_on_fail: object
    critical_hit: CriticalHit | None = None
    rule: object = None


@dataclass(frozen=True)
class BadRegex:
    text: str
    message: str
    offset: int | None


MAX_PATTERN = 200  # a printed weapon value is a few characters; a longer pattern is a mistake


def regex(text):
    """A compiled pattern, or a BadRegex that says why `text` is not one."""
    if not isinstance(text, str):
        return BadRegex(str(text), "a pattern is text", None)
    if len(text) > MAX_PATTERN:
        return BadRegex(text, f"longer than {MAX_PATTERN} characters", MAX_PATTERN)
    try:
        compiled = re.compile(text)
        tree = re._parser.parse(text)  # the same parse, kept to look at its repetitions
    except re.error as exc:
        return BadRegex(text, exc.msg, exc.pos)
    except (RecursionError, OverflowError, ValueError) as exc:
        return BadRegex(text, str(exc) or type(exc).__name__, None)
    if _nested_repeat(tree.data, False):
        return BadRegex(text, "a repetition inside a repetition (such as (a+)+ or (a|b)*) can take exponential "
                              "time on some values", None)
    return compiled


def _nested_repeat(items, inside: bool) -> bool:
    """Whether a parsed pattern repeats (more than once) something that itself repeats or branches: the shape
    that makes a backtracking engine take exponential time, which a declaration must not be able to cause."""
    from re._constants import BRANCH, MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT, SUBPATTERN
    for op, av in items:
        if op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT):
            many = av[1] > 1
            if many and inside:
                return True
            if _nested_repeat(av[2], inside or many):
                return True
        elif op is BRANCH:
            if inside:
                return True
            if any(_nested_repeat(b, inside) for b in av[1]):
                return True
        elif op is SUBPATTERN:
            if _nested_repeat(av[3], inside):
                return True
    return False


@dataclass
class Read:
    """How one printed value of a weapon profile (`column`) sets inputs: `pattern` (a regular expression) must
    match it whole; its capturing groups are named in order by `groups`; each `set` expression reads them as
    whole numbers; a group that took no part in the match reads as its `otherwise` value (with none, the inputs
    that read it are not set)."""

    column: str
    pattern: object  # re.Pattern | BadRegex
    groups: list  # names of the pattern's capturing groups, in order
    set: dict  # input id -> Expr | BadExpr
    otherwise: dict = field(default_factory=dict)  # group -> whole number
    also: list = field(default_factory=list)  # bands only: further reads of the same band (other columns)
    add: dict = field(default_factory=dict)  # input id -> Expr | BadExpr added to what the input holds without
    # the weapon (its `from:` value or its default), e.g. Infinity's PH-2: the wielder's PH, less 2
    repeat: tuple | None = None  # bands only: (name, count): one band per name = 0 .. count-1, from one printed
    # value (Ciernie i Gwiazdy prints the length of a band, not the bands)
    show: dict = field(default_factory=dict)  # bands only: label name -> Expr over the groups (and the repeat name)


@dataclass
class TraitSet:
    """A trait (an entry) on the weapon's profile sets inputs, e.g. DA ammunition: two armour rolls."""

    trait: object  # Key
    set: dict  # input id -> Expr | BadExpr (constants: no groups)


@dataclass
class WeaponRules:
    """How a weapon's printed profile fills a calculator: `reads` always; `bands` one of them, picked by the
    player (the first by default); `traits` from the profile's traits. Picking a weapon or a profile puts every
    input these name back to its default first, so nothing of the weapon picked before stays."""

    reads: list = field(default_factory=list)
    bands: list = field(default_factory=list)
    band_label: dict | None = None  # {"pl": template, "en": template}: {group}, {abbr}, {name}, {value}
    band_rule: object = None
    traits: list = field(default_factory=list)
    categories: list | None = None  # the weapon categories this calculator takes (None: every weapon)

    def takes(self, weapon) -> bool:
        return self.categories is None or getattr(weapon, "category", None) in self.categories

    def targets(self) -> list:
        """Every input id the weapon may set through these rules."""
        out: list = []
        for r in self.reads + self.bands + [a for b in self.bands for a in b.also]:
            out += [k for k in r.set if k not in out]  # (an `add` target belongs to its `from:`, not here)
        for t in self.traits:
            out += [k for k in t.set if k not in out]
        return out


@dataclass
class Calculator:
    id: str
    name: BiText | None
    rule: object
    inputs: list
    attack: Dice
    defence: Dice | None = None
    per_hit: PerHit | None = None
    weapon: WeaponRules | None = None

    def input(self, iid: str) -> Input | None:
        return next((i for i in self.inputs if i.id == iid), None)


@dataclass
class Odds:
    die: int
    rule: object
    roll: RollRules
    calculators: list
    raw: dict  # the declaration as written (plain data): what kodeks-odds.js reads

    def calculator(self, cid: str) -> Calculator | None:
        return next((c for c in self.calculators if c.id == cid), None)


def _rules(data: dict, save: bool = False) -> RollRules:
    natural = data.get("natural")
    crit = data.get("critical")
    clamp = data.get("clamp")
    if save:
        return RollRules(data.get("pass"), tuple(clamp) if clamp else None,
                         {int(k): v == "pass" for k, v in natural.items()} if natural is not None else None)
    return RollRules(
        data.get("pass"), tuple(clamp) if clamp else None,
        {int(k): v == "pass" for k, v in natural.items()} if natural is not None else None,
        ("equal" in crit) if crit is not None else None,
        tuple(sorted(c for c in crit if isinstance(c, int))) if crit is not None else None,
        data.get("extra_criticals_above_die"))


def build(data: dict, game: str, ref) -> Odds:
    """The declaration `data` (schema-valid) of game `game`; `ref(text)` turns `kind/id` into a Key."""

    def key(text):
        return ref(text) if text else None

    def dice(d: dict) -> Dice:
        jam = d.get("jam")
        return Dice(
            target=expr(d.get("target")), dice=expr(d.get("dice"), "1"), rules=_rules(d),
            automatic_failure=expr(d.get("automatic_failure")),
            jam=Jam(expr(jam.get("at")), jam.get("stops_burst", False), jam.get("misses", False),
                    key(jam.get("rule"))) if jam else None,
            rule=key(d.get("rule")),
            compare=d.get("compare", "higher_roll_wins"), critical_beats_pass=d.get("critical_beats_pass", True),
            ties=d.get("ties", "cancel"))

    calcs = []
    for c in data.get("calculators", []):
        inputs = []
        for i in c.get("inputs", []):
            flag = i.get("kind") == "flag"
            inputs.append(Input(
                id=i["id"], name=_bitext(i.get("name"), game), kind=i.get("kind", "number"),
                default=i.get("default", 0), min=0 if flag else i.get("min"), max=1 if flag else i.get("max"),
                source=i.get("from"), rule=key(i.get("rule"))))
        per_hit = None
        ph = c.get("per_hit")
        if ph is not None:
            s = ph.get("save")
            save = None
            if s is not None:
                bands = [Band(b.get("up_to"), b.get("wounds", 0), _bitext(b.get("status"), game),
                              (b.get("status") or {}).get("pl")) for b in s.get("bands", [])]
                save = Save(expr(s.get("target")), expr(s.get("rolls"), "1"), _rules(s, save=True),
                            s.get("worst_of", False), bands, key(s.get("rule")))
            ch = ph.get("critical_hit")
            crit = None
            if ch is not None:
                crit = CriticalHit(expr(ch.get("failed_saves"), "0"),
                                   {k: expr(v) for k, v in (ch.get("add") or {}).items()}, key(ch.get("rule")))
            per_hit = PerHit(save, expr(ph.get("wounds_on_fail"), "1"), crit, key(ph.get("rule")))
        calcs.append(Calculator(
            id=c["id"], name=_bitext(c.get("name"), game), rule=key(c.get("rule")), inputs=inputs,
            attack=dice(c["attack"]), defence=dice(c["defence"]) if c.get("defence") else None,
            per_hit=per_hit, weapon=_weapon(c["weapon"], key) if c.get("weapon") else None))
    return Odds(die=data["die"], rule=key(data.get("rule")), roll=_rules(data.get("roll") or {}).over(GAME_DEFAULTS),
                calculators=calcs, raw=data)


def _read(d: dict, defaults: dict | None = None) -> Read:
    base = defaults or {}
    sets = d.get("set", base.get("set")) or {}
    return Read(d.get("column"), regex(d.get("pattern", base.get("pattern"))),
                list(d.get("groups", base.get("groups")) or []), {k: expr(v) for k, v in sets.items()},
                dict(d.get("otherwise", base.get("otherwise")) or {}),
                [_read(a) for a in d.get("also") or []], {k: expr(v) for k, v in (d.get("add") or {}).items()},
                (d["repeat"]["name"], d["repeat"]["count"]) if d.get("repeat") else None,
                {k: expr(v) for k, v in (d.get("show", base.get("show")) or {}).items()})


def _weapon(data: dict, key) -> WeaponRules:
    bands = data.get("bands") or {}
    label = bands.get("label")
    if isinstance(label, str):
        label = {"pl": label, "en": label}
    return WeaponRules(
        reads=[_read(r) for r in data.get("reads") or []],
        bands=[_read(b, bands) for b in bands.get("list") or []],
        band_label=label, band_rule=key(bands.get("rule")),
        traits=[TraitSet(key(t.get("trait")), {k: expr(v) for k, v in (t.get("set") or {}).items()})
                for t in data.get("traits") or []],
        categories=list(data["categories"]) if data.get("categories") else None)


def _bitext(data, game: str) -> BiText | None:
    from ..content.loader import bitext
    return bitext(data, game)


def expressions(calc: Calculator):
    """(path inside the calculator, Expr | BadExpr, names it may read) of every expression of `calc`."""
    inputs = [i.id for i in calc.inputs]
    per_hit_names = inputs + (list(RESERVED) if calc.defence is not None else [])
    for name, step in (("attack", calc.attack), ("defence", calc.defence)):
        if step is None:
            continue
        for attr in ("target", "dice", "automatic_failure"):
            value = getattr(step, attr)
            if value is not None:
                yield (name, attr), value, inputs
        if step.jam is not None and step.jam.at is not None:
            yield (name, "jam", "at"), step.jam.at, inputs
    ph = calc.per_hit
    if ph is None:
        return
    yield ("per_hit", "wounds_on_fail"), ph.wounds_on_fail, per_hit_names
    if ph.save is not None:
        yield ("per_hit", "save", "target"), ph.save.target, per_hit_names
        yield ("per_hit", "save", "rolls"), ph.save.rolls, per_hit_names
    if ph.critical_hit is not None:
        yield ("per_hit", "critical_hit", "failed_saves"), ph.critical_hit.failed_saves, per_hit_names
        for k, v in ph.critical_hit.add.items():
            yield ("per_hit", "critical_hit", "add", k), v, per_hit_names
