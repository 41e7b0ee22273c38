"""The odds evaluator against two others, on thousands of random inputs per game (issue 24).

- icepool, an independent exact dice library: each game's rules are written again here from the books (the
  research reports' line numbers), with icepool doing the probability, and must give the same Fractions as
  kodeks' evaluator reading the game's `odds:` declaration.
- kodeks-odds.js under node (one process for every case): the same declaration in doubles, to 1e-9.

The random inputs cover every calculator of the four dice games, each input uniform over its declared range.
"""
from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest

from kodeks.odds.evaluate import evaluate
from kodeks.odds.report import as_json
from kodeks.project import load_and_check

icepool = pytest.importorskip("icepool")
from icepool import Order, Vector  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("infinity", "warzone-4-1", "warzone-eternal", "ciernie-i-gwiazdy")
CASES_PER_GAME = 5000
JS = ROOT / "tools" / "kodeks" / "site" / "assets" / "kodeks-odds.js"


@lru_cache(maxsize=1)
def kb():
    checked = load_and_check(ROOT / "content", ROOT)
    assert checked.ok, [p.format() for p in checked.problems.errors][:5]
    return checked.kb


@lru_cache(maxsize=None)
def cases(game: str) -> tuple:
    """(calculator id, inputs) drawn with a fixed seed: every calculator in turn, each input uniform."""
    odds = kb().games[game].odds
    rng = random.Random(f"kodeks-odds-{game}")
    out = []
    for i in range(CASES_PER_GAME):
        calc = odds.calculators[i % len(odds.calculators)]
        out.append((calc.id, {inp.id: rng.randint(inp.min, inp.max) for inp in calc.inputs}))
    return tuple(out)


@lru_cache(maxsize=None)
def python_results(game: str) -> tuple:
    odds = kb().games[game].odds
    return tuple(evaluate(odds, odds.calculator(cid), values) for cid, values in cases(game))


# ---- the oracles: each game's rules, from the books, computed with icepool ----

def _vec(die_map: dict) -> "icepool.Die":
    """A die of Vector outcomes from {Vector: weight}."""
    return icepool.Die(die_map)


def _binomial_hits(per_die: dict, n: int):
    """Sum of n dice whose outcomes are (normal, critical) vectors."""
    die = _vec(per_die)
    return n @ die if n else icepool.Die([Vector((0, 0))])


def _dist(die, top: int | None = None) -> list:
    top = max(die.outcomes()) if top is None else top
    return [Fraction(die.probability(k)) for k in range(top + 1)]


class _FaceToFace(icepool.MultisetEvaluator):
    """Infinity's face-to-face roll, walked from the highest result down (N1 L538-562, L1046-1049, L3337-3339):
    the first side to show a success leads; its dice score until the other side's best die is reached; a tie at
    that die goes to the side named in the state (the higher modified attribute) or to nobody. Outcomes are
    ranks: 0 a failure, the face for a success, 20 + the face for a critical."""

    def initial_state(self, order, outcomes, *sizes, tie):
        if order != Order.Descending:
            raise icepool.UnsupportedOrder()
        return (tie, None, 0, 0, 0, False)

    def next_state(self, state, order, rank, ca, cb):
        tie, leader, an, ac, bh, b_any = state
        if rank == 0:
            return state
        b_any = b_any or cb > 0

        def score_a(n):
            return (an, ac + n) if rank > 20 else (an + n, ac)

        if leader == "done":
            return (tie, leader, an, ac, bh, b_any)
        if leader is None:
            if ca and cb:
                if tie == "a":
                    an, ac = score_a(ca)
                elif tie == "b":
                    bh += cb
                return (tie, "done", an, ac, bh, b_any)
            if ca:
                an, ac = score_a(ca)
                return (tie, "a", an, ac, bh, b_any)
            if cb:
                return (tie, "b", an, ac, bh + cb, b_any)
            return state
        if leader == "a":
            if cb:
                if tie == "a" and ca:
                    an, ac = score_a(ca)
                return (tie, "done", an, ac, bh, b_any)
            if ca:
                an, ac = score_a(ca)
            return (tie, leader, an, ac, bh, b_any)
        if ca:
            if tie == "b" and cb:
                bh += cb
            return (tie, "done", an, ac, bh, b_any)
        return (tie, leader, an, ac, bh + cb, b_any)

    def final_outcome(self, state, order, outcomes, *sizes, tie):
        return (state[2], state[3], state[4], int(state[5]))


_F2F = _FaceToFace()


