"""Figures about the knowledge base: entries per game and kind, English coverage, gaps, rulings."""
from __future__ import annotations

from rich.table import Table

from .model.entry import Entry
from .model.kb import KnowledgeBase
from .model.values import Gap


def _gap_count(entry: Entry) -> int:
    n = len(entry.gaps)
    groups = [entry.values, entry.stats] + [lv.values for lv in entry.levels] + [p.values for p in entry.profiles]
    groups += [p.stats for p in entry.parts]
    for values in groups:
        n += sum(isinstance(v, Gap) for v in values.values())
    for table in entry.tables:
        n += sum(isinstance(c, Gap) for row in table.rows for c in row)
    return n


def _texts(entry: Entry) -> tuple[int, int]:
    """(texts, of which translated to English)."""
    total = translated = 0
    for _, text in entry.texts():
        total += 1
        translated += text.has("en")
    return total, translated


def compute(kb: KnowledgeBase, only_game: str | None = None) -> dict:
    games = {}
    for gid in kb.games:
        if only_game and gid != only_game:
            continue
        kinds = {}
        for kind in kb.kinds_of(gid):
            entries = kb.of(gid, kind)
            total = translated = gaps = complete = rulings = 0
            for e in entries:
                rulings += sum(n.type == "ruling" for n in e.notes)
                t, tr = _texts(e)
                total += t
                translated += tr
                gaps += _gap_count(e)
                complete += t == tr
            kinds[kind] = {"entries": len(entries), "texts": total, "texts_en": translated,
                           "en_percent": round(100 * translated / total, 1) if total else 100.0,
                           "entries_fully_en": complete, "gaps": gaps, "rulings": rulings}
        n = sum(k["entries"] for k in kinds.values())
        t = sum(k["texts"] for k in kinds.values())
        tr = sum(k["texts_en"] for k in kinds.values())
        games[gid] = {"kinds": kinds, "entries": n, "texts": t, "texts_en": tr,
                      "en_percent": round(100 * tr / t, 1) if t else 100.0,
                      "gaps": sum(k["gaps"] for k in kinds.values()),
                      "rulings": sum(k["rulings"] for k in kinds.values())}
    return {"games": games, "entries": sum(g["entries"] for g in games.values()),
            "rulings": sum(g["rulings"] for g in games.values())}


def render_table(figures: dict) -> Table:
    table = Table(title="kodeks content", show_lines=False)
    for col in ("game", "kind", "entries", "English", "untranslated texts", "gaps", "rulings"):
        table.add_column(col, justify="right" if col not in ("game", "kind") else "left")
    for gid, g in figures["games"].items():
        for kind, k in g["kinds"].items():
            table.add_row(gid, kind, str(k["entries"]), f"{k['en_percent']:.1f}%", str(k["texts"] - k["texts_en"]),
                          str(k["gaps"]), str(k["rulings"]))
        table.add_row(f"[bold]{gid}[/bold]", "[bold]all[/bold]", f"[bold]{g['entries']}[/bold]",
                      f"[bold]{g['en_percent']:.1f}%[/bold]", f"[bold]{g['texts'] - g['texts_en']}[/bold]",
                      f"[bold]{g['gaps']}[/bold]", f"[bold]{g['rulings']}[/bold]", end_section=True)
    table.add_row("[bold]total[/bold]", "", f"[bold]{figures['entries']}[/bold]", "", "", "",
                  f"[bold]{figures['rulings']}[/bold]")
    return table
