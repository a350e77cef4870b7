"""The standard-library charts: scales, ticks, text boxes, legends and the SVG they make."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from ascend_dsa.render.chart import (
    FONT_SIZE,
    WIDTH,
    Chart,
    ChartText,
    Drawing,
    LegendEntry,
    Scale,
    fitting_step,
    legend,
    legend_columns,
    legend_height,
    linear_ticks,
    log_range,
    log_ticks,
    nice_ceiling,
    nice_step,
    overlapping,
    text_width,
    tick_text,
)
from ascend_dsa.render.svg import svg_element

SVG = "{http://www.w3.org/2000/svg}"
#: The text column of a 390 px phone (less Material's 0.8 rem margins, 16 px each), in CSS pixels.
PHONE_COLUMN_PX = 358


def test_text_is_readable_on_a_phone() -> None:
    """A chart fitted to a phone's column draws its text at 10 px or more."""
    assert FONT_SIZE * PHONE_COLUMN_PX / WIDTH >= 10


@pytest.mark.parametrize(
    ("span", "count", "step"), [(160, 8, 20), (80, 8, 10), (1, 4, 0.5), (6000, 8, 1000), (276, 6, 50), (7, 1, 10)]
)
def test_nice_step(span: float, count: int, step: float) -> None:
    """The step is 1, 2 or 5 times a power of ten, the smallest that cuts the span into at most ``count`` parts."""
    assert nice_step(span, count) == pytest.approx(step)


def test_ticks_and_ceiling() -> None:
    """Linear ticks include both ends; the ceiling rounds up to a nice step; log ticks are decades or 1-2-5."""
    assert linear_ticks(0, 160, 20) == (0, 20, 40, 60, 80, 100, 120, 140, 160)
    assert nice_ceiling(160, 8) == 160
    assert nice_ceiling(161, 8) == 200  # steps of 20 would need nine parts
    assert log_range(1024, 41000) == (1000, 50000)
    assert log_ticks(1000, 100000) == pytest.approx((1000, 10000, 100000))
    assert log_ticks(1000, 50000) == pytest.approx((1000, 2000, 5000, 10000, 20000, 50000))
    assert log_ticks(0.2, 5) == pytest.approx((0.2, 0.5, 1, 2, 5))


def test_tick_text() -> None:
    """Whole numbers are grouped; fractions keep the decimals their step needs."""
    assert tick_text(10000.0) == "10,000"
    assert tick_text(0.5, 0.5) == "0.5"
    assert tick_text(0.02, 0.02) == "0.02"
    assert tick_text(2.5, 0.5) == "2.5"


def test_scales() -> None:
    """A linear scale maps evenly, a logarithmic one by decades; both may run upwards (the y axis)."""
    x = Scale(0, 100, 50, 550)
    assert (x.at(0), x.at(50), x.at(100)) == (50, 300, 550)
    y = Scale(10, 1000, 300, 100, log=True)
    assert (y.at(10), y.at(100), y.at(1000)) == pytest.approx((300, 200, 100))
    with pytest.raises(ValueError, match="low > 0"):
        Scale(0, 10, 0, 1, log=True)
    with pytest.raises(ValueError, match="low < high"):
        Scale(5, 5, 0, 1)
    with pytest.raises(ValueError, match="low < high"):
        Scale(0, math.inf, 0, 1)


def test_tick_labels_are_thinned_until_they_fit() -> None:
    """On a short axis the step grows until neighbouring labels leave a gap; on a long one all eight fit."""
    assert fitting_step(Scale(0, 160, 0, 480), 8) == 20
    narrow = fitting_step(Scale(0, 6000, 0, 150), 8)
    assert narrow > 1000
    ticks = linear_ticks(0, 6000, narrow)
    room = 150 * narrow / 6000
    assert all(text_width(tick_text(t)) < room for t in ticks)


def test_text_boxes() -> None:
    """A CJK character is a whole em, others at most 0.6 em; an upright box turns with the text."""
    assert text_width("中文") == 2 * FONT_SIZE
    assert text_width("ab") == pytest.approx(1.2 * FONT_SIZE)
    left, top, right, bottom = ChartText("ab", 100, 50, "middle").box
    assert (left + right) / 2 == pytest.approx(100)
    assert top < 50 < bottom
    left, top, right, bottom = ChartText("abcd", 20, 200, "middle", upright=False).box
    assert right - left < bottom - top
    assert (top + bottom) / 2 == pytest.approx(200)


def test_overlapping_texts_are_found() -> None:
    """Two texts on the same spot meet; side by side, or one line apart, they do not."""
    a, b = ChartText("label", 10, 20), ChartText("other", 14, 22)
    assert overlapping([a, b]) == [("label", "other")]
    apart = ChartText("other", 10 + a.width + 2, 20)
    below = ChartText("other", 10, 20 + FONT_SIZE * 1.1)
    assert overlapping([a, apart, below]) == []


def test_legend_columns_fit_the_width() -> None:
    """As many columns as fit: two short entries side by side, two long ones stacked; rows make the height."""
    short = [LegendEntry("a", "#000000"), LegendEntry("b", "#111111")]
    long = [LegendEntry("x" * 40, "#000000"), LegendEntry("y" * 40, "#111111")]
    assert legend_columns(short, 500, 3) == 2
    assert legend_columns(long, 500, 3) == 1
    assert legend_height(long, 500) > legend_height(short, 500)
    drawn = legend(long, 0, 0, 500, name="test")
    assert overlapping(drawn.every_text) == []
    assert drawn.legend_colours == ("#000000", "#111111")
    assert drawn.elements[0].startswith('<g id="legend-test">')
    assert drawn.texts == ()  # the labels are drawn inside the legend's group, which the site's checks expect
    assert drawn.elements[0].count("<text") == len(long)


def test_chart_svg_is_well_formed_scalable_and_escaped() -> None:
    """The SVG parses as XML, scales with its column (width 100%, a viewBox), and escapes its text."""
    chart = Chart(Drawing(("<line/>",), (ChartText("a < b & c", 10, 20),)), 99.5, "title & more")
    html = chart.html()
    assert html == chart.html()
    root = ET.fromstring(svg_element(html))  # noqa: S314 - our own output
    assert root.get("viewBox") == f"0 0 {WIDTH} 100"
    assert root.get("width") == "100%"
    assert root.get("height") is None
    assert root.findtext(f"{SVG}title") == "title & more"
    assert [t.text for t in root.iter(f"{SVG}text")] == ["a < b & c"]
