"""`kodeks search`: the search index (search.index) scored in Python, with whoosh as the document store.

The ranking is the site's: the same index, the same query analysis (search.analysis.QueryAnalyzer, mirrored
in kodeks-search.js), the same arithmetic. Postings are held as numpy arrays, so a query costs a few
vector additions however common its words are (whoosh's matchers scored every matching posting in Python:
275 ms at the 95th percentile with 50,000 entries). whoosh keeps what the terminal shows of each entry:
its key, address, title and the text the snippet is cut from.

Queries are never parsed with a query syntax: quotes, brackets, AND/OR and other operators in what a player
types are just words.
"""
from __future__ import annotations

import bisect
import difflib
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from whoosh import index as wix
from whoosh.fields import STORED, Schema

from ..model.kb import KnowledgeBase
from ..textfold import fold_in_place
from .analysis import Analyzer, QueryAnalyzer, words
from .documents import exact_token
from .index import LAST, MORE, VERSION, Built, build as build_shared, derive, idf

MAX_QUERY = 1000
MAX_GROUPS = 40  # query words, glossary phrases and word beginnings scored (kodeks-search.js: the same)
MAX_TYPOS = 12  # query words looked up for typos


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

def schema() -> Schema:
    # Stored, not indexed: documents are fetched by number, never looked up by a field. An indexed number
    # field wrote nine postings per document, which was half of the time whoosh took to write the store.
    return Schema(n=STORED(), key=STORED(), game=STORED(), kind=STORED(),
                  url=STORED(), title=STORED(), game_name=STORED(), kind_label=STORED(), snippet=STORED())


