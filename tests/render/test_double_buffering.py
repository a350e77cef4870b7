"""The double-buffering primer: a timeline drawn from the pipeline model's cycles, and the kernel's buffer counts."""

from __future__ import annotations

import re

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.pipeline import implied_buffer_depths
from ascend_dsa.render.double_buffering import (
    FONT_SIZE,
    HEIGHT,
    WIDTH,
    buffer_rings,
    double_buffering_labels,
    render_buffer_counts,
    render_double_buffering_figure,
)
from ascend_dsa.render.svg import READING_VIEWS
from tests.helpers.drawings import assert_apart_and_inside


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labels_do_not_overlap_and_stay_inside(lang: str) -> None:
    """No two labels' estimated boxes intersect, and every box is inside the drawing."""
    assert_apart_and_inside(double_buffering_labels(lang=lang), WIDTH, HEIGHT)  # type: ignore[arg-type]


@pytest.mark.parametrize(("column", "smallest"), READING_VIEWS)
def test_text_is_legible_at_1280_and_on_a_phone(column: float, smallest: float) -> None:
    """The drawing is scaled to the column: its font size times the scale is at least 11 px at 1280, 10 on a phone."""
    assert FONT_SIZE * min(1.0, column / WIDTH) >= smallest


def test_panel_titles_carry_the_rings_periods() -> None:
    """One buffer pays load plus compute per block; two pay the compute alone (the pipeline model's cycles)."""
    titles = [label.text for label in double_buffering_labels(lang="en") if label.bold and ":" in label.text]
    assert titles[0] == "1 buffer: 1,716 cycles per block, CUBE idle 692"
    assert titles[1] == "2 buffers: 1,024 cycles per block, CUBE idle 0"
    assert titles[2] == "3 buffers: 1,024 cycles per block, CUBE idle 0"


def test_a_slower_l2_changes_the_figure() -> None:
    """Half the L2 bandwidth doubles the load: the one-buffer period grows, and the figure's text with it."""
    slower = ASCEND_950.with_overrides(bandwidth_bytes_per_s=ASCEND_950.bandwidth_bytes_per_s / 2)
    title = next(label.text for label in double_buffering_labels(slower, lang="en") if label.text.startswith("1 "))
    assert title == "1 buffer: 2,408 cycles per block, CUBE idle 1,384"
    assert render_double_buffering_figure(slower, lang="en") != render_double_buffering_figure(lang="en")


def test_figure_is_one_svg_with_every_label_in_both_editions() -> None:
    """One <svg> with its title, a <text> per label, a viewBox to scale by; the editions differ."""
    for lang in ("zh", "en"):
        html = render_double_buffering_figure(lang=lang)  # type: ignore[arg-type]
        assert html.count("<svg") == 1
        assert f'viewBox="0 0 {WIDTH} {HEIGHT}"' in html
        assert len(re.findall(r"<text ", html)) == len(double_buffering_labels(lang=lang))  # type: ignore[arg-type]
    assert render_double_buffering_figure(lang="zh") != render_double_buffering_figure(lang="en")
    assert render_double_buffering_figure(lang="en") == render_double_buffering_figure(lang="en")


def test_the_rings_counts_are_the_kernels_and_the_pipeline_models() -> None:
    """Each ring needs what the kernel ships (UB KV 3, L1 KV 4, Q 2, index 4), as the pipeline model derives too."""
    rings = buffer_rings()
    assert [(r.implied, r.shipped) for r in rings] == [(3, 3), (4, 4), (2, 2), (4, 4)]
    depths = {d.name: d.implied for d in implied_buffer_depths()}
    assert [rings[0].implied, rings[1].implied, rings[3].implied] == [
        depths["UB KV buffers"],
        depths["L1 KV buffers"],
        depths["index buffers"],
    ]


def test_the_table_shows_a_changed_count_beside_the_need() -> None:
    """A kernel with fewer UB KV buffers shows its count next to the unchanged need."""
    text = render_buffer_counts(SHIPPED_KERNEL.with_overrides(ub_kv_buffers=2), lang="en")
    row = next(line for line in text.splitlines() if line.startswith("| UB: KV block"))
    assert "| 3 | 2 |" in row
    assert "i+5" in row
    assert "i+3" in row
