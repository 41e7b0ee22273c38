"""Every page of one language, as Markdown, plus the navigation (game -> kind -> entry)."""
from __future__ import annotations

from collections import defaultdict
from functools import partial
from pathlib import Path
from typing import Callable

import jinja2

from ..model.entry import Entry
from ..model.ids import Key
from ..model.kb import KnowledgeBase
from ..textfold import fold
from . import odds_pages, sections, urls
from .rawhtml import raw
from .escape import attr, front_matter, md_text, title as theme_text
from .render import Page, esc_cell, esc_md


def templates(extra: Path | None = None) -> jinja2.Environment:
    """Project templates, overridable by files of the same name in `extra` (mkdocstrings-style)."""
    loaders = []
    if extra is not None:
        loaders.append(jinja2.FileSystemLoader(str(extra)))
    loaders.append(jinja2.PackageLoader("kodeks", "templates"))
    return jinja2.Environment(loader=jinja2.ChoiceLoader(loaders), autoescape=False, keep_trailing_newline=True,
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
                              auto_reload=False)  # an environment serves one build; no stat per page


def _kind_name(kb: KnowledgeBase, page: Page, game: str, kind: str) -> str:
    conf = kb.games[game].kinds.get(kind)
    return page.plain(conf.name) if conf and conf.name else page.w("kinds")[kind]


def entry_page(env: jinja2.Environment, kb: KnowledgeBase, entry: Entry, lang: str) -> str:
    path = urls.entry_path(entry)
    page = Page(kb, lang, path, entry)
    game = kb.games[entry.game]
    kconf = game.kinds.get(entry.kind)
    cat = kconf.category(entry.category) if kconf and entry.category else None
    title = entry.title(lang)
    desc = page.plain(entry.summary) if entry.summary else f"{title} — {page.plain(game.name)}"
    return env.get_template("entry.md.j2").render(
        entry=entry, page=page, s=sections.render_all(page, entry),
        front_matter=front_matter(title=f"{title} – {page.plain(game.name)}", description=desc),
        heading=esc_md(title), anchor=entry.id,
        kind_label=page.w("kind_one")[entry.kind], category=esc_md(page.plain(cat.name)) if cat else "")


def _summary_cell(page: Page, entry: Entry) -> str:
    if entry.summary:
        return page.cell_text(entry.summary)
    if entry.text:
        first = page.text(entry.text, inline=True).strip().split("\n\n")[0]
        return esc_cell(first if len(first) < 300 else first[:297].rsplit(" ", 1)[0] + "…")
    return ""


