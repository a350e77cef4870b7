"""The roofline primer: intensities of the report's grid against the ridge, and the roofline figure drawn from them."""

from __future__ import annotations

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK, arithmetic_intensity, head_roofline
from ascend_dsa.render.chart import WIDTH, overlapping
from ascend_dsa.render.intensity import intensity_chart, render_intensity_figure, render_intensity_table
from tests.helpers.drawings import texts_outside


def test_table_rows_are_the_report_grid_with_its_verdicts() -> None:
    """Eight rows; 64 heads at topk 512 is 102.4 FLOP/B, 1.18 times the ridge, compute-bound (report (zh) line 114)."""
    text = render_intensity_table(lang="en")
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == len(REPORT_HEADS) * len(REPORT_TOPK)
    assert "| 64 | 512 | 67,108,864 | 655,360 | 102.4 | 1.18 | compute-bound |" in rows
    assert "| 32 | 1024 | 67,108,864 | 1,114,112 | 60.2 | 0.70 | memory-bound |" in rows
    assert "ridge = peak 432.54 TFLOPS ÷ L2 5 TB/s = 86.51 FLOP/B (Ascend 950)" in text


@pytest.mark.parametrize(("heads", "topk"), [(h, k) for h in REPORT_HEADS for k in REPORT_TOPK])
def test_intensity_over_ridge_is_the_cycle_ratio(heads: int, topk: int) -> None:
    """The ratio the table shows agrees with the heads-per-core chapter's cycle ratio (which floors CUBE cycles)."""
    text = render_intensity_table(lang="en")
    row = next(line for line in text.splitlines() if line.startswith(f"| {heads} | {topk} |"))
    assert row.split(" | ")[5] == f"{head_roofline(ASCEND_950, heads, topk).ratio:.2f}"


def test_a_faster_l2_moves_the_ridge_and_the_verdicts() -> None:
    """With twice the bandwidth the ridge halves, and 32 heads become compute-bound."""
    faster = ASCEND_950.with_overrides(bandwidth_bytes_per_s=2 * ASCEND_950.bandwidth_bytes_per_s)
    text = render_intensity_table(faster, lang="en")
    assert "= 43.25 FLOP/B" in text
    assert "| 32 | 512 | 33,554,432 | 589,824 | 56.9 | 1.32 | compute-bound |" in text
    assert render_intensity_figure(faster, lang="en") != render_intensity_figure(lang="en")


def test_figure_names_the_ridge_and_peak_in_both_editions() -> None:
    """One SVG per edition, with the ridge and the peak written from the preset, and a point per grid pair."""
    zh, en = render_intensity_figure(lang="zh"), render_intensity_figure(lang="en")
    assert zh.count("<svg") == en.count("<svg") == 1
    assert "屋脊点 86.5 FLOP/B" in zh
    assert "ridge 86.5 FLOP/B" in en
    assert "peak 432.5 TFLOPS" in en
    for heads in REPORT_HEADS:
        assert f"h_q={heads}" in en
    assert arithmetic_intensity(64, 512) == pytest.approx(102.4)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_figure_texts_do_not_overlap_and_stay_inside(lang: str) -> None:
    """No two texts of the roofline meet (ticks, axis labels, the h_q names, the legend), and all are inside it."""
    chart = intensity_chart(lang=lang)  # type: ignore[arg-type]
    texts = chart.drawing.every_text
    assert overlapping(texts) == []
    assert texts_outside(texts, WIDTH, chart.height) == []


def test_figure_scales_to_its_column() -> None:
    """The chart is drawn as wide as its column (``width="100%"``), not at a fixed size that scrolls on a phone."""
    assert 'width="100%"' in render_intensity_figure(lang="en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_colour_drawn_has_a_legend_entry(lang: str) -> None:
    """The ceiling and each topk's dots are named in the legend, and the legend names nothing else."""
    drawing = intensity_chart(lang=lang).drawing  # type: ignore[arg-type]
    assert drawing.data_colours == set(drawing.legend_colours)
    assert len(drawing.legend_colours) == 1 + len(REPORT_TOPK)
