"""Property tests: random YAML and random damage to real content never crash the validator or the build.
(tests/fuzz/fuzz_content.py runs the same at 10,000 cases.)"""
import random
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CONTENT, run_kodeks
from kodeks.project import load_and_check

sys.path.insert(0, str(Path(__file__).parent / "fuzz"))
from mutate import attack, mutate, random_yaml  # noqa: E402

REAL = sorted(p for p in CONTENT.rglob("*.yaml") if p.name != "game.yaml")


def _check(content: Path, data: bytes, kind: str = "skill") -> list:
    (content / "ciernie-i-gwiazdy" / kind / "fuzz.yaml").write_bytes(data)
    checked = load_and_check(content, content.parent)
    for p in checked.problems.items:
        assert p.pos.line >= 1 and p.pos.col >= 1 and p.message and p.fix
        assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in p.format()), p.format()
    return checked.problems.errors


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1))
def test_random_yaml_never_crashes_the_validator(mini, seed):
    _check(mini, random_yaml(random.Random(seed)).encode("utf-8"))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1), st.integers(0, 10**6))
def test_damaged_real_content_never_crashes_the_validator(mini, seed, pick):
    _check(mini, mutate(REAL[pick % len(REAL)].read_bytes(), random.Random(seed)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1))
def test_the_attack_structures_end_in_located_errors(mini, seed):
    """Deep nesting, long parent chains (and cycles), escapes in every kind of field, NaN and infinity."""
    import time
    rnd = random.Random(seed)
    kind, data = attack(rnd, [REAL[rnd.randrange(len(REAL))].read_bytes()])
    started = time.monotonic()
    _check(mini, data, kind)
    # A hang guard, not a speed goal: far above the 1-2 s a case takes, so a busy machine never trips it.
    assert time.monotonic() - started < 600, "no hang"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_fmt_never_crashes_on_damaged_content(seed):
    """fmt either formats a file or raises a YAML error the CLI reports on one line."""
    from ruamel.yaml.error import YAMLError

    from kodeks.fmt import format_text
    rnd = random.Random(seed)
    source = REAL[rnd.randrange(len(REAL))].read_bytes()
    data = mutate(source, rnd) if rnd.random() < 0.5 else attack(rnd, [source])[1]
    try:
        format_text(data.decode("utf-8", "replace"))
    except YAMLError:
        pass


def test_damaged_content_never_crashes_the_build(tmp_path, mini):
    rnd = random.Random(7)
    for _ in range(3):
        data = mutate(REAL[rnd.randrange(len(REAL))].read_bytes(), rnd)
        (mini / "ciernie-i-gwiazdy" / "skill" / "fuzz.yaml").write_bytes(data)
        proc = run_kodeks("build", "--no-pdf", "--content", mini, "--out", tmp_path / "out", cwd=mini.parent)
        assert proc.returncode in (0, 1), proc.stderr
        assert "Traceback" not in proc.stderr + proc.stdout
