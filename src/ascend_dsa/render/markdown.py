"""Markdown building blocks shared by the renderers: tables and the choice of language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, get_args

if TYPE_CHECKING:
    from collections.abc import Sequence

Lang = Literal["zh", "en"]
Align = Literal["left", "right", "center"]

_RULES: dict[str, str] = {"left": ":--", "right": "--:", "center": ":-:"}

#: Unit names as a Chinese reader reads them; a unit not listed reads the same in both languages.
UNITS_ZH: Final = {
    "AI Cores": "个 AI Core",
    "VECTOR Cores": "个 VECTOR Core",
    "banks": "个 bank",
    "blocks": "块",
    "cycles": "周期",
    "cycles/block": "周期/块",
    "cycles/token": "周期/token",
    "heads": "个 head",
    "requests": "个请求",
    "rows": "行",
    "tokens": "个 token",
}


def unit_name(unit: str, lang: Lang) -> str:
    """``unit`` as the page's language names it (``个请求`` for requests on a Chinese page)."""
    return UNITS_ZH.get(unit, unit) if lang == "zh" else unit


def check_lang(lang: str) -> Lang:
    """Return ``lang`` if the site has that language, else raise naming the choices."""
    choices: tuple[Lang, ...] = get_args(Lang)
    for choice in choices:
        if lang == choice:
            return choice
    raise ValueError(f"lang must be one of {', '.join(choices)}, got {lang!r}")


def pick(lang: Lang, zh: str, en: str) -> str:
    """The text for the page's language."""
    return zh if check_lang(lang) == "zh" else en


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


def group_digits(value: float, decimals: int = 0) -> str:
    """A number with thin grouping commas, e.g. ``262,144``."""
    return f"{value:,.{decimals}f}"
