"""Problems found in content: each one located at `path:line:col`, with what is wrong and how to fix it."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True)
class Pos:
    """A 1-based line and column in a file."""

    line: int = 1
    col: int = 1


@dataclass(frozen=True)
class Problem:
    path: str
    pos: Pos
    message: str
    fix: str = ""
    severity: str = "error"  # or "warning"

    def format(self) -> str:
        text = f"{self.path}:{self.pos.line}:{self.pos.col}: {self.severity}: {self.message}"
        if self.fix:
            text += f" (fix: {self.fix})"
        return text


def _pos(pos) -> Pos:
    # A position may come as a deferred lookup (`resolve()`): finding it costs, and most are never needed.
    if pos is not None and not isinstance(pos, Pos):
        pos = pos.resolve()
    return pos or Pos()


@dataclass
class Problems:
    """Collects every problem of a run; nothing stops at the first one."""

    root: Path | None = None
    items: list[Problem] = field(default_factory=list)

    def _rel(self, path: Path | str) -> str:
        p = Path(path)
        if self.root is not None:
            try:
                return str(p.resolve().relative_to(self.root.resolve()))
            except ValueError:
                pass
        return str(p)

    def error(self, path: Path | str, pos: Pos | None, message: str, fix: str = "") -> None:
        self.items.append(Problem(self._rel(path), _pos(pos), message, fix))

    def warning(self, path: Path | str, pos: Pos | None, message: str, fix: str = "") -> None:
        self.items.append(Problem(self._rel(path), _pos(pos), message, fix, "warning"))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "warning"]

    def sorted(self) -> list[Problem]:
        return sorted(self.items, key=lambda p: (p.path, p.pos, p.message))


def did_you_mean(word: str, candidates, n: int = 1) -> str:
    """' (did you mean 'x'?)' for the closest candidate, or ''."""
    close = difflib.get_close_matches(word, list(candidates), n=n, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(f"'{c}'" for c in close) + "?)"