def _entry_rows(page: Page, entries: list[Entry], kind: str) -> str:
    kb = page.kb
    if not entries:
        return ""
    game = kb.games[entries[0].game]
    kconf = game.kinds.get(kind)
    if kind == "weapon":
        rows = []
        for e in entries:
            for i, prof in enumerate(e.profiles or []):
                label = page.link(e) if i == 0 else f"↳ {page.cell_text(prof.name) if prof.name else ''}"
                if i == 0 and prof.name and len(e.profiles) > 1:
                    label += f" — {page.cell_text(prof.name)}"
                vals = dict(prof.values)
                rows.append((label, vals, e if i == 0 else None, prof))
        fields = [f for f in game.weapon_profile if any(f.key in r[1] for r in rows)]
        cost_f = kconf.field("cost") if kconf else None
        head = [page.w("name")] + [page.field_label(f) for f in fields] + [page.w("traits"), page.w("cost")]
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":--"] + [":-:"] * (len(head) - 1)) + "|"]
        for label, vals, e, prof in rows:
            traits = ", ".join(page.use(u) for u in ((e.traits if e else []) + prof.traits))
            cost = page.value(prof.cost) if prof.cost is not None else (
                page.value(e.values.get("cost"), cost_f) if e is not None and "cost" in e.values else "")
            lines.append("| " + " | ".join([label] + [page.value(vals.get(f.key), f) for f in fields]
                                           + [traits, cost]) + " |")
        return "\n".join(lines)
    if kind == "unit":
        fields = [f for f in game.stat_line if any(f.key in e.stats for e in entries)]
        vfields = [f for f in (kconf.fields if kconf else []) if f.key in ("cost", "models", "count")
                   and any(f.key in e.values for e in entries)]
        head = [page.w("name"), page.w("type")] + [page.field_label(f) for f in fields] + \
               [page.field_label(f) for f in vfields]
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":--", ":--"] + [":-:"] * (len(head) - 2)) + "|"]
        for e in entries:
            lines.append("| " + " | ".join([page.link(e), page.cell_text(e.unit_type)] +
                                           [page.value(e.stats.get(f.key), f) for f in fields] +
                                           [page.value(e.values.get(f.key), f) for f in vfields]) + " |")
        return "\n".join(lines)
    # Other kinds: name, summary, and the structured values the entries carry.
    vfields = [f for f in (kconf.fields if kconf else []) if any(f.key in e.values for e in entries)][:4]
    head = [page.w("name"), page.w("summary")] + [page.field_label(f) for f in vfields]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":--", ":--"] + [":-:"] * len(vfields)) + "|"]
    for e in entries:
        lines.append("| " + " | ".join([page.link(e), _summary_cell(page, e)] +
                                       [page.value(e.values.get(f.key), f) for f in vfields]) + " |")
    return "\n".join(lines)


def row_refers(entry: Entry) -> set[Key]:
    """The entries whose links or names an entry's row on its kind's index page shows: links in its summary
    and text (a row shows the summary or the text's first paragraph), its type and profile names, and a
    weapon's traits."""
    keys = {use.key for use in entry.traits}
    keys |= {use.key for prof in entry.profiles for use in prof.traits}
    texts = [entry.summary, entry.text, entry.unit_type] + [prof.name for prof in entry.profiles]
    for bi in texts:
        if bi is not None:
            for _, rich in bi.items():
                keys.update(link.key for link in rich.links if link.key is not None)
    return keys


def _sortable(md_table: str) -> str:
    return f'<div class="kodeks-sortable" markdown>\n\n{md_table}\n\n</div>' if md_table else ""


def kind_page(env, kb: KnowledgeBase, game: str, kind: str, lang: str) -> str:
    path = urls.kind_index(game, kind)
    page = Page(kb, lang, path)
    g = kb.games[game]
    kconf = g.kinds.get(kind)
    entries = kb.of(game, kind)
    body = []
    if kind == "rule":
        lines = []
        for e in entries:
            indent = "    " * kb.depth(e)
            summ = f" — {page.text(e.summary, inline=True)}" if e.summary else ""
            lines.append(f"{indent}- {page.link(e)}{summ}")
        body.append("\n".join(lines))
    elif kind == "term":
        by_letter: dict[str, list[Entry]] = defaultdict(list)
        for e in sorted(entries, key=lambda e: fold(e.name.plain(lang))):
            by_letter[(e.name.plain(lang)[:1] or "?").upper()].append(e)
        letters = sorted(by_letter, key=fold)
        body.append(" · ".join(f"[{esc_md(L)}](#{_letter_anchor(L)})" for L in letters))
        for L in letters:
            body.append(f"## {esc_md(L)} {{: #{_letter_anchor(L)} }}")
            items = []
            for e in by_letter[L]:
                definition = page.text(e.text, inline=True).split("\n\n")[0] if e.text else _summary_cell(page, e)
                abbr = f" ({', '.join(esc_md(a) for a in e.abbreviations)})" if e.abbreviations else ""
                items.append(f"{page.link(e)}{abbr}\n:   {definition}")
            body.append("\n\n".join(items))
    else:
        cats = kconf.categories if kconf else []
        placed = set()
        for cat in cats:
            members = [e for e in entries if e.category == cat.id]
            if not members:
                continue
            placed.update(e.key for e in members)
            body.append(f"## {esc_md(page.plain(cat.name))} {{: #{cat.id} }}")
            if cat.summary:
                body.append(page.text(cat.summary))
            body.append(_sortable(_entry_rows(page, members, kind)))
        rest = [e for e in entries if e.key not in placed]
        if rest:
            if placed:
                body.append(f"## {page.w('other')}")
            body.append(_sortable(_entry_rows(page, rest, kind)))
    if not entries:
        body.append("*—*")
    title = _kind_name(kb, page, game, kind)
    return env.get_template("kind.md.j2").render(
        page=page, front_matter=front_matter(title=title), heading=esc_md(title),
        game_name=esc_md(page.plain(g.name)), game_path=urls.game_index(game),
        summary=page.text(kconf.summary) if kconf and kconf.summary else "", body="\n\n".join(body))


