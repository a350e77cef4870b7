"""Markdown building blocks shared by the renderers: tables, citations of sources, a check's status.

Every table carries its data: [`table`][] takes typed cells ([`Cell`][]: the value, its unit and the text the page
shows) and leaves an HTML comment after the table holding the same values twice, as CSV and as JSON; the site turns
that comment into download links beside the table and files next to the page (hooks/downloads.py,
`ascend_dsa.site.downloads`). The data files are built from the values, never from the page's text: numbers stay
numbers (no grouping commas, no unit in the cell), a column's unit goes into its name, and a status is its word.
The comment never reaches the reader.
"""

from __future__ import annotations

import base64
import csv
import inspect
import io
import json
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, SupportsFloat

from ascend_dsa.lang import Lang, term
from ascend_dsa.validate import shown

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ascend_dsa.facts.provenance import Source

Align = Literal["left", "right", "center"]

_RULES: dict[str, str] = {"left": ":--", "right": "--:", "center": ":-:"}

#: What a data file holds for one cell: a number, a text, or nothing (the page's dash).
CellValue = str | int | float | None
#: The text a page shows for a cell without a value.
NO_VALUE_TEXT: Final = "—"


@dataclass(frozen=True)
class Cell:
    """One table cell: the value the data files hold, its unit, and the Markdown the page shows for it."""

    #: A number in ``unit``, a text, or ``None`` for no value.
    value: CellValue
    #: The cell as the page shows it (grouped digits, a unit, a status mark).
    shown: str
    #: The unit of a numeric ``value`` (``cycles``, ``KiB``, ``%``); it goes into the data column's name, not the cell.
    unit: str = ""

    def __post_init__(self) -> None:
        """Reject a value that is no number, text or ``None``, and a number that is not finite."""
        if isinstance(self.value, bool) or not isinstance(self.value, (str, int, float, type(None))):
            raise TypeError(f"value must be a number, a text or None, got {shown(self.value)}")
        if isinstance(self.value, float) and not math.isfinite(self.value):
            raise ValueError(f"value must be finite (give an infinity as text), got {shown(self.value)}")


def number(value: SupportsFloat, text: str | None = None, unit: str = "") -> Cell:
    """A numeric cell: ``value`` in ``unit`` for the data files, ``text`` (default ``str(value)``) for the page.

    A whole ``int`` stays one; any other number (a ``Fraction``, a NumPy scalar) is stored as a float.
    """
    data = value if isinstance(value, int) and not isinstance(value, bool) else float(value)
    return Cell(data, str(value) if text is None else text, unit)


def label(text: str) -> Cell:
    """A text cell that reads like a number but names something (a design point called ``32 heads``)."""
    return Cell(plain_text(text), text)


#: A cell without a value: the page shows a dash, the data files hold nothing (JSON ``null``).
NO_VALUE: Final = Cell(None, NO_VALUE_TEXT)


@dataclass(frozen=True)
class Header:
    """A column header whose name in the data files differs from the page's (two columns the page heads alike)."""

    #: The header as the page shows it.
    shown: str
    #: The column's name in the data files, unique in its table.
    name: str


def _cell(value: object) -> str:
    return str(value).replace("|", r"\|").replace("\n", " ")


#: Name of the HTML comment that carries a table's data: ``<!-- ascend-data:table:<base64 CSV>:<base64 JSON> -->``.
DATA_MARKER: Final = "ascend-data"
DataKind = Literal["csv", "json", "table"]

#: Markdown inline syntax a data file leaves out: links keep their text, code and emphasis their content.
_LINK: Final = re.compile(r"\[([^\]]*)\]\([^)]*\)|\[([^\]]*)\]\[[^\]]*\]")
_MARKUP: Final = re.compile(r"\*\*|`|<br>|<wbr>")
#: HTML other than a line break in a text cell: a mark whose value must be given as a ``Cell``.
_HTML: Final = re.compile(r"<(?!br>|wbr>)[A-Za-z]")
#: A text that is one number, perhaps grouped and followed by one unit word: data the table must get as a number.
_NUMBER_TEXT: Final = re.compile(
    r"[-+\u2212]?[0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?:\s+[^\s0-9]\S*|\s*[%\u00d7])?"
)


