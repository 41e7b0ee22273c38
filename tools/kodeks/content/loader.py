"""Walk content/, read every file, check it against its schema and build the model.

content/<game>/game.yaml describes a game; content/<game>/<kind>/**/*.yaml hold its entries (a file holds
one entry or a list of entries). Only schema-valid entries enter the model; semantic checks across
files (ids, links, stats, profiles) run afterwards in kodeks.checks.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..model.entry import Citation, Entry, Level, Note, Option, Part, Profile, Table, Use
from ..model.game import Book, Category, Die, FieldDef, Game, KindConfig, PartLine
from ..model.ids import Key, parse_ref
from ..model.kb import KnowledgeBase
from ..model.text import BiText, parse_rich
from ..model.values import Gap
from ..odds import model as odds_model
from ..problems import Pos, Problems, did_you_mean
from . import files, gamefile, schemas
from .yamlfile import YamlFile, read_yaml


@dataclass
class Loaded:
    """The model plus what the checks need to point at positions."""

    kb: KnowledgeBase
    files: dict[Path, YamlFile] = field(default_factory=dict)
    invalid_keys: set[Key] = field(default_factory=set)  # entries that exist but failed their schema
    # Entries that failed their schema, built from the rest of their fields: the checks across files run on
    # them too, so an author sees every problem of a file in one run, not a second wave after the first is
    # fixed. They never enter the model.
    shadows: list = field(default_factory=list)
    # (game, kind) folders that could not be read in full (a kind of None: the whole game): references into
    # them cannot be judged, and were reported as one error about the folder.
    unreadable: set = field(default_factory=set)
    content_dir: Path | None = None
    backref_log: list | None = None  # kodeks.checks records here which back-references one entry made
    parsed: object = None  # content.parsecache.ParseCache, if the load may use one

    def yf(self, entry: Entry) -> YamlFile:
        return self.files[entry.file]


@dataclass
class FileCache:
    """Files read by an earlier load, kept by a long-lived process (`kodeks serve`) so that after a save
    only the changed files are read again. A file is kept only if it loaded without a problem, keyed by its
    modification time and size; its entries are reused as the same objects, which tells later steps what
    did not change."""

    files: dict[Path, tuple[tuple, YamlFile, list[Entry]]] = field(default_factory=dict)

    def drop(self, path: Path) -> None:
        self.files.pop(path, None)


def bitext(data, game: str) -> BiText | None:
    if not isinstance(data, dict) or "pl" not in data:
        return None
    en = data.get("en")
    return BiText(parse_rich(data["pl"], game), parse_rich(en, game) if en else None)


def value(data, game: str):
    if isinstance(data, dict) and "gap" in data:
        reason = data["gap"]
        return Gap(bitext(reason, game) if isinstance(reason, dict) else None)
    return data


def cell(data, game: str):
    if isinstance(data, dict):
        if "gap" in data:
            return value(data, game)
        return bitext(data, game)
    return data


def _values(data, game: str) -> dict:
    return {k: value(v, game) for k, v in (data or {}).items()}


def _use(data, game: str, path: tuple) -> Use:
    if isinstance(data, str):
        return Use(parse_ref(data, game) or Key(game, "?", data), path=path)
    level = data.get("level")
    return Use(parse_ref(data["ref"], game) or Key(game, "?", data["ref"]),
               level=str(level) if level is not None else None, count=data.get("count"),
               note=bitext(data.get("note"), game), path=path)


def _uses(data, game: str, path: tuple) -> list[Use]:
    return [_use(item, game, path + (i,)) for i, item in enumerate(data or [])]


def _fields(data, game: str) -> list[FieldDef]:
    out = []
    for f in data or []:
        out.append(FieldDef(
            key=f["key"], name=bitext(f["name"], game), abbr=bitext(f.get("abbr"), game), type=f["type"],
            min=f.get("min"), max=f.get("max"), signed=f.get("signed", False), dash=f.get("dash", False),
            pattern=f.get("pattern"), enum=list(f.get("enum", [])), unit=f.get("unit", ""),
            required=f.get("required", False), description=bitext(f.get("description"), game)))
    return out


def build_game(data: dict, path: Path) -> Game:
    gid = data["id"]
    kinds = {}
    for kind, conf in data.get("kinds", {}).items():
        conf = conf or {}
        kinds[kind] = KindConfig(
            kind=kind, name=bitext(conf.get("name"), gid), summary=bitext(conf.get("summary"), gid),
            categories=[Category(c["id"], bitext(c["name"], gid), bitext(c.get("summary"), gid))
                        for c in conf.get("categories", [])],
            fields=_fields(conf.get("fields"), gid))
    part = data.get("part_line")
    return Game(
        id=gid, name=bitext(data["name"], gid), edition=bitext(data["edition"], gid),
        publisher=bitext(data["publisher"], gid),
        books=[Book(b["id"], bitext(b["title"], gid), b.get("source_file", ""), b.get("language", "pl"),
                    bitext(b.get("notes"), gid)) for b in data["books"]],
        dice=[Die(d["id"], bitext(d["name"], gid), d.get("sides"), bitext(d.get("text"), gid)) for d in data["dice"]],
        stat_line=_fields(data["stat_line"], gid), kinds=kinds, summary=bitext(data.get("summary"), gid),
        authors=list(data.get("authors", [])), trademarks=bitext(data.get("trademarks"), gid),
        part_line=PartLine(bitext(part["name"], gid), _fields(part["fields"], gid)) if part else None,
        weapon_profile=_fields(data.get("weapon_profile"), gid),
        notes=[Note(n["type"], bitext(n["text"], gid), n.get("lines")) for n in data.get("notes", [])],
        quick_reference=[(parse_ref(q["ref"], gid), q.get("tables")) for q in data.get("quick_reference", [])],
        shortcuts=[parse_ref(r, gid) for r in data.get("shortcuts", [])],
        odds=odds_model.build(data["odds"], gid, lambda r: parse_ref(r, gid)) if "odds" in data else None,
        path=path, digest=data_digest("game", data))


def data_digest(*data) -> str:
    """A digest of what a model object is built from (converted YAML: dicts, lists, strings, numbers)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def build_entry(data: dict, game: str, kind: str, path: Path, base: tuple, pos: Pos, order: int) -> Entry:
    src = data.get("source") or []  # (always there in a valid entry; a shadow may have lost it)
    sources = [Citation(c["book"], c.get("section", ""), c.get("page"), c.get("lines"))
               for c in (src if isinstance(src, list) else [src])]
    entry = Entry(
        key=Key(game, kind, data["id"]), name=bitext(data.get("name"), game), sources=sources, file=path, base=base,
        pos=pos, order=order, summary=bitext(data.get("summary"), game), text=bitext(data.get("text"), game),
        category=data.get("category"), aliases={k: list(v) for k, v in (data.get("aliases") or {}).items()},
        values=_values(data.get("values"), game),
        tables=[Table(bitext(t["caption"], game), [cell(c, game) for c in t["columns"]],
                      [[cell(c, game) for c in row] for row in t["rows"]], t.get("id"), bitext(t.get("notes"), game))
                for t in data.get("tables", [])],
        notes=[Note(n["type"], bitext(n["text"], game), n.get("lines")) for n in data.get("notes", [])],
        gaps=[bitext(g, game) for g in data.get("gaps", [])],
        see_also=_uses(data.get("see_also"), game, base + ("see_also",)),
        redirects=list(data.get("redirects", [])),
        levels=[Level(str(lv["level"]), bitext(lv.get("name"), game), bitext(lv.get("text"), game),
                      _values(lv.get("values"), game)) for lv in data.get("levels", [])],
        number=data.get("number"), sort=data.get("order"),
        profiles=[Profile(_values(p.get("values"), game), bitext(p.get("name"), game),
                          _uses(p.get("traits"), game, base + ("profiles", i, "traits")),
                          value(p["cost"], game) if "cost" in p else None, bitext(p.get("text"), game))
                  for i, p in enumerate(data.get("profiles", []))],
        traits=_uses(data.get("traits"), game, base + ("traits",)),
        unit_type=bitext(data.get("type"), game),
        stats=_values(data.get("stats"), game),
        parts=[Part(bitext(p["name"], game), _values(p["stats"], game)) for p in data.get("parts", [])],
        weapons=_uses(data.get("weapons"), game, base + ("weapons",)),
        skills=_uses(data.get("skills"), game, base + ("skills",)),
        equipment=_uses(data.get("equipment"), game, base + ("equipment",)),
        options=[Option(bitext(o["text"], game), value(o["cost"], game) if "cost" in o else None)
                 for o in data.get("options", [])],
        forms={k: list(v) for k, v in (data.get("forms") or {}).items()},
        synonyms={k: list(v) for k, v in (data.get("synonyms") or {}).items()},
        abbreviations=list(data.get("abbreviations", [])),
        digest=data_digest(game, kind, data),
    )
    for name in ("parent", "faction", "target"):
        if data.get(name) is not None:
            setattr(entry, name, _use(data[name], game, base + (name,)))
    return entry


