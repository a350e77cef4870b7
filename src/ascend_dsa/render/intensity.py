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
from ascend_dsa.render.format import group_digits
from ascend_dsa.render.markdown import number, table
from ascend_dsa.render.svg import figure, to_svg_with_legend_below
from ascend_dsa.units import TB, TFLOPS

if TYPE_CHECKING:
    from ascend_dsa.render.markdown import Align

#: One colour per topk of the report's grid, in its order.
TOPK_COLOURS: Final = ("#4e79a7", "#e15759")
#: How far the figure's intensity axis reaches either side of the report's points, as a factor.
_AXIS_MARGIN: Final = 2.0
#: Ticks on each axis: the peak and its halvings, and the ridge from half of it to four times it.
_PEAK_HALVINGS: Final = 4


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


def render_intensity_figure(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """The roofline of ``spec``: attainable FLOP/s against intensity, the ridge marked, the report's pairs (SVG)."""
    spec, lang = require_ascend("spec", spec), check_lang(lang)
    import numpy as np  # noqa: PLC0415 - loaded when the figure is drawn, not with the package
    from matplotlib.ticker import NullFormatter  # noqa: PLC0415 - same

    peak, bandwidth, ridge = peak_flops(spec), spec.bandwidth_bytes_per_s, ridge_flop_per_byte(spec)
    points = [(h, k, arithmetic_intensity(h, k)) for h in REPORT_HEADS for k in REPORT_TOPK]
    low = min(i for *_, i in points) / _AXIS_MARGIN
    high = max(i for *_, i in points) * _AXIS_MARGIN
    xs = np.geomspace(low, high, 200)
    with figure(6.4, 3.8) as fig:
        ax = fig.add_subplot()
        ax.plot(
            xs,
            np.minimum(peak, xs * bandwidth) / TFLOPS,
            color="black",
            linewidth=1.5,
            label=pick(lang, "上限：min(峰值, 强度 × L2 带宽)", "ceiling: min(peak, intensity × L2 bandwidth)"),
        )
        ax.axvline(ridge, color="grey", linewidth=1, linestyle=":")
        ax.text(
            ridge * 1.05,
            0.04,
            pick(lang, f"屋脊点 {ridge:.1f} FLOP/B", f"ridge {ridge:.1f} FLOP/B"),
            transform=ax.get_xaxis_transform(),
            fontsize=9,
            color="grey",
        )
        ax.text(
            low * 1.1,
            peak / TFLOPS * 1.12,
            pick(lang, f"峰值 {peak / TFLOPS:.1f} TFLOPS", f"peak {peak / TFLOPS:.1f} TFLOPS"),
            fontsize=9,
        )
        for topk, colour in zip(REPORT_TOPK, TOPK_COLOURS, strict=False):
            mine = [(h, i) for h, k, i in points if k == topk]
            ax.plot(
                [i for _, i in mine],
                [min(peak, i * bandwidth) / TFLOPS for _, i in mine],
                color=colour,
                linestyle="none",
                marker="o",
                zorder=3,
                label=f"topk {topk}",
            )
        for heads in REPORT_HEADS:  # one label per heads, by the pair with the smaller topk: below it on the roof
            intensity = arithmetic_intensity(heads, REPORT_TOPK[0])
            on_roof = intensity >= ridge
            ax.annotate(
                f"h_q={heads}",
                (intensity, min(peak, intensity * bandwidth) / TFLOPS),
                textcoords="offset points",
                xytext=(0, -16) if on_roof else (-6, 6),
                ha="center" if on_roof else "right",
                fontsize=9,
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ticks = [peak / TFLOPS / 2**k for k in range(_PEAK_HALVINGS)]
        ax.set_yticks(ticks, [f"{t:.0f}" for t in ticks])
        ax.yaxis.set_minor_formatter(NullFormatter())
        x_ticks = [ridge * 2**k for k in range(-1, _PEAK_HALVINGS - 1)]
        ax.set_xticks(x_ticks, [f"{t:.0f}" for t in x_ticks])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_ylim(ticks[-1] / 2, peak / TFLOPS * 1.6)
        ax.set_xlabel(pick(lang, "算术强度（FLOP/B，经 L2）", "arithmetic intensity (FLOP per byte through L2)"))
        ax.set_ylabel(pick(lang, "能达到的 TFLOPS", "attainable TFLOPS"))
        title = pick(
            lang,
            f"{spec.name} 的 roofline：屋脊点左边受 L2 带宽限制，右边受 CUBE 算力限制",
            f"The {spec.name} roofline: left of the ridge L2 bandwidth bounds, right of it the CUBE",
        )
        return to_svg_with_legend_below(fig, ax, title=title, drop=0.2, columns=len(REPORT_TOPK) + 1, fontsize=9)
