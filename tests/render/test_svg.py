import re

import pytest

from ascend_dsa.render.svg import (
    COLUMN_PX_AT_1280,
    COLUMN_PX_ON_PHONE,
    MIN_TEXT_PX,
    MIN_TEXT_PX_ON_PHONE,
    NARROW_CLASS,
    READING_VIEWS,
    WIDE_CLASS,
    Label,
    figure,
    hand_drawn_svg,
    labels_overlap,
    min_text_units,
    svg_element,
    svg_text,
    to_svg,
    to_svg_with_legend_below,
    wrap_svg,
)


def _draw() -> str:
    with figure(3, 2) as fig:
        ax = fig.add_subplot()
        ax.plot([0, 1], [0, 1], label="算力")
        ax.set_title("每核 L2 周期")
        ax.legend()
        return to_svg(fig, title="算力 & 带宽")


def test_svg_is_deterministic_and_keeps_text() -> None:
    """Two renders are identical, start with the figure <div>, keep Chinese as text and name no external resource."""
    first, second = _draw(), _draw()
    assert first == second
    assert first.startswith('<div class="ascend-figure" tabindex="0"><svg')
    assert "每核 L2 周期" in first
    assert 'href="http' not in first
    assert "<metadata>" not in first


def test_figure_is_one_block_level_line() -> None:
    """The figure is one line wrapped in a <div>, so Markdown passes it through as a raw HTML block."""
    html = _draw()
    assert "\n" not in html
    assert html.endswith('</svg><div class="ascend-caption">算力 &amp; 带宽</div></div>')


def test_figure_is_named_for_screen_readers() -> None:
    """The title becomes the SVG's <title> and aria-label (escaped); an empty title is refused."""
    svg = svg_element(_draw())
    assert 'role="img" aria-label="算力 &amp; 带宽"><title>算力 &amp; 带宽</title>' in svg
    with figure(3, 2) as fig, pytest.raises(ValueError, match="title must name the figure"):
        to_svg(fig, title=" ")


def test_svg_element_extracts_the_svg() -> None:
    """svg_element returns the bare <svg> for viewers; text without one is refused."""
    assert svg_element(_draw()).startswith("<svg")
    with pytest.raises(ValueError, match="must contain an <svg> element"):
        svg_element("<div></div>")


def test_path_coordinates_keep_two_decimals_and_text_keeps_all() -> None:
    """Outlines drop digits past a hundredth of a point; a label's number keeps every digit it was given."""
    with figure(3, 2) as fig:
        ax = fig.add_subplot()
        ax.plot([0, 1 / 3, 1], [0, 2 / 3, 1])
        ax.set_title("94.697 B/cycle")
        html = to_svg(fig, title="precision")
    outlines = re.findall(r' d="([^"]*)"', html)
    assert outlines
    assert not any(re.search(r"\d\.\d{3}", outline) for outline in outlines)
    assert "94.697 B/cycle" in html


def test_legend_below_hangs_under_the_axes_centred_and_frameless() -> None:
    """The legend's top is below the axes, its centre on theirs, no frame, in the columns asked; then exported."""
    with figure(3, 2) as fig:
        ax = fig.add_subplot()
        ax.plot([0, 1], [0, 1], label="a")
        ax.plot([0, 1], [1, 0], label="b")
        html = to_svg_with_legend_below(fig, ax, title="both", drop=0.3, columns=2)
        legend = ax.get_legend()
        assert legend is not None
        box, axes_box = legend.get_window_extent(), ax.get_window_extent()
    assert box.y1 < axes_box.y0
    assert abs((box.x0 + box.x1) / 2 - (axes_box.x0 + axes_box.x1) / 2) < 1
    assert not legend.get_frame_on()
    assert [t.get_text() for t in legend.get_texts()] == ["a", "b"]
    assert box.width > 2 * box.height  # two columns side by side, not one above the other
    assert html.startswith('<div class="ascend-figure"')
    assert html.endswith('<div class="ascend-caption">both</div></div>')


