"""The exact outcome of one calculator for one set of inputs: enumeration and convolution over Fractions.

A roll of several dice is a multinomial over what one die can do (fail, pass, critical); a face-to-face roll
sums over the opponent's best die; a jam that stops the burst is a walk over the dice in order; the wounds of
all hits are the per-hit distributions convolved. No sampling anywhere, so two evaluators of the same
declaration (this one and kodeks-odds.js) must agree to the last digit their arithmetic allows.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from .dice import CRIT, FAIL, PASS, effective_target, faces, margin
from .expr import EvalError
from .model import MAX_DICE, Calculator, Dice, Odds, RollRules

ZERO, ONE = Fraction(0), Fraction(1)


class OddsError(ValueError):
    """Inputs the calculator cannot take (unknown, out of range, a step with an impossible number of dice)."""


@dataclass
class Step:
    target: int
    dice: int
    p_pass: Fraction  # one die: a success that is not a critical
    p_critical: Fraction
    automatic_failure: bool = False


@dataclass
class Outcome:
    calculator: str
    inputs: dict
    attack: Step
    hits: list  # P(the attacker scores k hits), k = 0, 1, ...
    critical_hits: list  # P(k of them are critical hits)
    defence: Step | None = None
    defender_scores: Fraction | None = None  # face-to-face: the defender's roll wins
    nobody: Fraction | None = None  # face-to-face: neither side scores
    defender_hits: list | None = None
    jam: Fraction | None = None  # P(the attacker's roll jams)
    per_hit: dict | None = None  # {"normal": [P(w wounds)], "critical": [...]}
    per_hit_defender_passed: dict | None = None  # the same when the defender's roll passed (if it matters)
    wounds: list | None = None  # P(w wounds in total)
    p_wound: Fraction | None = None
    expected_wounds: Fraction | None = None
    statuses: list = field(default_factory=list)  # [(BiText name, P(the target ends with it))]
    # The part critical hits play (a calculator whose attack roll can score criticals; None otherwise):
    criticals: bool = False
    p_critical_hit: Fraction | None = None  # P(at least one of the hits is critical)
    expected_critical_hits: Fraction | None = None
    expected_wounds_normal: Fraction | None = None  # expected wounds from normal hits ...
    expected_wounds_critical: Fraction | None = None  # ... and from critical hits (their sum: expected_wounds)
    p_wound_critical: Fraction | None = None  # P(at least one wound comes from a critical hit)


def has_criticals(odds: Odds, calc: Calculator) -> bool:
    """Whether the attacker's roll can score a critical at all (the declaration, whatever the inputs)."""
    r = calc.attack.rules.over(odds.roll)
    return bool(r.critical_equal or r.critical_faces or r.extra_criticals_above_die)


def _mean(dist: list) -> Fraction:
    return sum((k * p for k, p in enumerate(dist)), ZERO)


