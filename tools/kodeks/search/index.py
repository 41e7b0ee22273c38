"""The search index of one language: one analysis, scored by two engines.

Both `kodeks search` (search.engine, in Python) and the site (assets/kodeks-search.js, in the browser) read
this index and score it the same way, so a query ranks the same entries first in the terminal and on the
site. Per token, the postings carry a precomputed weight per document (BM25F over the fields name, alias,
summary and body, each with its boost); at query time a token's weight is multiplied by its idf, documents
add up the weights of the tokens they match, and documents that match more of the query's words rank higher.

The browser cannot run a Snowball stemmer, but the vocabulary is finite: the index carries, for every folded
word of the texts and of the glossary forms, the token the analyzer gives it.

Two parts of the index are not shipped but rebuilt by both engines when they load it (`derive`), because
they follow from what is shipped: the "same beginning" tokens (^ and a name word's first five letters) come
from the name words kept for typo matching, and every entry's title is an exact name of it.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass

from ..model.kb import KnowledgeBase
from .analysis import Analyzer, STOP
from .documents import (BOOSTS, FIELDS, PREFIX, Doc, common_body_tokens, concept_tags, documents, exact_token,
                        fields, phrases)

K1, B = 1.2, 0.75
WEIGHT_SCALE = 2  # weights travel as integers: half points are precise enough to rank
PREFER = 4.0  # how much the game the player is reading counts over the others
FUZZY_BOOST = 3.0  # a name word one letter off, against an exact body word's 1.0
VERSION = 3


@dataclass
class Built:
    docs: list[Doc]
    index: dict
    summaries: list[str]  # a line of each document's summary, for the list of results; not needed to rank


def build(kb: KnowledgeBase, lang: str) -> Built:
    table = phrases(kb, lang)
    analyzer = Analyzer.shared(lang, table)
    tags = concept_tags(kb, lang)
    docs = documents(kb, lang)
    per_doc: list[dict[str, list[str]]] = []
    stems: dict[str, str] = {}
    raw_fields: list[list[str]] = []
    exact: dict[str, list[int]] = defaultdict(list)
    common = common_body_tokens(analyzer, docs)
    stop = STOP[lang]
    for i, d in enumerate(docs):
        per_doc.append(fields(analyzer, d, tags, common))
        title = exact_token(d.title)
        for token in d.exact:
            if token and token != title:  # the title's own exact name is derived, not shipped
                exact[token].append(i)
        for text in (d.name, d.alias, d.summary, d.body):
            for w in analyzer.vocabulary(text):
                if w not in stems:
                    stems[w] = analyzer.stem(w)
        raw_fields.append(analyzer.raw(d.name + " " + d.alias))
    for toks, _ in table:
        for w in toks:
            stems.setdefault(w, analyzer.stem(w))
    weights = _bm25f(per_doc)
    # Typo matching works on unstemmed name words, weighted like a field (short names count more).
    raw_avg = (sum(len(r) for r in raw_fields) / max(len(raw_fields), 1)) or 1.0
    raw_w: dict[str, dict[int, float]] = defaultdict(dict)
    for i, toks in enumerate(raw_fields):
        norm = K1 * (1 - B + B * len(toks) / raw_avg)
        for tok, tf in Counter(toks).items():
            raw_w[tok][i] = FUZZY_BOOST * tf * (K1 + 1) / (tf + norm)
    # Each stem once with the endings of the words that stem to it ("kamuflaz": ["", "em", "u"]); a word that
    # does not start with its stem is written whole after "=". Both engines rebuild word -> stem from this.
    by_stem: dict[str, list[str]] = defaultdict(list)
    for w, st in sorted(stems.items()):
        by_stem[st].append(w[len(st):] if w.startswith(st) else "=" + w)
    groups = sorted({(d.kind_label, d.game_name, d.kind, d.game) for d in docs})
    group_ix = {g: i for i, g in enumerate(groups)}
    index = {
        "v": VERSION, "lang": lang, "n": len(docs), "exactBoost": BOOSTS["exact"], "scale": WEIGHT_SCALE,
        "prefer": PREFER, "prefix": [PREFIX, BOOSTS["prefix"] / FUZZY_BOOST],
        "groups": [list(g) for g in groups],  # [kind label, game name, kind, game]
        "docs": [[d.title, d.url.rsplit("/", 3)[-1].removesuffix(".html"),
                  group_ix[(d.kind_label, d.game_name, d.kind, d.game)]] for d in docs],
        "words": by_stem,
        "stop": sorted(stop),
        "phrases": [[list(t), g] for t, g in table],
        "postings": {tok: _delta(docs_w) for tok, docs_w in weights.items()},
        "exact": dict(exact),
        "raw": {w: _delta(ds) for w, ds in raw_w.items()},
    }
    return Built(docs, index, [_short(d.summary or d.body) for d in docs])


def build_index(kb: KnowledgeBase, lang: str) -> dict:
    return build(kb, lang).index


def _bm25f(per_doc: list[dict[str, list[str]]]) -> dict[str, dict[int, float]]:
    """token -> {document: the sum over fields of boost × BM25 term frequency}; the idf comes at query time."""
    avg = {f: (sum(len(fd[f]) for fd in per_doc) / max(len(per_doc), 1)) or 1.0 for f in FIELDS}
    weights: dict[str, dict[int, float]] = defaultdict(dict)
    for i, fd in enumerate(per_doc):
        for f in FIELDS:
            toks = fd[f]
            if not toks:
                continue
            norm = K1 * (1 - B + B * len(toks) / avg[f])
            boost = BOOSTS[f]
            for tok, tf in Counter(toks).items():
                w = boost * tf * (K1 + 1) / (tf + norm)
                weights[tok][i] = weights[tok].get(i, 0.0) + w
    return weights


def _delta(docs_w: dict[int, float]) -> str:
    """Document gap, weight × scale, gap, weight...: gaps between sorted document numbers are small, and
    small numbers are one character each (see `encode`)."""
    flat, last = [], 0
    for i in sorted(docs_w):
        flat += [i - last, max(1, round(docs_w[i] * WEIGHT_SCALE))]
        last = i
    return encode(flat)


# Numbers in base 32, most significant digit first: a digit with more to follow is a letter of MORE, the last
# digit one of LAST. No separators; a number under 32 is one character. Decimal numbers with commas, as JSON
# writes them, made the postings 9% larger (gzipped).
LAST = "0123456789abcdefghijklmnopqrstuv"
MORE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ-_.~!*"


def _encode_one(n: int) -> str:
    digits = [n & 31]
    n >>= 5
    while n:
        digits.append(n & 31)
        n >>= 5
    return "".join(MORE[d] for d in reversed(digits[1:])) + LAST[digits[0]]


_CODES = [_encode_one(n) for n in range(32 ** 2)]  # numbers of one or two digits (most of them), looked up


def encode(numbers: list[int]) -> str:
    codes, top = _CODES, len(_CODES)
    return "".join(codes[n] if n < top else _encode_one(n) for n in numbers)


_DIGIT = {c: (i, False) for i, c in enumerate(LAST)} | {c: (i, True) for i, c in enumerate(MORE)}


def decode(text: str) -> list[int]:
    out, n = [], 0
    for c in text:
        d, more = _DIGIT[c]
        n = n * 32 + d
        if not more:
            out.append(n)
            n = 0
    return out


def _short(text: str, n: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n].rsplit(" ", 1)[0] + "…"


def idf(n_docs: int, df: int) -> float:
    return math.log(n_docs / (df + 1)) + 1


def postings(encoded: str) -> tuple[list[int], list[int]]:
    """Encoded gap, weight, ... -> (document numbers, weights)."""
    flat = decode(encoded)
    docs, doc = [], 0
    for gap in flat[0::2]:
        doc += gap
        docs.append(doc)
    return docs, flat[1::2]


def derive(index: dict) -> tuple[dict[str, dict[int, float]], dict[str, list[int]]]:
    """What both engines rebuild when they load an index: the "same beginning" postings (a name word's first
    letters, weighted from the typo postings of the words that start so: ^kamuf from kamuflaz and kamuflazu)
    and the exact names (the shipped ones and every title). kodeks-search.js `prepare` does the same, in the
    same order, so the two engines add the same numbers."""
    size, factor = index["prefix"]
    prefix: dict[str, dict[int, float]] = {}
    for w, flat in index["raw"].items():
        if len(w) < 3 or w[:1].isdigit():
            continue
        table = prefix.setdefault("^" + w[:size], {})
        for d, x in zip(*postings(flat)):
            table[d] = table.get(d, 0.0) + x * factor
    exact = {k: list(v) for k, v in index["exact"].items()}
    for i, d in enumerate(index["docs"]):
        token = exact_token(d[0])
        if token:
            ds = exact.setdefault(token, [])
            if i not in ds:
                ds.append(i)
    return prefix, exact
