"""Rendering pieces of the model as Markdown for one page in one language.

A `Page` knows where it sits (its path) and its language, so links come out relative and texts come out
in the right language (or Polish, marked untranslated). Templates (kodeks/templates/*.md.j2, overridable)
call these helpers; nothing here reads YAML. Every content string goes through site/escape.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import autolink
from ..model.entry import Entry, Use
from ..model.game import FieldDef, Game
from ..model.kb import KnowledgeBase, note
from ..model.text import BiText, Link, RichText
from ..model.values import Gap, show
from . import urls
from .escape import attr, author_markdown, md_text
from .i18n import t

esc_md = md_text  # a plain string as Markdown


def esc_cell(markdown: str) -> str:
    """Make rendered Markdown safe inside a Markdown table cell."""
    return markdown.replace("|", "\\|").replace("\n", "<br>")


@dataclass
class Page:
    kb: KnowledgeBase
    lang: str
    path: str  # Markdown path inside the docs folder
    entry: Entry | None = None  # the entry this page shows (it never links to itself)

    def __post_init__(self) -> None:
        if self.entry is not None:
            note(self.kb, ("get", self.entry.key))  # what the page shows of it is read from the object

    # --- words and links -------------------------------------------------------------------------
    def w(self, key: str):
        return t(self.lang, key)

    def href(self, entry: Entry, anchor: str = "") -> str:
        return urls.relative(self.path, urls.entry_path(entry), anchor)

    def to(self, md_path: str, anchor: str = "") -> str:
        return urls.relative(self.path, md_path, anchor)

    def link(self, entry: Entry | None, label: str | None = None, level: str | None = None) -> str:
        if entry is None:
            return esc_md(label or "?")
        text = label if label is not None else entry.title(self.lang)
        if level:
            text = f"{text} {level}"
        return self.link_md(esc_md(text), entry, level)

    def use(self, use: Use, with_level: bool = True) -> str:
        entry = self.kb.get(use.key)
        return self.link(entry, level=use.level if with_level else None)

    # --- text ------------------------------------------------------------------------------------
    def link_md(self, label: str, entry: Entry, level: str | None = None) -> str:
        """A link to an entry, as inline HTML: its title is the entry's summary and its data- attributes feed
        the previews (assets/kodeks.js). `label` is Markdown already made safe."""
        # The title and attributes of a link to an entry are the same on every page that links to it.
        tails = self.kb.memo("link_md")
        tail = tails.get((entry.key, self.lang, level))
        if tail is None:
            summary = entry.summary.plain(self.lang) if entry.summary else entry.title(self.lang)
            tail = (f' title="{attr(summary)}" data-kodeks-kind="{self.w("kind_one")[entry.kind]}"'
                    f' data-kodeks-name="{attr(entry.title(self.lang))}"')
            if any(n.type == "ruling" for n in entry.notes):
                tail += f' data-kodeks-ruling="{attr(self.w("ruling_preview"))}"' 
            if level:
                tail += f' data-kodeks-level="{attr(level)}"'
                lv = next((x for x in entry.levels if x.level == level), None)
                if lv is not None and (lv.text or lv.name):
                    tail += f' data-kodeks-level-text="{attr((lv.text or lv.name).plain(self.lang))}"'
            tails[(entry.key, self.lang, level)] = tail
        return f'<a href="{urls.html_path(self.href(entry))}"{tail}>{label}</a>'

    def rich(self, rich: RichText, autolink: bool = False) -> str:
        """Markdown for the page. Author text passes through `author_markdown` (raw HTML and attribute lists
        neutralised), so even content that skipped validation cannot bring a script into the site."""
        out = []
        seen = {link.key for link in rich.links}
        if self.entry is not None:
            seen.add(self.entry.key)
        auto: set = set()
        game = self.entry.game if self.entry is not None else None
        for part in rich.parts:
            if isinstance(part, Link):
                entry = self.kb.get(part.key) if not part.nolink else None
                label = author_markdown(part.label)
                out.append(label if entry is None else self.link_md(label, entry, part.level))
            elif autolink and game:
                out.append(self._autolink(author_markdown(part), game, seen, auto))
            else:
                out.append(author_markdown(part))
        return "".join(out)

    def _autolink(self, text: str, game: str, seen: set, auto: set) -> str:
        """First mention of each glossary term in a section becomes a link (see model.autolink)."""
        linker = autolink.build(self.kb, game, self.lang)
        found = linker.matches(text)
        if not found:
            return text
        protected = autolink.protected_spans(text)
        headings = autolink.heading_starts(text)
        out, pos = [], 0
        for m in found:
            if any(a <= m.start < b or a < m.end <= b for a, b in protected):
                continue
            if any(pos <= h < m.start for h in headings):
                auto.clear()  # a new section starts: its first mentions link again
            if m.target in seen or m.target in auto:
                continue
            entry = self.kb.get(m.target)
            if entry is None:
                continue
            auto.add(m.target)
            out.append(text[pos:m.start])
            out.append(self.link_md(text[m.start:m.end], entry))
            pos = m.end
        out.append(text[pos:])
        return "".join(out)

    def text(self, bi: BiText | None, inline: bool = False, autolink: bool = False, top: int = 2) -> str:
        """The text in this page's language; Polish with a visible mark where English is missing. Headings
        an author wrote start at level `top` on the page, whatever level they were written at."""
        if bi is None:
            return ""
        rich, translated = bi.get(self.lang)
        body = self.rich(rich, autolink=autolink)
        if not inline and "#" in body:
            body = shift_headings(body, top)
        if translated:
            return body
        if inline:
            return f'{body} <span class="kodeks-untranslated" title="{attr(self.w("not_translated_long"))}">' \
                   f'{self.w("not_translated")}</span>'
        return f'!!! kodeks-untranslated "{self.w("not_translated")}"\n    {self.w("not_translated_long")}\n\n{body}'

    def plain(self, bi: BiText | None) -> str:
        return bi.plain(self.lang) if bi else ""

    def cell_text(self, bi: BiText | None, autolink: bool = False) -> str:
        return esc_cell(self.text(bi, inline=True, autolink=autolink))

    # --- values ----------------------------------------------------------------------------------
    def value(self, v, fd: FieldDef | None = None) -> str:
        if v is None:
            return ""
        if isinstance(v, Gap):
            reason = v.reason.plain(self.lang) if v.reason else self.w("gap_legend")
            return f'<span class="kodeks-gap" title="{attr(reason)}">—</span>'
        numeric = isinstance(v, (int, float)) and not isinstance(v, bool)
        unit = fd.unit if fd and numeric else ""
        return md_text(show(v, signed=bool(fd and fd.signed), unit=unit))

    def field_label(self, fd: FieldDef) -> str:
        return f'<abbr title="{attr(fd.name.plain(self.lang))}">{md_text(fd.label(self.lang))}</abbr>'

    def fields_table(self, fields: list[FieldDef], rows: list[tuple[str, dict]], first: str = "") -> str:
        """A Markdown table with one column per field present in any row (the game's order)."""
        used = [f for f in fields if any(f.key in vals for _, vals in rows)]
        if not used:
            return ""
        head = ([first] if first else []) + [self.field_label(f) for f in used]
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":--"] * bool(first) + [":-:"] * len(used)) + "|"]
        for label, vals in rows:
            cells = ([label] if first else []) + [self.value(vals.get(f.key), f) for f in used]
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def has_gap(self, *groups: dict) -> bool:
        return any(isinstance(v, Gap) for g in groups for v in g.values())


_HEADING = re.compile(r"^(#{1,6})(?=[ \t])", re.M)


def shift_headings(markdown: str, top: int) -> str:
    """Author headings renumbered by rank (the highest becomes `top`, the next `top + 1`...), so a text written
    with `###` under a page's h1 skips no level."""
    levels = sorted({len(m.group(1)) for m in _HEADING.finditer(markdown)})
    if not levels:
        return markdown
    rank = {level: min(6, top + i) for i, level in enumerate(levels)}
    return _HEADING.sub(lambda m: "#" * rank[len(m.group(1))], markdown)


def game_of(kb: KnowledgeBase, entry: Entry) -> Game:
    return kb.games[entry.game]