def resolve_inputs(calc: Calculator, values: dict) -> dict:
    """Every input of `calc`: the value given, else its default; OddsError for an unknown or bad one."""
    known = {i.id for i in calc.inputs}
    unknown = sorted(set(values) - known)
    if unknown:
        raise OddsError(f"unknown input '{unknown[0]}' for {calc.id} (known: {', '.join(i.id for i in calc.inputs)})")
    env = {}
    for inp in calc.inputs:
        v = values.get(inp.id, inp.default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise OddsError(f"{inp.id} must be a whole number, not {v!r}")
        if inp.min is not None and v < inp.min or inp.max is not None and v > inp.max:
            lo = "" if inp.min is None else inp.min
            hi = "" if inp.max is None else inp.max
            raise OddsError(f"{inp.id} = {v} is out of its range {lo}..{hi}")
        env[inp.id] = v
    return env


def _value(ex, env: dict, what: str) -> int:
    try:
        return ex(env)
    except EvalError as exc:
        raise OddsError(f"{what}: {exc} for these inputs") from None


def _count(ex, env: dict, what: str) -> int:
    n = _value(ex, env, what)
    if not 0 <= n <= MAX_DICE:
        raise OddsError(f"{what} = {n}: a step rolls 0 to {MAX_DICE} dice")
    return n


def _roll(odds: Odds, step: Dice, env: dict, name: str):
    target = _value(step.target, env, f"{name} target")
    n = _count(step.dice, env, f"{name} dice")
    auto = step.automatic_failure is not None and _value(step.automatic_failure, env, f"{name} automatic_failure") > 0
    rules = step.rules.over(odds.roll)
    table = faces(odds.die, target, rules, auto)
    d = odds.die
    info = Step(target, n, Fraction(table.count(PASS), d), Fraction(table.count(CRIT), d), auto)
    jam_at = _value(step.jam.at, env, f"{name} jam") if step.jam is not None else None
    return info, table, jam_at


@lru_cache(maxsize=4096)
def _multinomial(n: int, p_normal: Fraction, p_crit: Fraction) -> tuple:
    """((normal, critical), P) over n independent dice."""
    dist = {(0, 0): ONE}
    p_miss = ONE - p_normal - p_crit
    for _ in range(n):
        nxt: dict = defaultdict(Fraction)
        for (a, c), p in dist.items():
            if p_miss:
                nxt[(a, c)] += p * p_miss
            if p_normal:
                nxt[(a + 1, c)] += p * p_normal
            if p_crit:
                nxt[(a, c + 1)] += p * p_crit
        dist = nxt
    return tuple(dist.items())


def _burst_with_jam(table: list, n: int, die: int, jam_at: int, jam) -> dict:
    """(normal, critical) hits of n dice rolled in order, where a face >= jam_at jams: the jamming die misses
    if `jam.misses`, and every later die misses if `jam.stops_burst`."""
    groups: dict = defaultdict(int)
    for r, status in enumerate(table, start=1):
        jammed = r >= jam_at
        if jammed and jam.misses:
            status = FAIL
        groups[(status, jammed)] += 1
    dist = {(True, 0, 0): ONE}
    for _ in range(n):
        nxt: dict = defaultdict(Fraction)
        for (alive, a, c), p in dist.items():
            if not alive:
                nxt[(alive, a, c)] += p
                continue
            for (status, jammed), count in groups.items():
                q = p * Fraction(count, die)
                nxt[(not (jammed and jam.stops_burst), a + (status == PASS), c + (status == CRIT))] += q
        dist = nxt
    out: dict = defaultdict(Fraction)
    for (_, a, c), p in dist.items():
        out[(a, c)] += p
    return out


def _ranks(table: list, die: int, compare: str, crit_first: bool) -> list:
    """(rank, is critical) per face: 0 for a failure; a higher rank beats a lower one."""
    out = []
    for r, status in enumerate(table, start=1):
        if status == FAIL:
            out.append((0, False))
            continue
        rank = r if compare == "higher_roll_wins" else die + 1 - r
        if status == CRIT and crit_first:
            rank += die
        out.append((rank, status == CRIT))
    return out


def _best(ranks: list, n: int, die: int, top: int) -> list:
    """P(the best of n dice has rank k), k = 0..top."""
    per = [Fraction(0)] * (top + 1)
    for rank, _ in ranks:
        per[rank] += Fraction(1, die)
    out, below, prev = [], ZERO, ZERO
    for k in range(top + 1):
        below += per[k]
        cdf_n = below ** n
        out.append(cdf_n - prev)
        prev = cdf_n
    return out


def _beats(rank: int, best: int, tie_winner, side: str) -> bool:
    """Whether a die of `side` ('a' or 'b') with `rank` scores against the other side's best rank."""
    return bool(rank) and (rank > best or rank == best and tie_winner == side)


def _face_to_face(a_ranks, na, b_ranks, nb, die, tie_winner):
    """The attacker's hits by (defender passed, normal, critical) and the defender's hit count distribution.
    A side's die scores if it beats the other side's best die; on an equal rank `tie_winner` ('a', 'b' or None)
    takes it. At most one side scores."""
    top = 2 * die
    a_best, b_best = _best(a_ranks, na, die, top), _best(b_ranks, nb, die, top)
    attacker: dict = defaultdict(Fraction)
    for b, pb in enumerate(b_best):
        if not pb:
            continue
        p_n = p_c = ZERO
        for rank, crit in a_ranks:
            if _beats(rank, b, tie_winner, "a"):
                if crit:
                    p_c += Fraction(1, die)
                else:
                    p_n += Fraction(1, die)
        for (n, c), p in _multinomial(na, p_n, p_c):
            attacker[(b > 0, n, c)] += pb * p
    defender: dict = defaultdict(Fraction)
    for a, pa in enumerate(a_best):
        if not pa:
            continue
        p_beat = sum((Fraction(1, die) for rank, _ in b_ranks if _beats(rank, a, tie_winner, "b")), ZERO)
        for (n, _), p in _multinomial(nb, p_beat, ZERO):
            defender[n] += pa * p
    return attacker, defender


def _as_list(dist: dict) -> list:
    top = max((k for k, p in dist.items() if p), default=0)
    return [dist.get(k, ZERO) for k in range(top + 1)]


def _convolve(a: list, b: list) -> list:
    out = [ZERO] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b):
                if q:
                    out[i + j] += p * q
    return out