def _infinity_ranks(value: int, automatic: bool) -> list:
    """N1 L457-500: a success on a roll <= the value, a critical on the value itself; above 20 the value
    counts as 20 and each point over adds a critical face from 20 down."""
    out = []
    for r in range(1, 21):
        if automatic or value < 1:
            out.append(0)
        elif value <= 20:
            out.append(r if r < value else 20 + r if r == value else 0)
        else:
            out.append(20 + r if r >= 40 - value else r)
    return out


def _infinity(cid: str, v: dict) -> dict:
    if cid == "normal-roll":
        value = v["attr"] + v["mod"]
        ranks = _infinity_ranks(value, -min(v["mod"], 0) > v["attr"])
        p = Fraction(sum(1 for r in ranks if r), 20)
        return {"hits": [1 - p, p]}
    if cid == "shooting":
        va = v["bs"] + v["range"] + v["mod"] - 3 * v["cover"]
        auto_a = 3 * v["cover"] - min(v["range"], 0) - min(v["mod"], 0) > v["bs"]  # L507-509
        na, nb = v["burst"], v["def_burst"]
        cover_arm = 3 * v["cover"]  # partial cover +3 ARM, L1091-1094
    else:
        va = v["cc"] + v["mod"]
        auto_a = -min(v["mod"], 0) > v["cc"]
        na, nb = 1, v["reacts"]
        cover_arm = 0  # after close combat the Armour roll has no modifiers, L1336-1337
    vb = v["def_attr"] + v["def_mod"]
    auto_b = -min(v["def_mod"], 0) > v["def_attr"]
    tie = "a" if va > vb else "b" if vb > va else None
    a = icepool.Die(_infinity_ranks(va, auto_a)).pool(na)
    b = icepool.Die(_infinity_ranks(vb, auto_b)).pool(nb)
    res = _F2F.evaluate(a, b, tie=tie)
    arm = math.ceil(v["arm"] / 2) if v["ap"] else v["arm"]  # AP halves ARM rounding up, not cover, L3454-3457
    rolls = v["armour_rolls"]

    def wounds_per_hit(defender_passed: int):
        total = arm + cover_arm + (3 if cid == "close-combat" and defender_passed else 0)  # L1339-1341
        fail = icepool.d20.map(lambda r: 1 if r + total <= v["damage"] else 0)  # d20 + ARM > DAM saves, L988-992
        # a critical is a wound with no roll; DA/EXP keep their other rolls, L1074-1076, L3464-3467, L3572-3575
        return rolls @ fail, 1 + (rolls - 1) @ fail

    per = {0: wounds_per_hit(0), 1: wounds_per_hit(1)}
    wounds = res.map(lambda n, c, bh, bp: n @ per[bp][0] + c @ per[bp][1])
    hits = res.map(lambda n, c, bh, bp: n + c)
    defender = res.map(lambda n, c, bh, bp: bh)
    return {"hits": _dist(hits), "wounds": _dist(wounds), "defender_scores": 1 - Fraction(defender.probability(0))}


def _wz41_test(target: int):
    """Warzone 4.1 L21, L26-38: roll <= target; a 1 always passes, a 20 always fails."""
    return lambda r: r == 1 or (r != 20 and r <= target)


def _warzone_4_1(cid: str, v: dict) -> dict:
    if cid == "test":
        ok = _wz41_test(v["value"] + v["mod"])
        p = Fraction(sum(1 for r in range(1, 21) if ok(r)), 20)
        return {"hits": [1 - p, p]}
    if cid == "shooting":
        target, n, jam = v["ws"] + v["band_mod"] + v["mod"], v["shots"], v["jam"]
        dam = v["dam"]
    else:
        target, n, jam = v["ww"] + v["weapon_mod"] + v["mod"], v["attacks"], 21
        dam = v["s"] + v["dam_bonus"]
    ok = _wz41_test(target)

    def category(r):
        if r >= jam:
            return "J"  # a jam: this shot misses and so does the rest of the burst, L1166-1174, L3394-3398
        if r == 1:
            return "C"  # absolute success: a critical hit, +4 Dam, L902-905, L1162-1165
        return "N" if ok(r) else "F"

    die = icepool.d20.map(category)

    @lru_cache(maxsize=None)
    def burst(k):
        if k == 0:
            return icepool.Die([Vector((0, 0))])
        return die.map(lambda c: icepool.Die([Vector((0, 0))]) if c == "J"
                       else Vector((int(c == "N"), int(c == "C"))) + burst(k - 1))

    res = burst(n)

    def fail(damage):
        # armour test: d20 <= AR - Dam saves; 1 saves and 20 wounds as in every test (L815-818, L26-38)
        return icepool.d20.map(lambda r: 0 if r == 1 else 1 if r == 20 else int(r > v["p"] - damage))

    mult = v["dam_mult"]
    normal, critical = mult @ fail(dam), mult @ fail(dam + 4)
    wounds = res.map(lambda nc: nc[0] @ normal + nc[1] @ critical)
    hits = res.map(lambda nc: nc[0] + nc[1])
    out = {"hits": _dist(hits), "wounds": _dist(wounds)}
    if cid == "shooting":
        jams = n @ icepool.d20.map(lambda r: int(r >= jam))
        out["jam"] = 1 - Fraction(jams.probability(0))
    return out


