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
from .documents import BOOSTS, concept_tags, documents, phrases

K1, B = 1.2, 0.75
from .engine import FUZZY_BOOST
FIELDS = ("name", "alias", "summary", "body")


def build_index(kb: KnowledgeBase, lang: str) -> dict:
    table = phrases(kb, lang)
    analyzer = Analyzer(lang, table)
    tags = concept_tags(kb, lang)
    targeted = {str(e.key) for e in kb.entries.values() if e.kind == "term" and e.target is not None}
    docs = documents(kb, lang)
    per_doc: list[dict[str, list[str]]] = []
    stems: dict[str, str] = {}
    raw_fields: list[list[str]] = []
    exact: dict[str, list[int]] = defaultdict(list)
    for i, d in enumerate(docs):
        fields = {"name": analyzer.analyze(d.name) + ([tags[d.key]] if d.key in tags else []),
                  "alias": analyzer.analyze(d.alias), "summary": analyzer.analyze(d.summary),
                  "body": analyzer.analyze(d.body)}
        if d.key in targeted:
            fields["alias"], fields["name"] = fields["name"] + fields["alias"], []
        else:
            exact[d.exact].append(i)
        per_doc.append(fields)
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
    for i, fields in enumerate(per_doc):
        for f in FIELDS:
            toks = fields[f]
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
    postings = {}
    for tok, docs_w in weights.items():
        flat = []
        for i in sorted(docs_w):
            flat += [i, max(1, round(docs_w[i] * 10))]
        postings[tok] = flat
    # Words stemmed to themselves need no entry: the browser falls back to the word.
    stem_table = {w: s for w, s in stems.items() if s != w}
    return {
        "v": 1, "lang": lang, "n": len(docs), "k1": K1, "exactBoost": BOOSTS["exact"],
        "docs": [[d.title, d.url, d.kind_label, d.game_name, d.kind, d.game, _short(d.summary or d.body)]
                 for d in docs],
        "vocab": sorted(stems),
        "stems": stem_table,
        "stop": sorted(STOP[lang]),
        "phrases": [[list(t), g] for t, g in table],
        "postings": postings,
        "exact": {k: v for k, v in exact.items() if k},
        "raw": {w: [x for i in sorted(ds) for x in (i, max(1, round(ds[i] * 10)))] for w, ds in raw_w.items()},
        "idf": "whoosh",  # log(N / (df + 1)) + 1, as whoosh's BM25F computes it
    }


def _short(text: str, n: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n].rsplit(" ", 1)[0] + "…"


def script(index: dict) -> str:
    body = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return f"window.KODEKS_INDEX={body};\n"


def idf(n_docs: int, df: int) -> float:
    return math.log(n_docs / (df + 1)) + 1
