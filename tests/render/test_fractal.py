"""The ND/NZ primer: every cell numbered by its place in memory, a fractal contiguous in NZ and strided in ND."""

from __future__ import annotations

import re

import pytest

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.render.fractal import FONT_SIZE, WIDTH, fractal_cells, fractal_labels, render_fractal_cells
from ascend_dsa.render.svg import READING_VIEWS, labels_overlap
from ascend_dsa.report.scenarios import PRIMER_TILE_FRACTALS_ACROSS


def test_every_cell_has_a_distinct_place_in_both_layouts() -> None:
    """The tile's cells are numbered 0..n-1 once each, in ND and in NZ."""
    cells = fractal_cells()
    count = SHIPPED_KERNEL.fractal_rows * PRIMER_TILE_FRACTALS_ACROSS
    assert len(cells) == count
    assert sorted(nd for *_, nd, _ in cells) == list(range(count))
    assert sorted(nz for *_, nz in cells) == list(range(count))


def test_a_fractal_is_one_run_in_nz_and_strided_in_nd() -> None:
    """Fractal 0's cells are 0..15 in NZ; in ND they are a row apart (4 cells, 128 B)."""
    column0 = [(token, nd, nz) for token, column, nd, nz in fractal_cells() if column == 0]
    assert [nz for *_, nz in column0] == list(range(SHIPPED_KERNEL.fractal_rows))
    assert [nd for _, nd, _ in column0] == [PRIMER_TILE_FRACTALS_ACROSS * t for t in range(SHIPPED_KERNEL.fractal_rows)]


def test_nd_numbers_rows_and_nz_numbers_columns() -> None:
    """Token 1's cells: ND 4, 5, 6, 7; NZ 1, 17, 33, 49."""
    token1 = [(nd, nz) for token, _, nd, nz in fractal_cells() if token == 1]
    assert token1 == [(4, 1), (5, 17), (6, 33), (7, 49)]


def test_a_smaller_fractal_changes_the_numbers() -> None:
    """With 8-row fractals the tile is 8 tokens tall and a fractal of NZ runs over 8 cells."""
    config = SHIPPED_KERNEL.with_overrides(fractal_rows=8)
    cells = fractal_cells(config)
    assert len(cells) == 8 * PRIMER_TILE_FRACTALS_ACROSS
    assert [nz for token, column, _, nz in cells if column == 1] == list(range(8, 16))
    assert render_fractal_cells(config, lang="en") != render_fractal_cells(lang="en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labels_do_not_overlap_and_stay_inside(lang: str) -> None:
    """No two texts of the figure share space, and every text is inside the drawing's width."""
    labels = fractal_labels(lang=lang)  # type: ignore[arg-type]
    assert labels_overlap(labels) == []
    assert [label.text for label in labels if label.box[0] < 0 or label.box[2] > WIDTH] == []


@pytest.mark.parametrize(("column", "smallest"), READING_VIEWS)
def test_text_is_legible_at_1280_and_on_a_phone(column: float, smallest: float) -> None:
    """Scaled to the column at 1280 px and on a phone, the figure's text is at least 11 and 10 px."""
    assert FONT_SIZE * min(1.0, column / WIDTH) >= smallest


def test_the_drawing_holds_its_lowest_text() -> None:
    """The viewBox is as tall as the footnote's last line, in either edition (the English one takes two)."""
    for lang in ("zh", "en"):
        html = render_fractal_cells(lang=lang)  # type: ignore[arg-type]
        height = float(re.search(r'viewBox="0 0 [\d.]+ ([\d.]+)"', html).group(1))  # type: ignore[union-attr]
        assert max(label.box[3] for label in fractal_labels(lang=lang)) <= height  # type: ignore[arg-type]


def test_figure_is_one_svg_with_a_text_per_label() -> None:
    """One <svg> scaled by its viewBox, a <text> per label; the fractal's bytes and the row stride are written."""
    for lang in ("zh", "en"):
        html = render_fractal_cells(lang=lang)  # type: ignore[arg-type]
        assert html.count("<svg") == 1
        assert "viewBox=" in html
        assert len(re.findall(r"<text ", html)) == len(fractal_labels(lang=lang))  # type: ignore[arg-type]
    en = render_fractal_cells(lang="en")
    assert "a fractal: one run of 512 B" in en
    assert "a fractal: 16 pieces, 128 B apart" in en
