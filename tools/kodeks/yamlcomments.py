"""Comment lines travel with the key below them when `kodeks fmt` reorders a mapping.

ruamel keeps the comment lines written between two keys with the value above them (as the comment that
follows its last scalar, however deep), so moving the upper key would carry them away from the key they
describe: `# about summary` above `summary:` ended up at the end of the file. Before a reorder they are taken
off the value above and put before the key below; what follows the last value goes to the new last one.
"""
from __future__ import annotations

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString
from ruamel.yaml.tokens import CommentToken

_BLOCK = (LiteralScalarString, FoldedScalarString)


def _leaf(container, key):
    """(container, key) of the last scalar or empty collection inside container[key]."""
    while True:
        value = container[key]
        if isinstance(value, CommentedMap) and len(value):
            container, key = value, list(value)[-1]
        elif isinstance(value, CommentedSeq) and len(value):
            container, key = value, len(value) - 1
        else:
            return container, key


def _slot(container) -> int:
    return 2 if isinstance(container, CommentedMap) else 0  # where ruamel keeps a value's trailing comment


def take_trailing(container, key) -> str:
    """Take the comment lines written after the value of container[key] (keeping a comment at the end of the
    value's own line), as text with their indentation; '' if there are none."""
    leaf, k = _leaf(container, key)
    entry = leaf.ca.items.get(k)
    slot = _slot(leaf)
    if not entry or entry[slot] is None:
        return ""
    token = entry[slot]
    value = token.value
    own = ""
    if isinstance(leaf[k], _BLOCK):
        # A block scalar ends with its own line break: everything after it is on lines of its own.
        rest = value if value.startswith("\n") else " " * token.column + value
    elif value.startswith("#"):
        own, _, rest = value.partition("\n")
        own += "\n"
    else:
        rest = value[1:] if value.startswith("\n") else value
    if not rest.strip():
        return ""  # blank lines only: they stay where they are
    if own:
        token.value = own
    else:
        entry[slot] = None
    return rest


def put_above(node: CommentedMap, key, text: str) -> None:
    """Put comment lines (as taken by take_trailing) before `key` of `node`."""
    tokens = []
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        tokens.append(CommentToken(stripped + "\n" if stripped else "\n", CommentMark(len(line) - len(stripped))))
    entry = node.ca.items.setdefault(key, [None, None, None, None])
    entry[1] = tokens + (entry[1] or [])


def put_trailing(container, key, text: str) -> None:
    """Put comment lines after the value of container[key] (as the last thing of that value)."""
    leaf, k = _leaf(container, key)
    slot = _slot(leaf)
    entry = leaf.ca.items.setdefault(k, [None, None, None, None])
    token = entry[slot]
    if token is not None:
        token.value = token.value + text
    elif isinstance(leaf[k], _BLOCK) and not text.startswith("\n"):
        stripped = text.lstrip(" ")
        entry[slot] = CommentToken(stripped, CommentMark(len(text) - len(stripped)))
    else:
        entry[slot] = CommentToken("\n" + text, CommentMark(0))
