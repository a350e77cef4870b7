"""Every colour a figure draws has a legend entry, and every legend entry's colour is drawn (issue 18 item 4).

Each matplotlib figure of the package is drawn in both languages and caught just before export (by wrapping
`enlarge_small_text`, the first thing `to_svg` does with it). Data artists are the lines plotted in data
coordinates and the patches and collections of each axes; reference lines across the axes (``axhline``,
``axvline``), which their own text names, white or transparent fills (markers explained as symbols, the star),
edges, text, grid and frame are not colour codes.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from matplotlib.collections import Collection
from matplotlib.colors import to_hex, to_rgba
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

import ascend_dsa.render
from ascend_dsa.render import svg
from ascend_dsa.render.design_figures import render_feasibility_map, render_mma_fixpipe_figure
from ascend_dsa.render.memory_plan import render_l1_bank_figure
from ascend_dsa.render.pipeline import render_pipeline_gantt
from ascend_dsa.render.skip_scale import render_rescale_plot
from ascend_dsa.render.two_chips import render_two_chips_roofline_figure
from tests.helpers.drawings import drawn_figures

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import ColorType

    from ascend_dsa.lang import Lang

#: Every renderer that draws a matplotlib figure (a test below finds them in the source, so a new one is not missed).
FIGURES: dict[str, Callable[..., str]] = {
    "render_feasibility_map": render_feasibility_map,
    "render_l1_bank_figure": render_l1_bank_figure,
    "render_mma_fixpipe_figure": render_mma_fixpipe_figure,
    "render_pipeline_gantt": render_pipeline_gantt,
    "render_rescale_plot": render_rescale_plot,
    "render_two_chips_roofline_figure": render_two_chips_roofline_figure,
}

_WHITE = "#ffffff"


def _colour(value: ColorType) -> str | None:
    """The colour as ``#rrggbb``, or None when it draws nothing a reader could tell apart (transparent or white)."""
    if to_rgba(value)[3] == 0:
        return None
    hex_colour = to_hex(value, keep_alpha=False)
    return None if hex_colour == _WHITE else hex_colour


def _drawn(artists: Iterable[Artist], axes: Axes) -> set[str]:
    colours: set[str | None] = set()
    for artist in artists:
        if isinstance(artist, Line2D):
            if artist.get_transform() == axes.transData:  # not an axhline / axvline, spanning the axes
                colours.add(_colour(artist.get_color()))
        elif isinstance(artist, Rectangle) and (artist.get_width() == 0 or artist.get_height() == 0):
            continue  # a bar of nothing draws nothing
        elif isinstance(artist, Patch):
            colours.add(_colour(artist.get_facecolor()))
        elif isinstance(artist, Collection):
            colours.update(_colour(tuple(rgba)) for rgba in artist.get_facecolors())
    return {c for c in colours if c is not None}


def data_colours(fig: Figure) -> set[str]:
    """The colours of the figure's data: plotted lines, bars and cells, scatter marks."""
    colours: set[str] = set()
    for axes in fig.axes:
        colours |= _drawn([*axes.get_lines(), *axes.patches, *axes.collections], axes)
    return colours


def legend_colours(fig: Figure) -> list[str]:
    """The colour of each legend entry of the figure (figure and axes legends), white or transparent ones left out."""
    legends = [*fig.legends, *(legend for axes in fig.axes if (legend := axes.get_legend()) is not None)]
    colours: list[str | None] = []
    for legend in legends:
        for handle in legend.legend_handles:
            if isinstance(handle, Line2D):
                colours.append(_colour(handle.get_color()))
            elif isinstance(handle, Patch):
                colours.append(_colour(handle.get_facecolor()))
    return [c for c in colours if c is not None]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_colour_has_a_legend_entry_and_every_entry_is_drawn(
    name: str, lang: Lang, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A figure with one colour may go without a legend; otherwise the legend's colours are exactly those drawn."""
    (fig,) = drawn_figures(FIGURES[name], lang, monkeypatch)
    drawn, named = data_colours(fig), legend_colours(fig)
    assert drawn, f"{name} draws no data colour at all: the test no longer sees its artists"
    if not named:
        assert len(drawn) == 1, f"{name} has no legend but draws {sorted(drawn)}"
        return
    assert drawn - set(named) == set(), f"{name}: colours drawn without a legend entry"
    assert set(named) - drawn == set(), f"{name}: legend entries whose colour is drawn nowhere"


#: The functions of ascend_dsa.render.svg that export a matplotlib figure (`to_svg` and every name starting with it).
_EXPORTS = frozenset(name for name in dir(svg) if name.startswith("to_svg"))


def _calls_to_svg(node: ast.AST) -> bool:
    """Whether the node calls a figure export (``to_svg`` and the like), bare or as ``<module>.to_svg``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id in _EXPORTS) or (
        isinstance(func, ast.Attribute) and func.attr in _EXPORTS
    )


def _figure_renderers() -> set[str]:
    """The ``render_*`` functions of ascend_dsa.render whose body exports a matplotlib figure."""
    return {
        node.name
        for path in Path(ascend_dsa.render.__file__).parent.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("render_")
        and any(_calls_to_svg(call) for call in ast.walk(node))
    }


def test_every_matplotlib_figure_is_checked() -> None:
    """The table above lists every renderer that exports a matplotlib figure, no more and no fewer."""
    assert _figure_renderers() == set(FIGURES)


def test_a_colour_without_an_entry_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself: a bar in an extra colour, which the legend does not name, is caught; white is ignored."""

    def render(*, lang: Lang) -> str:
        with svg.figure() as fig:
            ax = fig.add_subplot()
            ax.bar([0], [1], color="#4e79a7", label=lang)
            ax.bar([1], [1], color="#e15759")
            ax.bar([2], [1], color="white")
            ax.axhline(0.5, color="#59a14f")
            ax.legend()
            return svg.to_svg(fig, title="test")

    (fig,) = drawn_figures(render, "en", monkeypatch)
    assert data_colours(fig) == {"#4e79a7", "#e15759"}
    assert legend_colours(fig) == ["#4e79a7"]