def _smallest_text_on_screen(svg: str, column: float) -> float:
    """The smallest font size of ``svg``'s texts as shown scaled into a column ``column`` px wide."""
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))  # type: ignore[union-attr]
    sizes = [float(size) for size in re.findall(r"font(?:-size)?: ?([\d.]+)px", svg)]
    return min(sizes) * 4 / 3 * min(1.0, column / (width * 4 / 3))  # matplotlib draws in points, 4/3 px each


@pytest.mark.parametrize("width_in", [4.0, 7.0, 10.0])
def test_text_reads_at_1280_and_on_a_phone_whatever_the_figure_width(width_in: float) -> None:
    """A figure of any width, scaled to the narrowest column of each view, shows its smallest text at that view's
    minimum: 11 px at 1280, 10 px on a 390 px phone (`READING_VIEWS`)."""
    with figure(width_in, 3.0) as fig:
        axes = fig.add_subplot()
        axes.plot([1, 2, 3], [1, 4, 9], label="tiny")
        axes.set_xlabel("x", fontsize=5)
        axes.legend(fontsize=4)
        svg = to_svg(fig, title="probe")
    for column, smallest in READING_VIEWS:
        assert _smallest_text_on_screen(svg, column) >= smallest, (column, smallest)


def test_min_text_units_takes_the_strictest_view() -> None:
    """Narrow drawings are shown at their size; wide ones are scaled down, so their text is drawn larger."""
    assert min_text_units(300) == max(smallest for _, smallest in READING_VIEWS)
    assert min_text_units(2 * COLUMN_PX_ON_PHONE) == pytest.approx(2 * MIN_TEXT_PX_ON_PHONE)
    assert min_text_units(676, views=((COLUMN_PX_AT_1280, MIN_TEXT_PX),)) == pytest.approx(676 / 572 * 11)


def test_a_phone_layout_goes_beside_the_wide_one() -> None:
    """With ``narrow``, both drawings are named and classed for the style sheet to show one."""
    wide = '<svg viewBox="0 0 860 770"><text>a</text></svg>'
    narrow = '<svg viewBox="0 0 420 900"><text>a</text></svg>'
    html = wrap_svg(wide, title="AI Core", narrow=narrow)
    assert html.count('aria-label="AI Core"') == 2
    assert f'<svg viewBox="0 0 860 770" class="{WIDE_CLASS}" role="img"' in html
    assert f'<svg viewBox="0 0 420 900" class="{NARROW_CLASS}" role="img"' in html
    assert '<svg viewBox="0 0 860 770" role="img"' in wrap_svg(wide, title="AI Core")


def test_a_label_box_follows_its_anchor_size_and_script() -> None:
    """A CJK character is one em wide, a Latin one 0.6 em; the anchor moves the box, the size scales it."""
    latin = Label("ab", 100, 50, size=10)
    assert latin.box == pytest.approx((100, 42, 112, 52.5))
    assert Label("ab", 100, 50, "end", size=10).box[2] == pytest.approx(100)
    assert Label("ab", 100, 50, "middle", size=10).box[0] == pytest.approx(94)
    assert Label("中文", 0, 20, size=10).width == pytest.approx(20)


def test_overlapping_labels_are_reported_in_pairs() -> None:
    """Two labels on one baseline that touch are reported; one far below is not."""
    a, b, c = Label("aaaa", 0, 20), Label("bbbb", 10, 20), Label("cccc", 0, 80)
    assert labels_overlap([a, b, c]) == [("aaaa", "bbbb")]


def test_hand_drawn_svg_scales_by_its_viewbox_and_escapes_text() -> None:
    """The drawing has a viewBox of its size and a caption; a label's text is escaped."""
    html = hand_drawn_svg(svg_text(Label("a < b", 1, 2, bold=True)), width=300, height=100, title="t")
    assert 'viewBox="0 0 300 100"' in html
    assert '<text x="1" y="2" text-anchor="start" fill="#1a1a1a" font-weight="700">a &lt; b</text>' in html
    assert 'class="ascend-caption">t</div>' in html
