"""Text and tables for the head roofline: the report's print format, and the page's checked table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import OutOfRange
from ascend_dsa.facts.hardware import ASCEND_950, is_ascend
from ascend_dsa.facts.kernel_config import HEADS_RANGE, SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import KvFormat
from ascend_dsa.facts.kv_formats import kv_bytes_per_token as kv_bytes_per_token_of
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import report_lines
from ascend_dsa.facts.report_figures import published_head_roofline
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.roofline import (
    REPORT_HEADS,
    REPORT_TOPK,
    RooflinePoint,
    Verdict,
    head_roofline,
    head_roofline_sweep,
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
    fitting_step,
    legend,
    legend_height,
    linear_ticks,
    log_range,
    log_ticks,
    nice_ceiling,
    polyline,
    y_axis_room,
)
from ascend_dsa.render.live import live_figure
from ascend_dsa.render.markdown import NO_VALUE, Align, Header, number, table
from ascend_dsa.render.svg import svg_element
from ascend_dsa.report.checks import check_head_roofline
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.validate import bounded_items

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ascend_dsa.facts.hardware import AnyChip, AscendSpec


def seed_row(point: RooflinePoint) -> str:
    """One row in the report's print format: ``{h_q:3d}, {topk=:4d}, {cube_cycles=:6d}, {mem_cycles=:6.0f}``."""
    h_q, topk, cube_cycles, mem_cycles = point.heads, point.topk, point.cube_cycles, point.l2_cycles
    return f"{h_q:3d}, {topk=:4d}, {cube_cycles=:6d}, {mem_cycles=:6.0f}"


def verdict_line(point: RooflinePoint, balanced_within: float = 0.0, lang: Lang = "en") -> str:
    """One line of the verdict listing: both cycle counts, their ratio and the bound, named in ``lang``."""
    return (
        f"h_q={point.heads:3d}, topk={point.topk:4d}: cube={point.cube_cycles:6d}, mem={point.l2_cycles:8.1f}, "
        f"ratio={point.ratio:5.2f} -> {verdict_text(point.verdict(balanced_within), lang)}"
    )


def verdict_text(verdict: Verdict, lang: Lang) -> str:
    """The verdict in the page's language."""
    return term(f"verdict:{verdict.value}", lang)


def render_head_roofline_table(
    spec: AscendSpec = ASCEND_950,
    heads: Iterable[int] = REPORT_HEADS,
    topk: Iterable[int] = REPORT_TOPK,
    model: ModelShape = DSA_V41,
    *,
    lang: Lang = "zh",
    check: bool = True,
) -> str:
    """The roofline table with the report's value beside ours; with ``check``, raise on any mismatch first.

    ``check`` requires the grid to contain the report's eight (heads, topk) pairs.
    """
    points = head_roofline_sweep(spec, heads, topk, model)
    if check:
        check_head_roofline(points)
    published = {(r.heads, r.topk): r for r in published_head_roofline()}
    headers: list[str | Header] = [
        "h_q",
        "topk",
        term("column:CUBE cycles", lang),
        Header(term("column:report", lang), pick(lang, "报告的 CUBE 周期", "report CUBE cycles")),
        pick(lang, "L2 周期", "L2 cycles"),
        Header(term("column:report", lang), pick(lang, "报告的 L2 周期", "report L2 cycles")),
        term("column:ratio", lang),
        term("column:verdict", lang),
        term("column:source", lang),
    ]
    rows = []
    for p in points:
        row = published.get((p.heads, p.topk))
        rows.append(
            [
                p.heads,
                p.topk,
                p.cube_cycles,
                NO_VALUE if row is None else row.cube_cycles,
                number(p.l2_cycles, f"{p.l2_cycles:.1f}"),
                NO_VALUE if row is None else row.mem_cycles,
                number(p.ratio, f"{p.ratio:.2f}"),
                verdict_text(p.verdict(), lang),
                "—" if row is None or row.line is None else report_lines(row.line).in_(lang),
            ]
        )
    aligns: tuple[Align, ...] = ("right",) * 8 + ("left",)
    caption = pick(
        lang,
        f"每核每周期 L2 字节数 = {spec.bandwidth_bytes_per_cycle_per_core:.3f} B/cycle（{spec.name}）",
        f"L2 bytes per AI Core per cycle = {spec.bandwidth_bytes_per_cycle_per_core:.3f} B/cycle ({spec.name})",
    )
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


