"""Page addresses that two things claim: one page would silently replace the other.

An entry's page is `<game>/<kind>/<slug>.html`; the slug of a numbered rule starts with its number, so rule
`1` with id `1-x` and rule `1.1` with id `x` both live at `rule/1-1-x.html`. Each kind's folder also holds the
page kodeks generates to list its entries, `index.html`. Former ids (`redirects`) keep their old address
alive with a redirect page, which must not stand where a page is. The addresses come from the site's own
functions (site/urls.py), so the check cannot drift from what the build writes.
"""
from __future__ import annotations

from ..content.loader import Loaded
from ..model.entry import Entry
from ..problems import Problems
from ..site import urls

# Pages kodeks writes into every kind's folder: an entry cannot have these slugs.
GENERATED = {"index": "the page that lists all entries of the kind"}


def _where(loaded: Loaded, problems: Problems, entry: Entry, field: str = "id") -> str:
    pos = loaded.yf(entry).pos(entry.base + (field,))
    return f"{problems._rel(entry.file)}:{pos.line}:{pos.col}"


def _field(entry: Entry) -> str:
    return "number" if entry.kind == "rule" and entry.number else "id"


def check(loaded: Loaded, problems: Problems) -> None:
    kb = loaded.kb
    pages: dict[str, Entry] = {}
    for entry in sorted(kb.entries.values(), key=lambda e: e.order):
        path = urls.entry_path(entry)
        yf = loaded.yf(entry)
        slug = urls.entry_slug(entry)
        if slug in GENERATED:
            problems.error(entry.file, yf.pos(entry.base + ("id",)),
                           f"the id '{entry.id}' is taken: {entry.kind}/{slug}.html is {GENERATED[slug]}",
                           "choose another id")
            continue
        first = pages.get(path)
        if first is not None:
            problems.error(entry.file, yf.pos(entry.base + (_field(entry),)),
                           f"{entry.kind} '{entry.id}' gets the same page, {entry.kind}/{slug}.html, as "
                           f"'{first.id}' ({_where(loaded, problems, first, _field(first))}): one would replace "
                           "the other", "change the id (or the number) of one of them")
            continue
        pages[path] = entry
    for entry in sorted(kb.entries.values(), key=lambda e: e.order):
        yf = loaded.yf(entry)
        own = urls.entry_path(entry)
        for i, old in enumerate(entry.redirects):
            old_path = f"{entry.game}/{entry.kind}/{old}.md"
            owner = pages.get(old_path)
            if old in GENERATED:
                problems.error(entry.file, yf.pos(entry.base + ("redirects", i)),
                               f"redirect '{old}' would stand where {GENERATED[old]} is", "remove it from `redirects`")
            elif owner is not None and owner is not entry and old_path != own:
                problems.error(entry.file, yf.pos(entry.base + ("redirects", i)),
                               f"redirect '{old}' would stand where the page of '{owner.id}' is "
                               f"({_where(loaded, problems, owner, _field(owner))}), so it would never be written",
                               "remove it from `redirects`, or change the other entry's id or number")
        if entry.kind == "rule" and entry.number:
            # A numbered rule's address without its number leads to it too, unless a page stands there.
            bare = f"{entry.game}/{entry.kind}/{entry.id}.md"
            owner = pages.get(bare)
            if owner is not None and owner is not entry:
                problems.warning(entry.file, yf.pos(entry.base + ("id",)),
                                 f"the address without the number, {entry.kind}/{entry.id}.html, is the page of "
                                 f"'{owner.id}' ({_where(loaded, problems, owner, _field(owner))}), not of this rule",
                                 "change the id of one of them if players cite this rule without its number")