def _power(dist: list, n: int, cache: dict) -> list:
    key = (id(dist), n)
    if key not in cache:
        cache[key] = [ONE] if n == 0 else _convolve(_power(dist, n - 1, cache), dist)
    return cache[key]


def _per_hit(odds: Odds, calc: Calculator, env: dict, critical: bool) -> tuple[list, dict]:
    """(P(w wounds) from one hit, {status key: P(the hit does not cause it)})."""
    ph = calc.per_hit
    e = dict(env)
    failed = 0
    if critical and ph.critical_hit is not None:
        for k, ex in ph.critical_hit.add.items():
            e[k] = env[k] + _value(ex, env, f"critical_hit add {k}")
        failed = _value(ph.critical_hit.failed_saves, env, "critical_hit failed_saves")
    w = _value(ph.wounds_on_fail, e, "wounds_on_fail")
    if w < 0:
        raise OddsError(f"wounds_on_fail = {w}: wounds cannot be negative")
    save = ph.save
    if save is None:
        return _as_list({w: ONE}), {}
    target = _value(save.target, e, "save target")
    k = _count(save.rolls, e, "save rolls")
    failed = min(max(failed, 0), k)
    rolled = k - failed
    r = save.rules
    base = odds.roll
    rules = RollRules(r.pass_op or base.pass_op, r.clamp if r.clamp is not None else base.clamp,
                      r.natural if r.natural is not None else base.natural, False, (), False)
    die = odds.die
    table = faces(die, target, rules)
    if not save.bands:
        p_fail = Fraction(table.count(FAIL), die)
        if save.worst_of:
            p = ONE if failed else ONE - (ONE - p_fail) ** rolled
            return _as_list({w: p, 0: ONE - p} if w else {0: ONE}), {}
        dist: dict = defaultdict(Fraction)
        for (fails, _), p in _multinomial(rolled, p_fail, ZERO):
            dist[(fails + failed) * w] += p
        return _as_list(dist), {}
    t = effective_target(target, rules)
    bands = save.bands
    per_band = [ZERO] * len(bands)
    for roll in range(1, die + 1):
        m = margin(roll, rules.pass_op, t)
        i = next(j for j, b in enumerate(bands) if b.up_to is None or m <= b.up_to)
        per_band[i] += Fraction(1, die)
    last = len(bands) - 1
    statuses = {b.status_key for b in bands if b.status_key}
    if save.worst_of:
        worst = [ZERO] * len(bands)
        if failed:
            worst[last] = ONE
        else:
            cum = prev = ZERO
            for i, p in enumerate(per_band):
                cum += p
                cdf = cum ** rolled  # P(every die is in this band or a better one)
                worst[i], prev = cdf - prev, cdf
        dist = defaultdict(Fraction)
        for i, p in enumerate(worst):
            dist[bands[i].wounds] += p
        clear = {s: sum((p for i, p in enumerate(worst) if bands[i].status_key != s), ZERO) for s in statuses}
        return _as_list(dist), clear
    one = _as_list({b.wounds: ZERO for b in bands})
    for i, p in enumerate(per_band):
        one[bands[i].wounds] += p
    out = [ONE]
    for _ in range(rolled):
        out = _convolve(out, one)
    for _ in range(failed):
        out = _convolve(out, _as_list({bands[last].wounds: ONE}))
    clear = {}
    for s in statuses:
        q = sum((p for i, p in enumerate(per_band) if bands[i].status_key != s), ZERO) ** rolled
        clear[s] = q if not failed or bands[last].status_key != s else ZERO
    return out, clear


