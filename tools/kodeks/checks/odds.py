"""What is wrong in a game's `odds:` declaration that its schema cannot see.

Links to rule entries that do not exist, expressions that do not parse or read a name the calculator does not
have, an input prefilled from a stat or profile column the game does not declare, bounds that contradict each
other, and a calculator that cannot run on its own defaults. Each is reported in game.yaml where it is written,
so that `kodeks odds` and the site only ever see declarations that work.
"""
from __future__ import annotations

from ..content.loader import Loaded
from ..odds.evaluate import OddsError, evaluate
from ..odds.expr import EvalError
from ..odds.model import MAX_DICE, RESERVED, BadExpr, BadRegex, expressions
from ..odds.weapon import LABEL_NAMES, PLACEHOLDER
from ..problems import Problems, did_you_mean


def check(loaded: Loaded, problems: Problems) -> None:
    for game in loaded.kb.games.values():
        if game.odds is not None and game.path in loaded.files:
            _check_game(loaded, game, loaded.files[game.path], problems)


def _check_game(loaded: Loaded, game, yf, problems: Problems) -> None:
    from . import _known, _suggest
    odds, raw = game.odds, game.odds.raw
    base = ("odds",)

    def err(path: tuple, message: str, fix: str, offset: int | None = None) -> None:
        pos = yf.text_pos(base + path, offset) if offset is not None else yf.pos(base + path)
        problems.error(game.path, pos, message, fix)

    def rule(path: tuple, key) -> None:
        if key is None:
            return
        if key.kind == "?" or key.game not in loaded.kb.games:
            err(path, f"'{key}' is not a reference to an entry of this game", "write kind/id, e.g. rule/shooting")
        elif not _known(loaded, key):
            err(path, f"odds: unknown {key.kind} '{key.id}' in {key.game}{_suggest(loaded, key)}",
                "link the rule entry the step comes from (kind/id)")

    rule(("rule",), odds.rule)
    _roll_bounds(raw.get("roll") or {}, ("roll",), odds.die, err)
    stats = {f.key for f in game.stat_line}
    profile = {f.key for f in game.weapon_profile}
    seen_calcs: dict = {}
    for ci, calc in enumerate(odds.calculators):
        cpath = ("calculators", ci)
        craw = raw["calculators"][ci]
        if calc.id in seen_calcs:
            err(cpath + ("id",), f"the calculator '{calc.id}' is declared twice (first as number {seen_calcs[calc.id] + 1})",
                "give each calculator its own id")
            continue
        seen_calcs[calc.id] = ci
        rule(cpath + ("rule",), calc.rule)
        n_before = len(problems.items)
        ids: dict = {}
        for ii, inp in enumerate(calc.inputs):
            ipath = cpath + ("inputs", ii)
            if inp.id in ids:
                err(ipath + ("id",), f"the input '{inp.id}' is declared twice in {calc.id}", "give each input its own id")
            elif inp.id in RESERVED:
                err(ipath + ("id",), f"'{inp.id}' is a name the evaluator sets itself", "choose another input id")
            ids.setdefault(inp.id, ii)
            rule(ipath + ("rule",), inp.rule)
            _input(inp, raw["calculators"][ci]["inputs"][ii], ipath, stats, profile, game.id, err)
        for step_name in ("attack", "defence"):
            step = getattr(calc, step_name)
            if step is None:
                continue
            rule(cpath + (step_name, "rule"), step.rule)
            _roll_bounds(craw[step_name], cpath + (step_name,), odds.die, err)
            if step.jam is not None:
                rule(cpath + (step_name, "jam", "rule"), step.jam.rule)
        if calc.defence is not None and calc.attack.jam is not None and (calc.attack.jam.stops_burst or calc.attack.jam.misses):
            err(cpath + ("attack", "jam"), "a jam that makes dice miss cannot be combined with a face-to-face defence",
                "drop stops_burst and misses (the jam is then only reported), or the defence")
        ph = calc.per_hit
        if ph is not None:
            phraw = craw["per_hit"]
            rule(cpath + ("per_hit", "rule"), ph.rule)
            if ph.critical_hit is not None:
                rule(cpath + ("per_hit", "critical_hit", "rule"), ph.critical_hit.rule)
                for k in ph.critical_hit.add:
                    if k not in ids:
                        err(cpath + ("per_hit", "critical_hit", "add", k),
                            f"critical_hit adds to '{k}', which is not an input of {calc.id}{did_you_mean(k, ids)}",
                            "name one of the inputs: " + ", ".join(ids))
            if ph.save is not None:
                rule(cpath + ("per_hit", "save", "rule"), ph.save.rule)
                _roll_bounds(phraw["save"], cpath + ("per_hit", "save"), odds.die, err)
                if ph.save.bands:
                    _bands(ph.save, phraw, cpath + ("per_hit",), err)
        if calc.weapon is not None:
            _weapon(loaded, calc, craw["weapon"], cpath + ("weapon",), profile, ids, rule, yf, base, err, game.id)
        for path, ex, names in expressions(calc):
            where = cpath + path
            if isinstance(ex, BadExpr):
                err(where, f"the expression '{ex.text}' does not parse: {ex.message}",
                    "write arithmetic over the input ids: + - * // ceil(a / b) min(a, b) max(a, b) ( )",
                    offset=ex.offset if _is_text(yf, base + where) else None)
                continue
            for name in sorted(ex.names - set(names)):
                offset = next((n[2] for n in _name_nodes(ex.tree) if n[1] == name), 0)
                err(where, f"the expression '{ex.text}' reads '{name}', which is not an input of {calc.id}"
                    f"{did_you_mean(name, names)}", "inputs: " + ", ".join(names),
                    offset=offset if _is_text(yf, base + where) else None)
        if len(problems.items) == n_before:
            _runs(odds, calc, cpath, err)


