"""The design-space pages, the figures in their chapters and the notebook, in the built site."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.render.svg import FIGURE_CLASS
from tests.helpers.project import MUTATIONS

if TYPE_CHECKING:
    from pathlib import Path

    from tests.helpers.project import BuildResult

#: Page -> inline SVG figures our blocks add to it.
FIGURES = {
    "design/index.html": 2,
    "discussion/one-vector-core/index.html": 1,
    "discussion/heads-per-core/index.html": 1,
    "pipeline/index.html": 2,
    "optimizations/l1-banks/index.html": 1,
}


@pytest.mark.parametrize("prefix", ["", "en/"])
@pytest.mark.parametrize(("page", "figures"), FIGURES.items())
def test_figures_appear_in_their_chapters(built_site: Path, prefix: str, page: str, figures: int) -> None:
    """Each chapter shows its figures inline (no image files), in both languages, without a traceback."""
    html = (built_site / prefix / page).read_text(encoding="utf-8")
    assert html.count(f'<div class="{FIGURE_CLASS}"') == figures  # matplotlib's and render.chart's alike
    assert "Traceback" not in html


def test_design_page_shows_the_six_totals(built_site: Path) -> None:
    """The design space page lists the six UB totals and the limits of the shipped design."""
    html = (built_site / "design" / "index.html").read_text(encoding="utf-8")
    for total in ("259,600", "259,728", "214,544", "214,672", "244,240", "244,368"):
        assert total in html
    assert "MTE2 队列" in html


@pytest.mark.parametrize(("prefix", "source"), [("", "what-if.ipynb"), ("en/", "what-if.en.ipynb")])
def test_notebook_is_rendered_executed_and_downloadable(built_site: Path, prefix: str, source: str) -> None:
    """The notebook page is rendered HTML with outputs (not the raw JSON), and its source sits next to it."""
    page = built_site / prefix / "design" / "what-if"
    html = (page / "index.html").read_text(encoding="utf-8")
    assert html.lstrip().startswith("<!doctype html>")
    assert "jp-OutputArea" in html
    assert "<table" in html
    assert f'href="{source}"' in html
    assert (page / source).is_file()


def test_a_wrong_ub_total_breaks_the_strict_build(mutated_build: BuildResult) -> None:
    """Change one shipped UB total in a copy (the helpers' MUTATIONS): the strict build names the instantiation."""
    assert "ub-total" in MUTATIONS
    result = mutated_build
    assert result.returncode != 0
    assert "FigureMismatch" in result.output
    assert "v41_h64_prefill_nosink: ours 259600 B; kernel 259601 B" in result.output