def _tie_winner(calc: Calculator, a_target: int, b_target: int):
    if calc.defence.ties == "higher_target_wins" and a_target != b_target:
        return "a" if a_target > b_target else "b"
    return None


def settle(odds: Odds, calc: Calculator, values: dict, attack_rolls: list, defence_rolls: list = ()) -> dict:
    """What the dice actually rolled give: the rolls read as the distributions read them, one by one (a book's
    worked example, or a player checking a roll at the table). Returns the attacker's normal and critical hits
    and, with a defence, the defender's hits and whether its roll passed."""
    env = resolve_inputs(calc, values)
    a_info, a_table, jam_at = _roll(odds, calc.attack, env, "attack")
    out = {"normal": 0, "critical": 0, "defender": 0, "defender_passed": False, "jammed": False}
    if calc.defence is None:
        alive = True
        for r in attack_rolls:
            status = a_table[r - 1]
            jammed = jam_at is not None and r >= jam_at
            out["jammed"] = out["jammed"] or jammed
            if alive and not (jammed and calc.attack.jam.misses):
                out["normal"] += status == PASS
                out["critical"] += status == CRIT
            if jammed and calc.attack.jam.stops_burst:
                alive = False
        return out
    d = calc.defence
    b_info, b_table, _ = _roll(odds, d, env, "defence")
    tie = _tie_winner(calc, a_info.target, b_info.target)
    a_ranks = [_ranks(a_table, odds.die, d.compare, d.critical_beats_pass)[r - 1] for r in attack_rolls]
    b_ranks = [_ranks(b_table, odds.die, d.compare, d.critical_beats_pass)[r - 1] for r in defence_rolls]
    a_best = max((rank for rank, _ in a_ranks), default=0)
    b_best = max((rank for rank, _ in b_ranks), default=0)
    for rank, crit in a_ranks:
        if _beats(rank, b_best, tie, "a"):
            out["critical" if crit else "normal"] += 1
    out["defender"] = sum(1 for rank, _ in b_ranks if _beats(rank, a_best, tie, "b"))
    out["defender_passed"] = b_best > 0
    return out