def _is_text(yf, path: tuple) -> bool:
    return isinstance(yf._value_at(path), str)


def _name_nodes(tree: tuple):
    if tree[0] == "name":
        yield tree
    elif tree[0] != "int":
        for child in tree[1:]:
            yield from _name_nodes(child)


def _roll_bounds(data: dict, path: tuple, die: int, err) -> None:
    clamp = data.get("clamp")
    if clamp and clamp[0] > clamp[1]:
        err(path + ("clamp",), f"clamp [{clamp[0]}, {clamp[1]}]: the low end is above the high end", "write [low, high]")
    for face in data.get("natural") or {}:
        if not 1 <= int(face) <= die:
            err(path + ("natural",), f"natural: face {face} is not on a d{die}", f"use faces 1 to {die}")
    crit = data.get("critical") or []
    for face in crit:
        if isinstance(face, int) and face > die:
            err(path + ("critical",), f"critical: face {face} is not on a d{die}", f"use faces 1 to {die}")
        if isinstance(face, int) and (data.get("natural") or {}).get(str(face)) == "fail":
            err(path + ("critical",), f"face {face} is both a critical and a natural failure", "keep one of the two")


def _input(inp, raw: dict, path: tuple, stats: set, profile: set, game: str, err) -> None:
    if inp.source:
        owner, _, key = inp.source.rpartition(".")
        keys, where = (profile, "weapon_profile") if owner == "weapon.profile" else (stats, "stat_line")
        if key not in keys:
            err(path + ("from",), f"'{inp.source}': {game} has no {'weapon profile field' if where == 'weapon_profile' else 'stat'} "
                f"'{key}'{did_you_mean(key, keys)}", f"use a key of game.yaml {where}: " + ", ".join(sorted(keys)))
    if inp.kind == "flag":
        for bound in ("min", "max"):
            if bound in raw:
                err(path + (bound,), f"the flag '{inp.id}' is 0 or 1: it takes no {bound}", f"remove {bound}")
        if inp.default not in (0, 1):
            err(path + ("default",), f"the flag '{inp.id}' defaults to {inp.default}", "a flag's default is 0 or 1")
        return
    if inp.min is not None and inp.max is not None and inp.min > inp.max:
        err(path + ("min",), f"input '{inp.id}': min {inp.min} is above max {inp.max}", "swap them")
    elif inp.min is not None and inp.default < inp.min or inp.max is not None and inp.default > inp.max:
        err(path + ("default",), f"input '{inp.id}': the default {inp.default} is outside {inp.min}..{inp.max}",
            "give a default within min and max")


