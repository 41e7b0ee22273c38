"""What the search engines index: one document per entry per language, and the glossary phrase table."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.entry import Entry
from ..model.kb import KnowledgeBase
from ..model.text import BiText
from ..site import urls
from ..site.i18n import t
from .analysis import words

# How much a match in each field counts, relative to the body text.
BOOSTS = {"exact": 40.0, "name": 10.0, "alias": 6.0, "prefix": 2.0, "summary": 2.5, "body": 1.0}
FIELDS = ("name", "alias", "summary", "body")
PREFIX = 5  # letters of a word that the light "same beginning" match compares


@dataclass
class Doc:
    key: str
    game: str
    kind: str
    url: str
    title: str
    game_name: str
    kind_label: str
    name: str
    alias: str
    summary: str
    body: str
    snippet: str
    exact_names: list[str]  # the name, its aliases, and every form of the glossary terms that name this entry

    @property
    def exact(self) -> list[str]:
        return sorted({exact_token(n) for n in self.exact_names if words(n)})


_BRACKET = re.compile(r"\s*\([^)]*\)")


def exact_token(text: str) -> str:
    return "_".join(words(text))


_MD = re.compile(r"(\*\*|__|`|^#+\s*|^\s*[-*]\s+|^\s*\d+\.\s+|\|)", re.M)


def _plain(bi: BiText | None, lang: str) -> str:
    """Plain words: links as their labels, Markdown marks removed."""
    return _MD.sub(" ", bi.plain(lang)).replace("  ", " ") if bi else ""


def _body(entry: Entry, lang: str) -> str:
    parts = [_plain(entry.text, lang), _plain(entry.unit_type, lang)]
    for lv in entry.levels:
        parts += [lv.level, _plain(lv.name, lang), _plain(lv.text, lang)]
    for table in entry.tables:
        parts.append(_plain(table.caption, lang))
        for row in table.rows:
            parts += [c.plain(lang) if isinstance(c, BiText) else str(c) for c in row
                      if isinstance(c, (BiText, str, int, float))]
    for opt in entry.options:
        parts.append(_plain(opt.text, lang))
    for prof in entry.profiles:
        parts.append(_plain(prof.name, lang))
    return "\n".join(p for p in parts if p)


def doc(kb: KnowledgeBase, entry: Entry, lang: str, named_by: dict | None = None) -> Doc:
    other = "en" if lang == "pl" else "pl"
    game = kb.games[entry.game]
    kconf = game.kinds.get(entry.kind)
    alias = list(entry.aliases.get(lang, [])) + list(entry.synonyms.get(lang, [])) + list(entry.forms.get(lang, []))
    alias += entry.abbreviations
    other_name = entry.name.en.plain() if other == "en" and entry.name.en else entry.name.pl.plain()
    if other_name != entry.name.plain(lang):
        alias.append(other_name)
    name = entry.name.plain(lang)
    if entry.number:
        name = f"{entry.number} {name}"
    summary = _plain(entry.summary, lang)
    body = _body(entry, lang)
    exact_names = [name, entry.name.plain(lang)] + alias + (named_by or {}).get(str(entry.key), [])
    # "Ładunki wybuchowe (D-charges)": players type the name without its parenthesis.
    exact_names += [_BRACKET.sub("", n).strip() for n in exact_names if _BRACKET.search(n)]
    return Doc(
        key=str(entry.key), game=entry.game, kind=entry.kind,
        url=urls.site_url(entry.key, kb, lang) or "", title=entry.title(lang),
        game_name=game.name.plain(lang),
        kind_label=(kconf.name.plain(lang) if kconf and kconf.name else t(lang, "kinds")[entry.kind]),
        name=name, alias="\n".join(alias), summary=summary, body=body,
        snippet=(summary + "\n" + body).strip(), exact_names=exact_names)


def documents(kb: KnowledgeBase, lang: str) -> list[Doc]:
    """One document per entry, except glossary terms that name another entry: their words lead to that
    entry instead (as exact names and glossary tags), so the entry itself comes first."""
    named_by: dict[str, list[str]] = {}
    for e in kb.entries.values():
        if e.kind == "term" and e.target is not None:
            # Inflected forms reach the entry through the glossary tag; exact names are the base forms.
            forms = [e.name.plain(lang)] + e.synonyms.get(lang, []) + e.abbreviations
            named_by.setdefault(str(e.target.key), []).extend(forms)
    entries = [e for e in kb.entries.values() if not (e.kind == "term" and e.target is not None)]
    return [doc(kb, e, lang, named_by) for e in sorted(entries, key=lambda e: (e.game, e.kind, e.order))]


COMMON = 0.08  # a body word found in more than this share of the documents says little about any of them


def fields(analyzer, d: Doc, tags: dict[str, str], common: set[str] = frozenset()) -> dict[str, list[str]]:
    """The tokens of each field of a document: what both engines index. Body words that most documents
    share (`common`) are left out of the body: they cost index size and barely move a ranking."""
    return {"name": analyzer.analyze(d.name) + ([tags[d.key]] if d.key in tags else []),
            "alias": analyzer.analyze(d.alias),
            "summary": analyzer.analyze(d.summary),
            "body": [t for t in analyzer.analyze(d.body) if t not in common]}


def common_body_tokens(analyzer, docs: list[Doc]) -> set[str]:
    df: dict[str, int] = {}
    for d in docs:
        for tok in set(analyzer.analyze(d.body)):
            df[tok] = df.get(tok, 0) + 1
    limit = COMMON * len(docs)
    return {tok for tok, n in df.items() if n > limit}


def _term_forms(entry: Entry, lang: str) -> list[str]:
    forms = [entry.name.plain(lang)] + entry.forms.get(lang, []) + entry.synonyms.get(lang, [])
    forms += entry.abbreviations
    if lang == "en" and entry.name.en is None:
        forms = forms[1:]
    return forms


def _concepts(kb: KnowledgeBase, lang: str) -> dict[str, str]:
    """Concept (a term's target, or the term itself) -> its tag. Concepts of different games that share a
    form share a tag: "Kamuflaż" names Infinity's skill and Ciernie i Gwiazdy's equipment alike, and the
    game the player is reading decides between them, as it does for names."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    owner: dict[tuple[str, ...], str] = {}
    for entry in sorted(kb.entries.values(), key=lambda e: str(e.key)):
        if entry.kind != "term":
            continue
        concept = str(entry.target.key if entry.target else entry.key)
        find(concept)
        for form in _term_forms(entry, lang):
            toks = tuple(words(form))
            if not toks:
                continue
            first = owner.setdefault(toks, concept)
            if first != concept and first.split("/")[0] != concept.split("/")[0]:
                parent[find(concept)] = find(first)
    tags: dict[str, str] = {}
    roots: dict[str, str] = {}
    for concept in parent:
        tags[concept] = roots.setdefault(find(concept), f"g{len(roots)}")
    return tags


def phrases(kb: KnowledgeBase, lang: str) -> list[tuple[tuple[str, ...], str]]:
    """Every glossary form -> the tag of the concept it names (the term's target, or the term itself)."""
    tags = _concepts(kb, lang)
    out: dict[tuple[str, ...], str] = {}
    for entry in sorted(kb.entries.values(), key=lambda e: str(e.key)):
        if entry.kind != "term":
            continue
        tag = tags[str(entry.target.key if entry.target else entry.key)]
        for form in _term_forms(entry, lang):
            toks = tuple(words(form))
            if toks and toks not in out:
                out[toks] = tag
    return sorted(out.items())


def concept_tags(kb: KnowledgeBase, lang: str) -> dict[str, str]:
    """Entry key -> the glossary tag that names it (so the entry itself carries the tag in its name)."""
    tags = _concepts(kb, lang)
    out = {}
    for entry in kb.entries.values():
        if entry.kind == "term":
            concept = str(entry.target.key if entry.target else entry.key)
            out[concept] = out[str(entry.key)] = tags[concept]
    return out
