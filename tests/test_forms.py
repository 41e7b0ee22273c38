"""Generating a term's Polish forms while authoring (optional morfeusz2)."""
import pytest

from conftest import run_kodeks


def test_phrase_inflects_around_its_head_noun():
    pytest.importorskip("morfeusz2")
    from kodeks.forms import inflect
    assert {"walce wręcz", "walką wręcz", "walk wręcz"} <= set(inflect("walka wręcz"))
    assert "zasięgiem skutecznym" in inflect("zasięg skuteczny")
    assert "punktów dowodzenia" in inflect("punkt dowodzenia")


def test_cli_prints_forms_or_says_what_is_missing():
    proc = run_kodeks("forms", "kamuflaż")
    try:
        import morfeusz2  # noqa: F401
    except ImportError:
        assert proc.returncode == 2 and "pip install morfeusz2" in proc.stderr
    else:
        assert proc.returncode == 0 and "kamuflażem" in proc.stdout
