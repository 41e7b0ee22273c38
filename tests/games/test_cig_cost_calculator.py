"""Ciernie i Gwiazdy: the book's weapon cost calculator, computed from its tables in the data.

The procedure is the one rule/weapon-cost-calculator states (base pistol price, range surcharge for the
whole range, cumulative damage costs, penetration ±1, rule surcharges as percentages of that price with
their minimums, homing +2 per SHO level above 5, rate of fire last, rounded down). Every catalogue weapon
it can price must carry that figure as values.calculated_cost, and every one whose listed price differs
must say so in a cost-check note.
"""
import math
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from kodeks.model.ids import Key
from kodeks.model.text import BiText
from kodeks.project import load_and_check

ROOT = Path(__file__).resolve().parents[2]
GAME = "ciernie-i-gwiazdy"
# The catalogue headings price a family as a whole; the family surcharge stands for the rules it bundles.
BUNDLED = {"laser": {"no-range-penalty-accuracy", "ignores-force-fields"},
           "launcher": {"indirect", "no-range-penalty-penetration"}}
RATE = {"once-per-turn", "once-per-game", "single-shot", "extra-shot"}


@pytest.fixture(scope="module")
def kb():
    checked = load_and_check(ROOT / "content", ROOT)
    assert checked.ok
    return checked.kb


def cell_text(c):
    return c.plain("pl") if isinstance(c, BiText) else str(c)


def family_surcharges(kb):
    out = {}
    fam = next(t for e in kb.of(GAME, "rule") for t in e.tables if t.id == "weapon-families")
    for row in fam.rows:
        m = re.search(r"\+(\d+)%, min\. (\d+)", cell_text(row[2]))
        if m:
            name = cell_text(row[0]).lower()
            key = "laser" if "laser" in name else "launcher" if "granat" in name else None
            if key:
                out[key] = (int(m.group(1)), int(m.group(2)))
    return out


def tables(kb):
    rules = {t.id: t for e in kb.of(GAME, "rule") for t in e.tables if t.id}
    base = rules["base-weapon-profile"].rows[0][-1]
    ranges = {r[0]: r[2] for r in rules["range-band-costs"].rows}
    damage = {r[0]: r[2] for r in rules["damage-costs"].rows}
    rate = {cell_text(r[0]).lower(): (r[1], r[2]) for r in rules["rate-of-fire-costs"].rows}
    return base, ranges, damage, rate


def calculate(kb, weapon):
    base, ranges, damage, rate = tables(kb)
    prof = weapon.profiles[0]
    v = prof.values
    if "power" in v or not isinstance(v.get("range"), int) or "rof" not in v:
        return None
    refs = [u.key.id for u in weapon.traits + prof.traits]
    pen = v.get("penetration", 0)
    pen = 0 if pen == "-" else pen
    price = F(base) + ranges[v["range"] // 5] + damage[v.get("damage", 1)] + pen
    surcharges = []
    fam = family_surcharges(kb).get(weapon.category)
    if fam:
        surcharges.append(fam)
    for rid in refs:
        if rid.startswith("family-") or rid in RATE or rid == "ignores-anti-missile" or rid in BUNDLED.get(weapon.category, ()):
            continue
        vals = kb.get(Key(GAME, "trait", rid)).values
        if "cost_percent" not in vals:
            return None
        surcharges.append((vals["cost_percent"], vals.get("cost_min", 0)))
    change = F(0)
    for pct, minimum in surcharges:
        c = max(abs(F(pct, 100) * price), F(minimum))
        change += c if pct > 0 else -c
    price += change
    if isinstance(v.get("us"), int) and v["us"] > 5:
        price += 2 * (v["us"] - 5)
    flamer = bool({"flamer", "long-flamer"} & set(refs))
    once_pct, once_min = rate["raz na turę"]
    extra_pct, extra_min = rate["dodatkowy strzał"]
    if v["rof"] == "RnT":
        if not flamer:
            price -= max(F(-once_pct, 100) * price, F(once_min))
    elif v["rof"] > 1:
        price += max(F(extra_pct, 100) * price, F(extra_min)) * (v["rof"] - 1)
    return math.floor(price)


def test_calculator_figures_match_the_data_and_differences_are_noted(kb):
    priced = mismatched = 0
    for weapon in kb.of(GAME, "weapon"):
        if weapon.category == "example":
            continue
        calc = calculate(kb, weapon)
        stored = weapon.values.get("calculated_cost")
        if calc is None:
            continue
        priced += 1
        assert stored == calc, f"{weapon.id}: calculated_cost {stored}, the calculator gives {calc}"
        listed = weapon.values.get("cost")
        if isinstance(listed, int) and listed != calc:
            mismatched += 1
            assert any(n.type == "cost-check" for n in weapon.notes), f"{weapon.id}: {listed} vs {calc} needs a note"
    assert priced >= 40 and mismatched >= 10
