"""`kodeks new KIND GAME ID`: a schema-valid skeleton entry with the editor's schema line."""
from __future__ import annotations

from pathlib import Path

from .content.schemas import KINDS
from .model.game import Game
from .model.ids import ID_RE

GAP = "{gap: true}"


def skeleton(game: Game, kind: str, entry_id: str) -> str:
    book = game.books[0].id
    lines = [f"# yaml-language-server: $schema=../../../schema/{kind}.schema.json",
             f"id: {entry_id}",
             "name:",
             "  pl: TODO nazwa",
             "  en: TODO name"]
    if kind in ("skill", "trait", "equipment"):
        lines += ["summary:", "  pl: TODO jedno zdanie", "  en: TODO one line"]
    lines += ["text:", "  pl: |-", "    TODO tekst własnymi słowami", "  en: |-", "    TODO the text in your own words"]
    if kind == "weapon":
        keys = [f.key for f in game.weapon_profile] or ["range"]
        lines += ["profiles:", "  - values:"] + [f"      {k}: {GAP}" for k in keys]
    if kind == "unit":
        lines += ["stats:"] + [f"  {f.key}: {GAP}" for f in game.stat_line]
    if kind == "term":
        lines += ["forms:", "  pl: []", "  en: []"]
    lines += ["source:", f"  book: {book}", "  section: TODO nagłówek rozdziału"]
    return "\n".join(lines) + "\n"


def create(content: Path, game: Game, kind: str, entry_id: str) -> Path:
    """Write the skeleton; raises ValueError with a message an author can act on."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind '{kind}'; kinds are: {', '.join(KINDS)}")
    if kind not in game.kinds:
        raise ValueError(f"{game.id} does not use the kind '{kind}'; add `{kind}: {{}}` under kinds in game.yaml")
    if not ID_RE.match(entry_id):
        raise ValueError(f"'{entry_id}' is not a valid id: use lowercase ASCII letters, digits and single hyphens")
    path = content / game.id / kind / f"{entry_id}.yaml"
    if path.exists():
        raise ValueError(f"{path} already exists")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(skeleton(game, kind, entry_id), encoding="utf-8")
    return path
