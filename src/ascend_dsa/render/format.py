"""Every number-to-text helper of the site, once: grouping, decimals, percentages, bytes, units, published figures.

Renderers and the prose-number hook call these instead of formatting numbers their own way, so one number reads
alike on every page. Both languages write numbers alike; only unit words differ, and those come from the catalogue
of terms (``lang.CATALOGUE``).
"""

from __future__ import annotations

import math
import unicodedata
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.report_figures import published_figure
from ascend_dsa.lang import COUNT_UNITS, Lang, check_lang, has_chinese, pick, unit_name
from ascend_dsa.report.rules import RuleKind
from ascend_dsa.units import KiB

if TYPE_CHECKING:
    from ascend_dsa.facts.report_figures import FigureValue
    from ascend_dsa.facts.report_lines import StatedNumber
    from ascend_dsa.report.claims import ClaimResult
    from ascend_dsa.report.prose_values import Quantity

#: From this size on, prose groups digits by commas (12,457; but 6921).
GROUP_FROM = 10_000
#: Decimal prefixes for rates and clocks (5 TB/s, 1650 MHz), largest first.
_DECIMAL_PREFIXES: Final = ((10**12, "T"), (10**9, "G"), (10**6, "M"), (10**3, "k"))
#: Binary prefixes for capacities (256 KiB), largest first.
_BINARY_PREFIXES: Final = ((2**20, "Mi"), (2**10, "Ki"))
_SCALED_UNITS: Final = {"B/s": _DECIMAL_PREFIXES, "B": _BINARY_PREFIXES}
#: A clock reads best in MHz (the report's 1650 MHz), not as 1.65 GHz.
_CLOCK_PREFIX: Final = (10**6, "M")
#: The singular of each plural count unit, for a value of exactly one (1 row, not 1 rows).
_SINGULAR: Final = {unit: unit.removesuffix("s") for unit in COUNT_UNITS}
#: Counts from one to ten as running text writes them before what they count (zh ``两个``, not ``二个``).
_COUNT_WORDS: Final = {
    "zh": ("一", "两", "三", "四", "五", "六", "七", "八", "九", "十"),
    "en": ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
}


def group_digits(value: float, decimals: int = 0) -> str:
    """A number with thin grouping commas, e.g. ``262,144``."""
    return f"{value:,.{decimals}f}"


def count_word(count: int, lang: Lang) -> str:
    """``count`` as a word before what it counts (``两``, six), from one to ten; else digits, as a table writes them.

    A label that counts a thing of the package (two VECTOR Cores, six instantiations) writes it through this, so
    the count follows the package and no numeral is typed into the label.
    """
    words = _COUNT_WORDS[check_lang(lang)]
    return words[count - 1] if 1 <= count <= len(words) else str(count)


def fixed(value: float, decimals: int = 3) -> str:
    """``value`` to ``decimals`` places, infinities as ``+inf``/``-inf``."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:.{decimals}f}"


def whole_or(value: float, decimals: int) -> str:
    """A whole number grouped as such, any other to ``decimals`` places (grouped too)."""
    if isinstance(value, int) or float(value).is_integer():
        return group_digits(value)
    return group_digits(value, decimals)


def percent(fraction: float, decimals: int = 2) -> str:
    """A fraction as a percentage with a space before the sign: ``0.8212`` -> ``82.12 %``."""
    return f"{100 * fraction:.{decimals}f} %"


def kib(size_bytes: int) -> str:
    """A whole number of KiB: ``262144`` -> ``256 KiB``."""
    return f"{size_bytes // KiB} KiB"


def infinity_text(value: float) -> str:
    """``∞`` or ``-∞`` for an infinite value (the report writes ``-∞`` on line 45), empty for a finite one."""
    if isinstance(value, float) and math.isinf(value):
        return "-∞" if value < 0 else "∞"
    return ""


def format_figure(value: FigureValue, decimals: int = 4) -> str:
    """A figure for a table cell: whole numbers grouped, others to ``decimals``, tuples in parentheses."""
    if isinstance(value, tuple):
        return "(" + ", ".join(format_figure(v, decimals) for v in value) + ")"
    return infinity_text(value) or whole_or(value, decimals)


def published_text(value: FigureValue) -> str:
    """A published figure exactly as stored: whole numbers grouped, decimals as written."""
    if isinstance(value, tuple):
        return "(" + ", ".join(published_text(v) for v in value) + ")"
    if infinity_text(value):
        return infinity_text(value)
    return group_digits(value) if float(value).is_integer() else repr(value)


def with_unit(text: str, value: FigureValue, unit: str, lang: Lang) -> str:
    """``text`` (a formatted value) followed by ``unit`` in the page's language, singular for exactly one."""
    if not unit:
        return text
    if check_lang(lang) == "en" and not isinstance(value, tuple) and value == 1:
        return f"{text} {_SINGULAR.get(unit, unit)}"
    return f"{text} {unit_name(unit, lang)}"


