"""Reading YAML: positions, and the constructs and encodings that are refused."""
from pathlib import Path

from kodeks.content.yamlfile import read_yaml
from kodeks.problems import Pos, Problems


def read(tmp_path: Path, data: bytes):
    path = tmp_path / "x.yaml"
    path.write_bytes(data)
    problems = Problems(root=tmp_path)
    return read_yaml(path, problems), problems


def only(problems: Problems):
    assert len(problems.errors) == 1, [p.format() for p in problems.items]
    return problems.errors[0]


def test_positions_of_keys_and_values(tmp_path):
    yf, problems = read(tmp_path, b"id: a\nname:\n  pl: Kamufla\xc5\xbc\n  en: Camo\nlist:\n  - 1\n  - two\n")
    assert not problems.items
    assert yf.data == {"id": "a", "name": {"pl": "Kamuflaż", "en": "Camo"}, "list": [1, "two"]}
    assert yf.pos(("name", "pl")) == Pos(3, 7)
    assert yf.key_pos(("name", "en")) == Pos(4, 3)
    assert yf.pos(("list", 1)) == Pos(7, 5)


def test_scalar_types_follow_yaml_1_2(tmp_path):
    yf, _ = read(tmp_path, b"a: yes\nb: no\nc: 12\nd: -1.5\ne: '7'\nf: true\ng: 0x1F\n")
    assert yf.data == {"a": "yes", "b": "no", "c": 12, "d": -1.5, "e": "7", "f": True, "g": 31}


def test_text_position_inside_block_scalar(tmp_path):
    yf, _ = read(tmp_path, b"text:\n  pl: |-\n    first line\n    second [x](id:a/b) here\n")
    offset = yf.data["text"]["pl"].index("[x]")
    assert yf.text_pos(("text", "pl"), offset) == Pos(4, 12)


def test_alias_is_refused_at_its_use(tmp_path):
    _, problems = read(tmp_path, b"a: &x [1, 2]\nb: *x\n")
    err = only(problems)
    assert err.pos == Pos(2, 4) and "aliases" in err.message


def test_alias_bomb_is_cheap_and_refused(tmp_path):
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i-1}"] * 9) + "]")
    _, problems = read(tmp_path, "\n".join(lines).encode())
    assert problems.errors and all("aliases" in p.message for p in problems.errors)


def test_merge_key_is_refused(tmp_path):
    _, problems = read(tmp_path, b"base: {a: 1}\nb:\n  <<: {a: 1}\n  c: 2\n")
    err = only(problems)
    assert err.pos == Pos(3, 3) and "merge keys" in err.message


def test_duplicate_key_names_both_positions(tmp_path):
    _, problems = read(tmp_path, b"id: a\nname: x\nid: b\n")
    err = only(problems)
    assert err.pos == Pos(3, 1) and "duplicate key 'id'" in err.message and "line 1" in err.message


def test_bom_crlf_nul_and_cp1250(tmp_path):
    _, problems = read(tmp_path, b"\xef\xbb\xbfid: a\n")
    assert only(problems).pos == Pos(1, 1) and "byte-order mark" in only(problems).message
    _, problems = read(tmp_path, b"id: a\r\nname: b\r\n")
    assert only(problems).pos == Pos(1, 6) and "CRLF" in only(problems).message
    _, problems = read(tmp_path, b"id: a\nname: b\x00c\n")
    assert only(problems).pos == Pos(2, 8) and "NUL" in only(problems).message
    _, problems = read(tmp_path, "id: a\nname: Żółw\n".encode("cp1250"))
    err = only(problems)
    assert err.pos == Pos(2, 7) and "not UTF-8" in err.message and "Windows-1250" in err.message


def test_tab_indentation_and_syntax_errors(tmp_path):
    _, problems = read(tmp_path, b"name:\n\tpl: x\n")
    err = only(problems)
    assert err.pos.line == 2 and "tab" in err.message
    _, problems = read(tmp_path, b"name: {pl: x\n")
    assert only(problems).message.startswith("YAML syntax")


def test_empty_and_oversized_files(tmp_path):
    _, problems = read(tmp_path, b"\n\n")
    assert "empty" in only(problems).message
    _, problems = read(tmp_path, b"a: " + b"x" * 1_200_000 + b"\n")
    assert "limit" in only(problems).message
