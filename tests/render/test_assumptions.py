"""The reference table of assumptions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.facts.assumptions import ASSUMPTIONS, FIXPIPE_1C2V
from ascend_dsa.render.assumptions import assumption_pages, render_assumptions
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from pathlib import Path


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
    assert ASSUMPTIONS[0].quantity.zh in text


def test_pages_using_an_assumption_are_found() -> None:
    """The FixPipe assumption is found on the pipeline page (a renderer) and on one-vector-core (its last block)."""
    pages = assumption_pages(ROOT / "docs")
    assert "pipeline.md" in pages[FIXPIPE_1C2V.key]
    assert "pipeline.en.md" in pages[FIXPIPE_1C2V.key]
    assert "discussion/one-vector-core.md" in pages[FIXPIPE_1C2V.key]


def test_a_prose_marker_counts_as_use(tmp_path: Path) -> None:
    """A page that only writes the 1C2V rate in prose still uses the FixPipe assumption."""
    (tmp_path / "p.md").write_text("rate {{ fixpipe_1c2v_bytes_per_cycle }} B/cycle\n", encoding="utf-8")
    assert assumption_pages(tmp_path)[FIXPIPE_1C2V.key] == ("p.md",)


def test_missing_docs_dir_raises() -> None:
    """A docs directory that does not exist raises naming it."""
    with pytest.raises(ValueError, match="nowhere"):
        assumption_pages(ROOT / "nowhere")
