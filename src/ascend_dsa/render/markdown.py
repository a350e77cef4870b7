"""Markdown building blocks shared by the renderers: tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Sequence

Align = Literal["left", "right", "center"]

_RULES: dict[str, str] = {"left": ":--", "right": "--:", "center": ":-:"}


def _cell(value: object) -> str:
    return str(value).replace("|", r"\|").replace("\n", " ")


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: Sequence[Align] | None = None) -> str:
    """A Markdown pipe table; every row must have one cell per header."""
    aligns = tuple(align) if align is not None else ("left",) * len(headers)
    if len(aligns) != len(headers):
        raise ValueError(f"align must have {len(headers)} entries, one per header, got {len(aligns)}")
    lines = ["| " + " | ".join(_cell(h) for h in headers) + " |", "| " + " | ".join(_RULES[a] for a in aligns) + " |"]
    for number, row in enumerate(rows, start=1):
        if len(row) != len(headers):
            raise ValueError(f"row {number} must have {len(headers)} cells, got {len(row)}")
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return "\n".join(lines)