def load(content_dir: Path, problems: Problems, cache: FileCache | None = None, parsed=None) -> Loaded:
    """The model of `content_dir`. `cache`: files kept by a long-lived process; `parsed`: a
    content.parsecache.ParseCache, the data of files read by an earlier build."""
    loaded = Loaded(KnowledgeBase(), content_dir=content_dir, parsed=parsed)
    kb = loaded.kb
    if not content_dir.is_dir():
        problems.error(content_dir, Pos(1, 1), "the content folder does not exist",
                       "run kodeks from the project's root or pass --content DIR")
        return loaded
    order = 0
    games = files.subfolders(content_dir, problems)
    files.stray(content_dir, problems, (), "directly in the content folder")
    for gdir in games or []:
        kdirs = files.subfolders(gdir, problems)
        gpath = gdir / "game.yaml"
        if kdirs is None:
            loaded.unreadable.add((gdir.name, None))
            continue
        if not gpath.is_file():
            problems.error(gdir, Pos(1, 1), f"the game folder '{gdir.name}' has no game.yaml",
                           "add game.yaml (see schema/game.schema.json) or remove the folder")
            continue
        files.stray(gdir, problems, ("game.yaml",), "beside game.yaml")
        yf = read_yaml(gpath, problems, parsed)
        loaded.files[gpath] = yf
        if not yf.ok:
            continue
        if not isinstance(yf.data, dict):
            problems.error(gpath, Pos(1, 1), "game.yaml must be a mapping of fields", "start with `id: <game id>`")
            continue
        if not schemas.check(yf, "game", yf.data, (), problems):
            continue
        if yf.data["id"] != gdir.name:
            problems.error(gpath, yf.pos(("id",)), f"game id '{yf.data['id']}' differs from its folder '{gdir.name}'",
                           f"rename the folder to '{yf.data['id']}' or fix the id")
            continue
        game = build_game(gamefile.checked(yf, problems), gpath)
        kb.games[game.id] = game
        for kdir in kdirs:
            kind = kdir.name
            if kind not in schemas.KINDS:
                problems.error(kdir, Pos(1, 1), f"unknown kind folder '{kind}'{did_you_mean(kind, schemas.KINDS)}",
                               "kind folders are: " + ", ".join(schemas.KINDS))
                continue
            if kind not in game.kinds:
                problems.error(gpath, yf.pos(("kinds",)), f"the folder '{kind}/' holds entries but game.yaml "
                               f"does not declare the kind '{kind}'", f"add `{kind}: {{}}` under `kinds:`")
                continue
            paths, complete = files.yaml_files(kdir, problems)
            if not complete:
                loaded.unreadable.add((game.id, kind))
            for path in paths:
                order = _load_file(loaded, path, game.id, kind, order, problems, cache)
    return loaded


