"""A Markdown extension: HTML that kodeks generates whole (unit cards, print sheets, the rules appendix)
passes through Markdown untouched.

Python-Markdown finds raw HTML blocks with html.parser, and mkdocs parses the whole page once more to
find its anchors. A print page of a large game is a megabyte of card HTML, parsed twice for nothing: the
blocks between the markers below go straight into Markdown's stash, as the raw block they would have
become, before either parser runs.
"""
from __future__ import annotations

import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

START, END = "<!--kodeks:raw-->", "<!--/kodeks:raw-->"
_BLOCK = re.compile(re.escape(START) + r"(.*?)" + re.escape(END), re.S)


def raw(html: str) -> str:
    """Mark generated HTML (one block-level element, on a line of its own) to pass through unparsed."""
    return f"\n\n{START}{html}{END}\n\n"


class _Stash(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if START not in text:
            return lines
        text = _BLOCK.sub(lambda m: "\n\n" + self.md.htmlStash.store(m.group(1)) + "\n\n", text)
        return text.split("\n")


class RawHTML(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # Before mkdocs' anchor scan (21) and Markdown's raw HTML blocks (20).
        md.preprocessors.register(_Stash(md), "kodeks_raw_html", 25)


def makeExtension(**kwargs) -> RawHTML:  # noqa: N802 - the name Markdown looks for
    return RawHTML(**kwargs)
