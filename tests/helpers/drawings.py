"""What a figure draws, for its tests: the matplotlib figures a renderer makes, and texts kept apart and inside."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ascend_dsa.render import svg
from ascend_dsa.render.svg import labels_overlap

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    import pytest
    from matplotlib.figure import Figure

    from ascend_dsa.lang import Lang
    from ascend_dsa.render.svg import Label


class Boxed(Protocol):
    """A figure's text with its estimated box: a hand-drawn figure's `Label` or a chart's `ChartText`."""

    @property
    def text(self) -> str:
        """What it says."""

    @property
    def box(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)``."""


def drawn_figures(render: Callable[..., str], lang: Lang, monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """The matplotlib figures ``render`` draws for ``lang``, caught where every one passes (``enlarge_small_text``)."""
    figures: list[Figure] = []
    enlarge = svg.enlarge_small_text

    def record(fig: Figure) -> None:
        figures.append(fig)
        enlarge(fig)

    monkeypatch.setattr(svg, "enlarge_small_text", record)
    assert "<svg" in render(lang=lang)
    return figures


def texts_outside(texts: Iterable[Boxed], width: float, height: float) -> list[str]:
    """The texts whose boxes leave the drawing ``width`` by ``height`` (from its top left corner)."""
    return [t.text for t in texts if t.box[0] < 0 or t.box[1] < 0 or t.box[2] > width or t.box[3] > height]


def assert_apart_and_inside(labels: Sequence[Label], width: float, height: float) -> None:
    """No two labels' boxes (a generous width estimate) intersect, and every box is inside the drawing."""
    assert texts_outside(labels, width, height) == []
    assert labels_overlap(labels) == []
