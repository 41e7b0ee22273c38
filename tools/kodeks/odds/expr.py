"""The expressions of an odds declaration: `bs + mod - 3 * cover`, `ceil(arm / 2)`, `max(1, damage - bands // 3)`.

A declaration is content, so an expression is parsed here into a small tree and never handed to `eval`: the
grammar has integers, names (the calculator's inputs), + - * and `//` (floor division), unary minus,
parentheses, and the functions min(a, b, ...), max(a, b, ...) and ceil(a / b). kodeks-odds.js parses the same
grammar the same way, so the site and the command line read a declaration alike.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

MAX_LENGTH = 300  # a declaration's expression is a line of arithmetic; longer is a mistake
MAX_DEPTH = 30  # nesting of parentheses and calls; deeper is a mistake, and recursion must stay bounded

_TOKEN = re.compile(r"\s*(?:(\d+)|([a-z_][a-z0-9_]*)|(//|[-+*/(),]))", re.I)
FUNCTIONS = ("min", "max", "ceil")


class ExprError(ValueError):
    """A syntax error, with the character offset in the expression's text where it was found."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Expr:
    """A parsed expression: its text, its tree and the input names it reads."""

    text: str
    tree: tuple
    names: frozenset

    def __call__(self, env: dict) -> int:
        return evaluate(self.tree, env)


def parse(text) -> Expr:
    """The expression written in `text` (a string, or a whole number written as a YAML integer)."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise ExprError("an expression is text such as \"bs + mod\" or a whole number")
    text = str(text)
    if len(text) > MAX_LENGTH:
        raise ExprError(f"longer than {MAX_LENGTH} characters", MAX_LENGTH)
    tokens = _tokens(text)
    parser = _Parser(tokens, text)
    tree = parser.sum(0)
    if parser.i < len(tokens):
        kind, value, offset = tokens[parser.i]
        raise ExprError(f"unexpected '{value}'" + (" (an operator between the two is missing?)"
                                                     if kind in ("int", "name") else ""), offset)
    names: set = set()
    _collect(tree, names)
    return Expr(text, tree, frozenset(names))


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None:
            at = pos + len(text[pos:]) - len(text[pos:].lstrip())
            raise ExprError(f"'{text[at]}' is not part of an expression (use + - * // ( ) and names)", at)
        if m.group(1) is not None:
            out.append(("int", m.group(1), m.start(1)))
        elif m.group(2) is not None:
            out.append(("name", m.group(2), m.start(2)))
        else:
            out.append(("op", m.group(3), m.start(3)))
        pos = m.end()
    if not out:
        raise ExprError("the expression is empty", 0)
    return out


class _Parser:
    def __init__(self, tokens: list, text: str):
        self.tokens, self.text, self.i = tokens, text, 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else ("end", "", len(self.text))

    def take(self, value: str) -> None:
        kind, got, offset = self.peek()
        if got != value or kind != "op":
            raise ExprError(f"expected '{value}'" + (f", found '{got}'" if got else " at the end"), offset)
        self.i += 1

    def sum(self, depth: int) -> tuple:
        node = self.product(depth)
        while self.peek()[1] in ("+", "-") and self.peek()[0] == "op":
            op = self.peek()[1]
            self.i += 1
            node = (op, node, self.product(depth))
        return node

    def product(self, depth: int, numerator: bool = False) -> tuple:
        node = self.unary(depth)
        while self.peek()[1] in ("*", "//", "/") and self.peek()[0] == "op":
            kind, op, offset = self.peek()
            if op == "/":
                if numerator:
                    break  # the division of ceil(a / b): ceil takes it
                raise ExprError("'/' is allowed only as ceil(a / b); write a // b to round down", offset)
            self.i += 1
            node = (op, node, self.unary(depth))
        return node

    def unary(self, depth: int) -> tuple:
        if depth > MAX_DEPTH:
            raise ExprError(f"nested deeper than {MAX_DEPTH} levels", self.peek()[2])
        kind, value, offset = self.peek()
        if kind == "op" and value in ("-", "+"):
            self.i += 1
            inner = self.unary(depth + 1)
            return ("neg", inner) if value == "-" else inner
        return self.atom(depth)

    def atom(self, depth: int) -> tuple:
        kind, value, offset = self.peek()
        if kind == "int":
            self.i += 1
            if len(value) > 9:
                raise ExprError(f"the number {value} is too large", offset)
            return ("int", int(value))
        if kind == "name":
            self.i += 1
            if self.peek()[1] == "(" and self.peek()[0] == "op":
                return self.call(value, offset, depth)
            if value in FUNCTIONS:
                raise ExprError(f"'{value}' is a function: write {value}(...)", offset)
            return ("name", value, offset)
        if kind == "op" and value == "(":
            self.i += 1
            node = self.sum(depth + 1)
            self.take(")")
            return node
        raise ExprError(f"expected a number, a name or '(', found '{value}'" if value else
                        "the expression ends where a number or a name was expected", offset)

    def call(self, name: str, offset: int, depth: int) -> tuple:
        if name not in FUNCTIONS:
            raise ExprError(f"unknown function '{name}' (functions: {', '.join(FUNCTIONS)})", offset)
        self.take("(")
        if name == "ceil":
            # ceil's argument must be a division, written out: ceil(a / b) rounds the exact quotient up. Both
            # sides are single terms (a sum goes in parentheses), so `ceil(a + b / 2)` cannot be misread.
            top = self.product(depth + 1, numerator=True)
            kind, value, at = self.peek()
            if value != "/":
                raise ExprError("ceil takes a division of two terms: ceil(a / b), ceil((a + b) / 2)", at)
            self.i += 1
            bottom = self.unary(depth + 1)
            self.take(")")
            return ("ceil", top, bottom)
        args = [self.sum(depth + 1)]
        while self.peek()[1] == "," and self.peek()[0] == "op":
            self.i += 1
            args.append(self.sum(depth + 1))
        self.take(")")
        if len(args) < 2:
            raise ExprError(f"{name} takes two or more values: {name}(a, b)", offset)
        return (name, *args)


def _collect(node: tuple, names: set) -> None:
    if node[0] == "name":
        names.add(node[1])
    elif node[0] != "int":
        for child in node[1:]:
            _collect(child, names)


class EvalError(ValueError):
    """An expression that has no value for these inputs (a division by zero)."""


def evaluate(node: tuple, env: dict) -> int:
    op = node[0]
    if op == "int":
        return node[1]
    if op == "name":
        return env[node[1]]
    if op == "neg":
        return -evaluate(node[1], env)
    if op in ("min", "max"):
        values = [evaluate(n, env) for n in node[1:]]
        return min(values) if op == "min" else max(values)
    a, b = evaluate(node[1], env), evaluate(node[2], env)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise EvalError("division by zero")
    if op == "//":
        return a // b
    return -((-a) // b)  # ceil
