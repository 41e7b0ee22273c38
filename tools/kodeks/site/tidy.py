"""Blank lines out of every page the theme writes.

Material's templates leave whitespace-only lines by the hundred; some of them come from loops that print
nothing, such as the one over a closed navigation section's children, so a page's bytes changed whenever
another section gained an entry, though nothing on screen did. A run of blank lines is one newline here:
the browser shows the same page (whitespace between tags collapses anyway), a page depends only on what it
shows (site/partial.py can keep it), and pages are smaller. Text inside pre, textarea, script and style is
left as it is.
"""
from __future__ import annotations

import re

_KEEP = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2\s*>)", re.S | re.I)
_BLANK = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")


def blank_lines(html: str) -> str:
    parts = _KEEP.split(html)
    out = []
    # re.split with two groups yields: text, whole kept block, tag name, text, ...
    for i in range(0, len(parts), 3):
        out.append(_BLANK.sub("\n", parts[i]))
        if i + 1 < len(parts):
            out.append(parts[i + 1])
    return "".join(out)


def tidier():
    """The mkdocs plugin that applies `blank_lines` to every page, in every mkdocs run kodeks starts."""
    from mkdocs.plugins import BasePlugin

    class Tidy(BasePlugin):
        def on_post_page(self, output, page, config):
            return blank_lines(output)

    return Tidy()
