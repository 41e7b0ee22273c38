"""The sections of an entry page, each a Markdown fragment (templates arrange them)."""
from __future__ import annotations

from ..model.entry import Entry, Table
from ..model.values import Gap
from . import urls
from .rawhtml import raw
from .render import Page, attr, esc_md, game_of


def _gap_legend(page: Page) -> str:
    return f'<p class="kodeks-legend">{page.w("gap_legend")}</p>'


def stats(page: Page, entry: Entry) -> str:
    game = game_of(page.kb, entry)
    out = []
    if entry.stats:
        out.append(f'<div class="kodeks-stats" markdown>\n\n{page.fields_table(game.stat_line, [("", entry.stats)])}\n\n</div>')
    if entry.parts and game.part_line:
        rows = [(page.cell_text(p.name), p.stats) for p in entry.parts]
        out.append(f"**{esc_md(page.plain(game.part_line.name))}**\n\n"
                   + page.fields_table(game.part_line.fields, rows, first=page.w("name")))
    if entry.profiles:
        rows = []
        for prof in entry.profiles:
            label = page.cell_text(prof.name) if prof.name else page.cell_text(entry.name)
            vals = dict(prof.values)
            rows.append((label, vals))
        table = page.fields_table(game.weapon_profile, rows, first=page.w("profile"))
        extra = []
        for prof in entry.profiles:
            bits = []
            if prof.traits:
                bits.append(", ".join(page.use(u) for u in prof.traits))
            if prof.cost is not None:
                bits.append(f"{page.w('cost')}: {page.value(prof.cost)}")
            if prof.text:
                bits.append(page.text(prof.text, inline=True))
            if bits and len(entry.profiles) > 1:
                extra.append(f"- *{esc_md(page.plain(prof.name) or page.plain(entry.name))}*: " + "; ".join(bits))
            elif bits:
                extra.append("- " + "; ".join(bits))
        out.append(table + ("\n\n" + "\n".join(extra) if extra else ""))
        if entry.traits:
            out.append(f"**{page.w('traits')}:** " + ", ".join(page.use(u) for u in entry.traits))
    if entry.values:
        out.append(values_table(page, entry))
    if entry.levels:
        out.append(levels(page, entry))
    groups = [entry.stats, entry.values] + [p.values for p in entry.profiles] + [p.stats for p in entry.parts] \
        + [lv.values for lv in entry.levels]
    if page.has_gap(*groups):
        out.append(_gap_legend(page))
    return "\n\n".join(o for o in out if o)


def values_table(page: Page, entry: Entry) -> str:
    kconf = game_of(page.kb, entry).kinds.get(entry.kind)
    fields = kconf.fields if kconf else []
    rows = []
    for f in fields:
        if f.key in entry.values:
            rows.append(f"| {esc_md(page.plain(f.name))} | {page.value(entry.values[f.key], f)} |")
    if not rows:
        return ""
    return f'<div class="kodeks-values" markdown>\n\n| {page.w("values")} | |\n|:--|:--|\n' + "\n".join(rows) + "\n\n</div>"


