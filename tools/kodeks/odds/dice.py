"""One die read against a target: for each face, whether it fails, passes or is a critical, and whether it jams.

The probability arithmetic lives in kodeks.odds.evaluate; this is only the reading of a face, the part a game's
`roll:` declares. kodeks-odds.js has the same function (faceTable) and must read every face alike.
"""
from __future__ import annotations

from .model import RollRules

FAIL, PASS, CRIT = 0, 1, 2


def passes(roll: int, op: str, target: int) -> bool:
    if op == "<=":
        return roll <= target
    if op == "<":
        return roll < target
    if op == ">=":
        return roll >= target
    return roll > target


def effective_target(target: int, rules: RollRules) -> int:
    if rules.clamp:
        lo, hi = rules.clamp
        return max(lo, min(hi, target))
    return target


def faces(die: int, target: int, rules: RollRules, automatic_failure: bool = False) -> list[int]:
    """FAIL, PASS or CRIT for faces 1..die (index 0 is face 1).

    In order: an automatic failure fails every face; a face the game makes a natural failure fails; a critical
    face (listed, or equal to the target, or one of the extra criticals of a target above the die) is a
    critical success; a natural success passes; else the face is compared with the target."""
    if automatic_failure:
        return [FAIL] * die
    t = effective_target(target, rules)
    extra = bool(rules.extra_criticals_above_die) and t > die
    compared = min(t, die) if extra else t
    natural = rules.natural or {}
    crit_faces = set(rules.critical_faces or ())
    out = []
    for r in range(1, die + 1):
        if natural.get(r) is False:
            out.append(FAIL)
            continue
        ok = natural.get(r, passes(r, rules.pass_op, compared))
        if r in crit_faces or (extra and r >= 2 * die - t) or (rules.critical_equal and ok and r == compared):
            out.append(CRIT)
        else:
            out.append(PASS if ok else FAIL)
    return out


def margin(roll: int, op: str, target: int) -> int:
    """How far `roll` is past the target on the failing side: 0 or less passes, 1 is the nearest failure."""
    if op == "<=":
        return roll - target
    if op == "<":
        return roll - target + 1
    if op == ">=":
        return target - roll
    return target - roll + 1
