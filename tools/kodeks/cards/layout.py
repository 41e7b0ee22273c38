"""Card sizes, paper sizes and how many cards a sheet holds (with room for a printer's margin)."""
from __future__ import annotations

from dataclasses import dataclass

SIZES = {"poker": (63.0, 88.0), "tarot": (70.0, 120.0), "a6": (105.0, 148.0)}  # mm, width x height
ORDER = ("poker", "tarot", "a6")
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MIN_MARGIN = 2.0  # mm a printer may not reach


def grid(paper: str, size: str) -> tuple[int, int]:
    pw, ph = PAPERS[paper]
    cw, ch = SIZES[size]
    return max(1, int((pw - 2 * MIN_MARGIN) // cw)), max(1, int((ph - 2 * MIN_MARGIN) // ch))


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
        cols, rows = grid(paper, size)
        per = cols * rows
        for start in range(0, len(group), per):
            out.append((size, group[start:start + per]))
    return out
