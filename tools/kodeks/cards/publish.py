"""The PDFs the site offers for download (a game's cards, each faction's), built once per content version."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from ..model.kb import KnowledgeBase
from .content import cards_for
from .render import CSS, card_html, env, rules_html, rules_used


def _digest(kb: KnowledgeBase, cards, lang: str, size: str, paper: str) -> str:
    e = env()
    h = hashlib.sha256()
    for c in cards:
        h.update(card_html(e, c, lang, size).encode("utf-8"))
    h.update(rules_html(kb, rules_used(cards), lang).encode("utf-8"))
    h.update(CSS.read_bytes())
    h.update(f"{lang}|{size}|{paper}|v2".encode())  # v2: sheets packed edge to edge, N copies for a count
    return h.hexdigest()[:20]


def pdf_jobs(kb: KnowledgeBase, lang: str) -> list[tuple[str, str | None]]:
    jobs = []
    for gid in kb.games:
        units = kb.of(gid, "unit")
        if not units:
            continue
        jobs.append((gid, None))
        for f in kb.of(gid, "faction"):
            if any(u.faction and u.faction.key == f.key for u in units):
                jobs.append((gid, f.id))
    return jobs


def publish(kb: KnowledgeBase, lang: str, docs: Path, cache: Path, size: str = "poker", paper: str = "a4") -> int:
    """Write docs/<game>/pdf/cards[-<faction>]-<lang>.pdf, reusing cached PDFs of unchanged cards."""
    from .pdf import write_pdf
    cache.mkdir(parents=True, exist_ok=True)
    n = 0
    for game, faction in pdf_jobs(kb, lang):
        cards = cards_for(kb, game, lang, faction=faction)
        key = _digest(kb, cards, lang, size, paper)
        cached = cache / f"{key}.pdf"
        if not cached.is_file():
            write_pdf(kb, cards, cached, lang, size, paper)
        name = f"cards-{faction}-{lang}.pdf" if faction else f"cards-{lang}.pdf"
        target = docs / game / "pdf" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cached, target)
        n += 1
    return n