def build(kb: KnowledgeBase, lang: str, folder: Path, built: Built | None = None) -> int:
    """Write the search folder of one language (replaced whole): the index and whoosh's document store;
    returns the number of documents. `built` is the language's index if the caller has it already."""
    built = built or build_shared(kb, lang)
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    ix = wix.create_in(str(tmp), schema())
    writer = ix.writer(limitmb=256)
    for i, d in enumerate(built.docs):
        writer.add_document(n=i, key=d.key, game=d.game, kind=d.kind, url=d.url, title=d.title,
                            game_name=d.game_name, kind_label=d.kind_label, snippet=d.snippet[:4000])
    writer.commit()
    (tmp / "index.json").write_text(json.dumps(built.index, ensure_ascii=False, separators=(",", ":")),
                                    encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return len(built.docs)


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


def _highlight(text: str, pattern: re.Pattern | None, mark=("«", "»"), width: int = 28) -> str:
    """A window of the text around the words `pattern` finds (in the folded text), with those words marked."""
    # The snippet comes from the start of the text: a long rule need not be scanned to its end.
    text = text[:SNIPPET_SCAN].replace("\n", " ")
    spans = [m.start() for m in re.finditer(r"\S+", text)]
    if not spans:
        return ""
    tokens = text.split()
    hits: list[int] = []
    if pattern is not None:
        folded = fold_in_place(text).replace(".", "-")
        hits = sorted({bisect.bisect_right(spans, m.start()) - 1 for m in pattern.finditer(folded)})
    if not hits:
        start = 0
    else:
        best = max(hits, key=lambda i: bisect.bisect_left(hits, i + width) - bisect.bisect_left(hits, i))
        start = max(0, best - 4)
    chosen = set(hits)
    window = tokens[start:start + width]
    out = [f"{mark[0]}{tok}{mark[1]}" if start + i in chosen else tok for i, tok in enumerate(window)]
    return ("… " if start else "") + " ".join(out) + (" …" if start + width < len(tokens) else "")


_DIGITS = np.full(128, -1, dtype=np.int64)
_DIGITS[np.frombuffer(LAST.encode("ascii"), np.uint8)] = np.arange(32)
_DIGITS[np.frombuffer(MORE.encode("ascii"), np.uint8)] = np.arange(32, 64)


def _decode_all(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """search.index.decode of many texts at once: (all their numbers, how many numbers each text holds)."""
    codes = _DIGITS[np.frombuffer("".join(texts).encode("ascii"), np.uint8)]
    last = codes < 32
    ends = np.flatnonzero(last)
    values = codes[ends].copy()
    starts = np.concatenate(([0], ends[:-1] + 1))
    scale, back = 32, 1
    while True:  # add the leading digits, one place at a time (numbers here have two or three)
        at = ends - back
        has = at >= starts
        if not has.any():
            break
        values[has] += (codes[at[has]] - 32) * scale
        scale *= 32
        back += 1
    bounds = np.concatenate(([0], np.cumsum([len(t) for t in texts], dtype=np.int64)))
    finished = np.concatenate(([0], np.cumsum(last)))
    return values, finished[bounds[1:]] - finished[bounds[:-1]]


def current(folder: Path) -> bool:
    """Whether `folder` holds a search index this version of kodeks reads."""
    try:
        with (folder / "index.json").open(encoding="utf-8") as fh:
            head = fh.read(64)
    except OSError:
        return False
    return head.startswith(f'{{"v":{VERSION},') and wix.exists_in(str(folder))


class _Postings:
    """Every token's postings in two flat arrays (document numbers, weights), sliced by token."""

    def __init__(self, tables: list[dict[str, str] | dict[str, dict[int, float]]]):
        self.where: dict[str, tuple[int, int]] = {}
        encoded, derived = {}, {}
        for table in tables:
            for tok, value in table.items():
                if tok not in encoded and tok not in derived:
                    (encoded if isinstance(value, str) else derived)[tok] = value
        numbers, counts = _decode_all(list(encoded.values()))
        lengths = counts // 2
        gaps, weights = numbers[0::2], numbers[1::2]
        # Document numbers: one running sum over all tokens, less the sum where each token starts.
        total = np.cumsum(gaps)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
        before = np.concatenate(([0], total))[starts]
        docs = total - np.repeat(before, lengths)
        for tok, start, n in zip(encoded, starts.tolist(), lengths.tolist()):
            self.where[tok] = (start, start + n)
        size = len(docs)
        extra_docs, extra_weights = [], []
        for tok, table in derived.items():
            self.where[tok] = (size, size + len(table))
            size += len(table)
            extra_docs += list(table)
            extra_weights += list(table.values())
        self.docs = np.concatenate((docs, np.array(extra_docs, dtype=np.int64)))
        self.weights = np.concatenate((weights.astype(np.float64), np.array(extra_weights, dtype=np.float64)))

    def get(self, tok: str):
        span = self.where.get(tok)
        return None if span is None else (self.docs[span[0]:span[1]], self.weights[span[0]:span[1]])


class Engine:
    def __init__(self, folder: Path, lang: str):
        self.lang = lang
        index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
        self.n = index["n"]
        self.scale = index["scale"]
        self.exact_boost = index["exactBoost"]
        self.prefer_factor = index["prefer"]
        vocab = {}
        self.forms: dict[str, list[str]] = {}  # token -> the words of the texts that give it
        for stem, ends in index["words"].items():
            for end in ends:
                w = end[1:] if end.startswith("=") else stem + end
                vocab[w] = stem
                self.forms.setdefault(stem, []).append(w)
        self.analyzer = Analyzer(lang, [(tuple(t), g) for t, g in index["phrases"]])
        self.reader = QueryAnalyzer(self.analyzer, vocab)
        prefix, self.exact = derive(index)
        self.postings = _Postings([index["postings"], prefix])
        self.raw = _Postings([index["raw"]])
        self.raw_vocab = set(index["raw"])
        self.raw_buckets: dict[tuple[str, int], list[str]] = {}
        for w in self.raw_vocab:
            self.raw_buckets.setdefault((w[:1], len(w)), []).append(w)
        groups = index["groups"]  # [kind label, game name, kind, game]
        self.games = {g[3] for g in groups}
        doc_group = np.array([d[2] for d in index["docs"]], dtype=np.int64)
        self.doc_game = np.array([groups[g][3] for g in range(len(groups))], dtype=object)[doc_group] \
            if groups else np.array([], dtype=object)
        self.doc_kind = np.array([groups[g][2] for g in range(len(groups))], dtype=object)[doc_group] \
            if groups else np.array([], dtype=object)
        self.exact_names = {}
        for d in index["docs"]:
            self.exact_names.setdefault(" ".join(words(d[0])), d[0])
        self.ix = wix.open_dir(str(folder))
        self._searcher = None

    def _score(self, groups: list[list[str]], raw: list[str], exact: str) -> np.ndarray:
        """The score of every document: kodeks-search.js `search`, step for step."""
        n = self.n
        scores = np.zeros(n)
        matched = np.zeros(n)
        for group in groups:
            hit = np.zeros(n, dtype=bool)
            for tok in group:
                p = self.postings.get(tok)
                if p is None:
                    continue
                docs, weights = p
                scores[docs] += idf(n, len(docs)) * weights / self.scale
                hit[docs] = True
            matched += hit
        exact_docs = self.exact.get(exact, [])
        if exact_docs:
            scores[exact_docs] += self.exact_boost * idf(n, len(exact_docs))
            matched[exact_docs] = len(groups)
        for w in raw[:MAX_TYPOS]:
            if len(w) < 4 or w in self.raw_vocab:
                continue
            top = np.zeros(n)  # per document the best of the candidates, as whoosh's DisjunctionMax did
            for cand in typo_candidates(w, self.raw_buckets):
                docs, weights = self.raw.get(cand)
                np.maximum.at(top, docs, idf(n, len(docs)) * weights / self.scale)
            scores += top
        if groups:
            scores = scores * (0.1 + 0.9 * matched / len(groups))
        return scores

    def _pattern(self, tokens: set[str]) -> re.Pattern | None:
        """A regular expression for the folded words of a text that give one of `tokens`."""
        forms = {w for t in tokens for w in self.forms.get(t, ())} | {t for t in tokens if t[:1] != "^"}
        if not forms:
            return None
        alternatives = "|".join(re.escape(w) for w in sorted(forms, key=lambda w: (-len(w), w)))
        return re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])")

    def search(self, query: str, game: str | None = None, kind: str | None = None, limit: int = 10,
               mark=("«", "»"), prefer: str | None = None) -> Result:
        """`game` and `kind` filter; `prefer` ranks one game's entries higher (the game whose pages the
        player is reading), as the site's search does on that game's pages."""
        query = (query or "")[:MAX_QUERY]
        result = Result(query=query)
        groups, raw = self.reader.groups(query)
        groups = groups[:MAX_GROUPS]
        if not groups:
            result.message = "type a word to search for (a name, a rule, a skill...)" if self.lang == "en" else \
                "wpisz słowo do wyszukania (nazwę, zasadę, umiejętność...)"
            return result
        scores = self._score(groups, raw, exact_token(query))
        if prefer:
            scores = scores * np.where(self.doc_game == prefer, self.prefer_factor, 1.0)
        if game:
            scores[self.doc_game != game] = 0
        if kind:
            scores[self.doc_kind != kind] = 0
        found = np.flatnonzero(scores > 0)
        if len(found) > limit:
            # The `limit` best, and any that tie with the last of them (ties go to the earlier document).
            cut = np.partition(scores[found], len(found) - limit)[len(found) - limit]
            found = found[scores[found] >= cut]
        order = found[np.lexsort((found, -scores[found]))][:limit]
        pattern = self._pattern({t for g in groups for t in g} | set(raw))
        if self._searcher is None:
            # One searcher for the engine's life: opening one per query costs more than many queries.
            self._searcher = self.ix.searcher()
        for doc in order:
            stored = self._searcher.stored_fields(int(doc))
            if stored["n"] != doc:
                raise RuntimeError(f"search index {self.ix} is out of step with its documents; rebuild it")
            result.hits.append(Hit(key=stored["key"], title=stored["title"], kind=stored["kind"],
                                   kind_label=stored["kind_label"], game=stored["game"],
                                   game_name=stored["game_name"], url=stored["url"],
                                   score=round(float(scores[doc]), 3),
                                   snippet=_highlight(stored["snippet"], pattern, mark)))
        if not result.hits:
            typed = " ".join(words(query))
            close = difflib.get_close_matches(typed, list(self.exact_names), n=1, cutoff=0.5)
            if close:
                result.suggestion = self.exact_names[close[0]]
            else:
                close = difflib.get_close_matches(raw[0] if raw else typed, list(self.raw_vocab), n=1, cutoff=0.6)
                result.suggestion = close[0] if close else None
        return result
