"""The site's search index: the shared index (search.index) as scripts the browser loads.

A script (window.KODEKS_INDEX = ...) rather than JSON, so it loads from file:// too.
"""
from __future__ import annotations

import json


INDEX = "kodeks-index.js"
SUMMARIES = "kodeks-summaries.js"


def script(index: dict) -> str:
    body = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return f"window.KODEKS_INDEX={body};\n"


def summaries_script(summaries: list[str]) -> str:
    """The result lists' summary lines, loaded after the index: a search can answer (titles, kinds, games)
    before they arrive."""
    body = json.dumps(summaries, ensure_ascii=False, separators=(",", ":"))
    return f"window.KODEKS_SUMMARIES={body};\n"


def write(folder, built) -> None:
    """The two scripts of one language into an assets folder, each replaced whole."""
    import os
    for name, text in ((INDEX, script(built.index)), (SUMMARIES, summaries_script(built.summaries))):
        tmp = folder / (name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, folder / name)