def _we_tv(value: int) -> int:
    return max(1, min(20, value))  # a TV never goes below 1 or above 20, Warzone Eternal L392-395


def _warzone_eternal(cid: str, v: dict) -> dict:
    if cid == "test":
        p = Fraction(_we_tv(v["value"] + v["mod"]), 20)
        return {"hits": [1 - p, p]}
    if cid == "shooting":
        tv = _we_tv(v["bs"] + v["range_mod"] + v["def"] + v["obstruction"] - 5 * v["engaged"] + 4 * v["aim"] + v["mod"])
        n = v["actions"]
        armour_tv = _we_tv(v["p"] + v["p_mod"] - v["ob"] - 2 * v["aim"])
    else:
        tv = _we_tv(v["ww"] + v["melee_mod"] + v["def"] + 2 * v["charge"] + v["friends"] + v["mod"])
        n = 1
        armour_tv = _we_tv(v["p"] + v["p_mod"] - v["ob"])
    per_die = {}
    for r in range(1, 21):
        key = Vector((0, 1)) if r == 1 else Vector((1, 0)) if r <= tv else Vector((0, 0))  # natural 1: L1744-1751
        per_die[key] = per_die.get(key, 0) + 1
    res = _binomial_hits(per_die, n)

    def band(worst):
        m = worst - armour_tv  # L2142-2154 with kodeks' band edges (rule/armour-tests)
        return Vector((0, 0)) if m <= -6 else Vector((0, 1)) if m <= 0 else Vector((1, 1)) if m <= 5 else Vector((2, 1))

    def hit(tests):
        return icepool.d20.pool(tests).highest(1).sum().map(band)  # the worst die counts, L2228-2232

    mult = v["mult"]
    normal, critical = hit(mult), hit(mult + 1)  # an Absolute Success adds x1
    total = res.map(lambda nc: (nc[0] @ normal if nc[0] else icepool.Die([Vector((0, 0))]))
                    + (nc[1] @ critical if nc[1] else icepool.Die([Vector((0, 0))])))
    wounds = total.map(lambda wp: wp[0])
    pinned = total.map(lambda wp: int(wp[1] > 0))  # at most one Pin marker, L2165-2170
    hits = res.map(lambda nc: nc[0] + nc[1])
    out = {"hits": _dist(hits), "wounds": _dist(wounds), "statuses": [Fraction(pinned.probability(1))]}
    if cid == "shooting":
        cf = n @ icepool.d20.map(lambda r: int(r >= v["kn"]))  # CF: a roll at or above KN, L1753-1757
        out["jam"] = 1 - Fraction(cf.probability(0))
    return out


