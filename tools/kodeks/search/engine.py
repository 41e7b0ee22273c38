"""The whoosh index (one per language) and the search behind `kodeks search`.

whoosh is unmaintained, so it stays behind this module. Documents are analysed by kodeks' own analyzer
(search.analysis) and stored in whoosh as ready-made tokens; queries are analysed the same way and built
as whoosh query objects directly (never parsed with whoosh's query syntax), so quotes, brackets, AND/OR
and other operators in what a player types are just words.
"""
from __future__ import annotations

import difflib
import json
import math
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from whoosh import index as wix
from whoosh.analysis import SpaceSeparatedTokenizer
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.query import And, DisjunctionMax, Or, Term
from whoosh.scoring import BM25F

from ..model.kb import KnowledgeBase
from .analysis import Analyzer, QueryAnalyzer, words
from .documents import (BOOSTS, common_body_tokens, concept_tags, documents, exact_token, fields, phrases,
                        prefix_tokens)

MAX_QUERY = 1000
PREFER = 4.0  # how much the game the player is reading counts over the others
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
    letter must match. The browser search applies the same rule. `vocab` may be a dict of buckets
    {(first letter, length): words} (see Engine) or any iterable of words."""
    limit = 1 if len(word) < 8 else 2
    best, out = limit + 1, []
    if isinstance(vocab, dict):
        pool = [w for n in range(len(word) - limit, len(word) + limit + 1) for w in vocab.get((word[:1], n), ())]
    else:
        pool = vocab
    for cand in pool:
        if cand[:1] != word[:1]:
            continue
        d = edit_distance(word, cand, limit)
        if d < best:
            best, out = d, [cand]
        elif d == best and d <= limit:
            out.append(cand)
    return sorted(out) if best <= limit else []
FIELDS = ("name", "alias", "prefix", "summary", "body")


def schema() -> Schema:
    tok = SpaceSeparatedTokenizer()
    return Schema(
        key=ID(stored=True, unique=True), game=ID(stored=True), kind=ID(stored=True),
        url=STORED(), title=STORED(), game_name=STORED(), kind_label=STORED(), snippet=STORED(),
        exact=TEXT(analyzer=tok, phrase=False),
        name=TEXT(analyzer=tok, phrase=False),
        alias=TEXT(analyzer=tok, phrase=False),
        prefix=TEXT(analyzer=tok, phrase=False),
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
    analyzer = Analyzer.shared(lang, table)
    tags = concept_tags(kb, lang)
    ix = wix.create_in(str(tmp), schema())
    writer = ix.writer(limitmb=256)
    docs = documents(kb, lang)
    df: dict[str, int] = {}
    raw_df: dict[str, int] = {}
    exact_df: dict[str, int] = {}
    vocab: dict[str, str] = {}
    common = common_body_tokens(analyzer, docs)
    for d in docs:
        for text in (d.name, d.alias, d.summary, d.body):
            for w in words(text):
                if w not in analyzer.stop and w not in vocab:
                    vocab[w] = analyzer.stem(w)
        f = fields(analyzer, d, tags, common)
        for tok in {t for toks in f.values() for t in toks}:
            df[tok] = df.get(tok, 0) + 1
        for tok in set(analyzer.raw(d.name + " " + d.alias)):
            raw_df[tok] = raw_df.get(tok, 0) + 1
        for tok in d.exact:
            exact_df[tok] = exact_df.get(tok, 0) + 1
        writer.add_document(
            key=d.key, game=d.game, kind=d.kind, url=d.url, title=d.title, game_name=d.game_name,
            kind_label=d.kind_label, snippet=d.snippet[:4000], exact=" ".join(d.exact),
            name=" ".join(f["name"]), alias=" ".join(f["alias"]), prefix=" ".join(f["prefix"]),
            summary=" ".join(f["summary"]), body=" ".join(f["body"]),
            raw=" ".join(analyzer.raw(d.name + " " + d.alias)))
    writer.commit()
    (tmp / "phrases.json").write_text(json.dumps([[list(t), g] for t, g in table], ensure_ascii=False), encoding="utf-8")
    for toks, _ in table:
        for w in toks:
            vocab.setdefault(w, analyzer.stem(w))
    (tmp / "df.json").write_text(json.dumps({"n": len(docs), "df": df, "raw": raw_df, "exact": exact_df,
                                             "vocab": vocab}, ensure_ascii=False), encoding="utf-8")
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


SNIPPET_SCAN = 2000  # characters of a text searched for the best snippet window


def _highlight(text: str, stems: set[str], analyzer: Analyzer, mark=("«", "»"), width: int = 28) -> str:
    """A window of the text around the words whose stems the query has, with those words marked."""
    # The snippet comes from the start of the text: a long rule need not be scanned to its end.
    tokens = re.findall(r"\S+", text[:SNIPPET_SCAN].replace("\n", " "))
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


def idf(n_docs: int, df: int) -> float:
    """whoosh's idf, over whole documents (all fields together), as the browser index computes it."""
    return math.log(n_docs / (df + 1)) + 1


