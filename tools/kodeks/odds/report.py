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
           "after_pass": "gdy obrońca zdał", "success": "Sukces testu"},
    "en": {"inputs": "Inputs", "value": "value", "source": "from", "default": "default", "set": "--set",
           "attack": "Attacker's roll", "target": "target", "dice": "dice", "p_pass": "success per die",
           "p_crit": "critical per die", "auto": "automatic failure", "hits": "Attacker's hits",
           "defender": "the defender wins", "nobody": "nobody scores", "jam": "jam / critical failure",
           "wounds": "Wounds", "p_wound": "at least 1 wound", "expected": "expected wounds", "outcome": "outcome",
           "chance": "chance", "per_hit": "Wounds from one hit", "normal": "normal", "critical": "critical",
           "after_pass": "after the defender passed", "success": "Test passed"},
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
        parts.append(wounds)
    return Group(*parts)


def prefill(kb, game: str, calc: Calculator, attacker=None, defender=None, weapon=None) -> tuple[dict, dict]:
    """({input id: value}, {input id: where it came from}) for the inputs whose `from` names a value the given
    entries hold as a whole number (a '-' or a printed form such as '-2(x2)' is left to the default)."""
    values, sources = {}, {}
    for inp in calc.inputs:
        if not inp.source:
            continue
        owner, _, key = inp.source.rpartition(".")
        entry = {"attacker.stats": attacker, "defender.stats": defender, "weapon.profile": weapon}[owner]
        if entry is None:
            continue
        if owner == "weapon.profile":
            found = next((p.values[key] for p in entry.profiles if key in p.values), None)
        else:
            found = entry.stats.get(key)
        number = _whole(found)
        if number is not None:
            values[inp.id] = number
            sources[inp.id] = f"{entry.kind}/{entry.id}"
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
