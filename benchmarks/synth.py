"""Synthetic content at any size, cloned from a real game, for the benchmarks (never committed).

Every entry of the model game (Ciernie i Gwiazdy) is copied as many times as needed; each copy gets a new id
(`<id>-c<n>`), and its links, references and glossary targets point at entries of the same copy, so the
clones keep the real texts' lengths, link density, tables and glossary terms. Files hold 50 entries each,
like the chapter files authors write.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
MODEL = "ciernie-i-gwiazdy"
REF_KEYS = {"ref", "parent", "faction", "target"}
LIST_REF_KEYS = {"weapons", "skills", "equipment", "traits", "see_also"}
LINK = re.compile(r"\]\(id:([a-z]+)/([a-z0-9-]+)([?][^)]*)?\)")
REF = re.compile(r"^([a-z]+)/([a-z0-9-]+)$")


def _entries(game_dir: Path):
    y = YAML(typ="safe")
    for kind_dir in sorted(p for p in game_dir.iterdir() if p.is_dir()):
        for f in sorted(kind_dir.rglob("*.yaml")):
            data = y.load(f.read_text(encoding="utf-8"))
            for item in data if isinstance(data, list) else [data]:
                yield kind_dir.name, item


def _suffix(value, n: int):
    """Point references and id: links at the same copy."""
    if isinstance(value, str):
        value = LINK.sub(lambda m: f"](id:{m.group(1)}/{m.group(2)}-c{n}{m.group(3) or ''})", value)
        m = REF.match(value)
        return f"{m.group(1)}/{m.group(2)}-c{n}" if m else value
    if isinstance(value, list):
        return [_suffix(v, n) for v in value]
    if isinstance(value, dict):
        return {k: (_suffix(v, n) if k not in ("id", "redirects", "number") else v) for k, v in value.items()}
    return value


def _refs_to_copy(node, keys=("rule", "trait")) -> None:
    """In place: the entry references of an odds declaration (under `rule` and `trait`) point at copy 0;
    nothing else in it is touched (its expressions may hold a slash)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in keys and isinstance(v, str) and REF.match(v):
                node[k] = _suffix(v, 0)
            else:
                _refs_to_copy(v, keys)
    elif isinstance(node, list):
        for v in node:
            _refs_to_copy(v, keys)


def generate(out: Path, entries: int) -> int:
    """Write a content folder with one game of about `entries` entries (plus the other games' game.yaml)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    src = ROOT / "content"
    y = YAML()
    y.width = 4096
    for game in src.iterdir():
        if game.is_dir():
            (out / game.name).mkdir()
            if game.name != MODEL:
                # Only the model game has content here: drop what points into the other games' entries.
                data = y.load((game / "game.yaml").read_text(encoding="utf-8"))
                for field in ("quick_reference", "shortcuts", "odds"):
                    data.pop(field, None)
                with (out / game.name / "game.yaml").open("w", encoding="utf-8") as fh:
                    y.dump(data, fh)
                continue
            data = y.load((game / "game.yaml").read_text(encoding="utf-8"))
            # The quick reference, the home's shortcuts and the odds' rule links point at copy 0.
            for item in data.get("quick_reference") or []:
                item["ref"] = _suffix(item["ref"], 0)
            if data.get("shortcuts"):
                data["shortcuts"] = [_suffix(ref, 0) for ref in data["shortcuts"]]
            _refs_to_copy(data.get("odds"))
            with (out / game.name / "game.yaml").open("w", encoding="utf-8") as fh:
                y.dump(data, fh)
    model = list(_entries(src / MODEL))
    copies = max(1, round(entries / len(model)))
    by_kind: dict[str, list] = {}
    for n in range(copies):
        for kind, item in model:
            clone = _suffix(item, n)
            clone["id"] = f"{item['id']}-c{n}"
            clone.pop("redirects", None)
            clone.pop("number", None)  # numbers are unique per game; copies would repeat them
            if kind == "term":
                clone["name"] = {k: f"{v} {n}" for k, v in item["name"].items()}
                clone.pop("forms", None)  # forms are claimed by the first term that has them
                clone.pop("abbreviations", None)
            by_kind.setdefault(kind, []).append(clone)
    total = 0
    # The clones are plain data: the C emitter writes them (the round-trip one took minutes at 50k entries).
    y = YAML(typ="safe", pure=False)
    y.default_flow_style = False
    y.allow_unicode = True
    y.width = 4096
    for kind, items in by_kind.items():
        folder = out / MODEL / kind
        folder.mkdir(parents=True, exist_ok=True)
        for start in range(0, len(items), 50):
            with (folder / f"part-{start // 50:05d}.yaml").open("w", encoding="utf-8") as fh:
                y.dump(items[start:start + 50], fh)
            total += len(items[start:start + 50])
    return total


if __name__ == "__main__":  # pragma: no cover
    import sys
    print(generate(Path(sys.argv[1]), int(sys.argv[2])), "entries")
