"""The odds calculator in the site: a page per dice game (<game>/odds.md), a "chances" panel on every unit
and weapon page of such a game, and the per-game data both read.

The data (assets/kodeks-odds-<game>.js, one per language, written by the build) is a script, not JSON, so it
loads from file:// too, like the search index: the game's `odds:` declaration as written (what
assets/kodeks-odds.js evaluates), each calculator's labels and rule addresses in the page's language, and
what every unit and weapon of the game prefills, computed here with kodeks.odds.report.prefill, so the page
and `kodeks odds --attacker/--defender/--weapon` agree on it. assets/kodeks-calculator.js builds the form
from it with textContent only; the pages themselves carry a placeholder, the prefilled values of their entry
and a heading, every content string through site/escape.py.
"""
from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path
from typing import Callable

from ..model.entry import Entry
from ..model.kb import KnowledgeBase
from ..odds.report import prefill
from ..odds.weapon import bands as weapon_bands, profile_adds
from . import urls
from .escape import attr, front_matter, md_text
from .rawhtml import raw
from .render import Page

WORDS = {
    "pl": {"title": "Kalkulator szans", "panel": "Szanse", "profile": "profil",
           "intro": "Dokładne szanse testów tej gry, liczone z jej zasad. Wybierz jednostki i broń albo wpisz "
                    "wartości; adres strony zapamiętuje ustawienia, więc wynik można komuś wysłać.",
           "noscript": "Kalkulator działa w przeglądarce z włączonym JavaScriptem."},
    "en": {"title": "Odds calculator", "panel": "Chances", "profile": "profile",
           "intro": "Exact chances of this game's tests, computed from its rules. Pick units and a weapon or "
                    "type the values; the page address keeps your settings, so a result can be shared.",
           "noscript": "The calculator runs in a browser with JavaScript turned on."},
}
OWNERS = ("attacker.stats", "weapon.profile", "defender.stats")  # the order of the pickers on the form


def has_odds(kb: KnowledgeBase, game: str) -> bool:
    g = kb.games.get(game)
    return bool(g is not None and g.odds is not None and g.odds.calculators)


def odds_path(game: str) -> str:
    return f"{game}/odds.md"


def data_name(game: str) -> str:
    return f"kodeks-odds-{game}.js"


def _widget(game: str, prefilled: dict | None = None) -> str:
    """The element assets/kodeks-calculator.js fills; `prefilled` is {"att", "wpn", "values": {calc: {id: n}}}."""
    data = f' data-odds-prefill="{attr(json.dumps(prefilled, separators=(",", ":")))}"' if prefilled else ""
    return f'<div class="kodeks-odds" data-kodeks-odds="{attr(game)}"{data}></div>'


def page(kb: KnowledgeBase, game: str, lang: str) -> str:
    """The calculator page of one game: every calculator of its declaration, one tab each."""
    g = kb.games[game]
    w = WORDS[lang]
    title = f"{w['title']} – {g.name.plain(lang)}"
    here = Page(kb, lang, odds_path(game))
    return (front_matter(title=title, hide=["toc"]) + "\n"
            f'<nav class="kodeks-crumbs" markdown>[{md_text(g.name.plain(lang))}]({here.to(urls.game_index(game))})</nav>\n\n'
            f"# {md_text(title)}\n\n{md_text(w['intro'])}\n\n" + raw(_widget(game)))


def panel(page: Page, entry: Entry) -> str:
    """A unit's or weapon's collapsed "chances" panel, prefilled from the entry: a unit as the attacker
    (with its first weapon that has a profile, for each calculator the first it takes), a weapon as the weapon."""
    kb = page.kb
    if entry.kind not in ("unit", "weapon") or not has_odds(kb, entry.game):
        return ""
    odds = kb.games[entry.game].odds
    if entry.kind == "unit":
        armed = [w for w in (kb.get(u.key) for u in entry.weapons) if w is not None and w.profiles]
        attacker = entry
    else:
        armed, attacker = [entry], None
    weapon = armed[0] if armed else None
    values, bands, own = {}, {}, {}
    fields = {f.key: f for f in kb.games[entry.game].weapon_profile}
    for calc in odds.calculators:
        mine = next((w for w in armed if calc.weapon is None or calc.weapon.takes(w)), None)
        if mine is not weapon:
            own[calc.id] = mine.id if mine is not None else ""
        found, _ = prefill(kb, entry.game, calc, attacker=attacker, weapon=mine, lang=page.lang)
        if found:
            values[calc.id] = found
        offered = weapon_bands(calc, mine.profiles[0], fields, page.lang) if mine is not None else []
        if offered:
            bands[calc.id] = offered[0][0]
    prefilled = {"att": attacker.id if attacker else None, "wpn": weapon.id if weapon else None, "values": values}
    if own:
        prefilled["wpns"] = own  # a calculator that takes another of the unit's weapons (or none of them)
    if bands:
        prefilled["band"] = bands
    # Material's own "example" box (its flask icon), rather than a look of kodeks' own.
    return raw(f'<details class="example kodeks-odds-panel" id="odds"><summary>{attr(WORDS[page.lang]["panel"])}'
               f'</summary>{_widget(entry.game, prefilled)}</details>')


