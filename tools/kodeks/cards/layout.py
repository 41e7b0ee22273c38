"""Card sizes, paper sizes and how many cards a sheet holds."""
from __future__ import annotations

from dataclasses import dataclass

SIZES = {"poker": (63.0, 88.0), "tarot": (70.0, 120.0), "a6": (105.0, 148.0)}  # mm, width x height
ORDER = ("poker", "tarot", "a6")
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def grid(paper: str, size: str) -> tuple[int, int]:
    """(columns, rows) of cards edge to edge, as many as the paper holds: four A6 on A4, as the paper is cut.
    Neighbours share a cut line and the cut lines lie inside the card, so nothing is added between cards; no
    margin is kept either, since where cards fill the paper (A6 or tarot across A4) its edge is the cut. A
    printer that cannot print to the edge loses the dashed line there, and text where its margin is wider than
    the card's padding (2.4 mm), unless its dialog shrinks the page to fit. Turning cards sideways never fits
    more of these sizes on these papers (tests/test_print.py checks it), so cards stay upright."""
    pw, ph = PAPERS[paper]
    cw, ch = SIZES[size]
    return max(1, int(pw // cw)), max(1, int(ph // ch))


def per_sheet(paper: str, size: str) -> int:
    cols, rows = grid(paper, size)
    return cols * rows


def larger(size: str) -> str | None:
    i = ORDER.index(size)
    return ORDER[i + 1] if i + 1 < len(ORDER) else None


@dataclass
class Placed:
    index: int  # which card
    size: str
    part: str = "all"  # all, front or back
    items: set | None = None  # a back's reminder lines (None: all)
    last: bool = True  # the last side carries the text and the footer


def sheets(placed: list[Placed], paper: str) -> list[tuple[str, list[Placed]]]:
    """Same-size cards share sheets, in order (a two-sided card's front and back follow each other)."""
    out: list[tuple[str, list[Placed]]] = []
    for size in ORDER:
        group = [p for p in placed if p.size == size]
        per = per_sheet(paper, size)
        for start in range(0, len(group), per):
            out.append((size, group[start:start + per]))
    return out
