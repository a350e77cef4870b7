import pytest

import ascend_dsa as r
from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.roofline import head_roofline
from ascend_dsa.render.roofline import render_head_roofline_table, seed_row


def test_seed_row_format() -> None:
    """Rows print exactly as the report's script prints them."""
    assert seed_row(head_roofline(ASCEND_950, 64, 1024)) == " 64, topk=1024, cube_cycles= 16384, mem_cycles= 12457"


@pytest.mark.parametrize(("lang", "word"), [("zh", "算力 bound"), ("en", "compute-bound")])
def test_table_has_eight_rows_and_report_values(lang: str, word: str) -> None:
    """The page table has the eight rows with the report's numbers beside ours."""
    text = render_head_roofline_table(lang=lang)  # type: ignore[arg-type]
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == 8
    assert "| 64 | 512 | 8192 | 8192 | 6920.6 | 6921 | 1.18 |" in text
    assert word in text
    assert "94.697" in text


def test_table_raises_on_mismatch() -> None:
    """With a changed constant the checked table refuses to render."""
    with pytest.raises(FigureMismatch, match="report \\(zh\\) line 108"):
        render_head_roofline_table(ASCEND_950.with_overrides(cores=31))


def test_a_changed_clock_names_every_row_it_moves() -> None:
    """At 1600 MHz instead of 1650 every L2 column moves: the error names each of report (zh) lines 104-111."""
    with pytest.raises(FigureMismatch) as raised:
        render_head_roofline_table(ASCEND_950.with_overrides(clock_hz=1600e6))
    for line in range(104, 112):
        assert f"report (zh) line {line}" in str(raised.value)


def test_unchecked_what_if_renders() -> None:
    """With check off, a what-if table renders and marks missing report rows."""
    text = render_head_roofline_table(ASCEND_950.with_overrides(cores=24), heads=(48,), check=False)
    assert "| 48 |" in text
    assert "—" in text


def test_unknown_language_rejected() -> None:
    """Only zh and en exist."""
    with pytest.raises(ValueError, match="lang must be one of zh, en, got 'fr'"):
        render_head_roofline_table(lang="fr")  # type: ignore[arg-type]


def test_fp8_roofline() -> None:
    """FP8 KV (528 B/token) at 64 heads: 4239 and 7094 L2 cycles."""
    text = r.render_fp8_roofline(lang="en")
    assert "| 4239 |" in text
    assert "| 7094 |" in text
