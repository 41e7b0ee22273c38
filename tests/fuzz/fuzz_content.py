"""Fuzz the validator with damaged real content and random YAML: no case may raise an unhandled exception.

    .venv/bin/python tests/fuzz/fuzz_content.py [--cases 10000] [--seed 1]

Prints the number of cases run, how many the validator rejected with located errors, and any crash.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(HERE))

from kodeks.project import load_and_check  # noqa: E402
from mutate import attack, mutate, random_yaml  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "mini"


def run(cases: int, seed: int, quiet: bool = False) -> tuple[int, int, list[str]]:
    rnd = random.Random(seed)
    real = sorted(p for p in (ROOT / "content").rglob("*.yaml") if p.name != "game.yaml")
    crashes: list[str] = []
    rejected = 0
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        shutil.copytree(MINI, content)
        game = content / "ciernie-i-gwiazdy"
        for n in range(cases):
            kind, pick = "skill", rnd.random()
            if pick < 0.5:
                data = mutate(rnd.choice(real).read_bytes(), rnd)
            elif pick < 0.8:
                data = random_yaml(rnd).encode("utf-8")
            else:  # the attack report's structures (issue 23)
                kind, data = attack(rnd, [rnd.choice(real).read_bytes()])
            for old in game.glob("*/fuzz.yaml"):
                old.unlink()
            (game / kind / "fuzz.yaml").write_bytes(data)
            try:
                checked = load_and_check(content, Path(tmp))
                rejected += bool(checked.problems.errors)
                for p in checked.problems.items:
                    assert p.path and p.pos.line >= 1 and p.pos.col >= 1 and p.message
                    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in p.format()), "escaped"
            except Exception:  # noqa: BLE001 - every crash is the finding
                crashes.append(f"case {n}: {traceback.format_exc(limit=3)}\n--- input ---\n{data[:500]!r}")
            if not quiet and (n + 1) % 1000 == 0:
                print(f"{n + 1} cases, {rejected} rejected, {len(crashes)} crashes", flush=True)
    return cases, rejected, crashes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cases, rejected, crashes = run(args.cases, args.seed)
    print(f"fuzz: {cases} cases, {rejected} rejected with located errors, {len(crashes)} crashes")
    for c in crashes[:5]:
        print(c)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
