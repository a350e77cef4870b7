"""Every computed table's downloads in the built site: a CSV and a JSON of the same values, each the page's number.

Read with the standard ``csv`` and ``json`` modules only, on every page of both editions: the two files agree cell by
cell, column names are unique and carry no markup, numbers are numbers (no grouping commas, no unit in a cell), a
status is a plain word, and each number, formatted as the page formats it, is the number the page's cell shows.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from html.parser import HTMLParser
from typing import TYPE_CHECKING

from tests.helpers.site_html import article, page_html, page_paths

if TYPE_CHECKING:
    from pathlib import Path

#: A table and the paragraph of download links right after it.
_TABLE_AND_LINKS = re.compile(
    r"(<table\b.*?</table>)\s*<p class=\"ascend-download\" data-search-exclude>(.*?)</p>", re.DOTALL
)
_HREF = re.compile(r'<a href="([^"]+)" download>')
#: The first number a cell shows: digits with grouping commas and decimals, or a float in exponent form.
_SHOWN_NUMBER = re.compile(r"[-+\u2212]?(?:[0-9][0-9,]*)?\.?[0-9]+(?:[eE][-+]?[0-9]+)?")
_MARKUP = re.compile(r"<[A-Za-z/!]")


class _Cells(HTMLParser):
    """The text of each cell of one table, row by row (header row first)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # noqa: ARG002 - HTMLParser's signature
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _page_cells(html: str) -> list[list[str]]:
    parser = _Cells()
    parser.feed(html)
    return parser.rows


def _agrees(value: float, shown: str) -> bool:
    """Whether ``value`` written as ``shown`` is written (its decimals, or its exponent form) is ``shown``."""
    text = shown.replace(",", "").replace("\u2212", "-").lstrip("+")
    if "e" in text.lower():
        mantissa = text.lower().split("e")[0]
        decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
        return float(f"{value:.{decimals}e}") == float(text)
    decimals = len(text.split(".")[1]) if "." in text else 0
    return float(f"{value:.{decimals}f}") == float(text)


def _check_table(where: str, page_rows: list[list[str]], csv_rows: list[list[str]], document: dict) -> int:  # type: ignore[type-arg]
    """Check one table's files against each other and against the page; return how many numbers were compared."""
    columns = document["columns"]
    names = [c["name"] for c in columns]
    assert csv_rows[0] == names, where
    assert len(set(names)) == len(names), (where, names)
    assert not any(_MARKUP.search(n) or "`" in n or "**" in n for n in names), (where, names)
    assert document["source"]["computed_by"].startswith("ascend_dsa."), where
    shown_columns = [i for i, c in enumerate(columns) if c["header"] is not None]
    assert [columns[i]["header"] for i in shown_columns] == page_rows[0], where
    assert len(document["rows"]) == len(csv_rows) - 1 == len(page_rows) - 1, where
    compared = 0
    for record, csv_row, page_row in zip(document["rows"], csv_rows[1:], page_rows[1:], strict=True):
        assert list(record) == names, where
        for name, csv_cell in zip(names, csv_row, strict=True):
            value = record[name]
            assert csv_cell == ("" if value is None else str(value)), (where, name, csv_cell, value)
            assert not (isinstance(value, str) and _MARKUP.search(value)), (where, name, value)
        for index, shown in zip(shown_columns, page_row, strict=True):
            value = record[names[index]]
            if value is None:
                assert shown in ("—", ""), (where, names[index], shown)
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                number = _SHOWN_NUMBER.search(shown)
                assert number is not None, (where, names[index], shown, value)
                assert _agrees(value, number.group()), (where, names[index], shown, value)
                compared += 1
            else:
                assert " ".join(unescape(value).split()) in shown, (where, names[index], shown, value)
    return compared


def test_every_table_downloads_csv_and_json_of_the_numbers_it_shows(built_site: Path) -> None:
    """On every page of both editions, each table's CSV and JSON hold its values, each number the one shown."""
    tables = compared = 0
    for path in page_paths(built_site):
        text = article(page_html(built_site, path))
        for number, (table, links) in enumerate(_TABLE_AND_LINKS.findall(text), start=1):
            hrefs = _HREF.findall(links)
            assert hrefs == [f"table-{number}.csv", f"table-{number}.json"], (path, hrefs)
            folder = built_site / path
            with (folder / hrefs[0]).open(encoding="utf-8", newline="") as handle:
                csv_rows = list(csv.reader(handle))
            document = json.loads((folder / hrefs[1]).read_text(encoding="utf-8"))
            compared += _check_table(f"{path}{hrefs[0]}", _page_cells(table), csv_rows, document)
            tables += 1
    assert tables >= 150, tables
    assert compared >= 2000, compared


def test_a_status_is_a_plain_word_and_units_sit_in_the_header(built_site: Path) -> None:
    """The heads-per-core table names both report columns apart; the claims' status is 一致 / agrees, no HTML."""
    for edition, agrees, report in (("", "一致", "报告的 L2 周期"), ("en/", "agrees", "report L2 cycles")):
        folder = built_site / f"{edition}discussion/heads-per-core"
        header = next(csv.reader(io.StringIO((folder / "table-1.csv").read_text(encoding="utf-8"))))
        assert report in header
        claims = json.loads((built_site / f"{edition}reference/claims/table-1.json").read_text(encoding="utf-8"))
        statuses = {row[claims["columns"][-1]["name"]] for row in claims["rows"]}
        assert statuses == {agrees}
