"""Cards as HTML: one card, sheets of cards, and the "rules used on these cards" appendix."""
from __future__ import annotations

import html
from functools import lru_cache
from pathlib import Path

import jinja2
import markdown

from ..model.ids import Key
from ..model.kb import KnowledgeBase
from ..site.escape import html_fragment
from ..site.i18n import t
from .content import Card
from .layout import Placed, grid

HERE = Path(__file__).resolve().parent
CSS = HERE.parent / "site" / "assets" / "kodeks-cards.css"

WORDS = {
    "pl": {"weapon": "Broń", "skills": "Umiejętności", "equipment": "Wyposażenie", "rules": "Zasady broni",
           "back": "rewers", "rules_title": "Zasady użyte na tych kartach", "level": "Poziom"},
    "en": {"weapon": "Weapon", "skills": "Skills", "equipment": "Equipment", "rules": "Weapon rules",
           "back": "back", "rules_title": "Rules used on these cards", "level": "Level"},
}


def env(extra: Path | None = None) -> jinja2.Environment:
    loaders = ([jinja2.FileSystemLoader(str(extra))] if extra else []) + [jinja2.PackageLoader("kodeks", "templates")]
    return jinja2.Environment(loader=jinja2.ChoiceLoader(loaders), autoescape=True, trim_blocks=True,
                              lstrip_blocks=True)


def card_html(e: jinja2.Environment, card: Card, lang: str, size: str, part: str = "all", anchor: str = "",
              items: set[int] | None = None, last: bool = True) -> str:
    words = dict(WORDS[lang], legend=t(lang, "gap_legend"), ruling=t(lang, "ruling_legend"))
    html_text = e.get_template("card.html.j2").render(card=card, size=size, part=part, words=words,
                                                       anchor=anchor or card.key.id, items=items, last=last)
    return html_text


def sheets_html(e, cards: list[Card], layout: list[tuple[str, list[Placed]]], paper: str, lang: str) -> str:
    out = []
    for size, items in layout:
        cols, _ = grid(paper, size)
        body = "".join(card_html(e, cards[p.index], lang, size, p.part, anchor=f"{p.index}-{p.part}",
                                 items=p.items, last=p.last) for p in items)
        out.append(f'<section class="ks ks--{paper} ks--{size}" style="--cols: {cols}">{body}</section>')
    return "\n".join(out)


@lru_cache(maxsize=20_000)
def _md(text: str) -> str:
    # The same rules are spelled out on the print page of the game and of every faction that uses them.
    return html_fragment(markdown.markdown(text, extensions=["tables", "sane_lists"]))


def rules_html(kb: KnowledgeBase, keys: list[Key], lang: str) -> str:
    """Every skill, trait, equipment and weapon rule the cards reference, spelled out in full."""
    if not keys:
        return ""
    entries = sorted((kb.get(k) for k in keys if kb.get(k) is not None), key=lambda e: e.name.plain(lang).lower())
    parts = [f'<section class="kr"><h2>{html.escape(WORDS[lang]["rules_title"])}</h2>']
    for entry in entries:
        parts.append(f'<div class="kr__item" data-rule="{entry.key}">')
        parts.append(f'<h3 id="rule-{entry.kind}-{entry.id}">{html.escape(entry.name.plain(lang))}</h3>')
        if entry.summary:
            parts.append(f"<p><em>{html.escape(entry.summary.plain(lang))}</em></p>")
        if entry.text:
            parts.append(_md(html.escape(entry.text.plain(lang), quote=False)))
        if entry.levels:
            rows = "".join(f"<tr><th>{html.escape(lv.level)}</th><td>{html.escape(lv.text.plain(lang)) if lv.text else ''}</td></tr>"
                           for lv in entry.levels if lv.text)
            if rows:
                parts.append(f'<table><tr><th>{WORDS[lang]["level"]}</th><th></th></tr>{rows}</table>')
        for note in entry.notes:
            if note.type == "ruling":
                basis = f' ({html.escape(t(lang, "lines"))} {html.escape(note.lines)})' if note.lines else ""
                parts.append(f'<p class="kr__ruling"><b>{html.escape(t(lang, "ruling_legend"))}:</b> '
                             f'{html.escape(note.text.plain(lang))}{basis}</p>')
        parts.append("</div>")
    parts.append("</section>")
    return "\n".join(parts)


def rules_used(cards: list[Card]) -> list[Key]:
    seen: dict[Key, None] = {}
    for c in cards:
        for k in c.rules_used:
            seen.setdefault(k, None)
    return list(seen)
