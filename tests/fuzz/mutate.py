"""Random damage to content files: what the fuzz script and the property tests feed the validator."""
from __future__ import annotations

import random

NOISE = [b"\t", b":", b": ", b"- ", b"[", b"]", b"{", b"}", b"&a ", b"*a", b"<<: ", b"\x00", b"\xff\xfe", b"\xe9",
         b"\r\n", b"\xef\xbb\xbf", b"'", b'"', b"|", b">", b"#", b"!!python/object:os.system ", b"%YAML 1.1\n",
         b"---\n", b"...\n", b"? ", b"\\", b"\xf0\x9f\x99\x82", b"id: ", b"pl: ", b"en: ", b"~", b"null", b"1e999",
         b"0x", b"-1", b"](id:", b"](id:rule/x)", b"<script>", b"[x](javascript:1)", b".nan", b".inf", b"-.inf",
         b'"\\x3cimg src=x onerror=alert(1)\\x3e"', b'"\\0"', b'"\\e[2J"', b"\\\\", b"\x1b", b"\x07"]


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


# The attack report's structures (issue 23): each must end in located errors, never a crash or a hang.
ESCAPES = [r"\x3c", r"\x3e", r"\x22", r"\0", r"\e", r"\a", r"\x1b[2J", r"\u202e", r"\u009b", r"\N", r"\\",
           r"\"", r"\t", r"\n", r"\x3cimg src=x onerror=alert(1)\x3e", r"C:\\gry\\q", "javascript:alert(1)"]
NONFINITE = [".nan", ".NaN", ".inf", "-.inf", "+.Inf", "!!float nan", "1e999"]


def attack(rnd: random.Random, real: list[bytes]) -> tuple[str, bytes]:
    """(kind folder, file) of one attack: deep nesting, a long parent chain, escapes in a field, NaN/Inf."""
    op = rnd.randrange(4)
    if op == 0:  # deep nesting, flow or block, far past any limit or just around it
        depth = rnd.choice([rnd.randint(1, 120), rnd.randint(3000, 100_000)])
        opening, closing = rnd.choice([("[", "]"), ("{a: ", "}"), ("- ", ""), ("[a: ", "]"), ('[ "],", ', "]")])
        body = opening * depth + "x" + closing * depth
        if rnd.random() < 0.3:
            body = body[: rnd.randrange(len(body))]  # unclosed
        return "skill", (("" if opening == "- " else "a: ") + body + "\n").encode("utf-8")
    if op == 1:  # a chain of rule parents, sometimes closed into a cycle
        n = rnd.choice([rnd.randint(2, 50), rnd.randint(500, 3000)])
        lines = []
        for i in range(n):
            parent = f"  parent: rule/fz{i - 1}\n" if i else (f"  parent: rule/fz{n - 1}\n" if rnd.random() < 0.3 else "")
            lines.append(f"- id: fz{i}\n  name: {{pl: D{i}}}\n{parent}  source: {{book: tgb, section: X}}\n")
        return "rule", "".join(lines).encode("utf-8")
    data = rnd.choice(real).decode("utf-8", "replace")
    lines = data.split("\n")
    spots = [i for i, line in enumerate(lines) if ": " in line and not line.rstrip().endswith(("|-", ">-", "|", ">"))]
    for _ in range(rnd.randint(1, 4)):
        if not spots:
            break
        i = rnd.choice(spots)
        key = lines[i][: lines[i].index(": ") + 2]
        if op == 2:  # escapes in whatever field this line holds
            value = '"' + "".join(rnd.choice(ESCAPES + ["x", " ", "ł"]) for _ in range(rnd.randint(1, 6))) + '"'
        else:  # NaN and infinity where a number or anything else stands
            value = rnd.choice(NONFINITE)
        lines[i] = key + value
    return "skill", "\n".join(lines).encode("utf-8")