def _letter_anchor(letter: str) -> str:
    # One id per letter: Z and Ż fold alike, so a letter outside ASCII is named by its code point.
    if letter.isascii() and letter.isalnum():
        return "letter-" + letter.lower()
    return f"letter-u{ord(letter[:1] or '?'):04x}"


def game_page(env, kb: KnowledgeBase, game: str, lang: str) -> str:
    path = urls.game_index(game)
    page = Page(kb, lang, path)
    g = kb.games[game]
    body = [_shortcuts(page, g)]
    facts = [f"**{page.w('edition')}:** {page.text(g.edition, inline=True)}",
             f"**{page.w('publisher')}:** {page.text(g.publisher, inline=True)}"]
    if g.authors:
        facts.append(f"**{page.w('authors')}:** " + ", ".join(esc_md(a) for a in g.authors))
    facts.append(f"**{page.w('books')}:** " + "; ".join(page.text(b.title, inline=True) for b in g.books))
    body.append("  \n".join(facts))
    offline = {"pl": ("Zapisz tę grę do użytku offline", "Zapisano"), "en": ("Save this game for offline use", "Saved")}[lang]
    body.append(f'<p><button type="button" class="md-button" data-kodeks-offline="{game}" data-done="{offline[1]}">'
                f"{offline[0]}</button></p>")
    kinds = kb.kinds_of(game)
    lines = [f"## {page.w('entries')}", "", f"| | {page.w('count')} |", "|:--|--:|"]
    for kind in kinds:
        n = len(kb.of(game, kind))
        lines.append(f"| [{esc_md(_kind_name(kb, page, game, kind))}]({page.to(urls.kind_index(game, kind))}) | {n} |")
    body.append("\n".join(lines))
    if g.dice:
        lines = [f"## {page.w('dice')}", ""]
        for d in g.dice:
            lines.append(f"- **{page.text(d.name, inline=True)}**" + (f" — {page.text(d.text, inline=True)}" if d.text else ""))
        body.append("\n".join(lines))
    for title, fields in ((page.w("stat_line"), g.stat_line), (page.w("weapon_profile"), g.weapon_profile),
                          (page.plain(g.part_line.name) if g.part_line else "", g.part_line.fields if g.part_line else [])):
        if not fields:
            continue
        lines = [f"## {esc_md(title)}", "", f"| {page.w('abbr')} | {page.w('name')} | {page.w('meaning')} |", "|:--|:--|:--|"]
        for f in fields:
            lines.append(f"| **{esc_md(f.label(lang))}** | {page.cell_text(f.name)} | {page.cell_text(f.description)} |")
        body.append("\n".join(lines))
    for note in g.notes:
        body.append(f"!!! note\n    {page.text(note.text)}")
    notice = page.w("notice") + (" " + page.plain(g.trademarks) if g.trademarks else "")
    body.append(f'<p class="kodeks-notice">{esc_md(notice)}</p>')
    return env.get_template("game.md.j2").render(page=page, front_matter=front_matter(title=page.plain(g.name)),
                                                   heading=esc_md(page.plain(g.name)),
                                                   summary=page.text(g.summary) if g.summary else "", body="\n\n".join(body))


