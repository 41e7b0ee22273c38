"""The validator on fixtures: a clean fixture passes; every malformed case gives its located error."""
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conftest import MINI, run_kodeks
from kodeks.project import load_and_check

CASES = YAML(typ="safe").load((Path(__file__).parent / "bad_input" / "cases.yaml").read_text(encoding="utf-8"))
GAME = "ciernie-i-gwiazdy"


def test_fixture_is_valid():
    checked = load_and_check(MINI, MINI.parent)
    assert [p.format() for p in checked.problems.items] == []
    assert len(checked.kb.entries) == 14


def _write_case(content: Path, case: dict) -> Path:
    rel = case["path"]
    target = content / rel[1:] if rel.startswith("/") else content / GAME / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if "content_bytes" in case:
        target.write_bytes(eval(case["content_bytes"], {"__builtins__": {}}))  # noqa: S307 - test data literals
    else:
        target.write_text(case["content"], encoding="utf-8", newline="")
    return target


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bad_input_gives_located_error(case, mini):
    target = _write_case(mini, case)
    checked = load_and_check(mini, mini.parent)
    where, message = case["error"]
    line, col = map(int, where.split(":"))
    rel = str((mini / case["at"]).relative_to(mini.parent)) if "at" in case else str(target.relative_to(mini.parent))
    found = [p for p in checked.problems.errors if p.path == rel and (p.pos.line, p.pos.col) == (line, col)
             and message in p.message]
    assert found, "expected %s:%s: ...%s...; got:\n%s" % (rel, where, message,
                                                       "\n".join(p.format() for p in checked.problems.items))
    assert all(p.fix for p in checked.problems.errors), "every error says how to fix it"


def test_corpus_is_large_enough():
    assert len(CASES) >= 40


def test_cli_exit_status_and_format(mini):
    _write_case(mini, next(c for c in CASES if c["name"] == "unknown-field"))
    proc = run_kodeks("validate", "--content", mini, cwd=mini.parent)
    assert proc.returncode == 1
    assert "content/ciernie-i-gwiazdy/skill/bad.yaml:4:1: error: unknown field 'sumary'" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    ok = run_kodeks("validate", "--content", MINI, cwd=MINI.parent)
    assert ok.returncode == 0 and "14 entries" in ok.stdout


def test_compiled_schema_checks_are_cached_and_judge_alike(tmp_path, monkeypatch):
    """The generated validators are kept in kodeks' cache; one loaded from there accepts and rejects what a
    freshly generated one does, and an unreadable cache file is generated again."""
    from kodeks.content import schemas
    monkeypatch.setenv("KODEKS_CACHE", str(tmp_path))
    good = YAML(typ="safe").load((MINI / "ciernie-i-gwiazdy/skill/dodge.yaml").read_text(encoding="utf-8"))
    bad = dict(good, name=5)

    def verdicts():
        schemas.fast_validator.cache_clear()
        check = schemas.fast_validator("skill")
        out = []
        for instance in (good, bad):
            try:
                check(instance)
                out.append(True)
            except Exception:  # noqa: BLE001 - fastjsonschema's exception: invalid
                out.append(False)
        return out

    fresh = verdicts()
    files = list((tmp_path / "validators").glob("skill-*.marshal"))
    assert fresh == [True, False] and len(files) == 1
    assert verdicts() == fresh, "loaded from the cache"
    files[0].write_bytes(b"not marshal data")
    assert verdicts() == fresh, "a broken cache file is generated again"
    schemas.fast_validator.cache_clear()


def _problems(content: Path, cache: Path | None = None) -> list[str]:
    checked = load_and_check(content, content.parent, parse_cache=cache)
    return [p.format() for p in checked.problems.sorted()]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_parse_cache_reports_bad_input_alike(case, mini, tmp_path):
    """With the other files taken from the parse cache of an earlier run (content/parsecache.py), a bad file
    gives the same problems at the same places."""
    cache = tmp_path / "yaml.pickle"
    assert _problems(mini, cache) == []
    _write_case(mini, case)
    assert _problems(mini, cache) == _problems(mini)
    assert _problems(mini, cache) == _problems(mini)  # a file with a problem is never kept: reported again


def test_problems_in_unchanged_files_are_placed_from_the_parse_cache(mini, tmp_path):
    """Deleting an entry makes the files that use or link to it wrong, though their bytes did not change: the
    problems the cached files get are the ones a fresh read gives, line and column included."""
    cache = tmp_path / "yaml.pickle"
    files = sorted(p for p in mini.rglob("*.yaml") if p.name != "game.yaml")
    seen = 0
    for path in files:
        keep = path.read_bytes()
        assert _problems(mini, cache) == []
        path.unlink()
        fresh = _problems(mini)
        assert _problems(mini, cache) == fresh, path
        seen += bool(fresh)
        path.write_bytes(keep)
    assert seen >= 3  # several deletions leave references behind
