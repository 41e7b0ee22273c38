"""Polish inflected forms of a glossary term, generated with morfeusz2 while authoring.

The forms are written into the term entry (`forms: {pl: [...]}`) and committed, so building the site needs
no dictionary; morfeusz2 (26 MB, with the SGJP dictionary) is an optional authoring tool.
A phrase inflects around its head noun (the first noun in the nominative): adjectives agreeing with it take
the same number and case; other words (adverbs, nouns in the genitive...) stay as they are.
"""
from __future__ import annotations

CASES = ("nom", "gen", "dat", "acc", "inst", "loc")


class Unavailable(RuntimeError):
    pass


def _morfeusz():
    try:
        import morfeusz2
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise Unavailable("morfeusz2 is not installed: pip install morfeusz2 (x86_64 Linux, macOS, Windows)") from exc
    return morfeusz2.Morfeusz(expand_tags=False)


def _tags(tag: str) -> list[list[str]]:
    return [part.split(".") for part in tag.split(":")]


def inflect(phrase: str) -> list[str]:
    """All singular and plural case forms of a term (vocative-only forms left out), lower case, sorted."""
    m = _morfeusz()
    words = phrase.split()
    analyses = [[a[2] for a in m.analyse(w)] for w in words]
    head = None
    for i, options in enumerate(analyses):
        for lemma, _, tag in ((o[1], o[0], o[2]) for o in options):
            t = _tags(tag)
            if t[0] == ["subst"] and "nom" in t[2]:
                head = (i, lemma.split(":")[0], t[3][0])
                break
        if head:
            break
    if head is None:
        return [phrase.lower()]
    hi, hlemma, gender = head
    adjectives = {}
    for i, options in enumerate(analyses):
        if i == hi:
            continue
        for o in options:
            t = _tags(o[2])
            if t[0] == ["adj"] and "nom" in t[2] and gender in t[3]:
                adjectives[i] = o[1].split(":")[0]
                break
    out = set()
    for form, _, tag, *_ in m.generate(hlemma):
        t = _tags(tag)
        if t[0] != ["subst"] or gender not in t[3]:
            continue
        number, cases = t[1][0], [c for c in t[2] if c in CASES]
        for case in cases:
            phrase_words = []
            for i, w in enumerate(words):
                if i == hi:
                    phrase_words.append(form)
                elif i in adjectives:
                    adj = next((f for f, _, tg, *_ in m.generate(adjectives[i])
                                if _tags(tg)[0] == ["adj"] and _tags(tg)[1][0] == number and case in _tags(tg)[2]
                                and gender in _tags(tg)[3] and _tags(tg)[-1] == ["pos"]), None)
                    phrase_words.append(adj or w)
                else:
                    phrase_words.append(w)
            out.add(" ".join(phrase_words).lower())
    return sorted(out)