def _bands(save, phraw: dict, path: tuple, err) -> None:
    sraw = phraw["save"]
    bands = save.bands
    for i, band in enumerate(bands[:-1]):
        if band.up_to is None:
            err(path + ("save", "bands", i), "every band but the last needs `up_to`", "give the highest margin it covers")
            return
        if i and bands[i - 1].up_to is not None and band.up_to <= bands[i - 1].up_to:
            err(path + ("save", "bands", i, "up_to"), f"bands go up: up_to {band.up_to} is not above the band before "
                f"({bands[i - 1].up_to})", "list the bands from the best result to the worst")
    if bands[-1].up_to is not None:
        err(path + ("save", "bands", len(bands) - 1, "up_to"), "the last band covers every worse result: it has no up_to",
            "remove up_to from the last band")
    if sraw.get("natural"):
        err(path + ("save", "natural"), "a save read by bands cannot have natural results", "remove natural")
    if "wounds_on_fail" in phraw:
        err(path + ("wounds_on_fail",), "with bands, each band gives its own wounds", "remove wounds_on_fail")


def _runs(odds, calc, path: tuple, err) -> None:
    """The calculator on its defaults, and its dice counts at the ends of its inputs' ranges."""
    try:
        evaluate(odds, calc, {})
    except OddsError as exc:
        err(path, f"the calculator '{calc.id}' cannot run on its defaults: {exc}",
            "check the defaults and the expressions they feed")
        return
    ends = [(i.id, i.min, i.max) for i in calc.inputs]
    for pick in (1, 2):
        env = {iid: (lo if pick == 1 else hi) for iid, lo, hi in ends}
        if any(v is None for v in env.values()):
            continue
        steps = [("attack", calc.attack), ("defence", calc.defence)]
        for name, step in steps:
            if step is None:
                continue
            try:
                n = step.dice(env)
            except EvalError:
                continue
            if not 0 <= n <= MAX_DICE:
                side = "minimum" if pick == 1 else "maximum"
                err(path + (name, "dice"), f"with every input at its {side}, {calc.id} {name} rolls {n} dice",
                    f"keep the dice within 0..{MAX_DICE} over the inputs' ranges (min/max)")