def _decimals(value: float) -> int:
    """Decimals a value needs, up to two: 5 -> 0, 1.5 -> 1, 1.65 -> 2."""
    for decimals in (0, 1):
        if round(value, decimals) == round(value, 2):
            return decimals
    return 2


def scaled_quantity(value: float, unit: str) -> tuple[float, str]:
    """``value`` in ``unit`` scaled as `quantity` shows it, and the prefixed unit: ``(5, "TB/s")``, ``(256, "KiB")``."""
    if unit == "Hz":
        factor, prefix = _CLOCK_PREFIX
        return value / factor, f"{prefix}Hz"
    for factor, prefix in _SCALED_UNITS.get(unit, ()):
        if abs(value) >= factor and (value / factor) * 100 == round((value / factor) * 100):
            return value / factor, f"{prefix}{unit}"
    return value, unit


def quantity(value: float, unit: str, lang: Lang = "en") -> str:
    """``value`` in ``unit`` as a person reads it: 5 TB/s, 1650 MHz, 256 KiB, 4,096 FMA/cycle, ``32 个 AI Core``."""
    check_lang(lang)
    scaled, scaled_unit = scaled_quantity(value, unit)
    shown = group_digits(scaled, _decimals(scaled))
    return f"{shown} {scaled_unit if scaled_unit != unit else unit_name(unit, lang)}"


def format_quantity(quantity: Quantity, lang: Lang) -> str:
    """``quantity``'s number as prose shows it: its decimals, commas from 10,000 on, ``%`` for a percentage.

    Both languages write numbers alike; the unit, a word, is written by the page in its language.
    """
    check_lang(lang)
    value = float(quantity.value) * (100 if quantity.unit == "%" else 1)
    text = group_digits(value, quantity.decimals) if abs(value) >= GROUP_FROM else f"{value:.{quantity.decimals}f}"
    return text + ("%" if quantity.unit == "%" else "")


def published_cell(result: ClaimResult, lang: Lang) -> str:
    """The report's value of a claim with its unit (``%`` for a percent rule), and how the report wrote it."""
    figure = result.figure
    unit = "%" if result.claim.rule.kind is RuleKind.PERCENT else figure.unit
    text = with_unit(published_text(figure.value), figure.value, unit, lang)
    if not figure.written:
        return text
    english = f", English edition `{figure.written_en}`" if figure.written_en else ""
    return pick(lang, f"{text}（原文 `{figure.written}`）", f"{text} (written `{figure.written}`{english})")


def stated_number(number: StatedNumber, lang: Lang) -> str:
    """A number as a report line writes it, as code; on an English page a Chinese one is followed by its English.

    The English is the English edition's words where the number's figure records them for the same writing, else
    the number's value (``两`` (2)).
    """
    written = f"`{number.written}`"
    if not has_chinese(number.written):
        return written
    figure = published_figure(number.figure)
    english = figure.written_en if figure.written == number.written and figure.written_en else f"{number.value:g}"
    return pick(lang, written, f"{written} ({english})")


def is_wide(char: str) -> bool:
    """Whether ``char`` is drawn a full em wide, as CJK characters are (Unicode's wide and fullwidth classes)."""
    return unicodedata.east_asian_width(char) in {"W", "F"}


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal or a monospaced font: wide (CJK) characters take two."""
    return sum(2 if is_wide(c) else 1 for c in text)


def pad_to(text: str, columns: int) -> str:
    """``text`` followed by spaces up to ``columns`` display columns, so that Chinese columns line up too."""
    return text + " " * max(0, columns - display_width(text))
