"""kodeks odds: the books' worked examples, the expression grammar, bad declarations and the command line.

Line numbers ("L") are those of the source texts, as cited in the research reports of issue 24.
"""
from __future__ import annotations

import json
from fractions import Fraction as F
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import run_kodeks
from kodeks.odds.dice import CRIT, FAIL, PASS, faces, margin
from kodeks.odds.evaluate import OddsError, evaluate, settle
from kodeks.odds.expr import ExprError, parse
from kodeks.project import load_and_check

ROOT = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def kb():
    checked = load_and_check(ROOT / "content", ROOT)
    assert checked.ok
    return checked.kb


def calc(game, cid):
    odds = kb().games[game].odds
    return odds, odds.calculator(cid)


def run(game, cid, **values):
    odds, c = calc(game, cid)
    return evaluate(odds, c, values)


def roll(game, cid, attack, defence=(), **values):
    odds, c = calc(game, cid)
    return settle(odds, c, values, list(attack), list(defence))


# ---- Infinity N1 ----

def test_infinity_critical_on_the_modified_value_l489_491():
    o = run("infinity", "normal-roll", attr=10, mod=-3)
    assert (o.attack.target, o.attack.p_critical, o.attack.p_pass + o.attack.p_critical) == (7, F(1, 20), F(7, 20))
    assert faces(20, 7, kb().games["infinity"].odds.roll)[6] == CRIT


@pytest.mark.parametrize("value, crits", [(19, {19}), (20, {20}), (22, {18, 19, 20})])
def test_infinity_criticals_above_twenty_l495_500(value, crits):
    table = faces(20, value, kb().games["infinity"].odds.roll)
    assert {r for r, s in enumerate(table, 1) if s == CRIT} == crits
    assert FAIL not in table[:19]


def test_infinity_failure_category_example_l503_505():
    assert faces(20, 14, kb().games["infinity"].odds.roll)[15] == FAIL  # 16 against 14


def test_infinity_automatic_failure_l507_511():
    o = run("infinity", "normal-roll", attr=11, mod=-12)
    assert o.attack.automatic_failure and o.hits == [1]
    # kodeks' reading (rule/automatic-failure): the negative modifiers alone exceed BS 11, whatever +3 adds
    o = run("infinity", "shooting", bs=11, range=3, mod=-12, def_burst=0)
    assert o.attack.automatic_failure and o.attack.target == 2 and o.hits == [1]


def test_infinity_cover_example_hits_on_9_l522_525():
    o = run("infinity", "shooting", bs=12, cover=1, burst=1, def_burst=0)
    assert o.attack.target == 9 and o.hits[1] == F(9, 20)


def test_infinity_dodge_example_l580_588():
    r = roll("infinity", "shooting", [3], [8], bs=11, burst=1, def_attr=10, def_burst=1)
    assert (r["normal"], r["critical"], r["defender"]) == (0, 0, 1)  # Angus's 8 beats Wen Liu's 3: no hit


def test_infinity_split_burst_examples_l592_608():
    # Silva BS 12 against Wen Liu BS 11 (L619): her 16 misses, her 6 loses to his 8
    r = roll("infinity", "shooting", [16, 6], [8], bs=12, burst=2, def_attr=11, def_burst=1)
    assert (r["normal"] + r["critical"], r["defender"]) == (0, 1)
    # against Jang Qi: 10 and 11 both beat her 3: two hits, two Armour rolls
    r = roll("infinity", "shooting", [10, 11], [3], bs=12, burst=2, def_attr=11, def_burst=1)
    assert (r["normal"], r["defender"]) == (2, 0)


def test_infinity_initiative_example_l931_935():
    r = roll("infinity", "normal-roll", [7], attr=12)
    assert r["normal"] == 1
    r = roll("infinity", "shooting", [7], [11], bs=12, burst=1, def_attr=13, def_burst=1)
    assert r["defender"] == 1 and r["normal"] == 0  # Yu Jing's 11 wins


def test_infinity_hmg_split_example_l1051_1064():
    r = roll("infinity", "shooting", [7, 15], [13], bs=11, burst=2, def_attr=15, def_burst=1)
    assert (r["normal"], r["defender"]) == (0, 1)  # Estevez's 13 beats Wen Liu's only success
    r = roll("infinity", "shooting", [9, 5], [4], bs=11, burst=2, def_attr=10, def_burst=1)
    assert (r["normal"], r["defender"]) == (2, 0)  # Angus takes two hits


def test_infinity_shooting_into_close_combat_l1251_1258():
    o = run("infinity", "normal-roll", attr=12, mod=-3)  # -6 for the friend, +3 short range
    assert o.attack.target == 9 and faces(20, 9, kb().games["infinity"].odds.roll)[11] == FAIL


