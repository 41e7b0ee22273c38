"""kodeks fmt keeps every value and comment, and formatting twice changes nothing (property-tested)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from conftest import CONTENT
from kodeks.fmt import format_text

SAFE = YAML(typ="safe")
FILES = sorted(CONTENT.rglob("*.yaml"))

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\u2028\u2029\x85"),
                min_size=1, max_size=60)
entries = st.fixed_dictionaries({
    "source": st.fixed_dictionaries({"section": texts, "book": st.just("tgb")}),
    "name": st.fixed_dictionaries({"en": texts, "pl": texts}),
    "id": st.from_regex(r"[a-z]{1,8}(-[a-z0-9]{1,5}){0,2}", fullmatch=True),
}, optional={"summary": st.fixed_dictionaries({"pl": texts}), "values": st.dictionaries(
    st.from_regex(r"[a-z]{2,6}", fullmatch=True), st.one_of(st.integers(-99, 999), texts), max_size=3)})


def _dump(data) -> str:
    import io
    y = YAML()
    buf = io.StringIO()
    y.dump(data, buf)
    return "# a comment that must survive\n" + buf.getvalue()


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.one_of(entries, st.lists(entries, min_size=1, max_size=3)))
def test_format_keeps_values_and_is_idempotent(data):
    text = _dump(data)
    once = format_text(text)
    assert SAFE.load(once) == SAFE.load(text)
    assert format_text(once) == once
    assert "# a comment that must survive" in once


def test_real_files_keep_their_values_and_comments():
    for path in FILES[::7]:
        text = path.read_text(encoding="utf-8")
        once = format_text(text, game_file=path.name == "game.yaml")
        assert SAFE.load(once) == SAFE.load(text), path
        assert format_text(once, game_file=path.name == "game.yaml") == once, path
        assert once.splitlines()[0] == text.splitlines()[0], path  # the schema line stays first


def test_crlf_and_bom_are_normalised():
    out = format_text("\ufeffid: a\r\nname: {pl: x}\r\n")
    assert out == "id: a\nname: {pl: x}\n"
