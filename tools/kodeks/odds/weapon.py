"""A weapon's printed profile read into a calculator's inputs, as the game's `odds:` declaration says.

A profile value is printed the way the book prints it: Infinity's range bands `8-16/+3`, Warzone's `-2(x2)` or
`16x2`, Warzone Eternal's `13(x2)`. Which pattern reads which column, and which of its groups goes to which input,
is declared per calculator under `weapon:` in game.yaml (model.WeaponRules); nothing here knows a game. The
bands come out as a list of choices, each with a label in the page's language and the inputs it sets, computed
once in Python: `kodeks odds --weapon ... --band ...` reads them here, and the site's data script carries them,
so the browser never parses a printed value.
"""
from __future__ import annotations

import re

from .expr import EvalError
from .model import BadExpr, BadRegex, Calculator, Read

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
LABEL_NAMES = ("abbr", "name", "value")  # besides the pattern's groups, what a band's label may show


def printed(value) -> str | None:
    """The profile value as text, or None for a gap or anything that is not a printed value."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value.strip()
    return None


def whole(text) -> int | None:
    """A group's text as a whole number ('+3', '−2', '0'), or None."""
    if text is None:
        return None
    t = text.strip().replace("\u2212", "-").replace("\u2013", "-")
    if t.startswith("+"):
        t = t[1:]
    if re.fullmatch(r"-?[0-9]{1,6}", t):
        return int(t)
    return None


def match(read: Read, value):
    """The re.Match of the printed `value` against the read's pattern (the whole text), or None."""
    text = printed(value)
    if text is None or isinstance(read.pattern, BadRegex) or read.pattern is None or len(text) > 100:
        return None
    return read.pattern.fullmatch(text)


def named(read: Read, m) -> dict:
    """{group name: its text or None} of a match, the groups named in order by `read.groups`."""
    return {name: m.group(i + 1) if i < (m.re.groups or 0) else None for i, name in enumerate(read.groups)}


def apply(read: Read, value, exprs: dict | None = None, extra: dict | None = None) -> dict | None:
    """{input id: whole number} that the printed `value` gives (through `read.set`, or `exprs` when given), or
    None when the pattern does not match it. An expression reading a group that is not a whole number (and has no
    `otherwise`) sets nothing. `extra` adds names (a repeated band's number)."""
    m = match(read, value)
    if m is None:
        return None
    env = dict(extra or {})
    for name, text in named(read, m).items():
        n = whole(text) if text is not None else read.otherwise.get(name)
        if n is not None:
            env[name] = n
    out = {}
    for target, ex in (read.set if exprs is None else exprs).items():
        if isinstance(ex, BadExpr) or not ex.names <= env.keys():
            continue
        try:
            out[target] = ex(env)
        except EvalError:
            continue
    return out


def label(template: str, groups: dict, field, value) -> str:
    """A band's label: `template` with {group}, {abbr}, {name} and {value} filled in (unknown names stay)."""
    lang_values = dict(field) if field else {}
    lang_values["value"] = printed(value) or ""
    groups = {k: (v if v is not None else "") for k, v in groups.items()}

    def one(mm):
        name = mm.group(1)
        if name in groups:
            return groups[name]
        return lang_values.get(name, mm.group(0))
    return PLACEHOLDER.sub(one, template)


def _in_range(calc: Calculator, values: dict) -> dict:
    out = {}
    for k, v in values.items():
        inp = calc.input(k)
        if inp is None or inp.min is not None and v < inp.min or inp.max is not None and v > inp.max:
            continue
        out[k] = v
    return out


def profile_values(calc: Calculator, profile, weapon_traits=()) -> dict:
    """What the profile itself sets through the calculator's `weapon.reads` and `weapon.traits` (in order; a
    later one wins). A trait counts when the profile lists it or the weapon does (`weapon_traits`: then it
    holds for every profile)."""
    rules = calc.weapon
    if rules is None or profile is None:
        return {}
    out: dict = {}
    for read in rules.reads:
        got = apply(read, profile.values.get(read.column))
        if got:
            out.update(got)
    have = {str(u.key) for u in list(profile.traits) + list(weapon_traits)}
    for t in rules.traits:
        if t.trait is not None and str(t.trait) in have:
            for target, ex in t.set.items():
                if not isinstance(ex, BadExpr) and not ex.names:
                    out[target] = ex({})
    return _in_range(calc, out)


def profile_adds(calc: Calculator, profile) -> dict:
    """{input id: what the profile adds to the value the input holds without the weapon} (`weapon.reads` `add`)."""
    rules = calc.weapon
    if rules is None or profile is None:
        return {}
    out: dict = {}
    for read in rules.reads:
        if read.add:
            got = apply(read, profile.values.get(read.column), read.add)
            if got:
                out.update(got)
    return out


def bands(calc: Calculator, profile, fields: dict, lang: str) -> list[tuple[str, str, dict]]:
    """(column, label, {input: value}) for each band of the calculator's `weapon.bands` that the profile prints
    (a band whose first column is a dash, a gap or another form is not offered)."""
    rules = calc.weapon
    if rules is None or profile is None or not rules.bands:
        return []
    out = []
    for read in rules.bands:
        value = profile.values.get(read.column)
        m = match(read, value)
        if m is None:
            continue
        f = fields.get(read.column)
        names = {"abbr": f.label(lang), "name": f.name.plain(lang)} if f is not None else {"abbr": read.column,
                                                                                           "name": read.column}
        template = (rules.band_label or {}).get(lang) or "{abbr}: {value}"
        groups = named(read, m)
        for k in range(read.repeat[1]) if read.repeat else (None,):
            extra = {read.repeat[0]: k} if read.repeat else {}
            got = apply(read, value, extra=extra) or {}
            for more in read.also:
                got.update(apply(more, profile.values.get(more.column)) or {})
            shown = dict(groups)
            if read.repeat:
                shown[read.repeat[0]] = str(k)
            shown.update(_shown(read, groups, extra))
            key = f"{read.column}-{k}" if read.repeat else read.column
            out.append((key, label(template, shown, names, value), _in_range(calc, got)))
    return out


def _shown(read: Read, groups: dict, extra: dict) -> dict:
    """The label's computed names (`show`), as text."""
    env = dict(extra)
    for name, text in groups.items():
        n = whole(text) if text is not None else read.otherwise.get(name)
        if n is not None:
            env[name] = n
    out = {}
    for name, ex in read.show.items():
        if not isinstance(ex, BadExpr) and ex.names <= env.keys():
            try:
                out[name] = str(ex(env))
            except EvalError:
                continue
    return out