def test_infinity_close_combat_example_l1446_1451():
    r = roll("infinity", "close-combat", [9], [7], cc=14, def_attr=13)
    assert (r["normal"], r["defender"], r["defender_passed"]) == (1, 0, True)  # Angus passed: +3 ARM


def test_infinity_several_reactors_l1477_1484():
    # Wu Shenru CC 16 rolls 12; Angus (CC 19) fails with 20; Bipandra's 8 and Doucher's 10 are below 12
    for other in (20, 8, 10):
        r = roll("infinity", "close-combat", [12], [other], cc=16, def_attr=13, def_mod=6)
        assert r["defender"] == 0
    assert roll("infinity", "close-combat", [12], [20], cc=16, def_attr=13, def_mod=6)["normal"] == 1


def test_infinity_discover_example_l1586_1595():
    assert run("infinity", "normal-roll", attr=12, mod=-3).attack.target == 9  # TO -6, +3 at 6"
    assert faces(20, 9, kb().games["infinity"].odds.roll)[14] == FAIL  # Angus 15
    assert faces(20, 9, kb().games["infinity"].odds.roll)[10] == FAIL  # Doucher 11
    assert faces(20, 6, kb().games["infinity"].odds.roll)[1] == PASS  # Bipandra 2 against 6


def test_infinity_armour_roll_angus_l1604_1607():
    o = run("infinity", "shooting", bs=20, burst=1, def_burst=0, damage=13, arm=1)
    assert o.per_hit["normal"] == [F(8, 20), F(12, 20)]  # saved on 13 or more
    assert o.per_hit["critical"] == [0, 1]  # a critical wounds with no roll (L1074-1076)


def test_infinity_combat_example_l1794_1851():
    # a: Angus B3 at 15 against Wen Liu at 11: only Wen Liu's 9 hits; Angus's Armour roll with cover needs 10
    r = roll("infinity", "shooting", [16, 19, 7], [9], bs=12, range=3, burst=3, def_attr=11, def_burst=1)
    assert (r["normal"], r["defender"]) == (0, 1)
    o = run("infinity", "shooting", bs=11, burst=1, def_burst=0, damage=13, arm=1, cover=1)
    assert o.per_hit["normal"][0] == F(11, 20)  # saved on 10-20
    # c: Wu Shenru at 17 rolls 18, 20, 18: all miss
    assert roll("infinity", "normal-roll", [18, 20, 18], attr=17)["normal"] == 0
    # d: Angus at 9 rolls 8: a hit; Wu Shenru ARM 5 against 13 saves on 9 or more
    assert roll("infinity", "normal-roll", [8], attr=9)["normal"] == 1
    assert run("infinity", "shooting", burst=1, def_burst=0, damage=13, arm=5).per_hit["normal"] == [F(12, 20), F(8, 20)]
    # e: Angus shoots at 9 against Wu Shenru's CC 16: 10 beats 8
    r = roll("infinity", "shooting", [8], [10], bs=9, burst=1, def_attr=16, def_burst=1)
    assert (r["normal"], r["defender"]) == (0, 1)
    # f: CC 13 against 16, 12 against 14: Wu wins; Angus passed, so ARM 1 + 3 against 14 needs 11
    r = roll("infinity", "close-combat", [14], [12], cc=16, def_attr=13)
    assert (r["normal"], r["defender_passed"]) == (1, True)
    o = run("infinity", "close-combat", cc=16, def_attr=13, damage=14, arm=1)
    assert o.per_hit_defender_passed["normal"] == [F(10, 20), F(10, 20)]  # saves on 11-20
    assert o.per_hit["normal"] == [F(7, 20), F(13, 20)]  # without the +3: saves on 14-20


def test_infinity_total_reaction_example_l3341_3352():
    r = roll("infinity", "shooting", [3, 17, 12], [2, 14, 13, 20], bs=12, range=3, burst=3, def_attr=11,
             def_mod=3, def_burst=4)
    assert (r["normal"] + r["critical"], r["defender"]) == (0, 2)
    # the other way round: the Yaokong's critical 14 and its 13 score, one of them a critical hit
    r = roll("infinity", "shooting", [2, 14, 13, 20], [3, 17, 12], bs=11, range=3, burst=4, def_attr=15,
             def_burst=3)
    assert (r["normal"], r["critical"], r["defender"]) == (1, 1, 0)


def test_infinity_da_and_exp_rolls_l3464_3467_l3572_3575():
    o = run("infinity", "shooting", bs=20, burst=1, def_burst=0, damage=13, arm=1, armour_rolls=3)
    p = F(12, 20)
    assert o.per_hit["critical"] == [0, (1 - p) ** 2, 2 * p * (1 - p), p ** 2]  # 1 wound + 2 rolls


