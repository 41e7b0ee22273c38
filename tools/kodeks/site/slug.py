"""Heading anchors that keep Polish letters readable ('Żołnierz łączności' -> 'zolnierz-lacznosci').

mkdocs' default slugify drops 'ł'; mkdocs.yml points the toc extension here.
"""
from __future__ import annotations

import re

from ..textfold import fold


def slugify(value: str, separator: str = "-") -> str:
    value = re.sub(r"<[^>]+>", "", value)
    value = re.sub(r"[^a-z0-9]+", separator, fold(value))
    return value.strip(separator) or "section"
