"""Cards as a PDF (WeasyPrint): each card takes the smallest size its content fits, measured, never clipped."""
from __future__ import annotations

import html
import os
from dataclasses import replace
from itertools import groupby
from pathlib import Path

from ..model.kb import KnowledgeBase
from .content import Card
from .layout import ORDER, PAPERS, SIZES, Placed, grid, larger, sheets
from .render import CSS, card_html, env, rules_html, rules_used


def _measure_css() -> str:
    pages = "".join(f"@page {s} {{ size: {w}mm {h}mm; margin: 0 }} .kc--{s} {{ page: {s}; }}"
                    for s, (w, h) in SIZES.items())
    return pages + ".kc { height: auto !important; min-height: 0 !important; overflow: visible !important; " \
                   "break-after: page; border-radius: 0; padding-bottom: 2.2mm !important; } " \
                   ".kc__foot { position: static !important; margin-top: 2mm; }"


def _too_wide(page_box) -> set[str]:
    """Anchors of the cards on a measuring page with a box wider than the card (a table that cannot shrink to
    the card's width runs past its right edge, where the printed card would cut it off)."""
    out, todo = set(), [(page_box, None, 0.0)]
    while todo:
        box, anchor, right = todo.pop()
        element = getattr(box, "element", None)
        if getattr(box, "element_tag", None) == "article" and (element.get("id") or "").startswith("card-"):
            anchor, right = element.get("id")[len("card-"):], box.padding_box_x() + box.padding_width()
        elif anchor is not None and box.border_box_x() + box.border_width() > right + 0.5:
            out.add(anchor)
        todo.extend((child, anchor, right) for child in getattr(box, "children", []))
    return out


def _overflowing(cards_html: list[tuple[str, str]], base_url: str) -> set[str]:
    """Anchors of the cards whose content runs past their own page (their end mark lands on a later page) or
    past their right edge."""
    from weasyprint import CSS as WCSS, HTML
    doc = HTML(string="<html><body>" + "".join(h for _, h in cards_html) + "</body></html>", base_url=base_url)
    rendered = doc.render(stylesheets=[WCSS(filename=str(CSS)), WCSS(string=_measure_css())])
    page_of: dict[str, int] = {}
    out = set()
    for i, page in enumerate(rendered.pages):
        for anchor in page.anchors:
            page_of.setdefault(anchor, i)
        out |= _too_wide(page._page_box)
    for anchor, _ in cards_html:
        start, end = page_of.get(f"card-{anchor}"), page_of.get(f"end-{anchor}")
        if start is None or end is None or end != start:
            out.add(anchor)
    return out


def fit(kb: KnowledgeBase, cards: list[Card], lang: str, smallest: str = "poker", templates: Path | None = None) -> list[Placed]:
    """Each card at the smallest size (from `smallest` up) its content fits; beyond A6, front and back."""
    e = env(templates)
    size_of: dict[int, str] = {}
    two_sided: set[int] = set()
    pending, size = list(range(len(cards))), smallest
    while pending:
        batch = [(str(i), _with_id(card_html(e, cards[i], lang, size, anchor=str(i)), i)) for i in pending]
        over = {int(a) for a in _overflowing(batch, ".")}
        for i in pending:
            size_of[i] = size
        nxt = larger(size)
        if nxt is None:
            two_sided = over
            break
        pending, size = sorted(over), nxt
    backs = _split_backs(e, cards, sorted(two_sided), lang) if two_sided else {}
    placed = []
    for i in range(len(cards)):
        if i in two_sided:
            placed.append(Placed(i, size_of[i], "front"))
            pages = backs[i]
            for n, items in enumerate(pages):
                placed.append(Placed(i, size_of[i], "back", items=items, last=n == len(pages) - 1))
        else:
            placed.append(Placed(i, size_of[i]))
    return placed