def test_infinity_ap_halves_arm_rounding_up_l3454_3457():
    plain = run("infinity", "shooting", def_burst=0, damage=13, arm=5, cover=1)
    ap = run("infinity", "shooting", def_burst=0, damage=13, arm=5, cover=1, ap=1)
    assert plain.per_hit["normal"][1] == F(13 - 8, 20) and ap.per_hit["normal"][1] == F(13 - 6, 20)


# ---- Warzone 4.1 ----

def test_warzone_natural_results_l26_38():
    assert run("warzone-4-1", "test", value=12).hits[1] == F(12, 20)
    assert run("warzone-4-1", "test", value=0, mod=-5).hits[1] == F(1, 20)
    assert run("warzone-4-1", "test", value=20, mod=5).hits[1] == F(19, 20)


def test_warzone_detection_example_l1821_1825():
    assert run("warzone-4-1", "test", value=13, mod=-4).hits[1] == F(9, 20)


def test_warzone_vehicle_damage_example_l2525_2535():
    o = run("warzone-4-1", "shooting", ws=20, shots=1, jam=21, dam=16, dam_mult=2, p=20)
    assert o.per_hit["normal"] == [F(1, 25), F(8, 25), F(16, 25)]  # E = 1.6, P(>= 1) = 0.96
    table = faces(20, 20 - 16, kb().games["warzone-4-1"].odds.roll)
    assert (table[6], table[2]) == (FAIL, PASS)  # 7 wounds, 3 saves: one wound


def test_warzone_armour_natural_one_always_saves():
    o = run("warzone-4-1", "shooting", dam=12, p=5)
    assert o.per_hit["normal"] == [F(1, 20), F(19, 20)]


def test_warzone_jam_stops_the_burst_l1166_1176():
    r = roll("warzone-4-1", "shooting", [5, 19, 1], ws=12, shots=3, jam=19)
    assert (r["normal"], r["critical"], r["jammed"]) == (1, 0, True)  # the 1 after the jam misses
    o = run("warzone-4-1", "shooting", ws=20, shots=2, jam=20)
    # every die: 1 critical, 2-19 hit, 20 jams and misses; a jam on the first die ends the burst
    assert o.hits == [F(1, 20), F(19, 20) * F(1, 20), F(19, 20) ** 2]
    assert o.jam == 1 - F(19, 20) ** 2
    o = run("warzone-4-1", "shooting", ws=20, shots=2, jam=21)
    assert o.jam == 0 and o.hits[2] == F(19, 20) ** 2  # no Jam: a 20 still misses


def test_warzone_critical_adds_four_damage_l1162_1165():
    o = run("warzone-4-1", "shooting", dam=10, p=14)
    assert o.per_hit["normal"] == [F(4, 20), F(16, 20)] and o.per_hit["critical"] == [F(1, 20), F(19, 20)]


def test_warzone_aura_of_decay_ats_l3040_3041():
    assert run("warzone-4-1", "test", value=12).hits[0] == F(8, 20)


# ---- Warzone Eternal ----

def test_eternal_armour_bands_example_l2193_2199():
    assert margin(11, "<=", 21 - 13) == 3  # failed by 3: a pin and a wound
    o = run("warzone-eternal", "shooting", bs=20, p=21, ob=13)
    assert o.per_hit["normal"] == [F(8, 20), F(5, 20), F(7, 20)]  # none 1-2, pin 3-8, 1 W 9-13, 2 W 14-20


def test_eternal_absolute_success_example_l2234_2237():
    o = run("warzone-eternal", "shooting", bs=20, p=21, ob=13)
    assert o.per_hit["critical"] == [F(1, 100) + F(3, 20), F(21, 80), F(231, 400)]  # 13(x2): worst of two


def test_eternal_tv_clamp_l392_395():
    assert run("warzone-eternal", "test", value=3, mod=-10).hits[1] == F(1, 20)
    assert run("warzone-eternal", "test", value=20, mod=8).hits[1] == 1


def test_eternal_pin_at_most_once_l2165_2170():
    o = run("warzone-eternal", "shooting", bs=20, actions=2, p=40, ob=0, kn=21)
    (name, p), = o.statuses
    assert name.plain("en") == "Pinned" and o.p_wound == 0
    # TV 20: every die hits, a 1 as an Absolute Success (two tests); AR 40 against DMG 0 is TV 20 as well,
    # so a hit pins on an armour roll of 15-20 and nothing wounds
    clear = F(19, 20) * F(14, 20) + F(1, 20) * F(14, 20) ** 2
    assert p == 1 - clear ** 2


def test_eternal_critical_failure_is_only_reported_l1764_1776():
    o = run("warzone-eternal", "shooting", bs=20, kn=19, actions=2)
    assert o.jam == 1 - F(18, 20) ** 2 and o.hits[2] == F(20, 20) ** 2


