"""The whoosh index (one per language) and the search behind `kodeks search`.

whoosh is unmaintained, so it stays behind this module. Documents are analysed by kodeks' own analyzer
(search.analysis) and stored in whoosh as ready-made tokens; queries are analysed the same way and built
as whoosh query objects directly (never parsed with whoosh's query syntax), so quotes, brackets, AND/OR
and other operators in what a player types are just words.
"""
from __future__ import annotations

import difflib
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from whoosh import index as wix
from whoosh.analysis import SpaceSeparatedTokenizer
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.query import And, DisjunctionMax, Or, Term

from ..model.kb import KnowledgeBase
from .analysis import Analyzer, words
from .documents import BOOSTS, concept_tags, documents, phrases

MAX_QUERY = 1000
FUZZY_BOOST = 3.0


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or limit + 1 as soon as it is sure to exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def typo_candidates(word: str, vocab) -> list[str]:
    """Known name words one letter away (two in words of 8+ letters), the closest ones only; the first
    letter must match. The browser search applies the same rule."""
    limit = 1 if len(word) < 8 else 2
    best, out = limit + 1, []
    for cand in vocab:
        if cand[:1] != word[:1]:
            continue
        d = edit_distance(word, cand, limit)
        if d < best:
            best, out = d, [cand]
        elif d == best and d <= limit:
            out.append(cand)
    return sorted(out) if best <= limit else []
SEARCH_FIELDS = ("name", "alias", "summary", "body")


def schema() -> Schema:
    tok = SpaceSeparatedTokenizer()
    return Schema(
        key=ID(stored=True, unique=True), game=ID(stored=True), kind=ID(stored=True),
        url=STORED(), title=STORED(), game_name=STORED(), kind_label=STORED(), snippet=STORED(),
        exact=ID(field_boost=BOOSTS["exact"]),
        name=TEXT(analyzer=tok, phrase=False),
        alias=TEXT(analyzer=tok, phrase=False),
        summary=TEXT(analyzer=tok, phrase=False),
        body=TEXT(analyzer=tok, phrase=False),
        raw=TEXT(analyzer=tok, phrase=False),
    )


def build(kb: KnowledgeBase, lang: str, folder: Path) -> int:
    """Write the index of one language into `folder` (replaced whole); returns the number of documents."""
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    table = phrases(kb, lang)
    analyzer = Analyzer(lang, table)
    tags = concept_tags(kb, lang)
    ix = wix.create_in(str(tmp), schema())
    writer = ix.writer(limitmb=256)
    docs = documents(kb, lang)
    targeted = {str(e.key) for e in kb.entries.values() if e.kind == "term" and e.target is not None}
    for d in docs:
        name_tokens = analyzer.analyze(d.name) + ([tags[d.key]] if d.key in tags else [])
        alias_tokens = analyzer.analyze(d.alias)
        if d.key in targeted:
            # A glossary term that names another entry must not outrank that entry: its name counts as an alias.
            alias_tokens, name_tokens = name_tokens + alias_tokens, []
        writer.add_document(
            key=d.key, game=d.game, kind=d.kind, url=d.url, title=d.title, game_name=d.game_name,
            kind_label=d.kind_label, snippet=d.snippet[:4000], exact="" if d.key in targeted else d.exact,
            name=" ".join(name_tokens), alias=" ".join(alias_tokens),
            summary=" ".join(analyzer.analyze(d.summary)), body=" ".join(analyzer.analyze(d.body)),
            raw=" ".join(analyzer.raw(d.name + " " + d.alias)))
    writer.commit()
    (tmp / "phrases.json").write_text(json.dumps([[list(t), g] for t, g in table], ensure_ascii=False), encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return len(docs)


@dataclass
class Hit:
    key: str
    title: str
    kind: str
    kind_label: str
    game: str
    game_name: str
    url: str
    score: float
    snippet: str


@dataclass
class Result:
    query: str
    hits: list[Hit] = field(default_factory=list)
    suggestion: str | None = None
    message: str | None = None


def _highlight(text: str, stems: set[str], analyzer: Analyzer, mark=("«", "»"), width: int = 28) -> str:
    """A window of the text around the words whose stems the query has, with those words marked."""
    tokens = re.findall(r"\S+", text.replace("\n", " "))
    if not tokens:
        return ""
    hits = [i for i, tok in enumerate(tokens) if any(analyzer.stem(w) in stems or w in stems for w in words(tok))]
    if not hits:
        start = 0
    else:
        best = max(hits, key=lambda i: sum(1 for j in hits if i <= j < i + width))
        start = max(0, best - 4)
    window = tokens[start:start + width]
    out = [f"{mark[0]}{tok}{mark[1]}" if start + i in hits else tok for i, tok in enumerate(window)]
    return ("… " if start else "") + " ".join(out) + (" …" if start + width < len(tokens) else "")


class Engine:
    def __init__(self, folder: Path, lang: str):
        self.lang = lang
        self.ix = wix.open_dir(str(folder))
        table = json.loads((folder / "phrases.json").read_text(encoding="utf-8"))
        self.analyzer = Analyzer(lang, [(tuple(t), g) for t, g in table])
        with self.ix.searcher() as s:
            self.raw_vocab = {w.decode("utf-8") if isinstance(w, bytes) else w for w in s.lexicon("raw")}
            self.exact_names = {}
            self.games = set()
            for stored in s.all_stored_fields():
                self.games.add(stored["game"])
                self.exact_names.setdefault(" ".join(words(stored["title"])), stored["title"])

    def search(self, query: str, game: str | None = None, kind: str | None = None, limit: int = 10,
               mark=("«", "»")) -> Result:
        query = (query or "")[:MAX_QUERY]
        result = Result(query=query)
        raw = self.analyzer.raw(query)
        tokens = list(dict.fromkeys(self.analyzer.analyze(query)))
        if not tokens and not raw:
            result.message = "type a word to search for (a name, a rule, a skill...)" if self.lang == "en" else \
                "wpisz słowo do wyszukania (nazwę, zasadę, umiejętność...)"
            return result
        parts = [Term("exact", " ".join(words(query)), boost=BOOSTS["exact"])]
        for tok in tokens[:32]:
            parts.append(Or([Term(f, tok, boost=BOOSTS[f]) for f in SEARCH_FIELDS]))
        for w in raw[:12]:
            if len(w) >= 4 and w not in self.raw_vocab:
                near = typo_candidates(w, self.raw_vocab)
                if near:
                    parts.append(DisjunctionMax([Term("raw", c, boost=FUZZY_BOOST) for c in near]))
        q = Or(parts, scale=0.9)
        filters = [Term("game", game)] if game else []
        if kind:
            filters.append(Term("kind", kind))
        stems = set(tokens) | set(raw)
        with self.ix.searcher() as s:
            found = s.search(q, limit=limit, filter=And(filters) if filters else None)
            for hit in found:
                result.hits.append(Hit(key=hit["key"], title=hit["title"], kind=hit["kind"], kind_label=hit["kind_label"],
                                       game=hit["game"], game_name=hit["game_name"], url=hit["url"],
                                       score=round(hit.score, 3),
                                       snippet=_highlight(hit["snippet"], stems, self.analyzer, mark)))
        if not result.hits:
            typed = " ".join(words(query))
            close = difflib.get_close_matches(typed, list(self.exact_names), n=1, cutoff=0.5)
            if close:
                result.suggestion = self.exact_names[close[0]]
            else:
                close = difflib.get_close_matches(raw[0] if raw else typed, list(self.raw_vocab), n=1, cutoff=0.6)
                result.suggestion = close[0] if close else None
        return result
