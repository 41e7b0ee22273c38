"""An outcome for people (a rich table) and for scripts (JSON), and the inputs a player's entries prefill."""
from __future__ import annotations

from fractions import Fraction

from .evaluate import Outcome
from .model import Calculator

LABELS = {
    "pl": {"inputs": "Dane", "value": "wartość", "source": "skąd", "default": "domyślna", "set": "--set",
           "attack": "Rzut atakującego", "target": "wartość testu", "dice": "kości", "p_pass": "sukces na kość",
           "p_crit": "krytyk na kość", "auto": "automatyczna porażka", "hits": "Trafienia atakującego",
           "defender": "obrońca wygrywa", "nobody": "nikt nie trafia", "jam": "zacięcie / błąd krytyczny",
           "wounds": "Rany", "p_wound": "co najmniej 1 rana", "expected": "oczekiwane rany", "outcome": "wynik",
           "chance": "szansa", "per_hit": "Rany z jednego trafienia", "normal": "zwykłe", "critical": "krytyczne",
           "after_pass": "gdy obrońca zdał", "success": "Sukces testu",
           "p_crit_hit": "co najmniej 1 trafienie krytyczne", "e_crit_hits": "oczekiwane trafienia krytyczne",
           "e_w_normal": "oczekiwane rany ze zwykłych trafień", "e_w_crit": "oczekiwane rany z trafień krytycznych",
           "p_w_crit": "co najmniej 1 rana z trafienia krytycznego"},
    "en": {"inputs": "Inputs", "value": "value", "source": "from", "default": "default", "set": "--set",
           "attack": "Attacker's roll", "target": "target", "dice": "dice", "p_pass": "success per die",
           "p_crit": "critical per die", "auto": "automatic failure", "hits": "Attacker's hits",
           "defender": "the defender wins", "nobody": "nobody scores", "jam": "jam / critical failure",
           "wounds": "Wounds", "p_wound": "at least 1 wound", "expected": "expected wounds", "outcome": "outcome",
           "chance": "chance", "per_hit": "Wounds from one hit", "normal": "normal", "critical": "critical",
           "after_pass": "after the defender passed", "success": "Test passed",
           "p_crit_hit": "at least 1 critical hit", "e_crit_hits": "expected critical hits",
           "e_w_normal": "expected wounds from normal hits", "e_w_crit": "expected wounds from critical hits",
           "p_w_crit": "at least 1 wound from a critical hit"},
}


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.2f} %"


def grouped(dist: list, top: int = 3) -> list[tuple[str, Fraction]]:
    """(label, P) for 0, 1, ... top-1 and `top`+ (the tail summed)."""
    out = [(str(k), dist[k] if k < len(dist) else Fraction(0)) for k in range(top)]
    out.append((f"{top}+", sum(dist[top:], Fraction(0))))
    return out


def _floats(dist):
    return None if dist is None else [float(p) for p in dist]


def _exact(dist):
    return None if dist is None else [str(p) for p in dist]


def as_json(game: str, outcome: Outcome) -> dict:
    """Every number of the outcome as a float, and the same numbers exactly (as 'a/b' strings) under `exact`."""
    o = outcome

    def per_hit(ph, conv):
        return None if ph is None else {k: conv(v) for k, v in ph.items()}

    def body(conv, one):
        return {
            "hits": conv(o.hits), "critical_hits": conv(o.critical_hits),
            "defender_scores": one(o.defender_scores), "nobody": one(o.nobody), "defender_hits": conv(o.defender_hits),
            "jam": one(o.jam), "per_hit": per_hit(o.per_hit, conv),
            "per_hit_defender_passed": per_hit(o.per_hit_defender_passed, conv),
            "wounds": conv(o.wounds), "p_wound": one(o.p_wound), "expected_wounds": one(o.expected_wounds),
            "statuses": [{"name": {"pl": n.plain("pl"), "en": n.plain("en")}, "p": one(p)} for n, p in o.statuses],
            "p_critical_hit": one(o.p_critical_hit), "expected_critical_hits": one(o.expected_critical_hits),
            "expected_wounds_normal": one(o.expected_wounds_normal),
            "expected_wounds_critical": one(o.expected_wounds_critical), "p_wound_critical": one(o.p_wound_critical),
        }

    def f(x):
        return None if x is None else float(x)

    def s(x):
        return None if x is None else str(x)

    steps = {"attack": o.attack}
    if o.defence is not None:
        steps["defence"] = o.defence
    return {
        "game": game, "calculator": o.calculator, "inputs": o.inputs,
        **{name: {"target": st.target, "dice": st.dice, "p_pass": float(st.p_pass), "p_critical": float(st.p_critical),
                  "automatic_failure": st.automatic_failure} for name, st in steps.items()},
        **body(_floats, f),
        "exact": body(_exact, s),
    }


