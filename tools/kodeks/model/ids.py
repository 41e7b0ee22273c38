"""Entry ids and references (`kind/id` or `game/kind/id`)."""
from __future__ import annotations

import re
from dataclasses import dataclass

ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
REF_RE = re.compile(r"^(?:(?P<game>[a-z0-9]+(?:-[a-z0-9]+)*)/)?(?P<kind>[a-z]+)/(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)$")


@dataclass(frozen=True, order=True)
class Key:
    """The identity of an entry: game, kind and id."""

    game: str
    kind: str
    id: str

    def __str__(self) -> str:
        return f"{self.game}/{self.kind}/{self.id}"


def parse_ref(text: str, game: str) -> Key | None:
    """`kind/id` (in `game`) or `game/kind/id` -> Key; None if malformed."""
    m = REF_RE.match(text or "")
    if not m:
        return None
    return Key(m.group("game") or game, m.group("kind"), m.group("id"))
