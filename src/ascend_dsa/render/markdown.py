"""Markdown building blocks shared by the renderers: tables, citations of sources, a check's status.

Every table carries its data: [`table`][] leaves an HTML comment after it holding the same rows as CSV, and the
site turns that comment into a download link beside the table and a file next to the page (hooks/downloads.py,
`ascend_dsa.site.downloads`). The comment never reaches the reader.
"""

from __future__ import annotations

import base64
import csv
import io
import re
from typing import TYPE_CHECKING, Final, Literal

from ascend_dsa.lang import Lang, term
from ascend_dsa.validate import shown

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ascend_dsa.facts.provenance import Source

Align = Literal["left", "right", "center"]

_RULES: dict[str, str] = {"left": ":--", "right": "--:", "center": ":-:"}


def _cell(value: object) -> str:
    return str(value).replace("|", r"\|").replace("\n", " ")


#: Name of the HTML comment that carries a table's data: ``<!-- ascend-data:csv:<base64> -->``.
DATA_MARKER: Final = "ascend-data"
DataKind = Literal["csv", "json"]

#: Markdown inline syntax a data file leaves out: links keep their text, code and emphasis their content.
_LINK: Final = re.compile(r"\[([^\]]*)\]\([^)]*\)|\[([^\]]*)\]\[[^\]]*\]")
_MARKUP: Final = re.compile(r"\*\*|`|<br>")


def plain_text(value: object) -> str:
    """A cell as a data file holds it: the text a reader sees, without Markdown links, code marks or bold."""
    text = _LINK.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), str(value))
    return _MARKUP.sub("", text).replace("\n", " ").strip()


def data_marker(kind: DataKind, text: str) -> str:
    """The HTML comment that carries ``text`` as a file of ``kind`` for the page's download link."""
    if kind not in ("csv", "json"):
        raise ValueError(f"kind must be 'csv' or 'json', got {shown(kind)}")
    return f"<!-- {DATA_MARKER}:{kind}:{base64.b64encode(text.encode()).decode()} -->"


def csv_text(headers: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
    """The header and rows as CSV (RFC 4180, CRLF line ends), cells as plain text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([plain_text(h) for h in headers])
    writer.writerows([plain_text(c) for c in row] for row in rows)
    return buffer.getvalue()


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: Sequence[Align] | None = None) -> str:
    """A Markdown pipe table, then its rows as CSV for the download link; every row has one cell per header."""
    aligns = tuple(align) if align is not None else ("left",) * len(headers)
    if len(aligns) != len(headers):
        raise ValueError(f"align must have {len(headers)} entries, one per header, got {len(aligns)}")
    lines = ["| " + " | ".join(_cell(h) for h in headers) + " |", "| " + " | ".join(_RULES[a] for a in aligns) + " |"]
    for number, row in enumerate(rows, start=1):
        if len(row) != len(headers):
            raise ValueError(f"row {number} must have {len(headers)} cells, got {len(row)}")
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return "\n".join(lines) + "\n\n" + data_marker("csv", csv_text(headers, rows))


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


def status_text(passed: bool, lang: Lang) -> str:  # noqa: FBT001 - a status is a plain boolean
    """A tick and "agrees" or a cross and "differs", in the page's language (no emoji: it needs a font)."""
    return status_mark(term("status:agrees" if passed else "status:differs", lang), passed=passed)