def _shortcuts(page: Page, g) -> str:
    """One tap from a game's home to what a player opens most: its quick reference, then game.yaml's
    `shortcuts` (turn sequence, tests, shooting, close combat...), then its odds calculator, if it has dice."""
    links = []
    if g.quick_reference:
        links.append(f'<a class="md-button md-button--primary" href="{urls.html_path(page.to(quick_path(g.id)))}">'
                     f'{QUICK_WORDS[page.lang]["title"]}</a>')
    for key in g.shortcuts:
        entry = page.kb.get(key)
        if entry is not None:
            links.append(f'<a class="md-button" href="{urls.html_path(page.href(entry))}">{md_text(entry.title(page.lang))}</a>')
    if odds_pages.has_odds(page.kb, g.id):
        links.append(f'<a class="md-button md-button--primary" href="{urls.html_path(page.to(odds_pages.odds_path(g.id)))}">'
                     f'{odds_pages.WORDS[page.lang]["title"]}</a>')
    if not links:
        return ""
    return f'<nav class="kodeks-shortcuts" aria-label="{attr(page.w("shortcuts"))}">' + "".join(links) + "</nav>"


def home_page(env, kb: KnowledgeBase, lang: str) -> str:
    page = Page(kb, lang, "index.md")
    intro = {"pl": "Dwujęzyczna (polsko-angielska) baza zasad gier bitewnych: zasady, umiejętności, broń, "
                   "jednostki i słowniczek, powiązane odnośnikami.",
             "en": "A bilingual (Polish/English) rules reference for tabletop wargames: rules, skills, weapons, "
                   "units and glossary, all cross-linked."}[lang]
    cards = ['<div class="grid cards" markdown>', ""]
    for gid, g in sorted(kb.games.items(), key=lambda kv: kv[1].name.plain(lang)):
        n = len(kb.of(gid))
        summary = page.plain(g.summary).split(". ")[0] + "." if g.summary else ""
        cards.append(f"-   **[{esc_md(page.plain(g.name))}]({page.to(urls.game_index(gid))})**\n\n    ---\n\n"
                     f"    {esc_md(summary)}\n\n    *{esc_md(page.plain(g.edition))}* · {n} {page.w('entries').lower()}\n")
    cards.append("</div>")
    body = "\n".join(cards) + f'\n\n<p class="kodeks-notice">{esc_md(page.w("notice"))}</p>'
    return env.get_template("home.md.j2").render(page=page, intro=intro, body=body)


PRINT_WORDS = {
    "pl": {"title": "Karty jednostek", "size": "Rozmiar", "paper": "Papier", "print": "Drukuj", "pdf": "PDF",
           "roster": "Rozpiska", "roster_help": "Wpisz liczby przy jednostkach albo wklej rozpiskę (id:liczba, …); "
           "puste pole drukuje wszystkie karty po jednej. Adres strony zapamiętuje wybór.",
           "clear": "Wyczyść", "unit": "Jednostka", "count": "Liczba", "all_factions": "Wszystkie",
           "sizes": {"poker": "pokerowa 63×88 mm", "tarot": "tarot 70×120 mm", "a6": "A6 105×148 mm"}},
    "en": {"title": "Unit cards", "size": "Size", "paper": "Paper", "print": "Print", "pdf": "PDF",
           "roster": "Roster", "roster_help": "Enter counts next to the units or paste a roster (id:count, …); an "
           "empty roster prints every card once. The page address keeps your choice.",
           "clear": "Clear", "unit": "Unit", "count": "Count", "all_factions": "All",
           "sizes": {"poker": "poker 63×88 mm", "tarot": "tarot 70×120 mm", "a6": "A6 105×148 mm"}},
}