# ---- Ciernie i Gwiazdy ----

def test_ciernie_test_on_1_to_5_l14_15():
    assert run("ciernie-i-gwiazdy", "morale", mo=5).hits == [F(1, 2), F(1, 2)]


@pytest.mark.parametrize("att", range(6))
@pytest.mark.parametrize("dfn", range(6))
def test_ciernie_melee_table_l728_776(att, dfn):
    want = max(0, min(10, 5 + att - dfn))  # "hits on 1-N"; 5 vs 0 always hits, 0 vs 5 never
    assert run("ciernie-i-gwiazdy", "melee", ww_att=att, ww_def=dfn).hits[-1] == F(want, 10) or want == 0


def test_ciernie_stream_example_l650_653():
    assert run("ciernie-i-gwiazdy", "shooting", damage=4, pen=6, kp=5).per_hit["normal"] == [0, 0, 0, 0, 1]
    assert run("ciernie-i-gwiazdy", "shooting", damage=2, pen=1, kp=5).per_hit["normal"] == [F(4, 10), 0, F(6, 10)]


def test_ciernie_range_bands_l521_523():
    o = run("ciernie-i-gwiazdy", "shooting", us=6, bands=2, pen=0, kp=4)
    assert o.attack.target == 4 and o.per_hit["normal"][0] == F(6, 10)  # -2 to hit, and -2 P: a save on 1-6


def test_ciernie_damage_drops_every_three_bands():
    assert run("ciernie-i-gwiazdy", "shooting", damage=3, bands=3, pen=15, kp=0).per_hit["normal"] == [0, 0, 1]
    assert run("ciernie-i-gwiazdy", "shooting", damage=1, bands=9, pen=15, kp=0).per_hit["normal"] == [0, 1]


def test_ciernie_morale_limits_l691_693():
    assert run("ciernie-i-gwiazdy", "morale", mo=10).hits == [0, 1]
    assert run("ciernie-i-gwiazdy", "morale", mo=0).hits == [1]


# ---- expressions ----

@pytest.mark.parametrize("text, env, value", [
    ("bs + mod - 3 * cover", {"bs": 11, "mod": 2, "cover": 1}, 10),
    ("ceil(arm / 2)", {"arm": 5}, 3),
    ("max(1, damage - bands // 3)", {"damage": 2, "bands": 7}, 1),
    ("-min(a, 0) - b", {"a": -4, "b": 3}, 1),
    ("5", {}, 5),
])
def test_expressions(text, env, value):
    assert parse(text)(env) == value


@pytest.mark.parametrize("text, offset", [("bs +", 4), ("a b", 2), ("1 / 2", 2), ("foo(1)", 0), ("(a", 2),
                                          ("ceil(a + b / 2)", 7), ("a $ b", 2), ("", 0)])
def test_expression_errors_are_located(text, offset):
    with pytest.raises(ExprError) as exc:
        parse(text)
    assert exc.value.offset == offset


def test_out_of_range_input_is_refused():
    with pytest.raises(OddsError, match="out of its range"):
        run("infinity", "shooting", bs=31)
    with pytest.raises(OddsError, match="known: bs"):
        run("infinity", "shooting", bz=1)


# ---- bad declarations: located errors, exit 1, never a traceback ----

GOOD = """odds:
  die: 10
  rule: rule/dice
  roll:
    pass: <=
  calculators:
    - id: melee
      name: {pl: Walka, en: Melee}
      rule: rule/melee
      inputs:
        - id: ww
          name: {pl: WW, en: MEL}
          from: attacker.stats.ww
          default: 1
          min: 0
          max: 10
        - id: kp
          name: {pl: KP, en: AC}
          default: 4
          min: 0
          max: 15
      attack:
        target: 5 + ww
        rule: rule/melee
      per_hit:
        save:
          target: kp
          rule: rule/melee
        rule: rule/melee
"""

BROKEN = [
    ("target: 5 + ww\n", "target: 5 + wx\n", "reads 'wx', which is not an input of melee", 23, 21),
    ("target: 5 + ww\n", "target: 5 +\n", "does not parse", 23, 20),
    ("target: kp\n", "target: kp * (\n", "does not parse", 27, 25),
    ("  rule: rule/dice\n", "  rule: rule/dcie\n", "unknown rule 'dcie'", 3, 9),
    ("from: attacker.stats.ww\n", "from: attacker.stats.wx\n", "has no stat 'wx'", 13, 17),
    ("default: 4\n", "default: 40\n", "the default 40 is outside 0..15", 19, 20),
    ("    pass: <=\n", "    pass: =<\n", "'=<' is not allowed", 5, 11),
    ("      attack:\n", "      attack:\n        dice: 30\n", "attack dice = 30", 7, 7),
    ("          max: 15\n", "          max: 15\n          kind: flag\n", "is 0 or 1: it takes no min", 20, 16),
    ("  die: 10\n", "  die: 1\n", "minimum", 2, 8),
]


