"""The roofline primer: arithmetic intensity, the ridge point, and where the report's design points fall.

A table of the report's eight (heads, topk) pairs as FLOP, bytes through L2 and their ratio, the arithmetic intensity,
next to the chip's ridge point; and the classic roofline drawn with the chip's peak and L2 bandwidth, each pair on
it. The verdict is the heads-per-core chapter's (``models.roofline``): intensity over ridge is its CUBE-to-L2 cycle
ratio before the report floors the CUBE cycles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, peak_flops, require_ascend, ridge_flop_per_byte
from ascend_dsa.lang import Lang, check_lang, pick, term
from ascend_dsa.models.roofline import (
    REPORT_HEADS,
    REPORT_TOPK,
    arithmetic_intensity,
    head_roofline,
    l2_bytes,
    matrix_flops,
)
from ascend_dsa.render.chart import (
    AXIS,
    AXIS_LABEL_LEFT,
    INK,
    LINE,
    WIDTH,
    X_AXIS_ROOM,
    Axes,
    Chart,
    ChartText,
    Drawing,
    LegendEntry,
    Scale,
    dot,
    draw_axes,
    legend,
    legend_height,
    log_ticks,
    polyline,
    y_axis_room,
)
from ascend_dsa.render.format import group_digits
from ascend_dsa.render.markdown import number, table
from ascend_dsa.units import TB, TFLOPS

if TYPE_CHECKING:
    from collections.abc import Callable

    from ascend_dsa.render.markdown import Align

#: One colour per topk of the report's grid, in its order.
TOPK_COLOURS: Final = ("#4e79a7", "#e15759")
#: How far the figure's axes reach past the report's points (intensity either side, TFLOPS above the peak and below
#: the lowest ceiling drawn), as a factor.
_AXIS_MARGIN: Final = 2.0


def render_intensity_table(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """The report's (heads, topk) pairs: FLOP and L2 bytes per query token, their ratio, and it over the ridge."""
    spec, lang = require_ascend("spec", spec), check_lang(lang)
    ridge = ridge_flop_per_byte(spec)
    rows = []
    for heads in REPORT_HEADS:
        for topk in REPORT_TOPK:
            intensity = arithmetic_intensity(heads, topk)
            rows.append(
                (
                    heads,
                    topk,
                    number(matrix_flops(heads, topk), group_digits(matrix_flops(heads, topk)), "FLOP"),
                    number(l2_bytes(heads, topk), group_digits(l2_bytes(heads, topk)), "B"),
                    number(intensity, f"{intensity:.1f}", "FLOP/B"),
                    number(intensity / ridge, f"{intensity / ridge:.2f}"),
                    term(f"verdict:{head_roofline(spec, heads, topk).verdict().value}", lang),
                )
            )
    headers = [
        "h_q",
        "topk",
        pick(lang, "FLOP（QK 与 SV）", "FLOP (QK and SV)"),
        pick(lang, "经 L2 的字节", "bytes through L2"),
        pick(lang, "算术强度 (FLOP/B)", "intensity (FLOP/B)"),
        pick(lang, "÷ 屋脊点", "÷ ridge"),
        term("column:verdict", lang),
    ]
    aligns: tuple[Align, ...] = ("right",) * 6 + ("left",)
    caption = pick(
        lang,
        f"屋脊点 = 峰值 {peak_flops(spec) / TFLOPS:.2f} TFLOPS ÷ L2 {spec.bandwidth_bytes_per_s / TB:g} TB/s = "
        f"{ridge:.2f} FLOP/B（{spec.name}）",
        f"ridge = peak {peak_flops(spec) / TFLOPS:.2f} TFLOPS ÷ L2 {spec.bandwidth_bytes_per_s / TB:g} TB/s = "
        f"{ridge:.2f} FLOP/B ({spec.name})",
    )
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


#: Height of the plotting area, the room above it (the top tick label's line box) and under the legend, in user units.
_PLOT_HEIGHT: Final = 260
_TOP, _RIGHT_MARGIN, _BOTTOM_MARGIN = 18, 16, 8
#: Points the ceiling is drawn through, evenly along the logarithmic intensity axis (the ridge is added).
_CEILING_POINTS: Final = 40