QUICK_WORDS = {"pl": {"title": "Ściąga", "print": "Drukuj"}, "en": {"title": "Quick reference", "print": "Print"}}


def quick_path(game: str) -> str:
    return f"{game}/quick.md"


def quick_page(kb: KnowledgeBase, game: str, lang: str) -> str:
    """One printable page of the tables players look up most (game.yaml `quick_reference`)."""
    page = Page(kb, lang, quick_path(game))
    g = kb.games[game]
    title = f"{QUICK_WORDS[lang]['title']} – {g.name.plain(lang)}"
    blocks = []
    for key, wanted in g.quick_reference:
        entry = kb.get(key)
        if entry is None:
            continue
        tables = [t for i, t in enumerate(entry.tables, 1) if not wanted or i in wanted or t.id in wanted]
        body = "\n\n".join(sections.table(page, t, 3) for t in tables)
        blocks.append(f'<section class="kodeks-quick__item" markdown>\n\n## {page.link(entry)}\n\n{body}\n\n</section>')
    return (front_matter(title=title, hide=["toc"]) + "\n"
            f'<nav class="kodeks-crumbs" markdown>[{esc_md(g.name.plain(lang))}]({page.to(urls.game_index(game))})</nav>\n\n'
            f"# {esc_md(title)}\n\n"
            f'<p class="kodeks-print-controls"><button type="button" class="md-button" data-print>'
            f"{QUICK_WORDS[lang]['print']}</button></p>\n\n"
            f'<div class="kodeks-quick" markdown>\n\n' + "\n\n".join(blocks) + "\n\n</div>\n")


def cards_path(game: str, faction: str | None = None) -> str:
    return f"{game}/cards/{faction or 'index'}.md"


def pdf_name(faction: str | None = None) -> str:
    return f"cards-{faction}.pdf" if faction else "cards.pdf"


def print_page(kb: KnowledgeBase, game: str, lang: str, faction: str | None = None) -> str:
    """A print page: the cards of a game (or a faction) laid out on sheets, a roster, and the rules they use."""
    from ..cards import content as card_content
    from ..cards import render as card_render
    w = PRINT_WORDS[lang]
    page = Page(kb, lang, cards_path(game, faction))
    g = kb.games[game]
    cards = card_content.cards_for(kb, game, lang, faction=faction)
    env = kb.__dict__.setdefault("_card_env", card_render.env())
    pool = "".join(" ".join(card_render.card_html(env, c, lang, "poker").split()) for c in cards)
    title = w["title"] + " – " + (kb.get(Key(game, "faction", faction)).name.plain(lang) if faction else g.name.plain(lang))
    factions = [f for f in kb.of(game, "faction") if any(u.faction and u.faction.key == f.key for u in kb.of(game, "unit"))]
    links = [f'<a href="{page.to(cards_path(game))[:-3]}.html">{attr(w["all_factions"])}</a>'] + [
        f'<a href="{page.to(cards_path(game, f.id))[:-3]}.html">{attr(f.name.plain(lang))}</a>' for f in factions]
    sizes = "".join(f'<option value="{k}">{attr(v)}</option>' for k, v in w["sizes"].items())
    rows = "".join(f'<tr><td>{attr(c.title)}</td><td><input type="number" min="0" max="99" value="0" '
                   f'data-roster-unit="{c.key.id}" aria-label="{attr(w["count"])}: {attr(c.title)}"></td></tr>'
                   for c in cards)
    rules = " ".join(card_render.rules_html(kb, card_render.rules_used(cards), lang).split())
    rules = rules.replace('<section class="kr">', '<section class="kr kodeks-rules-sheet">', 1)
    controls = (f'<div class="kodeks-print-controls">'
                f'<label>{w["size"]} <select name="size">{sizes}</select></label>'
                f'<label>{w["paper"]} <select name="paper"><option value="a4">A4</option><option value="letter">Letter</option></select></label>'
                f'<button type="button" class="md-button md-button--primary" data-print>{w["print"]}</button>'
                f'<a class="md-button" href="../pdf/{pdf_name(faction).replace(".pdf", "-" + lang + ".pdf")}" download>{w["pdf"]}</a>'
                f'<span class="kodeks-print-factions">{" · ".join(links)}</span>'
                f'<details class="kodeks-roster"><summary>{w["roster"]}</summary><p>{attr(w["roster_help"])}</p>'
                f'<p><input name="roster" type="text" aria-label="{w["roster"]}" placeholder="id:2, id:1"> '
                f'<button type="button" class="md-button" data-roster-clear>{w["clear"]}</button></p>'
                f'<table><thead><tr><th>{w["unit"]}</th><th>{w["count"]}</th></tr></thead><tbody>{rows}</tbody></table>'
                f'</details></div>')
    body = raw(f'<div class="kodeks-print" data-kodeks-print>{controls}'
               f'<div class="kodeks-card-pool" hidden>{pool}</div><div class="kodeks-sheets"></div>'
               f'{rules}</div>')
    return (front_matter(title=title, hide=["toc"]) + "\n"
            f'<nav class="kodeks-crumbs" markdown>[{esc_md(g.name.plain(lang))}]({page.to(urls.game_index(game))})</nav>\n\n'
            f"# {esc_md(title)}\n\n{body}\n")