def table(game_name: str, calc: Calculator, outcome: Outcome, sources: dict, lang: str):
    """A rich renderable: the inputs, the rolls and the distributions."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text
    t = LABELS[lang]
    o = outcome
    head = Text(f"{game_name} · {calc.name.plain(lang) if calc.name else calc.id}", style="bold")
    inputs = Table(title=t["inputs"], title_justify="left", show_edge=False)
    inputs.add_column("id")
    inputs.add_column("")
    inputs.add_column(t["value"], justify="right")
    inputs.add_column(t["source"])
    for inp in calc.inputs:
        inputs.add_row(inp.id, inp.name.plain(lang) if inp.name else "", str(o.inputs[inp.id]),
                       sources.get(inp.id, t["default"]))
    rolls = Table(title=t["attack"], title_justify="left", show_edge=False)
    for col in ("", t["target"], t["dice"], t["p_pass"], t["p_crit"]):
        rolls.add_column(col, justify="right" if col else "left")
    steps = [("attack", o.attack)] + ([("defence", o.defence)] if o.defence is not None else [])
    for name, st in steps:
        rolls.add_row(name, str(st.target) + (f" ({t['auto']})" if st.automatic_failure else ""), str(st.dice),
                      pct(st.p_pass + st.p_critical), pct(st.p_critical))
    parts = [head, inputs, rolls]
    results = Table(title=t["hits"] if calc.per_hit is not None or o.attack.dice != 1 else t["success"],
                    title_justify="left", show_edge=False)
    results.add_column(t["outcome"])
    results.add_column(t["chance"], justify="right")
    for label, p in grouped(o.hits):
        results.add_row(label, pct(p))
    if o.defence is not None:
        results.add_row(t["defender"], pct(o.defender_scores))
        results.add_row(t["nobody"], pct(o.nobody))
    if o.jam is not None:
        results.add_row(t["jam"], pct(o.jam))
    if o.criticals:
        results.add_row(t["p_crit_hit"], pct(o.p_critical_hit))
        results.add_row(t["e_crit_hits"], f"{float(o.expected_critical_hits):.3f}")
    parts.append(results)
    if o.wounds is not None:
        wounds = Table(title=t["wounds"], title_justify="left", show_edge=False)
        wounds.add_column(t["outcome"])
        wounds.add_column(t["chance"], justify="right")
        for label, p in grouped(o.wounds):
            wounds.add_row(label, pct(p))
        wounds.add_row(t["p_wound"], pct(o.p_wound))
        wounds.add_row(t["expected"], f"{float(o.expected_wounds):.3f}")
        for name, p in o.statuses:
            wounds.add_row(name.plain(lang), pct(p))
        if o.criticals:
            wounds.add_row(t["e_w_normal"], f"{float(o.expected_wounds_normal):.3f}")
            wounds.add_row(t["e_w_crit"], f"{float(o.expected_wounds_critical):.3f}")
            wounds.add_row(t["p_w_crit"], pct(o.p_wound_critical))
        parts.append(wounds)
    return Group(*parts)


def prefill(kb, game: str, calc: Calculator, attacker=None, defender=None, weapon=None, profile: int = 0,
            band: int | None = 0, lang: str = "pl", adds: bool = True) -> tuple[dict, dict]:
    """({input id: value}, {input id: where it came from}) for the inputs the given entries fill: a `from:` value
    the entry holds as a whole number, then what the weapon's profile number `profile` (0-based) gives through
    the calculator's `weapon:` rules (its printed forms, its traits), then its band number `band` (0-based among
    the bands it prints; None: no band), then what the profile adds to an input's value (its `from:` value, else
    its default; `adds=False` leaves that out). A '-' or a form no rule reads is left to the default."""
    from .weapon import bands as weapon_bands, profile_adds, profile_values
    values, sources = {}, {}
    chosen = None
    if weapon is not None and calc.weapon is not None and not calc.weapon.takes(weapon):
        weapon = None  # a weapon of a category this calculator does not take fills nothing
    if weapon is not None and weapon.profiles:
        chosen = weapon.profiles[profile] if 0 <= profile < len(weapon.profiles) else None
    for inp in calc.inputs:
        if not inp.source:
            continue
        owner, _, key = inp.source.rpartition(".")
        entry = {"attacker.stats": attacker, "defender.stats": defender, "weapon.profile": weapon}[owner]
        if entry is None:
            continue
        if owner == "weapon.profile":
            found = chosen.values.get(key) if chosen is not None else None
        else:
            found = entry.stats.get(key)
        number = _whole(found)
        if number is not None:
            values[inp.id] = number
            sources[inp.id] = f"{entry.kind}/{entry.id}"
    if chosen is not None:
        where = f"weapon/{weapon.id}" + (f" #{profile + 1}" if len(weapon.profiles) > 1 else "")
        for k, v in profile_values(calc, chosen, weapon.traits).items():
            values[k] = v
            sources[k] = where
        if band is not None:
            fields = {f.key: f for f in kb.games[game].weapon_profile}
            offered = weapon_bands(calc, chosen, fields, lang)
            if 0 <= band < len(offered):
                column, text, got = offered[band]
                for k, v in got.items():
                    values[k] = v
                    sources[k] = f"{where} · {text}"
        for k, offset in (profile_adds(calc, chosen) if adds else {}).items():
            inp = calc.input(k)
            total = values.get(k, inp.default) + offset
            if (inp.min is None or total >= inp.min) and (inp.max is None or total <= inp.max):
                values[k] = total
                sources[k] = f"{sources.get(k, 'default')} {'+' if offset >= 0 else '−'} {abs(offset)} ({where})"
    return values, sources


def _whole(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip().replace("−", "-")
        if text.lstrip("+-").isdigit():
            return int(text)
    return None
