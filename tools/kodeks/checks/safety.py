"""What content may not carry: markup that would run, or reshape a page, if it reached the site.

The site escapes every content string on its own (kodeks.site.escape), so nothing found here could run; the
check is there to tell the author, at file:line:col, that what they wrote will not show as they meant it.
Every string of every content file is read, whatever its field (names, citations, table cells, levels,
term forms, values, game.yaml), because an escape that covers only the fields someone remembered is how
scripts got in before.
"""
from __future__ import annotations

import html
import re

from ..content.yamlfile import YamlFile
from ..problems import Problems
from ..site.escape import INLINE_TAGS
from .walk import strings

_SUSPECT = re.compile(r"[<{&]|\]\s*[(:]")  # cheap first look: most strings have none of these
_TAG = re.compile(r"</?[A-Za-z!?]")  # what a browser reads as a tag: no space after <
_INLINE = re.compile(r"</?(?:" + "|".join(INLINE_TAGS) + r")\s*/?>", re.I)
_ATTR_LIST = re.compile(r"\{\s*:|\{\s*[#.][A-Za-z_-]|\{[^{}\n]*?\b[A-Za-z_:][-\w:.]*\s*=")
# A link's address: inline `](addr`, a reference definition `[r]: addr`, with or without <...>.
_ADDRESS = re.compile(r"(?:\]\(|^[ \t]{0,3}\[[^\]\n]+\]:)[ \t\n]*<?[ \t]*([A-Za-z][A-Za-z0-9+.\-]*)[ \t]*:", re.M)
_SCHEMES = {"http", "https", "mailto", "id", "nolink"}  # id: and nolink: are kodeks links


def check_file(yf: YamlFile, problems: Problems) -> None:
    """Every string of one file (an entry file or game.yaml)."""
    if yf.data is None:
        return
    for path, text in strings(yf.data):
        if _SUSPECT.search(text):
            _check_string(yf, path, text, problems)


LIMIT = 10  # reports per string: enough to find them all in a text, not a screenful for a pasted page


def _check_string(yf: YamlFile, path: tuple, text: str, problems: Problems) -> None:
    found = 0
    for m in _TAG.finditer(text):
        if found < LIMIT and not _INLINE.match(text, m.start()):
            found += 1
            end = text.find(">", m.start())
            shown = text[m.start():end + 1 if 0 <= end < m.start() + 40 else m.start() + 40]
            problems.error(yf.path, yf.text_pos(path, m.start()), f"raw HTML in text: {shown!r}",
                           "write it in Markdown (only bare <br>, <sup>, <sub>, <em>, <strong> and the like are "
                           "allowed); to show a < sign, put a space after it")
    for m in list(_ATTR_LIST.finditer(text))[:LIMIT]:
        problems.error(yf.path, yf.text_pos(path, m.start()), "an attribute list ({: ...}) in text",
                       "remove it: pages get their attributes from kodeks, not from content")
    decoded = html.unescape(text) if "&" in text else text
    for m in list(_ADDRESS.finditer(decoded))[:LIMIT]:
        scheme = m.group(1).lower()
        if scheme not in _SCHEMES:
            where = m.start(1)
            if decoded is not text:  # entities shift the offsets: point at the start of the same line
                lines = text.split("\n")[:decoded.count("\n", 0, where)]
                where = sum(len(line) + 1 for line in lines)
            problems.error(yf.path, yf.text_pos(path, min(where, len(text) - 1)),
                           f"a link to a {scheme}: address",
                           "link to an entry with (id:kind/id) or to an https:// address")
