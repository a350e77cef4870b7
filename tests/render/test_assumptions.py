"""The reference table of assumptions."""

from __future__ import annotations

from ascend_dsa.facts.assumptions import ASSUMPTIONS
from ascend_dsa.render.assumptions import render_assumptions
from tests.conftest import ROOT


def test_one_row_per_assumption_with_page_links() -> None:
    """Each assumption is a row; the FixPipe one links the pipeline and design pages by their built URLs."""
    text = render_assumptions("en", ROOT / "docs")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) == len(ASSUMPTIONS)
    fixpipe = next(r for r in rows if "`fixpipe-1c2v`" in r)
    assert "[pipeline](../../pipeline/)" in fixpipe
    assert "[design/index](../../design/)" in fixpipe


def test_chinese_table_has_chinese_headers() -> None:
    """The zh table uses Chinese headers and quantities."""
    text = render_assumptions("zh", ROOT / "docs")
    assert "用到它的页面" in text
    assert ASSUMPTIONS[0].quantity_zh in text
