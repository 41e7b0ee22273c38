"""Structured values: numbers, printed strings ('RnT', '-'), booleans, and gaps."""
from __future__ import annotations

from dataclasses import dataclass

from .text import BiText


@dataclass
class Gap:
    """A value the source does not give. Never rendered as 0."""

    reason: BiText | None = None

    def __str__(self) -> str:  # pragma: no cover - renderers decide how a gap looks
        return "—"


Value = int | float | str | bool | Gap


def is_gap(value) -> bool:
    return isinstance(value, Gap)


def show(value, signed: bool = False, unit: str = "") -> str:
    """A value as text for tables and cards; a gap is a dash (callers add a legend)."""
    if isinstance(value, Gap):
        return "—"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if signed and isinstance(value, (int, float)) and value > 0:
        return f"+{value}{unit}"
    if isinstance(value, (int, float)):
        return f"{value}{unit}".replace("-", "−") if value < 0 else f"{value}{unit}"
    return str(value)
