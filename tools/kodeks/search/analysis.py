"""The analysis both search engines share.

Text -> words (numbers like 5.7.2 kept whole) -> folded (lowercase, no diacritics, ł -> l) -> stop words
dropped -> stemmed (Snowball Polish or English, on the folded word, so 'kamuflazem' typed without Polish
letters stems like 'kamuflażem'). Glossary terms add one more token: every inflected form of a term (one
word or several) is recognised and emits the term's tag, so 'walce wręcz' finds 'walka wręcz' although
the stemmer gives them different stems.
"""
from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

from ..textfold import fold

WORD_RE = re.compile(r"\d+(?:\.\d+)+|[^\W_]+", re.UNICODE)

STOP = {
    "pl": set("""a aby albo ale ani bo by być być co czy dla do gdy go i ich im in jak jako jest jego jej jeśli
              już lub ma mają może na nad nie niż o od oraz po pod przez przy się są ta tak te tego tej to tu
              tylko tym w we z za ze że i""".split()),
    "en": set("""a an and are as at be by for from has have if in into is it its of on or that the their then
              there these this to was were when which with""".split()),
}
STOP = {lang: {fold(w) for w in words} for lang, words in STOP.items()}
STEMMERS = {"pl": "polish", "en": "english"}


def words(text: str) -> list[str]:
    """Folded words; a dotted number (a rule number) stays one word with dots turned into hyphens."""
    return [_fold_word(w) for w in WORD_RE.findall(text or "")]


@lru_cache(maxsize=500_000)
def _fold_word(word: str) -> str:
    # Texts repeat a vocabulary of some tens of thousands of words millions of times: fold each once.
    return fold(word).replace(".", "-")


class Analyzer:
    def __init__(self, lang: str, phrases: list[tuple[tuple[str, ...], str]] | None = None):
        self.lang = lang
        self._stemmer = Stemmer.Stemmer(STEMMERS[lang])
        self.stop = STOP[lang]
        self.phrases: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for toks, tag in phrases or []:
            self.phrases.setdefault(toks[0], []).append((toks, tag))
        for first in self.phrases:
            self.phrases[first].sort(key=lambda p: -len(p[0]))  # longest form wins
        self.stem = lru_cache(maxsize=200_000)(self._stem)
        # An index analyses each body twice (frequencies, then fields) and reads its vocabulary.
        self._analyzed: dict[str, tuple[list[str], tuple[str, ...]]] = {}

    def _stem(self, word: str) -> str:
        if word[:1].isdigit():
            return word
        return self._stemmer.stemWord(word)

    _shared: dict[str, tuple[tuple, "Analyzer"]] = {}

    @classmethod
    def shared(cls, lang: str, phrases: list[tuple[tuple[str, ...], str]]) -> "Analyzer":
        """The analyzer of the last index built for `lang`, if the glossary is the same: a live preview
        rebuilds the index after every save, and only the changed texts need analysing again."""
        key = tuple(phrases)
        last = cls._shared.get(lang)
        if last is None or last[0] != key:
            last = cls._shared[lang] = (key, cls(lang, phrases))
        return last[1]

    def tags(self, ws: list[str]) -> list[str]:
        out = []
        phrases = self.phrases
        for i in [i for i, w in enumerate(ws) if w in phrases]:
            for toks, tag in phrases[ws[i]]:
                if tuple(ws[i:i + len(toks)]) == toks:
                    out.append(tag)
                    break
        return out

    def analyze(self, text: str) -> list[str]:
        """Index/query tokens of a text: stems of the non-stop words, then glossary tags."""
        return list(self._analysis(text)[0])

    def vocabulary(self, text: str) -> tuple[str, ...]:
        """The distinct folded words of a text, stop words left out: the words an index gives a token for."""
        return self._analysis(text)[1]

    def _analysis(self, text: str) -> tuple[list[str], tuple[str, ...]]:
        done = self._analyzed.get(text)
        if done is None:
            ws = words(text)
            kept = [w for w in ws if w not in self.stop]
            done = self._analyzed[text] = ([self.stem(w) for w in kept] + self.tags(ws), tuple(dict.fromkeys(kept)))
        return done

    def raw(self, text: str) -> list[str]:
        """Folded, unstemmed words (for typo matching)."""
        return [w for w in words(text) if w not in self.stop]


class QueryAnalyzer:
    """How a query is read, given the index's vocabulary (every folded word of the texts -> its token).
    A word the texts never use takes the tokens of the known words it begins, or of the longest known word
    that begins it ('kamuflazami' -> 'kamuflaz'); the browser's search does exactly the same."""

    def __init__(self, analyzer: Analyzer, vocab: dict[str, str]):
        self.analyzer = analyzer
        self.vocab = vocab
        self.sorted = sorted(vocab)

    def word_tokens(self, w: str) -> list[str]:
        if w in self.vocab:
            return [self.vocab[w]]
        if len(w) < 3:
            return [w]
        import bisect
        out: list[str] = []
        i = bisect.bisect_left(self.sorted, w)
        while i < len(self.sorted) and self.sorted[i].startswith(w) and len(out) < 12:
            t = self.vocab[self.sorted[i]]
            if t not in out:
                out.append(t)
            i += 1
        if not out:
            for n in range(len(w) - 1, 3, -1):
                if w[:n] in self.vocab:
                    out.append(self.vocab[w[:n]])
                    break
        return out or [w]

    def groups(self, text: str) -> tuple[list[list[str]], list[str]]:
        """(token groups: one per query word, glossary phrase and word beginning; the raw words)."""
        ws = words(text)
        raw = [w for w in ws if w not in self.analyzer.stop]
        groups = [self.word_tokens(w) for w in raw]
        groups += [[tag] for tag in self.analyzer.tags(ws)]
        for w in raw:
            if len(w) >= 3 and not w[:1].isdigit():
                p = ["^" + w[:5]]
                if p not in groups:
                    groups.append(p)
        return groups, raw
