"""Placeholders left in content: the `TODO` texts of a `kodeks new` skeleton.

A skeleton is schema-valid on purpose (the author fills it in while `kodeks validate` stays quiet about
everything else), so nothing else would stop it from being published with "TODO nazwa" as its name. Each
placeholder is a warning with code TODO; a command that publishes (`kodeks build`) turns them into errors
with `problems.escalate(placeholders.TODO, placeholders.NOT_PUBLISHED)`.
"""
from __future__ import annotations

import re

from ..content.loader import Loaded
from ..problems import Problems
from .walk import strings

TODO = "todo"
NOT_PUBLISHED = "a draft is not published: fill it in before building"
_PLACEHOLDER = re.compile(r"\bTODO\b")


def check(loaded: Loaded, problems: Problems) -> None:
    for yf in loaded.files.values():
        if yf.data is None or "TODO" not in yf.text:
            continue
        found = []
        for path, text in strings(yf.data):
            m = _PLACEHOLDER.search(text)
            if m:
                found.append((yf.text_pos(path, m.start()), text))
        for pos, text in sorted(found, key=lambda f: f[0]):
            short = text if len(text) <= 40 else text[:37] + "..."
            problems.warning(yf.path, pos, f"a placeholder is left: '{short}'",
                             "write the real text (the skeleton of `kodeks new` marks what to fill in with TODO)",
                             code=TODO)
