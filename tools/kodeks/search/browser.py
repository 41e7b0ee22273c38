"""The site's search index: the same analysis as the whoosh index, exported for the browser.

The browser cannot run a Snowball stemmer, but the vocabulary is finite: the index carries, for every
folded word of the texts and of the glossary forms, the token the Python analyzer gives it. The browser
folds the query, looks its words up (prefix matching for words the table lacks), adds the glossary tags,
and scores postings weighted the way the whoosh index weighs its fields (BM25F). One analysis, two engines.
The index is a script (window.KODEKS_INDEX = ...), so it loads from file:// too.
"""
from __future__ import annotations

import json
import math
from collections import Counter, defaultdict

from ..model.kb import KnowledgeBase
from .analysis import Analyzer, STOP, words
from .documents import BOOSTS, FIELDS, common_body_tokens, concept_tags, documents, fields, phrases

from .engine import FUZZY_BOOST, PREFER

K1, B = 1.2, 0.75
WEIGHT_SCALE = 4  # weights travel as integers: quarter points are precise enough to rank


def build_index(kb: KnowledgeBase, lang: str) -> dict:
    table = phrases(kb, lang)
    analyzer = Analyzer.shared(lang, table)
    tags = concept_tags(kb, lang)
    docs = documents(kb, lang)
    per_doc: list[dict[str, list[str]]] = []
    stems: dict[str, str] = {}
    raw_fields: list[list[str]] = []
    exact: dict[str, list[int]] = defaultdict(list)
    common = common_body_tokens(analyzer, docs)
    for i, d in enumerate(docs):
        per_doc.append(fields(analyzer, d, tags, common))
        for token in d.exact:
            exact[token].append(i)
        for text in (d.name, d.alias, d.summary, d.body):
            for w in words(text):
                if w not in STOP[lang] and w not in stems:
                    stems[w] = analyzer.stem(w)
        raw_fields.append(analyzer.raw(d.name + " " + d.alias))
    for toks, _ in table:
        for w in toks:
            stems.setdefault(w, analyzer.stem(w))
    avg = {f: (sum(len(fd[f]) for fd in per_doc) / max(len(per_doc), 1)) or 1.0 for f in FIELDS}
    weights: dict[str, dict[int, float]] = defaultdict(dict)
    for i, fd in enumerate(per_doc):
        for f in FIELDS:
            toks = fd[f]
            if not toks:
                continue
            norm = K1 * (1 - B + B * len(toks) / avg[f])
            for tok, tf in Counter(toks).items():
                w = BOOSTS[f] * tf * (K1 + 1) / (tf + norm)
                weights[tok][i] = weights[tok].get(i, 0.0) + w
    # Typo matching works on unstemmed name words, weighted like a field (short names count more).
    raw_avg = (sum(len(r) for r in raw_fields) / max(len(raw_fields), 1)) or 1.0
    raw_w: dict[str, dict[int, float]] = defaultdict(dict)
    for i, toks in enumerate(raw_fields):
        norm = K1 * (1 - B + B * len(toks) / raw_avg)
        for tok, tf in Counter(toks).items():
            raw_w[tok][i] = FUZZY_BOOST * tf * (K1 + 1) / (tf + norm)
    postings = {tok: _delta(docs_w) for tok, docs_w in weights.items()}
    # Each stem once with the endings of the words that stem to it ("kamuflaz": ["", "em", "u"]); a word that
    # does not start with its stem is written whole after "=". The browser rebuilds word -> stem from this.
    by_stem: dict[str, list[str]] = defaultdict(list)
    for w, st in sorted(stems.items()):
        by_stem[st].append(w[len(st):] if w.startswith(st) else "=" + w)
    groups = sorted({(d.kind_label, d.game_name, d.kind, d.game) for d in docs})
    group_ix = {g: i for i, g in enumerate(groups)}
    return {
        "v": 2, "lang": lang, "n": len(docs), "exactBoost": BOOSTS["exact"], "scale": WEIGHT_SCALE, "prefer": PREFER,
        "groups": [list(g) for g in groups],  # [kind label, game name, kind, game]
        "docs": [[d.title, d.url.rsplit("/", 3)[-1].removesuffix(".html"),
                  group_ix[(d.kind_label, d.game_name, d.kind, d.game)], _short(d.summary or d.body)] for d in docs],
        "words": by_stem,
        "stop": sorted(STOP[lang]),
        "phrases": [[list(t), g] for t, g in table],
        "postings": postings,
        "exact": {k: v for k, v in exact.items() if k},
        "raw": {w: _delta(ds) for w, ds in raw_w.items()},
    }


def _delta(docs_w: dict[int, float]) -> list[int]:
    """[doc gap, weight × 10, ...]: gaps between sorted document numbers compress well."""
    flat, last = [], 0
    for i in sorted(docs_w):
        flat += [i - last, max(1, round(docs_w[i] * WEIGHT_SCALE))]
        last = i
    return flat


def _short(text: str, n: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n].rsplit(" ", 1)[0] + "…"


def script(index: dict) -> str:
    body = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return f"window.KODEKS_INDEX={body};\n"


def idf(n_docs: int, df: int) -> float:
    return math.log(n_docs / (df + 1)) + 1