def intensity_chart(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> Chart:
    """The roofline of ``spec`` as a [`Chart`][ascend_dsa.render.chart.Chart]: for the figure and its tests.

    Attainable TFLOPS against arithmetic intensity, both logarithmic: the ceiling ``min(peak, intensity x L2
    bandwidth)``, the ridge as a dotted line, and a dot per (heads, topk) pair of the report's grid, on the ceiling,
    one colour per topk; each heads named once, by its smaller topk's dot.
    """
    spec, lang = require_ascend("spec", spec), check_lang(lang)
    peak, bandwidth, ridge = peak_flops(spec) / TFLOPS, spec.bandwidth_bytes_per_s / TFLOPS, ridge_flop_per_byte(spec)
    points = [(h, k, arithmetic_intensity(h, k)) for h in REPORT_HEADS for k in REPORT_TOPK]
    low = min(i for *_, i in points) / _AXIS_MARGIN
    high = max(i for *_, i in points) * _AXIS_MARGIN

    def roof(intensity: float) -> float:
        return min(peak, intensity * bandwidth)

    y_low, y_high = roof(low) / _AXIS_MARGIN, peak * _AXIS_MARGIN
    y_ticks = log_ticks(y_low, y_high)
    bottom = _TOP + _PLOT_HEIGHT
    x_scale = Scale(low, high, y_axis_room(y_ticks), WIDTH - _RIGHT_MARGIN, log=True)
    y_scale = Scale(y_low, y_high, bottom, _TOP, log=True)
    axes = Axes(
        x_scale,
        y_scale,
        log_ticks(low, high),
        y_ticks,
        pick(lang, "算术强度（FLOP/B，经 L2）", "arithmetic intensity (FLOP per byte through L2)"),
        pick(lang, "能达到的 TFLOPS", "attainable TFLOPS"),
    )
    drawing = draw_axes(axes)
    ceiling = sorted({low * (high / low) ** (i / _CEILING_POINTS) for i in range(_CEILING_POINTS + 1)} | {ridge})
    drawing += Drawing(
        (polyline([(x_scale.at(i), y_scale.at(roof(i))) for i in ceiling], INK),), data_colours=frozenset({INK})
    )
    x_ridge = x_scale.at(ridge)
    drawing += Drawing(
        (polyline(((x_ridge, axes.top), (x_ridge, axes.bottom)), AXIS, style="dotted", width=1.2),),
        (
            ChartText(pick(lang, f"屋脊点 {ridge:.1f} FLOP/B", f"ridge {ridge:.1f} FLOP/B"), x_ridge + 6, bottom - 10),
            ChartText(
                pick(lang, f"峰值 {peak:.1f} TFLOPS", f"peak {peak:.1f} TFLOPS"), axes.left + 8, y_scale.at(peak) - 8
            ),
        ),
    )
    entries = [
        LegendEntry(
            pick(lang, "上限：min(峰值, 强度 × L2 带宽)", "ceiling: min(peak, intensity × L2 bandwidth)"), INK, "line"
        )
    ]
    for topk, colour in zip(REPORT_TOPK, TOPK_COLOURS, strict=False):
        mine = [i for _, k, i in points if k == topk]
        drawing += Drawing(
            tuple(dot(x_scale.at(i), y_scale.at(roof(i)), colour) for i in mine), data_colours=frozenset({colour})
        )
        entries.append(LegendEntry(f"topk {topk}", colour, "dot"))
    drawing += Drawing(texts=tuple(_heads_label(heads, x_scale, y_scale, roof, ridge) for heads in REPORT_HEADS))
    legend_top = bottom + X_AXIS_ROOM + LINE / 2
    legend_width = WIDTH - 2 * AXIS_LABEL_LEFT
    drawing += legend(entries, AXIS_LABEL_LEFT, legend_top, legend_width, name=f"intensity-{lang}")
    height = legend_top + legend_height(entries, legend_width) + _BOTTOM_MARGIN
    title = pick(
        lang,
        f"{spec.name} 的 roofline：屋脊点左边受 L2 带宽限制，右边受 CUBE 算力限制",
        f"The {spec.name} roofline: left of the ridge L2 bandwidth bounds, right of it the CUBE",
    )
    return Chart(drawing, height, title)


def _heads_label(heads: int, x_scale: Scale, y_scale: Scale, roof: Callable[[float], float], ridge: float) -> ChartText:
    """``h_q=heads`` by the dot of its smaller topk: under it on the flat roof, above and left of it on the slope."""
    intensity = arithmetic_intensity(heads, REPORT_TOPK[0])
    x, y = x_scale.at(intensity), y_scale.at(roof(intensity))
    if intensity >= ridge:
        return ChartText(f"h_q={heads}", x, y + LINE, "middle")
    return ChartText(f"h_q={heads}", x - 8, y - 8, "end")


def render_intensity_figure(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """The roofline of ``spec``: attainable FLOP/s against intensity, the ridge marked, the report's pairs (SVG).

    Drawn as a [`Chart`][ascend_dsa.render.chart.Chart], as wide as its column: its text reads at 1280 px and on a
    phone alike.
    """
    return intensity_chart(spec, lang=lang).html()