def levels(page: Page, entry: Entry) -> str:
    """An entry's levels. Short texts sit in a table beside the level's values; a level whose text runs to
    paragraphs or lists gets a section of its own (a table cell would flatten it into one run of text)."""
    kconf = game_of(page.kb, entry).kinds.get(entry.kind)
    fields = [f for f in (kconf.fields if kconf else []) if any(f.key in lv.values for lv in entry.levels)]
    long_text = any(lv.text and any("\n" in rich.source for _, rich in lv.text.items()) for lv in entry.levels)
    has_text = not long_text and any(lv.text or lv.name for lv in entry.levels)
    out = [f"## {page.w('levels')} {{: #levels }}"]
    if fields or has_text or not long_text:
        head = [page.w("level")] + [page.field_label(f) for f in fields]
        if has_text:
            head.append(page.w("summary"))
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":-:"] * (len(head) - has_text) + [":--"] * has_text) + "|"]
        for lv in entry.levels:
            cells = [f"**{esc_md(lv.level)}**"] + [page.value(lv.values.get(f.key), f) for f in fields]
            if has_text:
                name = f"*{page.cell_text(lv.name)}* " if lv.name else ""
                cells.append(name + (page.cell_text(lv.text, autolink=True) if lv.text else ""))
            lines.append("| " + " | ".join(cells) + " |")
        out.append("\n".join(lines))
    if long_text:
        for lv in entry.levels:
            if not (lv.text or lv.name):
                continue
            name = f" — {page.text(lv.name, inline=True)}" if lv.name else ""
            out.append(f"### {page.w('level')} {esc_md(lv.level)}{name}")
            if lv.text:
                out.append(page.text(lv.text, autolink=True, top=4))
    return "\n\n".join(out)


def table(page: Page, tab: Table, level: int = 2) -> str:
    """A table with its caption as a heading one level below the page's (h2 under the entry's h1)."""
    def cell(c) -> str:
        if isinstance(c, Gap):
            return page.value(c)
        if c is None:
            return ""
        if hasattr(c, "get") and hasattr(c, "pl"):
            return page.cell_text(c)
        return esc_md(str(c).replace("-", "−") if isinstance(c, (int, float)) and c < 0 else str(c))

    anchor = f" {{#{tab.id}}}" if tab.id else ""
    lines = [f"{'#' * level} {esc_md(page.plain(tab.caption))}{anchor}", "",
             '<div class="kodeks-table" markdown>', "",
             "| " + " | ".join(cell(c) or " " for c in tab.columns) + " |",
             "|" + "|".join([":--"] + [":-:"] * (len(tab.columns) - 1)) + "|"]
    for row in tab.rows:
        cells = [cell(c) for c in row] + [""] * (len(tab.columns) - len(row))
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "</div>"]
    if tab.notes:
        lines += ["", page.text(tab.notes)]
    if any(isinstance(c, Gap) for r in tab.rows for c in r):
        lines += ["", _gap_legend(page)]
    return "\n".join(lines)


def tables(page: Page, entry: Entry) -> str:
    return "\n\n".join(table(page, tab) for tab in entry.tables)


def unit_lists(page: Page, entry: Entry) -> str:
    game = game_of(page.kb, entry)
    out = []
    facts = []
    if entry.faction:
        facts.append(f"**{page.w('faction')}:** {page.use(entry.faction)}")
    if entry.unit_type:
        facts.append(f"**{page.w('type')}:** {page.text(entry.unit_type, inline=True)}")
    if facts:
        out.append("  \n".join(facts))
    if entry.weapons:
        rows = []
        for use in entry.weapons:
            weapon = page.kb.get(use.key)
            if weapon is None:
                continue
            name = page.use(use)
            if use.count:
                name = f"{use.count}× {name}"
            if use.note:
                name += f" ({page.cell_text(use.note)})"
            for i, prof in enumerate(weapon.profiles or []):
                label = name if i == 0 else f"↳ {page.cell_text(prof.name) if prof.name else ''}"
                if i == 0 and prof.name and len(weapon.profiles) > 1:
                    label += f" — {page.cell_text(prof.name)}"
                rows.append((label, prof.values))
            if not weapon.profiles:
                rows.append((name, {}))
        out.append(f"## {page.w('weapons')}\n\n" + (page.fields_table(game.weapon_profile, rows, first=page.w("name"))
                                                      or "\n".join(f"- {r[0]}" for r in rows)))
    for group, title in (("skills", "skills"), ("equipment", "equipment")):
        uses = getattr(entry, group)
        if not uses:
            continue
        lines = [f"## {page.w(title)}", ""]
        for use in uses:
            target = page.kb.get(use.key)
            line = f"- **{page.use(use)}**"
            if use.count:
                line = f"- {use.count}× **{page.use(use)}**"
            if use.note:
                line += f" ({page.text(use.note, inline=True)})"
            if target is not None and target.summary:
                line += f" — {page.text(target.summary, inline=True)}"
            lines.append(line)
        out.append("\n".join(lines[:2] + ['<div class="kodeks-direct" markdown>', ""] + lines[2:] + ["", "</div>"]))
    if entry.options:
        lines = [f"## {page.w('options')}", "", f"| {page.w('options')} | {page.w('cost')} |", "|:--|:-:|"]
        for opt in entry.options:
            lines.append(f"| {page.cell_text(opt.text, autolink=True)} | {page.value(opt.cost) if opt.cost is not None else ''} |")
        out.append("\n".join(lines))
    return "\n\n".join(out)


