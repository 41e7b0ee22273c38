"""The whole knowledge base as one JSON document (build/kb.json), for other tools.

The shape is documented in README.md ("kb.json"). Texts keep their Markdown with `id:` links and also
come as plain text; every reference is resolved to a full `game/kind/id` key.
"""
from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

from . import __version__
from .model.entry import Entry, Use
from .model.game import FieldDef, Game
from .model.kb import KnowledgeBase
from .model.text import BiText
from .model.values import Gap
from .site import urls

FORMAT_VERSION = 1


def _text(bi: BiText | None) -> dict | None:
    if bi is None:
        return None
    return {"pl": bi.pl.source, "en": bi.en.source if bi.en else None}


def _plain(bi: BiText | None) -> dict | None:
    if bi is None:
        return None
    return {"pl": bi.pl.plain(), "en": bi.en.plain() if bi.en else None}


def _value(v):
    if isinstance(v, Gap):
        return {"gap": True, "reason": _text(v.reason)}
    if isinstance(v, BiText):
        return _text(v)
    return v


def _values(d: dict) -> dict:
    return {k: _value(v) for k, v in d.items()}


def _use(u: Use | None) -> dict | None:
    if u is None:
        return None
    out = {"ref": str(u.key)}
    if u.level is not None:
        out["level"] = u.level
    if u.count is not None:
        out["count"] = u.count
    if u.note is not None:
        out["note"] = _text(u.note)
    return out


def _field(f: FieldDef) -> dict:
    out = {"key": f.key, "name": _text(f.name), "abbr": _text(f.abbr), "type": f.type}
    for name in ("min", "max", "pattern", "unit"):
        if getattr(f, name) not in (None, ""):
            out[name] = getattr(f, name)
    if f.enum:
        out["enum"] = f.enum
    if f.dash:
        out["dash"] = True
    if f.signed:
        out["signed"] = True
    return out


def game_json(g: Game) -> dict:
    return {
        "id": g.id, "name": _text(g.name), "summary": _text(g.summary), "edition": _text(g.edition),
        "publisher": _text(g.publisher), "authors": g.authors, "trademarks": _text(g.trademarks),
        "books": [{"id": b.id, "title": _text(b.title), "source_file": b.source_file} for b in g.books],
        "dice": [{"id": d.id, "name": _text(d.name), "sides": d.sides, "text": _text(d.text)} for d in g.dice],
        "stat_line": [_field(f) for f in g.stat_line],
        "part_line": {"name": _text(g.part_line.name), "fields": [_field(f) for f in g.part_line.fields]}
        if g.part_line else None,
        "weapon_profile": [_field(f) for f in g.weapon_profile],
        "kinds": {k: {"name": _text(c.name), "categories": [{"id": cat.id, "name": _text(cat.name)} for cat in c.categories],
                      "fields": [_field(f) for f in c.fields]} for k, c in g.kinds.items()},
    }


def entry_json(kb: KnowledgeBase, e: Entry) -> dict:
    links = []
    for _, text in e.texts():
        for _, rich in text.items():
            for link in rich.links:
                if link.key is not None and str(link.key) not in links:
                    links.append(str(link.key))
    out = {
        "key": str(e.key), "game": e.game, "kind": e.kind, "id": e.id,
        "url": {lang: urls.site_url(e.key, kb, lang) for lang in ("pl", "en")},
        "name": _text(e.name), "summary": _text(e.summary), "text": _text(e.text), "text_plain": _plain(e.text),
        "category": e.category, "number": e.number, "parent": _use(e.parent)["ref"] if e.parent else None,
        "values": _values(e.values), "levels": [{"level": lv.level, "name": _text(lv.name), "text": _text(lv.text),
                                                 "values": _values(lv.values)} for lv in e.levels],
        "stats": _values(e.stats), "parts": [{"name": _text(p.name), "stats": _values(p.stats)} for p in e.parts],
        "profiles": [{"name": _text(p.name), "values": _values(p.values), "traits": [_use(u) for u in p.traits],
                      "cost": _value(p.cost), "text": _text(p.text)} for p in e.profiles],
        "traits": [_use(u) for u in e.traits], "faction": _use(e.faction)["ref"] if e.faction else None,
        "type": _text(e.unit_type), "weapons": [_use(u) for u in e.weapons], "skills": [_use(u) for u in e.skills],
        "equipment": [_use(u) for u in e.equipment],
        "options": [{"text": _text(o.text), "cost": _value(o.cost)} for o in e.options],
        "tables": [{"id": t.id, "caption": _text(t.caption), "columns": [_value(c) for c in t.columns],
                    "rows": [[_value(c) for c in row] for row in t.rows], "notes": _text(t.notes)} for t in e.tables],
        "term": {"forms": e.forms, "synonyms": e.synonyms, "abbreviations": e.abbreviations,
                 "target": _use(e.target)["ref"] if e.target else None} if e.kind == "term" else None,
        "aliases": e.aliases, "notes": [{"type": n.type, "text": _text(n.text), "lines": n.lines} for n in e.notes],
        "gaps": [_text(g) for g in e.gaps],
        "sources": [{"book": c.book, "section": c.section, "page": c.page, "lines": c.lines} for c in e.sources],
        "see_also": [_use(u)["ref"] for u in e.see_also], "redirects": e.redirects,
        "links": links,
        "used_by": [{"key": str(src.key), "kind": kind, "how": how}
                    for kind, items in kb.used_by(e.key).items() for src, how in items],
    }
    return out


def export(kb: KnowledgeBase) -> dict:
    return {
        "format": "kodeks-kb", "format_version": FORMAT_VERSION, "kodeks_version": __version__,
        "generated": datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
        "games": [game_json(g) for g in kb.games.values()],
        "entries": [entry_json(kb, e) for e in sorted(kb.entries.values(), key=lambda e: (e.game, e.order))],
    }


def write(kb: KnowledgeBase, path: Path) -> int:
    """Write kb.json atomically; returns the number of entries."""
    data = export(kb)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a half-written file (a full disk) is left nowhere
        raise
    return len(data["entries"])
