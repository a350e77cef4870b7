"""The skip-scale page: the frequency table, a deterministic plot, and the FixPipe comparison."""

from __future__ import annotations

import ascend_dsa as r
from ascend_dsa.models.skip_scale import SCORE_ORDERS, SWEEP_SM_SCALE_FACTORS
from ascend_dsa.render.skip_scale import (
    render_core_decisions,
    render_fixpipe_with_skip_scale,
    render_rescale_plot,
    render_rescale_table,
)
from tests.helpers.tables import assert_both_languages


def test_table_has_one_row_per_order_and_scale() -> None:
    """One row per (order, sm_scale) at topk 2048, with 32 blocks each."""
    rows = [line for line in render_rescale_table(lang="en").splitlines() if line.startswith("| ")][2:]
    assert len(rows) == len(SCORE_ORDERS) * len(SWEEP_SM_SCALE_FACTORS)
    assert all("| 32 |" in row for row in rows)
    assert render_rescale_table(lang="zh").startswith("| index 顺序")


def test_plot_is_deterministic_svg() -> None:
    """The plot is inline SVG, identical on two renders, with labels in the page's language."""
    first = render_rescale_plot(lang="zh")
    assert first.startswith('<div class="ascend-figure" tabindex="0"><svg')
    assert first == render_rescale_plot(lang="zh")
    assert "每个 q token 的 rescale 次数" in first
    assert "rescales per q token" in render_rescale_plot(lang="en")


def test_fixpipe_table_contrasts_every_block_with_skip_scale() -> None:
    """At the assumed 1C2V rate, O every block takes 576 cycles per block against 1024 of MMA; one copy, 80."""
    text = render_fixpipe_with_skip_scale(lang="en")
    assert "| no skip-scale: O leaves every block | — | 576 | 1024 | CUBE-bound |" in text
    assert "| 1.00 | 80 | 1024 | CUBE-bound |" in text
    assert "FixPipe 256 B/cycle (assumed" in text


def test_core_decisions_show_three_copies_against_two() -> None:
    """The two-core token: core 0 rescales at block 1, core 1 at block 2; 3 O copies per core, 2 jointly."""
    text = render_core_decisions(lang="en")
    assert "| 1 | 7 / 4 | 0 | yes | yes |" in text
    assert "| 2 | 0 / 8 | 1 | yes | no |" in text
    assert "| O copies (with the last) |  |  | 3 | 2 |" in text
    assert render_core_decisions(lang="zh").startswith("| 块")


def test_skip_scale_savings_in_both_languages() -> None:
    """The table renders in both languages with the same number of rows."""
    assert_both_languages(r.render_skip_scale_savings)