def plain_text(value: object) -> str:
    """A cell as a data file holds it: the text a reader sees, without Markdown links, code marks or bold."""
    text = _LINK.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), str(value))
    return _MARKUP.sub("", text).replace("\n", " ").strip()


def data_marker(kind: DataKind, text: str, *more: str) -> str:
    """The HTML comment that carries ``text`` (and ``more``) as files of ``kind`` for the page's download links."""
    if kind not in ("csv", "json", "table"):
        raise ValueError(f"kind must be 'csv', 'json' or 'table', got {shown(kind)}")
    payloads = ":".join(base64.b64encode(t.encode()).decode() for t in (text, *more))
    return f"<!-- {DATA_MARKER}:{kind}:{payloads} -->"


def csv_text(headers: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
    """The header and rows as CSV (RFC 4180, CRLF line ends), text cells as plain text, ``None`` empty."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([plain_text(h) for h in headers])
    writer.writerows(
        [c if isinstance(c, (int, float)) else plain_text("" if c is None else c) for c in row] for row in rows
    )
    return buffer.getvalue()


def as_cell(value: object) -> Cell:
    """A table's cell as typed: a ``Cell`` as given, a number as itself, the dash as no value, a text as text.

    A text that is one number (``6,920.6``, ``84.5%``, ``128 KiB``) or holds HTML (a status mark) is refused: its
    value would be taken from the page's text, so the renderer gives it as a `Cell` ([`number`][], `status_cell`).
    """
    if isinstance(value, Cell):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    text = str(value)
    if text == NO_VALUE_TEXT:
        return NO_VALUE
    plain = plain_text(text)
    if _NUMBER_TEXT.fullmatch(plain):
        raise ValueError(f"a cell that is a number must be given as number(value, text, unit), got {shown(text)}")
    if _HTML.search(text):
        raise ValueError(f"a cell with HTML must be given as a Cell with its plain value, got {shown(text)}")
    return Cell(plain, text)


@dataclass(frozen=True)
class _Column:
    """A data column: its unique name, the page's header and the unit its numbers share (``None``: none or mixed)."""

    name: str
    header: str
    unit: str | None


def _data_columns(headers: Sequence[str | Header], rows: Sequence[Sequence[Cell]]) -> list[tuple[_Column, bool]]:
    """Each column with whether its numbers' units differ (then a unit column follows it in the data files)."""
    columns: list[tuple[_Column, bool]] = []
    for index, head in enumerate(headers):
        page, name = (head.shown, head.name) if isinstance(head, Header) else (head, plain_text(head))
        units = {row[index].unit for row in rows if row[index].value is not None and row[index].unit}
        unit = next(iter(units)) if len(units) == 1 else None
        if unit is not None and f"({unit})" not in name:
            name = f"{name} ({unit})"
        columns.append((_Column(name, plain_text(page), unit), len(units) > 1))
    return columns


def data_files(
    headers: Sequence[str | Header], rows: Sequence[Sequence[Cell]], *, computed_by: str, citation: str = ""
) -> tuple[str, str]:
    """The table's values as CSV and as JSON (columns with their units, rows, the source), from the typed cells."""
    columns = _data_columns(headers, rows)
    names: list[str] = []
    units: list[str | None] = []
    for column, mixed in columns:
        names.append(column.name)
        units.append(column.unit)
        if mixed:
            names.append(f"{column.name} [unit]")
            units.append(None)
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"data column names must be unique (name one with Header), got {shown(repeated)} twice")
    values: list[list[CellValue]] = []
    for row in rows:
        line: list[CellValue] = []
        for (_, mixed), cell in zip(columns, row, strict=True):
            line.append(cell.value)
            if mixed:
                line.append(cell.unit or None)
        values.append(line)
    document = {
        "source": {"computed_by": computed_by, "citation": citation or None},
        "columns": [
            {"name": n, "header": h, "unit": u}
            for n, u, h in zip(names, units, _headers_with_units(columns), strict=True)
        ],
        "rows": [dict(zip(names, line, strict=True)) for line in values],
    }
    return csv_text(names, values), json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def _headers_with_units(columns: Sequence[tuple[_Column, bool]]) -> list[str | None]:
    """The page's header of each data column; a unit column has none."""
    headers: list[str | None] = []
    for column, mixed in columns:
        headers.append(column.header)
        if mixed:
            headers.append(None)
    return headers