def _split_backs(e, cards: list[Card], indices: list[int], lang: str) -> dict[int, list[set]]:
    """Lay the backs out as A6 pages and read which reminder lines each page got: one back per page."""
    from weasyprint import CSS as WCSS, HTML
    html_text = "".join(_with_id(card_html(e, cards[i], lang, "a6", "back", anchor=str(i)), i) for i in indices)
    doc = HTML(string="<html><body>" + html_text + "</body></html>", base_url=".")
    rendered = doc.render(stylesheets=[WCSS(filename=str(CSS)), WCSS(string=_measure_css())])
    out: dict[int, dict[int, set]] = {i: {} for i in indices}
    for pno, page in enumerate(rendered.pages):
        for anchor in page.anchors:
            if anchor.startswith("item-"):
                card_i, item = anchor[len("item-"):].rsplit("-", 1)
                out[int(card_i)].setdefault(pno, set()).add(int(item))
    return {i: [items for _, items in sorted(pages.items())] or [set()] for i, pages in out.items()}


def _with_id(card_html_text: str, i: int) -> str:
    return card_html_text.replace("<article ", f'<article id="card-{i}" ', 1)


def copies(placed: list[Placed], counts: list[int]) -> list[Placed]:
    """A roster's count of n is n cards to cut out, each whole (a front and its backs), in the roster's order."""
    out: list[Placed] = []
    for index, parts in groupby(placed, key=lambda p: p.index):
        out += list(parts) * counts[index]
    return out


def render_pdf(kb: KnowledgeBase, cards: list[Card], lang: str = "pl", size: str = "poker", paper: str = "a4",
               templates: Path | None = None):
    """The cards (card.count copies of each) on sheets, then their rules appendix, laid out by WeasyPrint;
    returns (the rendered document, {'pages': n, 'cards': n printed, 'sizes': {...}})."""
    from weasyprint import CSS as WCSS, HTML
    counts = [max(1, c.count) for c in cards]
    cards = [replace(c, count=1) for c in cards]  # each copy is a plain card: no ×n badge on n cards
    placed = copies(fit(kb, cards, lang, size, templates), counts)
    e = env(templates)
    layout = sheets(placed, paper)
    w, h = PAPERS[paper]
    body = []
    for n, (sheet_size, items) in enumerate(layout):
        cols, _ = grid(paper, sheet_size)
        cells = "".join(card_html(e, cards[p.index], lang, sheet_size, p.part, anchor=f"{n}-{k}",  # copies too
                                  items=p.items, last=p.last) for k, p in enumerate(items))
        body.append(f'<section class="ks ks--{paper} ks--{sheet_size}" style="--cols: {cols}">{cells}</section>')
    body.append(rules_html(kb, rules_used(cards), lang))
    page_css = f"@page {{ size: {w}mm {h}mm; margin: 0 }} @page rules {{ size: {w}mm {h}mm; margin: 0 }} .kr {{ page: rules }}"
    doc = HTML(string=f'<html lang="{lang}"><head><meta charset="utf-8"><title>{html.escape("kodeks")}</title></head>'
                      f'<body>{"".join(body)}</body></html>', base_url=".")
    rendered = doc.render(stylesheets=[WCSS(filename=str(CSS)), WCSS(string=page_css)])
    sizes = {s: sum(1 for p in placed if p.size == s and p.part != "back") for s in ORDER}
    sizes["backs"] = sum(1 for p in placed if p.part == "back")
    return rendered, {"pages": len(rendered.pages), "cards": sum(counts), "sizes": sizes}


def write_pdf(kb: KnowledgeBase, cards: list[Card], path: Path, lang: str = "pl", size: str = "poker",
              paper: str = "a4", templates: Path | None = None) -> dict:
    """Write the cards and their rules appendix (see render_pdf); returns what render_pdf reports."""
    rendered, info = render_pdf(kb, cards, lang, size, paper, templates)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # concurrent builds share the cache
    try:
        rendered.write_pdf(str(tmp))
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # half a PDF (a full disk, a folder in the way) is left nowhere
        raise
    return info
