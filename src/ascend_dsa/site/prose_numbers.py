r"""Numbers in page prose: fill ``{{ name }}`` from the package, and find any number typed by hand.

Prose (Markdown outside code, notebook markdown cells, both languages) never types a number. It writes
``{{ name }}`` instead, and the MkDocs hook ``hooks/prose_numbers.py`` replaces it at build time with
`ascend_dsa.report.prose_values.PROSE_VALUES` ``[name]()``, formatted by `format_quantity` (digits grouped by
commas from 10,000 on; a percentage with its ``%``; the unit is written in the prose, in the page's language).
Inside math (``$...$``) the marker works the same way.

`typed_numbers` then lists every other number left in the prose; the hook fails the build naming the page
and each number. Exempt, as the only numbers prose may type:

- citations: ``line 116``, ``lines 104-111``, ``第 85、89 行``, ``config.h:74``, ``kernel_body.h:1297``, commits,
  dates (``2026-09-30``, ``20260930``);
- names: anything glued to a letter or ``_`` (FP8, e4m3, fp32, 1C2V, L0C, MTE2, H_Q, gather2, V4.1), the product
  names in `NAMES` (Ascend 950), a numbered unit or row (VECTOR Core 0, bank 1, head 0, block 2, 第 2 块),
  a numbered step of the report (step 6, 第 6 步) and block-index arithmetic (``SV[i-1]``, ``i+5``);
- mathematics: a bare 0 or 1 inside ``$...$`` (``\sum_{j=1}``, ``1/\sqrt{d}``, ``x > 0``);
- Markdown itself: ordered-list markers and section numbers (``1.``, ``## 2.``), footnote labels, link
  targets, HTML tags, inline code (which quotes source code such as ``B_TOPK = 64``), and fenced code blocks.

To put a new number in prose: add ``"name": lambda: Quantity(<computed from the package>, "unit", decimals)`` to
`ascend_dsa.report.prose_values`, write ``{{ name }}`` in both ``x.md`` and ``x.en.md``, and write the unit in words.
A number a table already shows is better referred to ("see the table") than repeated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ascend_dsa.render.format import format_quantity
from ascend_dsa.render.markdown import Lang, check_lang
from ascend_dsa.report.prose_values import PROSE_VALUES, Quantity

if TYPE_CHECKING:
    from collections.abc import Callable

#: ``{{ name }}``: a value from the package.
MARKER: Final = re.compile(r"\{\{\s*([a-z][a-z0-9_]*)\s*\}\}")
#: Product names that carry a number.
NAMES: Final = ("Ascend 950", "昇腾 950", "DeepSeek V4.1")

_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})[^\n]*\n.*?^\1\2[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_TAG = re.compile(r"</?[A-Za-z][^>\n]*>")
_LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|\]\[[^\]]*\]|^\s*\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
_FOOTNOTE = re.compile(r"\[\^[^\]]+\]")
_LIST_MARKER = re.compile(r"^(?:[ \t>]*|#+[ \t]+)\d+[.)](?=[ \t])", re.MULTILINE)
_NUM = r"\d+(?:[.,]\d+)*"
_RANGE = rf"{_NUM}(?:\s*(?:[-–~、,，和及与]|and|to)\s*{_NUM})*"
_CITATIONS: Final = (
    re.compile(rf"\b(?i:lines?)\s+{_RANGE}"),
    re.compile(rf"第\s*{_RANGE}\s*行"),
    re.compile(rf"[\w./-]+\.(?:h|hpp|cpp|py|md|txt|toml|yml|ipynb):{_NUM}(?:-{_NUM})?"),
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b20\d{6}\b"),
    re.compile(r"\b[0-9a-f]{7,40}\b"),
    re.compile(r"\b(?:[Cc]ore|[Bb]ank|[Hh]ead|[Bb]lock)\s+\d\b|第\s*\d\s*块"),
    re.compile(r"\b(?i:steps?)\s+\d+\b|第\s*\d+\s*步"),
    re.compile(r"\b[ijt]\s*[+-]\s*\d+\b"),
)
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)
_ZERO_OR_ONE = re.compile(r"(?<![\w.,])[01](?![\w.,])")
#: A number not glued to a letter, ``_`` or another number part.
_NUMBER = re.compile(rf"(?<![\w.,]){_NUM}%?(?![\w])")


@dataclass(frozen=True)
class TypedNumber:
    """A number typed by hand in prose: the number, its line in the page source and the text around it."""

    number: str
    line: int
    context: str


def fill(markdown: str, lang: Lang) -> str:
    """``markdown`` with every ``{{ name }}`` outside code replaced by the package's value for ``lang``."""
    check_lang(lang)

    def value(match: re.Match[str]) -> str:
        return format_quantity(quantity(match.group(1)), lang)

    return _outside_code(markdown, lambda text: MARKER.sub(value, text))


def fill_html(html: str, lang: Lang) -> str:
    """``html`` (a rendered notebook) with every ``{{ name }}`` replaced, as `fill` does in Markdown."""
    check_lang(lang)
    return MARKER.sub(lambda m: format_quantity(quantity(m.group(1)), lang), html)


def quantity(name: str) -> Quantity:
    """The package's value for ``name``; an unknown name raises naming the closest choices."""
    try:
        make = PROSE_VALUES[name]
    except KeyError:
        raise KeyError(f"unknown prose value {{{{ {name} }}}}; define it in ascend_dsa.report.prose_values") from None
    return make()


def typed_numbers(markdown: str) -> list[TypedNumber]:
    """Every number in the prose of ``markdown`` that is neither a ``{{ name }}`` nor exempt, in page order."""
    text = _blank(_FENCE, markdown)
    for pattern in (_COMMENT, _CODE_SPAN, _TAG, _LINK_TARGET, _FOOTNOTE, _LIST_MARKER, MARKER, *_CITATIONS):
        text = _blank(pattern, text)
    for name in NAMES:
        text = text.replace(name, " " * len(name))
    text = _MATH.sub(lambda m: _ZERO_OR_ONE.sub(" ", m.group(0)), text)
    found = []
    lines = markdown.splitlines()
    for match in _NUMBER.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append(TypedNumber(match.group(0), line, lines[line - 1].strip()[:80]))
    return found


def _blank(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with every match of ``pattern`` replaced by spaces, keeping line breaks (so line numbers hold)."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _outside_code(markdown: str, change: Callable[[str], str]) -> str:
    """Apply ``change`` to the parts of ``markdown`` outside fenced blocks and inline code."""
    parts, position = [], 0
    for match in _FENCE.finditer(markdown):
        parts.append(_outside_spans(markdown[position : match.start()], change))
        parts.append(match.group(0))
        position = match.end()
    parts.append(_outside_spans(markdown[position:], change))
    return "".join(parts)


def _outside_spans(text: str, change: Callable[[str], str]) -> str:
    parts, position = [], 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(change(text[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(change(text[position:]))
    return "".join(parts)