def data(kb: KnowledgeBase, game: str, lang: str) -> dict:
    """What the browser needs of one game in one language (see the module's doc)."""
    odds = kb.games[game].odds

    def rule(key):
        entry = kb.get(key) if key is not None else None
        if entry is None:
            return None
        return [entry.title(lang), urls.html_path(urls.entry_path(entry))]

    def name(bi, fallback):
        return bi.plain(lang) if bi is not None else fallback

    calcs = []
    for calc in odds.calculators:
        owners = {i.source.rpartition(".")[0] for i in calc.inputs if i.source}
        if calc.weapon is not None:
            owners.add("weapon.profile")
        weapon_inputs = [i.id for i in calc.inputs if i.source and i.source.startswith("weapon.")]
        weapon_inputs += [k for k in (calc.weapon.targets() if calc.weapon else []) if k not in weapon_inputs]
        band_inputs = sorted({k for r in (calc.weapon.bands if calc.weapon else []) for k in
                              list(r.set) + [k2 for a in r.also for k2 in a.set]})
        calcs.append({"id": calc.id, "name": name(calc.name, calc.id), "rule": rule(calc.rule),
                      "uses": [o.split(".")[0] for o in OWNERS if o in owners],
                      "inputs": [{"id": i.id, "label": name(i.name, i.id), "rule": rule(i.rule)} for i in calc.inputs],
                      "weapon_inputs": weapon_inputs, "band_inputs": band_inputs,
                      "add_inputs": sorted({k for r in (calc.weapon.reads if calc.weapon else []) for k in r.add}),
                      "band_rule": rule(calc.weapon.band_rule) if calc.weapon and calc.weapon.bands else None,
                      "weapons": None if calc.weapon is None or calc.weapon.categories is None else
                      [w.id for w in kb.of(game, "weapon") if w.profiles and calc.weapon.takes(w)]})

    def filled(**who) -> dict:
        out = {}
        for calc in odds.calculators:
            found, _ = prefill(kb, game, calc, lang=lang, **who)
            if found:
                out[calc.id] = found
        return out

    fields = {f.key: f for f in kb.games[game].weapon_profile}

    def profiles(w) -> list:
        """Per profile: [name, {calc: what the profile sets, no band}, {calc: [[column, label, {input: n}]]},
        {calc: {input: what the profile adds to the input's own value}}], read here in Python so the page never
        parses a printed value."""
        out = []
        for i, p in enumerate(w.profiles):
            vals, bands, adds = {}, {}, {}
            for calc in odds.calculators:
                if calc.weapon is not None and not calc.weapon.takes(w):
                    continue
                found, _ = prefill(kb, game, calc, weapon=w, profile=i, band=None, lang=lang, adds=False)
                added = profile_adds(calc, p)
                if added:
                    adds[calc.id] = added
                if found:
                    vals[calc.id] = found
                offered = weapon_bands(calc, p, fields, lang)
                if offered:
                    bands[calc.id] = [list(b) for b in offered]
            out.append([p.name.plain(lang) if p.name else f"{WORDS[lang]['profile']} {i + 1}", vals, bands, adds])
        return out

    units = [[u.id, u.title(lang), filled(attacker=u), filled(defender=u)] for u in kb.of(game, "unit")]
    weapons = [[w.id, w.title(lang), filled(weapon=w), profiles(w)] for w in kb.of(game, "weapon") if w.profiles]
    return {"decl": odds.raw, "calculators": calcs,
            "units": sorted(units, key=lambda u: u[1].casefold()),
            "weapons": sorted(weapons, key=lambda w: w[1].casefold())}


def script(kb: KnowledgeBase, game: str, lang: str) -> str:
    body = json.dumps(data(kb, game, lang), ensure_ascii=False, separators=(",", ":"))
    # U+2028/2029 end a line in scripts older than ES2019; as escapes they are the same string.
    body = body.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"(window.KODEKS_ODDS=window.KODEKS_ODDS||{{}})[{json.dumps(game)}]={body};\n"


def scripts(kb: KnowledgeBase, lang: str) -> dict[str, Callable[[], str]]:
    """{file name in the assets folder: function that makes it} for every dice game's data script."""
    return {data_name(game): partial(script, kb, game, lang) for game in kb.games if has_odds(kb, game)}


def write(kb: KnowledgeBase, lang: str, assets: Path, made: dict[str, str] | None = None) -> None:
    """Every dice game's data script into one language's assets folder, each replaced whole; `made`: the
    scripts already made ({file name: text}, e.g. taken from the page store)."""
    for name, make in scripts(kb, lang).items():
        tmp = assets / (name + ".tmp")
        tmp.write_text(made[name] if made is not None and name in made else make(), encoding="utf-8")
        os.replace(tmp, assets / name)