def _signature(path: Path, game: str, kind: str) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino, game, kind)


def _load_file(loaded: Loaded, path: Path, game: str, kind: str, order: int, problems: Problems,
               cache: FileCache | None = None) -> int:
    sig = _signature(path, game, kind) if cache is not None else None
    hit = None
    if sig is not None:
        hit = cache.files.get(path)
        if hit is not None and hit[0] == sig and not any(e.key in loaded.kb.entries for e in hit[2]):
            loaded.files[path] = hit[1]
            for entry in hit[2]:
                order += 1
                entry.order = order
                loaded.kb.entries[entry.key] = entry
            return order
    n_problems, added = len(problems.items), []
    order = _read_file(loaded, path, game, kind, order, problems, added)
    if sig is not None and hit is not None:
        # A saved file usually changes one of its entries: the others stay the same objects.
        before = {e.key: e for e in hit[2]}
        for i, entry in enumerate(added):
            same = before.get(entry.key)
            if same is not None and same == entry:
                same.pos, same.order = entry.pos, entry.order
                loaded.kb.entries[entry.key] = added[i] = same
    if cache is not None:
        if sig is not None and len(problems.items) == n_problems:
            cache.files[path] = (sig, loaded.files[path], added)
        else:
            cache.drop(path)
    return order


