"""How a number from `ascend_dsa.report.prose_values` reads in a sentence, per language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.render.markdown import Lang, check_lang

if TYPE_CHECKING:
    from ascend_dsa.report.prose_values import Quantity

#: From this size on, digits are grouped by commas (12,457; but 6921).
GROUP_FROM = 10_000


def format_quantity(quantity: Quantity, lang: Lang) -> str:
    """``quantity``'s number as prose shows it: its decimals, commas from 10,000 on, ``%`` for a percentage.

    Both languages write numbers alike; the unit, a word, is written by the page in its language.
    """
    check_lang(lang)
    value = float(quantity.value) * (100 if quantity.unit == "%" else 1)
    text = f"{value:,.{quantity.decimals}f}" if abs(value) >= GROUP_FROM else f"{value:.{quantity.decimals}f}"
    return text + ("%" if quantity.unit == "%" else "")
