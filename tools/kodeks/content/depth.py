"""How deeply a YAML text nests, found before it is composed.

libyaml's composer recurses in C once per level: `a: [[[[...` 100,000 deep overflows the stack and kills the
process (no exception to catch), and ruamel's pure-Python composer, which `kodeks fmt` uses, raises
RecursionError. libyaml's parser is iterative, so the event stream can be walked at any depth; walking it
costs two thirds of composing, though, so it is done only for a text that might nest deeper than is safe to
compose. Whether it might is decided by an upper bound read from the text with C string functions. Below that,
the reader composes the file and refuses what is deeper than MAX_DEPTH as it converts it.
"""
from __future__ import annotations

import re

from ..problems import Pos

MAX_DEPTH = 100  # real content nests at most 8 levels; the checks and renderers recurse per level
# libyaml's C composer: 20,000 levels fit the 8 MB stack of a main thread, 40,000 did not; a thread's stack
# (`kodeks serve` rebuilds in one) can be 512 KB. Composing at most this deep is safe everywhere.
SAFE_TO_COMPOSE = 500

# Block collections nest through indentation and through `- `, `? ` and `: ` indicators written in a row at
# the start of a line. A level opens at a strictly larger column than its parent, except a list written under
# its key at the key's column, so the block depth is at most 2 * (the longest such prefix) + 2.
# A flow collection on one line that holds no other bracket, no comment, no tag or anchor, and quoted scalars
# only where YAML starts one (right after the bracket or a comma, or after `: `): if its first bracket
# opens a collection, its last one closes it, so it adds at most two levels (a list and the one-pair mapping
# of `[a: b]`) while it is open and none after. If its brackets are text (in a block scalar, a quoted
# scalar or a comment), it adds nothing. Each alternative starts with its own characters, so the possessive
# loop never backtracks.
_QUOTED = r"""(?:"[^"\\\n]*+"|'[^'\n]*+')"""
_SIMPLE_FLOW = re.compile(
    r"[\[{][ \t]*+" + _QUOTED + r"?(?:[^\[\]{}\n\"'#!&*,:? \t]++|[ \t]++|,[ \t]*+" + _QUOTED
    + r"?|\?|:(?:[ \t]++" + _QUOTED + r"?)?)*+[\]}]")
_ROUNDS = 3


def _may_nest_deeper(text: str, limit: int) -> bool:
    """False when an upper bound of the nesting depth (never lower than the real depth, often much higher)
    is within `limit`."""
    reduced = text
    for rounds in range(_ROUNDS + 1):
        if rounds:
            shorter = _SIMPLE_FLOW.sub("x", reduced)
            if len(shorter) == len(reduced):
                break
            reduced = shorter
        # A `[` may open a list and a one-pair mapping in it; each round hid at most two levels.
        flow = 2 * reduced.count("[") + reduced.count("{") + 2 * rounds
        room = (limit - 2 - flow) // 2
        # No line may start with more indentation and indicators than the room left. (The class of
        # characters over-approximates the prefix, which keeps this one search in C; a search for `^` in
        # MULTILINE mode takes five times as long as one for a line break.)
        if room >= 0 and not re.search(rf"\n[ \t?:-]{{{room + 1}}}", text) \
                and not re.match(rf"[ \t?:-]{{{room + 1}}}", text):
            return False
    return True


def too_deep(text: str, parse, gate: int = SAFE_TO_COMPOSE) -> Pos | None:
    """Where `text` first nests deeper than MAX_DEPTH, or None if it does not, or if it cannot nest deeper than
    `gate` (the caller then finds out for itself). `parse` is a YAML instance's `parse` (an iterator of
    events); a syntax error ends the walk: whatever came before it was not too deep."""
    if not _may_nest_deeper(text, gate):
        return None
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent
    depth = 0
    try:
        for event in parse(text):
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return Pos(event.start_mark.line + 1, event.start_mark.column + 1)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except YAMLError:
        return None
    return None