def evaluate(odds: Odds, calc: Calculator, values: dict) -> Outcome:
    env = resolve_inputs(calc, values)
    die = odds.die
    a_info, a_table, jam_at = _roll(odds, calc.attack, env, "attack")
    jam = calc.attack.jam
    outcome = Outcome(calc.id, dict(env), a_info, [], [])
    if jam is not None:
        p_jam = Fraction(sum(1 for r in range(1, die + 1) if r >= jam_at), die) if not a_info.automatic_failure else ZERO
        outcome.jam = ONE - (ONE - p_jam) ** a_info.dice
    hits: dict = defaultdict(Fraction)  # (defender passed, normal, critical) -> P
    if calc.defence is not None:
        d = calc.defence
        b_info, b_table, _ = _roll(odds, d, env, "defence")
        outcome.defence = b_info
        tie = _tie_winner(calc, a_info.target, b_info.target)
        crit_first = d.critical_beats_pass
        a_ranks = _ranks(a_table, die, d.compare, crit_first)
        b_ranks = _ranks(b_table, die, d.compare, crit_first)
        hits, defender = _face_to_face(a_ranks, a_info.dice, b_ranks, b_info.dice, die, tie)
        outcome.defender_hits = _as_list(defender)
        outcome.defender_scores = ONE - defender.get(0, ZERO)
    elif jam is not None and (jam.stops_burst or jam.misses) and not a_info.automatic_failure:
        for (n, c), p in _burst_with_jam(a_table, a_info.dice, die, jam_at, jam).items():
            hits[(False, n, c)] += p
    else:
        for (n, c), p in _multinomial(a_info.dice, a_info.p_pass, a_info.p_critical):
            hits[(False, n, c)] += p
    total_hits: dict = defaultdict(Fraction)
    crit_hits: dict = defaultdict(Fraction)
    for (_, n, c), p in hits.items():
        total_hits[n + c] += p
        crit_hits[c] += p
    outcome.hits, outcome.critical_hits = _as_list(total_hits), _as_list(crit_hits)
    if has_criticals(odds, calc):
        outcome.criticals = True
        outcome.p_critical_hit = ONE - outcome.critical_hits[0]
        outcome.expected_critical_hits = _mean(outcome.critical_hits)
    if calc.defence is not None:
        outcome.nobody = ONE - (ONE - outcome.hits[0]) - outcome.defender_scores
    if calc.per_hit is None:
        return outcome
    per: dict = {}
    for ctx in sorted({k[0] for k, p in hits.items() if p} | {False}):
        e = dict(env)
        if calc.defence is not None:
            e["defender_passed"] = int(ctx)
        per[ctx] = (_per_hit(odds, calc, e, False), _per_hit(odds, calc, e, True))
    outcome.per_hit = {"normal": per[False][0][0], "critical": per[False][1][0]}
    if True in per and per[True] != per[False]:
        outcome.per_hit_defender_passed = {"normal": per[True][0][0], "critical": per[True][1][0]}
    wounds: dict = defaultdict(Fraction)
    clear: dict = defaultdict(Fraction)
    statuses = sorted({s for pair in per.values() for (_, st) in pair for s in st})
    cache: dict = {}
    e_normal = e_crit = no_crit_wound = ZERO
    for (ctx, n, c), p in hits.items():
        if not p:
            continue
        (wn, sn), (wc, sc) = per[ctx]
        e_normal += p * n * _mean(wn)
        e_crit += p * c * _mean(wc)
        no_crit_wound += p * wc[0] ** c
        dist = _convolve(_power(wn, n, cache), _power(wc, c, cache))
        for k, q in enumerate(dist):
            if q:
                wounds[k] += p * q
        for s in statuses:
            clear[s] += p * sn.get(s, ONE) ** n * sc.get(s, ONE) ** c
    outcome.wounds = _as_list(wounds)
    outcome.p_wound = ONE - outcome.wounds[0]
    outcome.expected_wounds = sum((k * p for k, p in enumerate(outcome.wounds)), ZERO)
    if outcome.criticals:
        outcome.expected_wounds_normal, outcome.expected_wounds_critical = e_normal, e_crit
        outcome.p_wound_critical = ONE - no_crit_wound
    names = {b.status_key: b.status for b in calc.per_hit.save.bands if b.status_key} if calc.per_hit.save else {}
    outcome.statuses = [(names[s], ONE - clear[s]) for s in statuses]
    return outcome
