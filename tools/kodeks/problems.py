"""Problems found in content: each one located at `path:line:col`, with what is wrong and how to fix it."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace
from pathlib import Path


@dataclass(frozen=True, order=True)
class Pos:
    """A 1-based line and column in a file."""

    line: int = 1
    col: int = 1


# Content is untrusted and its text reaches the author's terminal (and the preview page) inside messages: an
# ESC or BEL there could clear the screen, set the window title or hide the lines that follow, a line break would
# split one problem over two lines, and bidirectional overrides make a message read differently than it is.
# They are shown as escapes (\x1b, \u202e) instead.
_UNSAFE = [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x200E, 0x200F, *range(0x202A, 0x202F), 0x2028, 0x2029,
           *range(0x2066, 0x206A), 0xFEFF]
_ESCAPES = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _UNSAFE}
_ESCAPES.update({ord("\n"): "\\n", ord("\t"): "\\t", ord("\r"): "\\r"})


def printable(text: str) -> str:
    """`text` with every control and direction-changing character written as an escape."""
    return text.translate(_ESCAPES)


@dataclass(frozen=True)
class Problem:
    path: str
    pos: Pos
    message: str
    fix: str = ""
    severity: str = "error"  # or "warning"
    code: str = ""  # a kind of problem a caller may treat differently (see Problems.escalate)

    def __post_init__(self) -> None:
        for name in ("path", "message", "fix"):
            object.__setattr__(self, name, printable(getattr(self, name)))

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
                # The folder resolved, not the file: a problem with a link (or a file reached through one) is
                # shown at the link, where the author sees it.
                return str((p.parent.resolve() / p.name).relative_to(self.root.resolve()))
            except ValueError:
                pass
        return str(p)

    def error(self, path: Path | str, pos: Pos | None, message: str, fix: str = "", code: str = "") -> None:
        self.items.append(Problem(self._rel(path), _pos(pos), message, fix, "error", code))

    def warning(self, path: Path | str, pos: Pos | None, message: str, fix: str = "", code: str = "") -> None:
        self.items.append(Problem(self._rel(path), _pos(pos), message, fix, "warning", code))

    def escalate(self, code: str, reason: str) -> int:
        """Turn the warnings marked `code` into errors, saying `reason`; returns how many. A check warns about
        what is fine in a draft but must not be published (a `kodeks new` skeleton's TODO): a command that
        publishes escalates them."""
        n = 0
        for i, p in enumerate(self.items):
            if p.code == code and p.severity == "warning":
                self.items[i] = replace(p, severity="error", message=f"{p.message} ({reason})")
                n += 1
        return n

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
