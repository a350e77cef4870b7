"""Markdown building blocks shared by the renderers: tables, citations of sources, a check's status."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ascend_dsa.lang import Lang, term

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ascend_dsa.facts.provenance import Source

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


def citation(source: Source, lang: Lang) -> str:
    """A source's citation in the page's language (报告 (zh) 第 85 行 on a Chinese page)."""
    return source.cite(lang)


def kind_name(source: Source, lang: Lang) -> str:
    """A source's kind (report, code, derived, assumed) in the page's language."""
    return term(f"kind:{source.kind}", lang)


#: The class of a status mark; reader.css draws its tick or cross as an inline SVG, so no emoji font is needed.
STATUS_CLASS = "ascend-status"


def status_mark(word: str, *, passed: bool) -> str:
    """``word`` as a status mark: a tick (``passed``) or a cross before it, drawn by the site's CSS."""
    state = "agrees" if passed else "differs"
    return f'<span class="{STATUS_CLASS} {STATUS_CLASS}--{state}">{word}</span>'


def status_text(passed: bool, lang: Lang) -> str:  # noqa: FBT001 - a status is a plain boolean
    """A tick and "agrees" or a cross and "differs", in the page's language (no emoji: it needs a font)."""
    return status_mark(term("status:agrees" if passed else "status:differs", lang), passed=passed)
