"""An odds declaration (game.yaml `odds:`), read into objects the evaluator and the checks share.

The data is schema-valid when it gets here (schema/odds.schema.json); what a schema cannot see, an expression
that does not parse, is kept beside the step as a `BadExpr` for kodeks.checks.odds to report where it is
written. Nothing here knows a game: every rule a declaration names is a generic building block.
"""
from __future__ import annotations

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


@dataclass
class Calculator:
    id: str
    name: BiText | None
    rule: object
    inputs: list
    attack: Dice
    defence: Dice | None = None
    per_hit: PerHit | None = None

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
            per_hit=per_hit))
    return Odds(die=data["die"], rule=key(data.get("rule")), roll=_rules(data.get("roll") or {}).over(GAME_DEFAULTS),
                calculators=calcs, raw=data)


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
