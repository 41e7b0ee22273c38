"""Folding Polish text to plain ASCII-ish lowercase: diacritics off (ł included), for slugs and search."""
from __future__ import annotations

import unicodedata

_EXTRA = str.maketrans({"ł": "l", "Ł": "l", "đ": "d", "ø": "o", "ß": "ss", "−": "-", "–": "-", "—": "-"})


def fold(text: str) -> str:
    """'Żołnierz łączności' -> 'zolnierz lacznosci'. NFKD alone leaves ł untouched."""
    text = text.translate(_EXTRA)
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