def _read_file(loaded: Loaded, path: Path, game: str, kind: str, order: int, problems: Problems,
               added: list[Entry]) -> int:
    yf = read_yaml(path, problems, loaded.parsed)
    loaded.files[path] = yf
    if not yf.ok:
        return order
    if isinstance(yf.data, list):
        items = [((i,), item) for i, item in enumerate(yf.data)]
        if not items:
            problems.error(path, Pos(1, 1), "the file holds an empty list", "add entries or delete the file")
    elif isinstance(yf.data, dict):
        items = [((), yf.data)]
    else:
        problems.error(path, yf.pos(()), "a content file holds one entry (a mapping) or a list of entries",
                       "start the file with `id: ...` (or `- id: ...` for a list)")
        return order
    for base, item in items:
        order += 1
        bad: list[tuple] = []
        valid = schemas.check(yf, kind, item, base, problems, bad)
        if not isinstance(item, dict):
            continue
        if not valid:
            if isinstance(item.get("id"), str):
                loaded.invalid_keys.add(Key(game, kind, item["id"]))
                shadow = _shadow(item, bad, game, kind, path, base, yf.pos(base), order)
                if shadow is not None:
                    loaded.shadows.append(shadow)
            continue
        entry = build_entry(item, game, kind, path, base, yf.pos(base), order)
        existing = loaded.kb.entries.get(entry.key)
        if existing is not None:
            other = loaded.files[existing.file]
            first = other.pos(existing.base + ("id",))
            problems.error(path, yf.pos(base + ("id",)),
                           f"duplicate id '{entry.id}' for {kind} in {game} (first in "
                           f"{problems._rel(existing.file)}:{first.line}:{first.col})",
                           "give one of them another id")
            continue
        loaded.kb.entries[entry.key] = entry
        added.append(entry)
    return order


def _shadow(item: dict, bad: list[tuple], game: str, kind: str, path: Path, base: tuple, pos: Pos,
            order: int) -> Entry | None:
    """The entry without the values its schema errors are in, or None if what is left cannot be built. A
    wrong item drops its whole list (the other items keep their indices, which place their errors); a wrong
    value of a mapping drops that key, or else its whole field."""
    for top_only in (False, True):
        data = dict(item)
        for bad_path in bad:
            keys = []
            for part in bad_path:
                if not isinstance(part, str):
                    break
                keys.append(part)
            if top_only:
                keys = keys[:1]
            if not keys or keys == ["id"]:
                continue  # the entry itself (a required field missing: the builder does without), or its id
            node = data
            for k in keys[:-1]:
                if not isinstance(node.get(k), dict):
                    break
                node[k] = node = dict(node[k])
            else:
                node.pop(keys[-1], None)
        try:
            return build_entry(data, game, kind, path, base, pos, order)
        except (KeyError, TypeError, AttributeError, ValueError, IndexError):
            continue
    return None


def load_extra(loaded: Loaded, folder: Path, game: str, problems: Problems) -> list[Key]:
    """A player's own entries (units for armies kodeks does not ship, and what they need), read from `folder`
    with the same schema and checks: files directly in the folder are units; a subfolder named after a kind
    holds entries of that kind. Returns the keys of the units read."""
    if not folder.is_dir():
        problems.error(folder, Pos(1, 1), "the folder of extra units does not exist", "pass an existing folder to --extra")
        return []
    g = loaded.kb.games.get(game)
    if g is None:
        return []
    order = max((e.order for e in loaded.kb.entries.values()), default=0)
    before = set(loaded.kb.entries)
    paths, complete = files.yaml_files(folder, problems)
    if not complete:
        loaded.unreadable.add((game, None))
    for path in paths:
        rel = path.relative_to(folder)
        kind = rel.parts[0] if len(rel.parts) > 1 else "unit"
        if kind not in schemas.KINDS:
            problems.error(path, Pos(1, 1), f"unknown kind folder '{kind}'{did_you_mean(kind, schemas.KINDS)}",
                           "put units directly in the folder, or other entries in a subfolder named after their kind")
            continue
        order = _load_file(loaded, path, game, kind, order, problems)
    return [k for k in loaded.kb.entries if k not in before and k.kind == "unit"]