def all_pages(kb: KnowledgeBase, lang: str, template_dir: Path | None = None, store: Path | None = None,
              fresh: bool = False, extra: dict[str, Callable[[], str]] | None = None) -> dict[str, str]:
    """{docs-relative path: Markdown} for every page of one language. With `store` (a file kodeks keeps),
    a page whose inputs are as when the store was written is taken from it, not rendered (site/pagecache.py);
    with `fresh` too, every page is rendered and the store written anew. `extra`: other files made from the
    model ({name: function}), made or taken from the store alike and returned with the pages."""
    make = {**makers(kb, lang, templates(template_dir)), **(extra or {})}
    if store is None:
        return {path: m() for path, m in make.items()}
    from . import pagecache, record
    cache = pagecache.Store(store, pagecache.key(kb, lang, record.engine(), template_dir), read=not fresh)
    return cache.render(kb, make)[0]


def makers(kb: KnowledgeBase, lang: str, env: jinja2.Environment) -> dict[str, Callable[[], str]]:
    """{docs-relative path: function that renders it} for every page of one language, so that a live
    preview can render only the pages a change touches."""
    out: dict[str, Callable[[], str]] = {"index.md": partial(home_page, env, kb, lang)}
    for gid in kb.games:
        out[urls.game_index(gid)] = partial(game_page, env, kb, gid, lang)
        for kind in kb.kinds_of(gid):
            out[urls.kind_index(gid, kind)] = partial(kind_page, env, kb, gid, kind, lang)
    for entry in kb.entries.values():
        out[urls.entry_path(entry)] = partial(entry_page, env, kb, entry, lang)
    for gid, g in kb.games.items():
        if g.quick_reference:
            out[quick_path(gid)] = partial(quick_page, kb, gid, lang)
        if odds_pages.has_odds(kb, gid):
            out[odds_pages.odds_path(gid)] = partial(odds_pages.page, kb, gid, lang)
        if kb.of(gid, "unit"):
            out[cards_path(gid)] = partial(print_page, kb, gid, lang)
            for faction in card_factions(kb, gid):
                out[cards_path(gid, faction.id)] = partial(print_page, kb, gid, lang, faction.id)
    return out


def card_factions(kb: KnowledgeBase, game: str) -> list:
    return [f for f in kb.of(game, "faction") if any(u.faction and u.faction.key == f.key for u in kb.of(game, "unit"))]


