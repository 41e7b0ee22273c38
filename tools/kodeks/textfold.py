"""Folding Polish text to plain ASCII-ish lowercase: diacritics off (ł included), for slugs and search."""
from __future__ import annotations

import unicodedata

_EXTRA = str.maketrans({"ł": "l", "Ł": "l", "đ": "d", "ø": "o", "ß": "ss", "−": "-", "–": "-", "—": "-"})


def fold(text: str) -> str:
    """'Żołnierz łączności' -> 'zolnierz lacznosci'. NFKD alone leaves ł untouched."""
    text = text.translate(_EXTRA)
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).lower()


class _CharFold(dict):
    """str.translate table: each character to its fold when that is one character, else itself."""

    def __missing__(self, code: int) -> str:
        folded = fold(chr(code))
        self[code] = value = folded if len(folded) == 1 else chr(code)
        return value


_CHARS = _CharFold()


def fold_in_place(text: str) -> str:
    """fold(), one character for one, so positions in the result are positions in `text` ("…" stays)."""
    return text.translate(_CHARS)