class Weighting(BM25F):
    """BM25F per field, with one idf per token over whole documents, and no length penalty on exact names:
    the scoring the browser index reproduces."""

    def __init__(self, tables: dict):
        super().__init__(B=0.75, K1=1.2, exact_B=0.0)
        self.tables = tables

    def idf(self, searcher, fieldname, text):
        text = text.decode("utf-8") if isinstance(text, bytes) else text
        table = {"raw": "raw", "exact": "exact"}.get(fieldname, "df")
        return idf(self.tables["n"], self.tables[table].get(text, 0))


def coverage(score: float, matched: int, total: int) -> float:
    """Documents that match more of the query's words rank higher (the browser applies the same factor)."""
    return score * (0.1 + 0.9 * matched / total) if total else score


class Engine:
    def __init__(self, folder: Path, lang: str):
        self.lang = lang
        self.ix = wix.open_dir(str(folder))
        self.tables = json.loads((folder / "df.json").read_text(encoding="utf-8"))
        self.weighting = Weighting(self.tables)
        table = json.loads((folder / "phrases.json").read_text(encoding="utf-8"))
        self.analyzer = Analyzer(lang, [(tuple(t), g) for t, g in table])
        self.reader = QueryAnalyzer(self.analyzer, self.tables["vocab"])
        self._searcher = None
        with self.ix.searcher() as s:
            self.raw_vocab = {w.decode("utf-8") if isinstance(w, bytes) else w for w in s.lexicon("raw")}
            self.raw_buckets: dict[tuple[str, int], list[str]] = {}
            for w in self.raw_vocab:
                self.raw_buckets.setdefault((w[:1], len(w)), []).append(w)
            self.exact_names = {}
            self.games = set()
            for stored in s.all_stored_fields():
                self.games.add(stored["game"])
                self.exact_names.setdefault(" ".join(words(stored["title"])), stored["title"])

    def search(self, query: str, game: str | None = None, kind: str | None = None, limit: int = 10,
               mark=("«", "»"), prefer: str | None = None) -> Result:
        """`game` and `kind` filter; `prefer` ranks one game's entries higher (the game whose pages the
        player is reading), as the site's search does on that game's pages."""
        query = (query or "")[:MAX_QUERY]
        result = Result(query=query)
        groups, raw = self.reader.groups(query)
        groups = groups[:40]
        tokens = [t for g in groups for t in g]
        if not groups:
            result.message = "type a word to search for (a name, a rule, a skill...)" if self.lang == "en" else \
                "wpisz słowo do wyszukania (nazwę, zasadę, umiejętność...)"
            return result
        exact = exact_token(query)
        parts = [Term("exact", exact, boost=BOOSTS["exact"])]
        for group in groups:
            parts.append(Or([Term(f, tok, boost=BOOSTS[f]) for tok in group for f in FIELDS]))
        for w in raw[:12]:
            if len(w) >= 4 and w not in self.raw_vocab:
                near = typo_candidates(w, self.raw_buckets)
                if near:
                    parts.append(DisjunctionMax([Term("raw", c, boost=FUZZY_BOOST) for c in near]))
        q = Or(parts)
        filters = [Term("game", game)] if game else []
        if kind:
            filters.append(Term("kind", kind))
        stems = set(tokens) | set(raw)
        if self._searcher is None:
            # One searcher for the engine's life: opening one per query costs more than many queries.
            self._searcher = self.ix.searcher(weighting=self.weighting)
        s = self._searcher
        found = s.search(q, limit=max(limit * 5, 50), filter=And(filters) if filters else None, terms=True)
        ranked = []
        for hit in found:
            matched_tokens = {t.decode("utf-8") if isinstance(t, bytes) else t for f, t in hit.matched_terms()
                              if f not in ("raw",)}
            if any(f == "exact" for f, _ in hit.matched_terms()):
                m = len(groups)
            else:
                m = sum(1 for g in groups if any(t in matched_tokens for t in g))
            score = coverage(hit.score, m, len(groups)) * (PREFER if prefer and hit["game"] == prefer else 1.0)
            ranked.append((score, hit.docnum, hit))
        ranked.sort(key=lambda r: (-r[0], r[1]))
        for score, _, hit in ranked[:limit]:
            result.hits.append(Hit(key=hit["key"], title=hit["title"], kind=hit["kind"], kind_label=hit["kind_label"],
                                   game=hit["game"], game_name=hit["game_name"], url=hit["url"],
                                   score=round(score, 3),
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