def nav(kb: KnowledgeBase, lang: str) -> list:
    """mkdocs nav: home, then per game its home and its kinds, each with its entries."""
    page = Page(kb, lang, "index.md")
    items: list = [{page.w("home"): "index.md"}]
    for gid, g in sorted(kb.games.items(), key=lambda kv: kv[1].name.plain(lang)):
        sub: list = [urls.game_index(gid)]
        if g.quick_reference:
            sub.append({QUICK_WORDS[lang]["title"]: quick_path(gid)})
        if odds_pages.has_odds(kb, gid):
            sub.append({odds_pages.WORDS[lang]["title"]: odds_pages.odds_path(gid)})
        for kind in kb.kinds_of(gid):
            kind_items: list = [urls.kind_index(gid, kind)] + _kind_nav(kb, gid, kind, lang)
            sub.append({_kind_name(kb, page, gid, kind): kind_items})
        if kb.of(gid, "unit"):
            sub.append({PRINT_WORDS[lang]["title"]: [cards_path(gid)] + [
                {f.name.plain(lang): cards_path(gid, f.id)} for f in card_factions(kb, gid)]})
        items.append({g.name.plain(lang): sub})
    return _theme_titles(items)


def _theme_titles(items: list) -> list:
    """The nav with every title made safe for the theme, which prints titles as HTML."""
    out = []
    for item in items:
        if isinstance(item, dict):
            out.append({theme_text(k): _theme_titles(v) if isinstance(v, list) else v for k, v in item.items()})
        else:
            out.append(item)
    return out


NAV_SECTION = 50  # entries listed in one nav section; longer lists are split


def _kind_nav(kb: KnowledgeBase, gid: str, kind: str, lang: str) -> list:
    """A kind's entries in the nav, in sections of at most NAV_SECTION: rules by chapter, other kinds by
    category, then in runs. Every page carries the open section of the nav, so a flat list of thousands
    of entries would make each page as long as the list, and the build grow with its square."""
    entries = kb.of(gid, kind)
    if len(entries) <= NAV_SECTION:
        return [{e.title(lang): urls.entry_path(e)} for e in entries]
    groups: list[tuple[str, list[Entry]]] = []
    if kind == "rule":
        for e in entries:
            if kb.depth(e) == 0 or not groups:
                groups.append((e.title(lang), [e]))
            else:
                groups[-1][1].append(e)
    else:
        conf = kb.games[gid].kinds.get(kind)
        names = {c.id: c.name.plain(lang) for c in conf.categories} if conf else {}
        for e in entries:
            label = names.get(e.category or "", "")
            if groups and groups[-1][0] == label:
                groups[-1][1].append(e)
            else:
                groups.append((label, [e]))
        if len(groups) == 1 or any(not label for label, _ in groups):
            # One long list (a glossary): runs in alphabetical order, so "A – D" means what it says.
            groups = [("", sorted(entries, key=lambda e: fold(e.title(lang))))]
    out: list = []
    for label, members in groups:
        items = [{e.title(lang): urls.entry_path(e)} for e in members]
        if len(groups) == 1 or len(members) > NAV_SECTION:
            runs = [members[i:i + NAV_SECTION] for i in range(0, len(members), NAV_SECTION)]
            for run in runs:
                name = f"{run[0].title(lang)} – {run[-1].title(lang)}"
                if label and len(groups) > 1:
                    name = f"{label}: {name}" if len(runs) > 1 else label
                out.append({name: [{e.title(lang): urls.entry_path(e)} for e in run]})
        elif len(members) == 1:
            out += items
        else:
            out.append({label: items})
    if len(out) > NAV_SECTION:
        # Very many chapters or categories: split the list of sections itself the same way.
        out = [{f"{_first(out[i])} – {_first(out[min(i + NAV_SECTION, len(out)) - 1])}": out[i:i + NAV_SECTION]}
               for i in range(0, len(out), NAV_SECTION)]
    return out


def _first(item: dict) -> str:
    return next(iter(item))
