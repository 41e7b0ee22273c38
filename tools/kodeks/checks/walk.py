"""Every string of a YAML document, with its path: for the checks that read all fields alike."""
from __future__ import annotations

from typing import Iterator


def strings(data) -> Iterator[tuple[tuple, str]]:
    stack: list[tuple[tuple, object]] = [((), data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((path + (k,), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((path + (i,), v) for i, v in enumerate(node))
        elif isinstance(node, str):
            yield path, node
