"""Random damage to content files: what the fuzz script and the property tests feed the validator."""
from __future__ import annotations

import random

NOISE = [b"\t", b":", b": ", b"- ", b"[", b"]", b"{", b"}", b"&a ", b"*a", b"<<: ", b"\x00", b"\xff\xfe", b"\xe9",
         b"\r\n", b"\xef\xbb\xbf", b"'", b'"', b"|", b">", b"#", b"!!python/object:os.system ", b"%YAML 1.1\n",
         b"---\n", b"...\n", b"? ", b"\\", b"\xf0\x9f\x99\x82", b"id: ", b"pl: ", b"en: ", b"~", b"null", b"1e999",
         b"0x", b"-1", b"](id:", b"](id:rule/x)", b"<script>", b"[x](javascript:1)"]


def mutate(data: bytes, rnd: random.Random, rounds: int = 3) -> bytes:
    for _ in range(rnd.randint(1, rounds)):
        op = rnd.randrange(9)
        lines = data.split(b"\n")
        if op == 0 and data:  # delete a span
            i = rnd.randrange(len(data))
            data = data[:i] + data[i + rnd.randint(1, 20):]
        elif op == 1:  # insert noise
            i = rnd.randrange(len(data) + 1)
            data = data[:i] + rnd.choice(NOISE) + data[i:]
        elif op == 2 and len(lines) > 1:  # swap two lines
            a, b = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            data = b"\n".join(lines)
        elif op == 3 and lines:  # duplicate a line
            i = rnd.randrange(len(lines))
            lines.insert(i, lines[i])
            data = b"\n".join(lines)
        elif op == 4 and lines:  # re-indent a line
            i = rnd.randrange(len(lines))
            lines[i] = b" " * rnd.randint(0, 9) + lines[i].lstrip()
            data = b"\n".join(lines)
        elif op == 5 and data:  # flip a byte
            i = rnd.randrange(len(data))
            data = data[:i] + bytes([rnd.randrange(256)]) + data[i + 1:]
        elif op == 6 and lines:  # drop a line
            del lines[rnd.randrange(len(lines))]
            data = b"\n".join(lines)
        elif op == 7:  # truncate
            data = data[:rnd.randrange(len(data) + 1)]
        else:  # replace a scalar after a colon
            i = data.find(b": ", rnd.randrange(len(data) + 1))
            if i >= 0:
                j = data.find(b"\n", i)
                data = data[:i + 2] + rnd.choice([b"12", b"-3.5", b"true", b"[]", b"{}", b"{gap: true}", b"x y z",
                                                  b"{pl: x}", b"''", b"id:rule/x"]) + (data[j:] if j >= 0 else b"")
    return data


def random_yaml(rnd: random.Random, depth: int = 0) -> str:
    """A random YAML value (mappings, lists, scalars of every kind), as text."""
    kind = rnd.randrange(6 if depth < 4 else 3)
    if kind == 0:
        return rnd.choice(["1", "-7", "3.14", "true", "no", "~", "''", "x", "Kamuflaż", "'a: b'", "0o17", "2001-01-01"])
    if kind == 1:
        return rnd.choice(["id", "name", "pl", "en", "source", "stats", "gap"]) 
    if kind == 2:
        return '"' + "".join(rnd.choice("ab ł:[]{}#&*!|>%@`") for _ in range(rnd.randint(0, 12))) + '"'
    if kind == 3:
        return "[" + ", ".join(random_yaml(rnd, depth + 1) for _ in range(rnd.randint(0, 4))) + "]"
    keys = ["id", "name", "pl", "en", "source", "book", "section", "stats", "values", "profiles", "text", "summary",
            "levels", "level", "ref", "weapons", "skills", "parent", "number", "gap", "category", "zz"]
    items = [f"{rnd.choice(keys)}: {random_yaml(rnd, depth + 1)}" for _ in range(rnd.randint(0, 5))]
    return "{" + ", ".join(items) + "}"
