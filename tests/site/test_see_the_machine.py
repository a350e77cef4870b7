"""Issue 18, part A, in the built site: downloads beside every computed table, the AI Core pointer, hovers."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import TYPE_CHECKING

from tests.helpers.site_html import article, page_html, page_paths

if TYPE_CHECKING:
    from pathlib import Path

_TABLE = re.compile(r"<table\b.*?</table>", re.DOTALL)
_BODY_ROW = re.compile(r"<tr>\s*<td")
_DOWNLOAD = re.compile(r'<a href="([^"]+)" download>([^<]+)</a>')


def test_every_computed_table_downloads_its_rows(built_site: Path) -> None:
    """Outside the API pages, each table has a CSV link after it; the file has its header and one row per row.

    The values themselves are checked against the page in tests/site/test_downloads.py.
    """
    checked = 0
    for path in page_paths(built_site):
        if "reference/api/" in path:
            continue
        text = article(page_html(built_site, path))
        tables = _TABLE.findall(text)
        links = [(href, label) for href, label in _DOWNLOAD.findall(text) if href.endswith(".csv")]
        assert len(links) == len(tables), path
        for table, (href, label) in zip(tables, links, strict=True):
            assert label == ("Download CSV" if path.startswith("en/") else "下载 CSV"), path
            rows = list(csv.reader(io.StringIO((built_site / path / href).read_text(encoding="utf-8"))))
            assert len(rows) == 1 + len(_BODY_ROW.findall(table)), (path, href)
            checked += 1
    assert checked > 100


def test_claims_ledger_downloads_json(built_site: Path) -> None:
    """The claims page links one JSON file holding every claim its summary counts, in each edition."""
    for edition in ("", "en/"):
        text = article(page_html(built_site, f"{edition}reference/claims/"))
        (href,) = [h for h, _ in _DOWNLOAD.findall(text) if h.startswith("claims-")]
        records = json.loads((built_site / f"{edition}reference/claims" / href).read_text(encoding="utf-8"))
        counted = re.search(r"(?:共 )?(\d+)(?: 条，| claims, )(\d+)", text)
        assert counted is not None, edition
        assert len(records) == int(counted.group(1))
        assert sum(r["agrees"] for r in records) == int(counted.group(2))


def test_every_chapter_naming_a_unit_points_to_the_ai_core_figure(built_site: Path) -> None:
    """Each chapter with a hover definition of a hardware unit links to the AI Core figure from its opening quote."""
    pointed = 0
    for path in page_paths(built_site):
        if "reference/" in path or path.endswith(("algorithm/model/", "what-if/")) or path in {"", "en/"}:
            continue  # the figure's page, the notebook, the reference, and the home page that draws its sketch
        text = article(page_html(built_site, path))
        if "<abbr" not in text:
            continue
        pointer = r'<blockquote[^>]*>(?:(?!</blockquote>).)*href="[^"]*model/#ai-core"'
        assert re.search(pointer, text, re.DOTALL), path
        pointed += 1
    assert pointed >= 30