@pytest.mark.parametrize("old, new, message, line, col", BROKEN)
def test_bad_declarations_are_located(mini, old, new, message, line, col):
    game = mini / "ciernie-i-gwiazdy" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    start = len(text.splitlines())
    assert GOOD.count(old) == 1
    game.write_text(text + GOOD.replace(old, new), encoding="utf-8")
    proc = run_kodeks("validate", "--content", mini)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [x for x in proc.stderr.splitlines() if message in x]
    assert lines, proc.stderr
    assert f"game.yaml:{start + line}:" in lines[0], (lines[0], start + line)
    if message not in ("minimum",):
        assert f"game.yaml:{start + line}:{col}:" in lines[0], lines[0]


def test_a_good_declaration_validates(mini):
    game = mini / "ciernie-i-gwiazdy" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + GOOD, encoding="utf-8")
    proc = run_kodeks("validate", "--content", mini)
    assert proc.returncode == 0, proc.stderr


# ---- the command line ----

def test_cli_table_and_json():
    proc = run_kodeks("odds", "infinity", "shooting", "--set", "bs=12", "--set", "burst=3", "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    assert "at least 1 wound" in proc.stdout and "the defender wins" in proc.stdout
    proc = run_kodeks("odds", "warzone-eternal", "shooting", "--set", "p=21", "--set", "ob=13", "--json")
    data = json.loads(proc.stdout)
    assert abs(sum(data["wounds"]) - 1) < 1e-12 and data["statuses"][0]["name"]["en"] == "Pinned"
    assert F(data["exact"]["p_wound"]) == 1 - F(data["exact"]["wounds"][0])


def test_cli_prefills_from_entries():
    proc = run_kodeks("odds", "infinity", "shooting", "--attacker", "fusilier-angus", "--weapon", "combi-rifle",
                      "--json")
    data = json.loads(proc.stdout)
    assert data["inputs"]["bs"] == 12 and data["inputs"]["burst"] == 3 and data["inputs"]["damage"] == 13


@pytest.mark.parametrize("args, says", [
    (("odds", "infinty", "shooting"), "did you mean 'infinity'?"),
    (("odds", "neuroshima-hex-duel", "x"), "has no dice to compute"),
    (("odds", "infinity", "shootin"), "known: shooting, close-combat, normal-roll"),
    (("odds", "infinity", "shooting", "--set", "bz=1"), "unknown input 'bz'"),
    (("odds", "infinity", "shooting", "--set", "bs=99"), "out of its range"),
    (("odds", "infinity", "shooting", "--set", "bs"), "write id=whole number"),
    (("odds", "infinity", "shooting", "--attacker", "nobody"), "unknown unit 'nobody'"),
])
def test_cli_one_clear_line(args, says):
    proc = run_kodeks(*args)
    assert proc.returncode == 2 and says in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


# ---- weapon profiles read into the inputs (game.yaml `weapon:` per calculator) ----

def _fields(game):
    return {f.key: f for f in kb().games[game].weapon_profile}


def _weapon(game, wid):
    return next(w for w in kb().of(game, "weapon") if w.id == wid)


def _profile(values, traits=()):
    from kodeks.model.entry import Profile
    return Profile(values=dict(values), traits=list(traits))


def test_infinity_rifle_range_bands_are_a_choice_l3406_3418():
    from kodeks.odds.weapon import bands
    _, c = calc("infinity", "shooting")
    got = bands(c, _weapon("infinity", "rifle").profiles[0], _fields("infinity"), "en")
    assert got == [("short", "Short 0–8″: 0", {"range": 0}), ("medium", "Medium 8–16″: +3", {"range": 3}),
                   ("long", "Long 16–24″: -3", {"range": -3}), ("maximum", "Max 24–48″: -6", {"range": -6})]
    assert [b[1] for b in bands(c, _weapon("infinity", "rifle").profiles[0], _fields("infinity"), "pl")][1] \
        == "Średni 8–16″: +3"
    # A weapon whose chart the source lacks offers no band: the range stays typed.
    assert bands(c, _weapon("infinity", "combi-rifle").profiles[0], _fields("infinity"), "en") == []


@pytest.mark.parametrize("wid, profile, cid, want", [
    ("multi-rifle", 0, "shooting", {"burst": 3, "damage": 13}),
    ("multi-rifle", 1, "shooting", {"burst": 2, "damage": 13, "ap": 1}),  # AP: ARM halved, L3453-3457
    ("multi-rifle", 2, "shooting", {"burst": 2, "damage": 13, "armour_rolls": 2}),  # DA: 2 rolls, L3463-3464
    ("multi-rifle", 3, "shooting", {"burst": 1, "damage": 13, "ap": 1, "armour_rolls": 2}),
    ("d-charges", 0, "shooting", {"damage": 14, "ap": 1, "armour_rolls": 3}),  # EXP: 3 rolls, L3572-3573
    ("explosive-ccw", 0, "close-combat", {"armour_rolls": 3}),
    ("ap-ccw", 0, "close-combat", {"ap": 1}),
])
def test_infinity_ammunition_sets_ap_and_armour_rolls(wid, profile, cid, want):
    from kodeks.odds.report import prefill
    _, c = calc("infinity", cid)
    values, sources = prefill(kb(), "infinity", c, weapon=_weapon("infinity", wid), profile=profile, band=None,
                              adds=False)
    assert values == want
    assert all(s.startswith(f"weapon/{wid}") for s in sources.values())


def test_warzone_printed_forms_l1090_1155():
    from kodeks.odds.report import prefill
    from kodeks.odds.weapon import bands, profile_values
    _, c = calc("warzone-4-1", "shooting")
    missile = _weapon("warzone-4-1", "guided-at-missile")
    values, _ = prefill(kb(), "warzone-4-1", c, weapon=missile, band=None)
    assert values == {"dam": 16, "dam_mult": 3}  # Dam 16×3: three armour tests of Dam 16
    got = bands(c, missile.profiles[0], _fields("warzone-4-1"), "en")
    assert [(b[0], b[2]) for b in got] == [("pb", {"band_mod": -3, "shots": 1}), ("sr", {"band_mod": -2, "shots": 1}),
                                           ("mr", {"band_mod": -3, "shots": 1}), ("lr", {"band_mod": -4, "shots": 1}),
                                           ("er", {"band_mod": -5, "shots": 1})]
    # The book's own example of the form, −2(x2) (6.2.3): modifier −2, two to-hit tests; a dash: no band.
    printed = _profile({"pb": "−2(x2)", "sr": "+1 (x3)", "mr": "-", "dam": "16x2"})
    got = bands(c, printed, _fields("warzone-4-1"), "en")
    assert [(b[0], b[2]) for b in got] == [("pb", {"band_mod": -2, "shots": 2}), ("sr", {"band_mod": 1, "shots": 3})]
    assert got[0][1] == 'PB −2(x2): Point blank range (up to 6")'
    assert profile_values(c, printed) == {"dam": 16, "dam_mult": 2}
    _, cc = calc("warzone-4-1", "close-combat")
    values, _ = prefill(kb(), "warzone-4-1", cc, weapon=_weapon("warzone-4-1", "improvised-weapon"))
    assert values == {"weapon_mod": 0, "attacks": 1, "dam_bonus": 0}  # CC 0, Dam S+0


def test_eternal_bands_and_damage_modifier_13x2_l2201_2240():
    from kodeks.odds.weapon import bands, profile_values
    _, c = calc("warzone-eternal", "shooting")
    printed = _profile({"short_range": 12, "short_mod": 1, "short_ob": "13(x2)", "long_range": 24, "long_mod": -2,
                        "long_ob": 11})
    assert bands(c, printed, _fields("warzone-eternal"), "en") == [
        ("short_range", "Short: up to 12″", {"range_mod": 1, "ob": 13, "mult": 2}),
        ("long_range", "Long: up to 24″", {"range_mod": -2, "ob": 11, "mult": 1})]
    assert bands(c, _profile({"long_range": 30, "long_mod": 0, "long_ob": 12}), _fields("warzone-eternal"), "pl") == [
        ("long_range", "Daleki: do 30″", {"range_mod": 0, "ob": 12, "mult": 1})]
    _, melee = calc("warzone-eternal", "melee")
    assert profile_values(melee, _profile({"melee_ob": "12(x2)"})) == {"ob": 12, "mult": 2}


def test_ciernie_bands_from_the_effective_range_l485_542():
    """The book: a weapon with a 5" range firing at 6-10" is at -1, at 11-15" at -2 (one band per multiple of the
    effective range exceeded); the list offers 0 to the input's 10 bands."""
    from kodeks.odds.weapon import bands
    _, c = calc("ciernie-i-gwiazdy", "shooting")
    got = bands(c, _weapon("ciernie-i-gwiazdy", "badm-pistol").profiles[0], _fields("ciernie-i-gwiazdy"), "en")
    assert [b[1] for b in got[:3]] == ["0–5″: 0", "6–10″: -1", "11–15″: -2"]
    assert [b[2] for b in got] == [{"bands": k} for k in range(11)]
    assert [b[0] for b in got][:2] == ["range-0", "range-1"]
    # A flamer template or a thrown weapon (SI) prints no length: no bands.
    assert bands(c, _weapon("ciernie-i-gwiazdy", "plasma-carbine").profiles[1], _fields("ciernie-i-gwiazdy"), "en") == []
    proc = run_kodeks("odds", "ciernie-i-gwiazdy", "shooting", "--weapon", "badm-pistol", "--band", "range-2", "--json")
    data = json.loads(proc.stdout)
    assert data["inputs"]["bands"] == 2 and data["attack"]["target"] == 6 - 2


def test_cli_band_and_profile():
    proc = run_kodeks("odds", "infinity", "shooting", "--weapon", "rifle", "--band", "medium", "--json")
    data = json.loads(proc.stdout)
    assert data["inputs"]["range"] == 3 and data["attack"]["target"] == 11 + 3
    odds, c = calc("infinity", "shooting")
    want = evaluate(odds, c, {"range": 3, "burst": 3, "damage": 13})
    assert data["exact"]["wounds"] == [str(p) for p in want.wounds]
    proc = run_kodeks("odds", "infinity", "shooting", "--weapon", "rifle", "--json")
    assert json.loads(proc.stdout)["inputs"]["range"] == 0  # the first band the weapon prints
    proc = run_kodeks("odds", "infinity", "shooting", "--weapon", "multi-rifle", "--profile", "3", "--json")
    assert {k: json.loads(proc.stdout)["inputs"][k] for k in ("burst", "armour_rolls", "ap")} == \
        {"burst": 2, "armour_rolls": 2, "ap": 0}
    proc = run_kodeks("odds", "infinity", "shooting", "--weapon", "rifle", "--band", "medium", "--lang", "en")
    assert "Medium 8–16″: +3" in proc.stdout


@pytest.mark.parametrize("args, says", [
    (("odds", "infinity", "shooting", "--weapon", "rifle", "--band", "meduim"), "did you mean 'medium'?"),
    (("odds", "infinity", "shooting", "--weapon", "rifle", "--profile", "2"), "rifle has 1 profile(s)"),
    (("odds", "infinity", "shooting", "--band", "short"), "give --weapon too"),
    (("odds", "infinity", "shooting", "--weapon", "knife"), "shooting takes weapons of the categories ranged"),
    (("odds", "infinity", "close-combat", "--weapon", "rifle"), "close-combat takes weapons of the categories cc"),
])
def test_cli_band_and_profile_mistakes(args, says):
    proc = run_kodeks(*args)
    assert proc.returncode == 2 and says in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_infinity_damage_ph_minus_2_is_the_wielders_ph_less_2_l4411():
    from kodeks.odds.report import prefill
    _, c = calc("infinity", "close-combat")
    angus = next(u for u in kb().of("infinity", "unit") if u.id == "fusilier-angus")
    ph = angus.stats["ph"]
    for wid, want in (("knife", ph - 2), ("tag-fists", ph - 2), ("ccw", ph), ("ap-ccw", ph)):
        values, sources = prefill(kb(), "infinity", c, attacker=angus, weapon=_weapon("infinity", wid))
        assert values["damage"] == want, wid
    values, sources = prefill(kb(), "infinity", c, weapon=_weapon("infinity", "knife"))
    assert values["damage"] == c.input("damage").default - 2 and "default − 2" in sources["damage"]


# ---- the part critical hits play ----

def test_infinity_critical_share_with_da_l3463_3467():
    """BS 12, no reaction, Burst 1, DA against ARM 1, DAM 13: a normal hit (rolls 1-11) makes two armour rolls that
    fail on 1-12; a critical (12) is one wound with no roll plus one such roll."""
    o = run("infinity", "shooting", bs=12, def_burst=0, burst=1, damage=13, arm=1, armour_rolls=2)
    assert o.criticals and o.p_critical_hit == F(1, 20) and o.expected_critical_hits == F(1, 20)
    assert o.expected_wounds_normal == F(11, 20) * 2 * F(3, 5)
    assert o.expected_wounds_critical == F(1, 20) * (1 + F(3, 5))
    assert o.p_wound_critical == F(1, 20)
    assert o.expected_wounds == o.expected_wounds_normal + o.expected_wounds_critical


def test_a_game_without_criticals_has_no_split():
    o = run("ciernie-i-gwiazdy", "shooting")
    assert not o.criticals and o.p_critical_hit is None and o.expected_wounds_critical is None
    proc = run_kodeks("odds", "ciernie-i-gwiazdy", "shooting", "--lang", "en")
    assert "critical hit" not in proc.stdout
    proc = run_kodeks("odds", "warzone-4-1", "shooting", "--lang", "en")
    assert "expected wounds from critical hits" in proc.stdout


# ---- a bad `weapon:` block: located errors ----

GOOD_WEAPON = GOOD.replace("      attack:\n", """      weapon:
        reads:
          - column: damage
            pattern: '^([0-9]+)$'
            groups: [d]
            set: {kp: d}
          - column: power
            pattern: '^([0-9]{1,2})$'
            groups: [p]
            add: {ww: p}
        bands:
          rule: rule/melee
          label: '{abbr}: {n}'
          pattern: '^([0-9]{1,3})$'
          groups: [n]
          set: {ww: n // 10}
          list:
            - column: range
            - column: mass
        traits:
          - trait: trait/piercing
            set: {kp: 2}
      attack:
""")

BROKEN_WEAPON = [
    # (old, new, message, text on the line the error points into, or None for the line only)
    ("pattern: '^([0-9]+)$'", "pattern: '^([0-9]+$'", "is not a regular expression", None),
    ("pattern: '^([0-9]{1,3})$'", "pattern: '^([0-9]{3,1})$'", "is not a regular expression", None),
    ("pattern: '^([0-9]+)$'", "pattern: '^((?:[0-9]+)+)$'", "is refused: a repetition inside a repetition", None),
    ("groups: [d]", "groups: [d, e]", "capturing group(s) but groups names 2", None),
    ("- column: damage", "- column: damag", "no weapon profile field 'damag'", None),
    ("set: {kp: d}", "set: {kq: d}", "sets 'kq', which is not an input of melee", None),
    ("set: {kp: d}", "set: {kp: x + d}", "reads 'x', which is not one of the pattern's groups", "x + d"),
    ("set: {kp: d}", "set: {kp: d +}", "does not parse", None),
    ("label: '{abbr}: {n}'", "label: '{abbr}: {m}'", "the label shows '{m}'", "{m}"),
    ("trait: trait/piercing", "trait: trait/piercin", "unknown trait 'piercin'", None),
    ("set: {kp: 2}", "set: {kz: 2}", "the trait sets 'kz'", None),
    ("      weapon:\n        reads:", "      weapon:\n        categories: [badm, lazer]\n        reads:",
     "'lazer' is not a weapon category of this game (did you mean 'laser'?)", None),
    ("add: {ww: p}", "add: {wq: p}", "the weapon adds to 'wq', which is not an input of melee", None),
    ("add: {ww: p}", "add: {ww: q}", "reads 'q', which is not one of the pattern's groups", "q}"),
    ("set: {ww: n // 10}", "set: {ww: n // 10}\n          show: {lo: n + z}", "reads 'z', which is not one of", "z}"),
    ("groups: [n]", "groups: [n]\n          otherwise: {z: 1}", "otherwise: 'z' is not one of the pattern's groups", None),
    ("rule: rule/melee\n          label", "rule: rule/mele\n          label", "unknown rule 'mele'", None),
]


@pytest.mark.parametrize("old, new, message, marker", BROKEN_WEAPON)
def test_bad_weapon_declarations_are_located(mini, old, new, message, marker):
    import re
    game = mini / "ciernie-i-gwiazdy" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    start = len(text.splitlines())
    assert GOOD_WEAPON.count(old) == 1, old
    body = GOOD_WEAPON.replace(old, new)
    game.write_text(text + body, encoding="utf-8")
    proc = run_kodeks("validate", "--content", mini)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [x for x in proc.stderr.splitlines() if message in x]
    assert lines, proc.stderr
    first = new.split("\n")[-1] if "otherwise" in new or "show" in new else new.split("\n")[0]
    if "categories" in new:
        first = new.split("\n")[1]
    numbered = list(enumerate(body.splitlines(), start=1))
    line_no = next((i for i, line in numbered if line.strip() == first.strip()), None) or next(
        i for i, line in numbered if first in line)
    assert f"game.yaml:{start + line_no}:" in lines[0], (lines[0], start + line_no)
    line = body.splitlines()[line_no - 1]
    if "regular expression" in message:  # the column of the character the regex engine stopped at
        pattern = re.search(r"'(.*)'", line).group(1)
        with pytest.raises(re.error) as exc:
            re.compile(pattern)
        col = line.index("'") + 2 + exc.value.pos
        assert f"game.yaml:{start + line_no}:{col}:" in lines[0], (lines[0], col)
    if marker:
        col = line.index(marker) + 1
        assert f"game.yaml:{start + line_no}:{col}:" in lines[0], (lines[0], col)


def test_a_good_weapon_declaration_validates_and_reads(mini):
    game = mini / "ciernie-i-gwiazdy" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + GOOD_WEAPON, encoding="utf-8")
    proc = run_kodeks("validate", "--content", mini)
    assert proc.returncode == 0, proc.stderr
    proc = run_kodeks("odds", "ciernie-i-gwiazdy", "melee", "--weapon", "badm-cannon", "--band", "mass", "--json",
                      "--content", mini)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["inputs"] == {"ww": 0, "kp": 2}  # mass 4 // 10; damage 6 read, then the trait's 2 (later wins)