def _caller() -> str:
    """The module and function that called ``table``: the JSON names what computed the table."""
    frame = inspect.currentframe()
    caller = frame.f_back.f_back if frame is not None and frame.f_back is not None else None
    if caller is None:
        return "ascend_dsa"
    return f"{caller.f_globals.get('__name__', '?')}.{caller.f_code.co_qualname}"


def table(
    headers: Sequence[str | Header],
    rows: Sequence[Sequence[object]],
    align: Sequence[Align] | None = None,
    *,
    citation: str = "",
) -> str:
    """A Markdown pipe table, then its values as CSV and JSON for the download links; one cell per header.

    Cells are [`Cell`][]s, or numbers and texts taken as such ([`as_cell`][]); ``citation`` says where the table's
    figures come from (a report line, a source file), and the JSON also names the function that computed it.
    """
    aligns = tuple(align) if align is not None else ("left",) * len(headers)
    if len(aligns) != len(headers):
        raise ValueError(f"align must have {len(headers)} entries, one per header, got {len(aligns)}")
    shown_headers = [h.shown if isinstance(h, Header) else h for h in headers]
    lines = [
        "| " + " | ".join(_cell(h) for h in shown_headers) + " |",
        "| " + " | ".join(_RULES[a] for a in aligns) + " |",
    ]
    cells: list[list[Cell]] = []
    for count, row in enumerate(rows, start=1):
        if len(row) != len(headers):
            raise ValueError(f"row {count} must have {len(headers)} cells, got {len(row)}")
        typed = [as_cell(c) for c in row]
        cells.append(typed)
        lines.append("| " + " | ".join(_cell(c.shown) for c in typed) + " |")
    csv_file, json_file = data_files(headers, cells, computed_by=_caller(), citation=citation)
    return "\n".join(lines) + "\n\n" + data_marker("table", csv_file, json_file)


def citation(source: Source, lang: Lang) -> str:
    """A source's citation in the page's language (``报告 (zh) 第 85 行`` on a Chinese page)."""
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


def status_word(passed: bool, lang: Lang) -> str:  # noqa: FBT001 - a status is a plain boolean
    """The word "agrees" or "differs" in the page's language: a status as a data file holds it."""
    return term("status:agrees" if passed else "status:differs", lang)


def status_text(passed: bool, lang: Lang) -> str:  # noqa: FBT001 - a status is a plain boolean
    """A tick and "agrees" or a cross and "differs", in the page's language (no emoji: it needs a font)."""
    return status_mark(status_word(passed, lang), passed=passed)


def status_cell(passed: bool, lang: Lang) -> Cell:  # noqa: FBT001 - a status is a plain boolean
    """A status as a table cell: the plain word for the data files, the word with its tick or cross on the page."""
    return Cell(status_word(passed, lang), status_text(passed, lang))


def mark_cell(word: str, *, passed: bool) -> Cell:
    """``word`` with a tick or cross (``status_mark``) as a table cell; the data files hold the word."""
    return Cell(word, status_mark(word, passed=passed))