def render_fp8_roofline(
    kv_bytes_per_token: int | None = None, design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """The head roofline at the shipped heads with bf16 KV (as the report) and FP8 KV.

    ``kv_bytes_per_token`` defaults to the FP8 ``V41`` token of [`ascend_dsa.facts.kv_formats`][]: 512 e4m3 values plus
    16 ue8m0 scales, one per 32 dims, 528 B (kv_cache_format.h).
    """
    check_claims(design, ids=("head-roofline-line-108", "head-roofline-line-109"))
    spec, model, heads = design.spec, design.model, design.config.heads_per_core
    if kv_bytes_per_token is None:
        kv_bytes_per_token = kv_bytes_per_token_of(KvFormat.FP8, model)
    rows = []
    for topk in REPORT_TOPK:
        bf16 = head_roofline(spec, heads, topk, model)
        fp8 = head_roofline(spec, heads, topk, model, kv_bytes_per_token)
        rows.append(
            [
                topk,
                bf16.cube_cycles,
                number(bf16.l2_cycles, f"{bf16.l2_cycles:.0f}"),
                number(bf16.ratio, f"{bf16.ratio:.2f}"),
                number(fp8.l2_cycles, f"{fp8.l2_cycles:.0f}"),
                number(fp8.ratio, f"{fp8.ratio:.2f}"),
            ]
        )
    headers: list[str | Header] = [
        pick(lang, f"topk（h_q = {heads}）", f"topk (h_q = {heads})"),
        term("column:CUBE cycles", lang),
        pick(lang, "L2 周期（bf16，报告）", "L2 cycles (bf16, report)"),
        Header(term("column:ratio", lang), pick(lang, "算存比（bf16）", "ratio (bf16)")),
        pick(lang, f"L2 周期（FP8，{kv_bytes_per_token} B/token）", f"L2 cycles (FP8, {kv_bytes_per_token} B/token)"),
        Header(term("column:ratio", lang), pick(lang, "算存比（FP8）", "ratio (FP8)")),
    ]
    return table(headers, rows, ("right",) * 6) + "\n"


#: The colours of the roofline figure's topk lines, in order: at most this many topk values are drawn.
TOPK_COLOURS: Final = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759")
#: The heads axis reaches this factor past the largest heads drawn (the report's 128 gives an axis to 160).
_HEADS_AXIS_REACH: Final = 1.25
#: Points each curve is drawn through, evenly along the heads axis (8 heads apart on an axis to 160), plus the dots.
_CURVE_POINTS: Final = 20
#: Most tick steps along the heads axis.
_HEADS_TICKS: Final = 8
#: Height of the plotting area and the margins around it, in user units.
_PLOT_HEIGHT: Final = 290
_TOP, _RIGHT_MARGIN, _BOTTOM_MARGIN = (
    18,
    28,
    8,
)  # top: room for the top tick label's line box (1.16 em above its baseline)


def roofline_chart(
    spec: AnyChip = ASCEND_950,
    topk: Iterable[int] = REPORT_TOPK,
    *,
    heads: Iterable[int] = REPORT_HEADS,
    model: ModelShape = DSA_V41,
    kv_token_bytes: int | None = None,
    lang: Lang = "zh",
) -> Chart:
    """The roofline figure as a [`Chart`][]: its texts and boxes, for [`render_roofline_figure`][] and its tests."""
    topks = bounded_items("topk", topk, len(TOPK_COLOURS))  # one colour per topk: more would be dropped silently
    rows = head_roofline_sweep(spec, heads, topks, model, kv_token_bytes)  # checks spec, heads, topk, model, bytes
    chosen = SHIPPED_KERNEL.heads_per_core
    x_high = nice_ceiling(max(chosen, *(p.heads for p in rows)) * _HEADS_AXIS_REACH, _HEADS_TICKS)
    sampled = {round(x_high * i / _CURVE_POINTS) for i in range(1, _CURVE_POINTS + 1)} | {p.heads for p in rows}
    smallest = min(p.heads for p in rows)  # cycles grow with heads: from here on every point is a figure
    samples = sorted(h for h in sampled if HEADS_RANGE.holds(h) and h >= smallest)
    curves = head_roofline_sweep(spec, samples, topks, model, kv_token_bytes)
    curves += _points_below(spec, sorted(h for h in sampled if 1 <= h < smallest), topks, model, kv_token_bytes)
    cycles = [c for p in curves for c in (p.cube_cycles, p.l2_cycles)]
    y_low, y_high = log_range(min(cycles), max(cycles))
    y_ticks = log_ticks(y_low, y_high)
    bottom = _TOP + _PLOT_HEIGHT
    x_scale = Scale(0, x_high, y_axis_room(y_ticks), WIDTH - _RIGHT_MARGIN)
    y_scale = Scale(y_low, y_high, bottom, _TOP, log=True)
    x_step = fitting_step(x_scale, _HEADS_TICKS)
    ascend = is_ascend(spec)
    matrix = "CUBE" if ascend else pick(lang, "矩阵单元", "matrix unit")
    memory = spec.bandwidth.in_(lang)
    axes = Axes(
        x_scale,
        y_scale,
        linear_ticks(0, x_high, x_step),
        y_ticks,
        pick(lang, "每个 AI Core 的 q head 数", "q heads per AI Core")
        if ascend
        else pick(lang, "每个核的 q head 数", "q heads per core"),
        pick(lang, "每个 q token 的周期数", "cycles per query token"),
        x_step=x_step,
    )
    drawing = draw_axes(axes)
    entries: list[LegendEntry] = []
    for k, colour in zip(topks, TOPK_COLOURS, strict=False):
        line = sorted((p for p in curves if p.topk == k), key=lambda p: p.heads)
        dots = [p for p in rows if p.topk == k]
        drawing += Drawing(
            (
                polyline([(x_scale.at(p.heads), y_scale.at(p.cube_cycles)) for p in line], colour),
                polyline([(x_scale.at(p.heads), y_scale.at(p.l2_cycles)) for p in line], colour, style="dashed"),
                *(dot(x_scale.at(p.heads), y_scale.at(c), colour) for p in dots for c in (p.cube_cycles, p.l2_cycles)),
            ),
            data_colours=frozenset({colour}),
        )
        entries += [
            LegendEntry(pick(lang, f"{matrix}，topk {k}", f"{matrix}, topk {k}"), colour, "line"),
            LegendEntry(pick(lang, f"{memory}，topk {k}", f"{memory}, topk {k}"), colour, "dashed"),
        ]
    entries.append(LegendEntry(pick(lang, "圆点：上表的行", "dots: the table's rows"), AXIS, "dot"))
    drawing += _chosen_heads(axes, chosen, lang)
    legend_top = bottom + X_AXIS_ROOM + LINE / 2
    legend_width = WIDTH - 2 * AXIS_LABEL_LEFT
    drawing += legend(entries, AXIS_LABEL_LEFT, legend_top, legend_width, name=f"roofline-{lang}", most=2)
    height = legend_top + legend_height(entries, legend_width, most=2) + _BOTTOM_MARGIN
    title = pick(
        lang,
        "实线在虚线之上：算力 bound；之下：带宽 bound",
        "Solid above dashed: compute-bound; below: memory-bound",
    )
    return Chart(drawing, height, title)


def _points_below(
    spec: AnyChip, heads: Sequence[int], topks: Sequence[int], model: ModelShape, kv_token_bytes: int | None
) -> tuple[RooflinePoint, ...]:
    """The curve's points left of the table's fewest heads, down to where a cycle count would round to nothing."""
    points: list[RooflinePoint] = []
    for h in reversed(heads):
        try:
            row = head_roofline_sweep(spec, (h,), topks, model, kv_token_bytes)
        except OutOfRange:
            break
        points += row
    return tuple(points)


def _chosen_heads(axes: Axes, chosen: int, lang: Lang) -> Drawing:
    """The report's heads per AI Core as a dotted line across the plot, named at its top."""
    x = axes.x.at(chosen)
    line = polyline(((x, axes.top), (x, axes.bottom)), INK, style="dotted", width=1.2)
    label = ChartText(pick(lang, f"报告的选择：{chosen} 个 head", f"the report's {chosen}"), x + 5, axes.top + LINE)
    if label.box[2] > axes.right - 2:  # no room on the right of the line: name it on its left
        label = ChartText(label.text, x - 5, label.y, "end")
    return Drawing((line,), (label,))


def render_roofline_figure(
    spec: AnyChip = ASCEND_950,
    topk: Iterable[int] = REPORT_TOPK,
    *,
    heads: Iterable[int] = REPORT_HEADS,
    model: ModelShape = DSA_V41,
    kv_token_bytes: int | None = None,
    lang: Lang = "zh",
    check: bool = True,
    live: bool = False,
) -> str:
    """CUBE and L2 cycles per query token against heads per AI Core, one colour per topk, 64 heads marked (SVG).

    A dot on each line for each (heads, topk) row of the table (by default the report's eight). With ``check``, first
    compare the report's table (report (zh) lines 104-111) with ours. Standard library only: a live form redraws
    it in the reader's browser, and ``ascend-dsa head-roofline --svg`` writes it for the same options. With ``live``,
    the figure sits in the container the page's ``head-roofline`` form redraws ([`live_figure`][]).
    """
    if check:
        check_head_roofline(head_roofline_sweep(spec))
    chart = roofline_chart(spec, topk, heads=heads, model=model, kv_token_bytes=kv_token_bytes, lang=lang)
    return live_figure("head-roofline", svg_element(chart.html()), caption=chart.title) if live else chart.html()