def rule_children(page: Page, entry: Entry) -> str:
    kids = page.kb.children(entry) if entry.kind == "rule" else []
    if not kids:
        return ""
    lines = [f"## {page.w('subsections')}", "", '<div class="kodeks-direct" markdown>', ""]
    for kid in kids:
        summ = f" — {page.text(kid.summary, inline=True)}" if kid.summary else ""
        lines.append(f"- {page.link(kid)}{summ}")
    lines += ["", "</div>"]
    return "\n".join(lines)


def term_block(page: Page, entry: Entry) -> str:
    if entry.kind != "term":
        return ""
    rows = []
    if entry.target is not None:
        rows.append(f"**{page.w('refers_to')}:** {page.use(entry.target)}")
    forms = entry.forms.get(page.lang) or []
    if forms:
        rows.append(f"**{page.w('forms')}:** " + ", ".join(esc_md(f) for f in forms))
    syn = entry.synonyms.get(page.lang) or []
    if syn:
        rows.append(f"**{page.w('synonyms')}:** " + ", ".join(esc_md(s) for s in syn))
    if entry.abbreviations:
        rows.append(f"**{page.w('abbreviations')}:** " + ", ".join(esc_md(a) for a in entry.abbreviations))
    return "  \n".join(rows)


def rulings(page: Page, entry: Entry) -> str:
    """Rulings apart from the rule: what the book does not say outright and the reading kodeks takes, each
    with the source lines it rests on, in a box of its own right after the entry's text and tables."""
    found = [n for n in entry.notes if n.type == "ruling"]
    if not found:
        return ""
    out = [f"## {page.w('rulings')} {{: #rulings }}"]
    for note in found:
        body = page.text(note.text, autolink=True)
        if note.lines:
            body += f"\n\n*{page.w('ruling_basis')}: {page.w('lines')} {esc_md(note.lines)}.*"
        out.append(f'!!! kodeks-ruling "{page.w("ruling_title")}"\n    ' + body.replace("\n", "\n    "))
    return "\n\n".join(out)


def ruling_badge(page: Page, entry: Entry) -> str:
    n = sum(note.type == "ruling" for note in entry.notes)
    if not n:
        return ""
    return (f' <a class="kodeks-badge kodeks-badge--ruling" href="#rulings" title="{attr(page.w("ruling_preview"))}">'
            f'⚖ {page.w("ruling_badge")}{f" ×{n}" if n > 1 else ""}</a>')


def notes(page: Page, entry: Entry) -> str:
    others = [n for n in entry.notes if n.type != "ruling"]
    if not others:
        return ""
    kinds = page.w("note_types")
    out = [f"## {page.w('notes')}"]
    for note in others:
        body = page.text(note.text, autolink=True).replace("\n", "\n    ")
        style = {"contradiction": "warning", "errata": "danger", "cost-check": "info", "gap": "question",
                 "source-defect": "note", "ruling": "tip", "translation": "abstract", "design": "note"}[note.type]
        out.append(f'!!! {style} "{kinds[note.type]}"\n    {body}')
    return "\n\n".join(out)