def _weapon(loaded: Loaded, calc, raw: dict, path: tuple, profile: set, ids: dict, rule, yf, base: tuple, err,
            calc_game: str = "") -> None:
    """The `weapon:` block: columns the game's weapon profile has, patterns that compile, expressions over their
    groups, inputs that exist, labels that name only what a band has, traits that are entries."""
    from . import _known, _suggest
    rules = calc.weapon

    def one(read, where: tuple, inherited: tuple) -> set:
        """Check one read; `where` is its own place, `inherited` the bands block (for pattern/set/otherwise
        written there). Returns the pattern's group names."""
        rraw = yf._value_at(base + where) or {}

        def at(field):
            return where + (field,) if field in rraw else inherited + (field,)
        if read.column not in profile:
            err(where + ("column",), f"the game has no weapon profile field '{read.column}'{did_you_mean(read.column, profile)}",
                "use a key of game.yaml weapon_profile: " + ", ".join(sorted(profile)))
        pat = read.pattern
        if isinstance(pat, BadRegex) or pat is None:
            message = pat.message if pat is not None else "no pattern"
            offset = pat.offset if pat is not None and pat.offset is not None and _is_text(yf, base + at("pattern")) else None
            err(at("pattern"), f"the pattern '{pat.text if pat is not None else ''}' "
                + ("is refused: " if message.startswith("a repetition inside") else "is not a regular expression: ")
                + message,
                "write a Python regular expression with named groups, e.g. '^(?P<mod>[+-]?[0-9]+)$'", offset=offset)
            return set()
        if pat.groupindex:
            err(at("pattern"), f"the pattern '{pat.pattern}' names a group inside it",
                "use plain (...) groups and name them in order under groups: [a, b]")
        if len(read.groups) != pat.groups:
            err(at("groups") if "groups" in rraw or inherited != where else at("pattern"),
                f"the pattern has {pat.groups} capturing group(s) but groups names {len(read.groups)}",
                "name every (...) of the pattern in order, e.g. groups: [mod, shots]; write (?:...) for a group "
                "that only groups")
        groups = set(read.groups)
        readable = groups | ({read.repeat[0]} if read.repeat else set())
        if read.repeat and read.repeat[0] in groups:
            err(where + ("repeat", "name"), f"repeat: '{read.repeat[0]}' is also a group of the pattern",
                "give the band number a name of its own")
        listed = [("set", k, v) for k, v in read.set.items()] + [("add", k, v) for k, v in read.add.items()]
        listed += [("show", k, v) for k, v in read.show.items()]
        for field, target, ex in listed:
            spot = at(field) + (target,)
            if field != "show" and target not in ids:
                err(spot, f"the weapon {'adds to' if field == 'add' else 'sets'} '{target}', which is not an input of "
                    f"{calc.id}{did_you_mean(target, ids)}", "name one of the inputs: " + ", ".join(ids))
            if isinstance(ex, BadExpr):
                err(spot, f"the expression '{ex.text}' does not parse: {ex.message}",
                    "write arithmetic over the pattern's groups", offset=ex.offset if _is_text(yf, base + spot) else None)
                continue
            for name in sorted(ex.names - readable):
                offset = next((n[2] for n in _name_nodes(ex.tree) if n[1] == name), 0)
                err(spot, f"the expression '{ex.text}' reads '{name}', which is not one of the pattern's groups"
                    f"{did_you_mean(name, readable)}",
                    "groups: " + (", ".join(sorted(readable)) or "none; name the pattern's (...) in groups: [...]"),
                    offset=offset if _is_text(yf, base + spot) else None)
        for name in read.otherwise:
            if name not in groups:
                err(at("otherwise") + (name,), f"otherwise: '{name}' is not one of the pattern's groups"
                    f"{did_you_mean(name, groups)}", "groups: " + (", ".join(read.groups) or "none"))
        return readable | set(read.show)

    kind = loaded.kb.games[calc_game].kinds.get("weapon") if calc_game in loaded.kb.games else None
    known_categories = [c.id for c in kind.categories] if kind is not None else []
    for i, cat in enumerate(rules.categories or []):
        if cat not in known_categories:
            err(path + ("categories", i), f"'{cat}' is not a weapon category of this game{did_you_mean(cat, known_categories)}",
                "categories: " + (", ".join(known_categories) or "none declared in kinds.weapon"))
    for i, read in enumerate(rules.reads):
        one(read, path + ("reads", i), path + ("reads", i))
        if not read.set and not read.add:
            err(path + ("reads", i), "this read sets nothing", "give it set: {input: expression} or add: {...}")
    if rules.bands:
        rule(path + ("bands", "rule"), rules.band_rule)
        label_groups: set | None = None
        for i, read in enumerate(rules.bands):
            where = path + ("bands", "list", i)
            groups = one(read, where, path + ("bands",))
            label_groups = groups if label_groups is None else label_groups & groups
            for j, more in enumerate(read.also):
                one(more, where + ("also", j), where + ("also", j))
        lraw = raw["bands"].get("label")
        if lraw is not None:
            for lang, text in ((lraw if isinstance(lraw, dict) else {"": lraw}).items()):
                lpath = path + ("bands", "label") + ((lang,) if lang else ())
                for m in PLACEHOLDER.finditer(text):
                    if m.group(1) not in LABEL_NAMES and m.group(1) not in (label_groups or set()):
                        known = sorted((label_groups or set()) | set(LABEL_NAMES))
                        err(lpath, f"the label shows '{{{m.group(1)}}}', which is neither a group every band's pattern has "
                            f"nor one of {{abbr}}, {{name}}, {{value}} or a `show` name{did_you_mean(m.group(1), known)}",
                            "known: " + ", ".join("{" + k + "}" for k in known), offset=m.start())
    for i, t in enumerate(rules.traits):
        tpath = path + ("traits", i)
        key = t.trait
        if key is None or key.kind == "?" or key.game not in loaded.kb.games:
            err(tpath + ("trait",), f"'{key}' is not a reference to an entry of this game", "write kind/id, e.g. trait/ap")
        elif not _known(loaded, key):
            err(tpath + ("trait",), f"odds: unknown {key.kind} '{key.id}' in {key.game}{_suggest(loaded, key)}",
                "name the trait entry a weapon profile lists (kind/id)")
        for target in t.set:
            if target not in ids:
                err(tpath + ("set", target), f"the trait sets '{target}', which is not an input of {calc.id}"
                    f"{did_you_mean(target, ids)}", "name one of the inputs: " + ", ".join(ids))