def _ciernie(cid: str, v: dict) -> dict:
    if cid == "morale":
        p = Fraction(max(0, min(10, v["mo"] + v["mod"])), 10)  # d10 <= MO, L14-15, L84-86
        return {"hits": [1 - p, p]}
    if cid == "shooting":
        target = v["us"] - v["bands"] - v["moved"] - v["cover"] + v["size"] + v["mod"]
        n = v["rof"]
        save = v["kp"] + v["kp_bonus"] - (v["pen"] - v["bands"])  # P drops 1 per band, L520-523, L532-533
        damage = v["damage"] if v["damage"] <= 1 else max(1, v["damage"] - v["bands"] // 3)  # L524-525
    else:
        target = 5 + v["ww_att"] - v["ww_def"] + v["size"] - v["dodge"] + v["mod"]  # the WW table, L728-776
        n = 1
        save = v["kp"] + v["kp_bonus"] - v["pen"]
        damage = v["si"]  # melee damage is STR, L72-73
    hit = icepool.d10.map(lambda r: int(r <= target))
    hits = n @ hit if n else icepool.Die([0])
    fail = icepool.d10.map(lambda r: int(r > save))  # one save per hit, d10 <= AC - P, L786-790
    wounds = hits.map(lambda k: (k @ fail) * damage if k else icepool.Die([0]))
    return {"hits": _dist(hits), "wounds": _dist(wounds)}


ORACLES = {"infinity": _infinity, "warzone-4-1": _warzone_4_1, "warzone-eternal": _warzone_eternal,
           "ciernie-i-gwiazdy": _ciernie}


def _trim(dist: list) -> list:
    out = list(dist)
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return out


@pytest.mark.parametrize("game", GAMES)
def test_icepool_agrees_exactly(game):
    oracle = ORACLES[game]
    checked = 0
    for (cid, values), got in zip(cases(game), python_results(game)):
        want = oracle(cid, values)
        where = f"{game} {cid} {values}"
        assert _trim(got.hits) == _trim(want["hits"]), where
        if "wounds" in want:
            assert _trim(got.wounds) == _trim(want["wounds"]), where
            assert got.p_wound == 1 - want["wounds"][0], where
        if "defender_scores" in want:
            assert got.defender_scores == want["defender_scores"], where
        if "jam" in want:
            assert got.jam == want["jam"], where
        if "statuses" in want:
            assert [p for _, p in got.statuses] == want["statuses"], where
        checked += 1
    assert checked >= 5000


def _node_results(game: str) -> list:
    odds = kb().games[game].odds
    script = (
        "const K = require(process.argv[1]);"
        "const d = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(d.cases.map(c => K.evaluate(d.decl, c[0], c[1]))));"
    )
    payload = json.dumps({"decl": odds.raw, "cases": [list(c) for c in cases(game)]})
    run = subprocess.run(["node", "-e", script, str(JS)], input=payload, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def _close(a, b, where):
    if a is None or b is None:
        assert a is None and b is None, where
        return
    if isinstance(a, list):
        a, b = _trim([x for x in a]), _trim([x for x in b])
        n = max(len(a), len(b))
        a, b = a + [0.0] * (n - len(a)), b + [0.0] * (n - len(b))
        assert all(abs(x - y) <= 1e-9 for x, y in zip(a, b)), f"{where}: {a} != {b}"
        return
    assert abs(a - b) <= 1e-9, f"{where}: {a} != {b}"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("game", GAMES)
def test_javascript_agrees(game):
    js = _node_results(game)
    assert len(js) == len(cases(game)) >= 5000
    for (cid, values), py, got in zip(cases(game), python_results(game), js):
        want = as_json(game, py)
        where = f"{game} {cid} {values}"
        for key in ("hits", "critical_hits", "defender_hits", "wounds"):
            _close(got[key], want[key], f"{where} {key}")
        for key in ("defender_scores", "nobody", "jam", "p_wound", "expected_wounds", "p_critical_hit",
                    "expected_critical_hits", "expected_wounds_normal", "expected_wounds_critical", "p_wound_critical"):
            _close(got[key], want[key], f"{where} {key}")
        assert got["criticals"] == py.criticals, where
        for side in ("attack", "defence"):
            if side in want:
                assert got[side]["target"] == want[side]["target"] and got[side]["dice"] == want[side]["dice"], where
                _close(got[side]["p_pass"], want[side]["p_pass"], where)
        if want["per_hit"] is not None:
            for kind in ("normal", "critical"):
                _close(got["per_hit"][kind], want["per_hit"][kind], f"{where} per_hit")
        assert [s["name"] for s in got["statuses"]] == [s["name"] for s in want["statuses"]], where
        _close([s["p"] for s in got["statuses"]], [s["p"] for s in want["statuses"]], f"{where} statuses")


@pytest.mark.parametrize("game", GAMES)
def test_the_critical_split_adds_up(game):
    """The wounds split into normal and critical hits, exactly (Fractions), on the same cases: the two parts sum
    to the expected wounds, a critical hit's share is 0 where no critical happens, and the chances are ordered."""
    odds = kb().games[game].odds
    with_crits = 0
    for (cid, values), o in zip(cases(game), python_results(game)):
        where = f"{game} {cid} {values}"
        if not o.criticals:
            assert o.p_critical_hit is None and o.expected_wounds_critical is None, where
            continue
        with_crits += 1
        assert o.p_critical_hit == 1 - o.critical_hits[0], where
        assert o.expected_critical_hits == sum(k * p for k, p in enumerate(o.critical_hits)), where
        if o.wounds is None:
            continue
        assert o.expected_wounds_normal + o.expected_wounds_critical == o.expected_wounds, where
        assert 0 <= o.p_wound_critical <= min(o.p_wound, o.p_critical_hit), where
        if o.p_critical_hit == 0:
            assert o.expected_wounds_critical == 0 and o.p_wound_critical == 0, where
    has = any(c.attack.rules.over(odds.roll).critical_equal or c.attack.rules.over(odds.roll).critical_faces
              for c in odds.calculators)
    assert (with_crits > 0) == has