def gaps(page: Page, entry: Entry) -> str:
    if not entry.gaps:
        return ""
    lines = [f"## {page.w('gaps')}", ""]
    for gap in entry.gaps:
        lines.append(f"- {page.text(gap, inline=True, autolink=True)}")
    return "\n".join(lines)


def source(page: Page, entry: Entry) -> str:
    game = game_of(page.kb, entry)
    items = []
    for cit in entry.sources:
        book = game.book(cit.book)
        title = page.plain(book.title) if book else cit.book
        bits = [f"*{esc_md(title)}*", esc_md(cit.section)]
        if cit.page:
            bits.append(f"{page.w('page')} {esc_md(str(cit.page))}")
        if cit.lines:
            bits.append(f'<span class="kodeks-lines" title="{attr(page.w("lines"))}">{page.w("lines")} {esc_md(cit.lines)}</span>')
        items.append("- " + ", ".join(bits))
    return f'<div class="kodeks-source" markdown>\n\n**{page.w("source")}**\n\n' + "\n".join(items) + "\n\n</div>"


def used_by(page: Page, entry: Entry) -> str:
    groups = page.kb.used_by(entry.key)
    if not groups:
        return ""
    kinds = page.w("kinds")
    lines = [f"## {page.w('used_by')}", ""]
    for kind, items in groups.items():
        links = []
        for src, how in items:
            mark = "" if how == "link" else f' <span class="kodeks-how">({page.w("carried_by") if kind == "unit" else how})</span>'
            links.append(page.link(src) + (mark if kind == "unit" and how != "link" else ""))
        lines.append(f"- **{kinds.get(kind, kind)}**: " + ", ".join(links))
    return "\n".join(lines)


def see_also(page: Page, entry: Entry) -> str:
    if not entry.see_also:
        return ""
    return f"**{page.w('see_also')}:** " + ", ".join(page.use(u) for u in entry.see_also)


def breadcrumbs(page: Page, entry: Entry) -> str:
    game = game_of(page.kb, entry)
    kconf = game.kinds.get(entry.kind)
    kind_name = page.plain(kconf.name) if kconf and kconf.name else page.w("kinds")[entry.kind]
    parts = [f"[{esc_md(page.plain(game.name))}]({page.to(urls.game_index(entry.game))})",
             f"[{esc_md(kind_name)}]({page.to(urls.kind_index(entry.game, entry.kind))})"]
    if entry.category and kconf and kconf.category(entry.category):
        cat = kconf.category(entry.category)
        parts.append(f"[{esc_md(page.plain(cat.name))}]({page.to(urls.kind_index(entry.game, entry.kind), entry.category)})")
    for anc in page.kb.ancestors(entry):
        parts.append(page.link(anc))
    return '<nav class="kodeks-crumbs" markdown>' + " › ".join(parts) + "</nav>"


def card(page: Page, entry: Entry) -> str:
    """The unit's card, as it prints (the browser sizes it to fit; see assets/kodeks-cards.js)."""
    if entry.kind != "unit":
        return ""
    from ..cards import content as card_content
    from ..cards import render as card_render
    env = page.kb.__dict__.setdefault("_card_env", card_render.env())
    html = card_render.card_html(env, card_content.card(page.kb, entry, page.lang), page.lang, "poker")
    return raw('<div class="kodeks-card-preview">' + " ".join(html.split()) + "</div>")


def odds(page: Page, entry: Entry) -> str:
    """A unit's or weapon's chances panel, in a game that declares its dice (site/odds_pages.py)."""
    from .odds_pages import panel
    return panel(page, entry)


ALL = ("breadcrumbs", "card", "stats", "odds", "unit_lists", "tables", "rule_children", "term_block", "rulings", "ruling_badge",
       "notes", "gaps", "source", "used_by", "see_also")


def render_all(page: Page, entry: Entry) -> dict[str, str]:
    g = globals()
    return {name: g[name](page, entry) for name in ALL}
