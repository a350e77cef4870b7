"""UB and L1 plans as text, Markdown tables and SVG figures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.code_figures import UB_PLAN_CITATION
from ascend_dsa.facts.glossary import notation_symbol
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig, config_fields
from ascend_dsa.facts.kv_formats import KvFormat, Mode
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, Text, pick, term
from ascend_dsa.models.memory_plans import (
    L1_S_BUFFERS,
    SHIPPED_L1_LAYOUT,
    SHIPPED_L1_LAYOUT_SOURCE,
    l1_plan,
    layout_bytes_per_bank,
    shipped_ub_plans,
    ub_plan,
)
from ascend_dsa.render.chart import (
    AXIS_LABEL_LEFT,
    FONT_SIZE,
    INK,
    LINE,
    WIDTH,
    Axes,
    Chart,
    ChartText,
    Drawing,
    LegendEntry,
    Scale,
    draw_axes,
    legend,
    legend_height,
    linear_ticks,
    nice_ceiling,
    nice_step,
    polyline,
    rect,
    y_axis_room,
)
from ascend_dsa.render.format import count_word, display_width, group_digits, kib, pad_to
from ascend_dsa.render.live import live_figure
from ascend_dsa.render.markdown import NO_VALUE, Align, Cell, citation, number, table
from ascend_dsa.render.svg import figure, svg_element, to_svg_with_legend_below
from ascend_dsa.report.checks import check_ub_totals
from ascend_dsa.units import KiB

if TYPE_CHECKING:
    from ascend_dsa.models.memory_plans import UbPlan

#: Fields drawn together in the stacked bars: (name, fields).
UB_GROUPS: Final = (
    (
        Text("KV 搬运缓冲", "gathered KV buffers"),
        ("gathered_kv", "fp8_scales_bf16", "gathered_kv_fp4", "fp4_scales_bf16"),
    ),
    (Text("NZ 布局的 KV", "KV in NZ layout"), ("gathered_kv_in_nz",)),
    (Text("O 累加器", "O accumulator"), ("output_accum",)),
    (Text("O 分片", "O fragments"), ("cur_output_frag",)),
    (Text("P / S", "P / S"), ("p",)),
    (
        Text("行统计量与 sink", "row statistics and sink"),
        ("attn_sink", "row_max", "row_max_for_o", "row_sum", "row_denorm", "row_scales", "row_max_max_delta"),
    ),
    (
        Text("索引与 gather2 参数", "indices and gather2 parameters"),
        ("indices", "global_kv_ptr_offset", "src_stride_in_gather2", "smaller_indices", "larger_indices"),
    ),
)
_COLOURS: Final = ("#4e79a7", "#a0cbe8", "#f28e2b", "#ffbe7d", "#59a14f", "#b07aa1", "#9c755f")


def _shape(shape: tuple[int, ...], times: str = " × ") -> str:
    return times.join(str(n) for n in shape) if shape else "0"


def ub_plan_text(plan: UbPlan, spec: AscendSpec = ASCEND_950, lang: Lang = "en") -> str:
    """The plan as plain text for the command line in ``lang``: one line per field, then the total against UB.

    Names are padded by display width (`pad_to`), so the columns line up with Chinese words too.
    """
    total = pick(lang, "合计", "total")
    width = max(display_width(name) for name in (*(f.name for f in plan.fields), total))
    config = plan.config
    shape = (
        f"H_Q {config.heads_per_core}, B_TOPK {config.b_topk}, 1C{config.vector_cores_per_cube}V, "
        f"INDEX_BLOCK_SIZE {config.index_block_size} ({UB_PLAN_CITATION.short})"
    )
    title = pick(
        lang,
        f"# 每个 VECTOR Core 的 UB 预算：{_instantiation_label(plan, lang)}；{shape}",
        f"# UB plan per VECTOR Core: {plan.describe()}; {shape}",
    )
    lines = [title]
    for f in plan.fields:
        note = f"  ({term(f'condition:{f.condition}', lang)})" if f.condition and not f.bytes else ""
        lines.append(
            f"{pad_to(f.name, width)}  {_shape(f.shape, ' x '):>16} x {f.element_bytes} B = {f.bytes:>7} B  "
            f"[{f.source.citation}]{note}"
        )
    verdict = pick(lang, "放得下", "fits") if plan.fits(spec) else pick(lang, "放不下", "DOES NOT FIT")
    share = plan.total_bytes / spec.staging_bytes_per_core
    use = f"{plan.total_bytes:>7} B / {spec.staging_bytes_per_core} B ({share:.2%})"
    headroom = plan.headroom_bytes(spec)
    lines.append(
        pick(
            lang,
            f"{pad_to(total, width)}  {use}；余量 {headroom} B：{verdict}",
            f"{pad_to(total, width)}  {use}; headroom {headroom} B: {verdict}",
        )
    )
    return "\n".join(lines)


def _instantiation_parts(plan: UbPlan, lang: Lang) -> tuple[str, str, str]:
    """The instantiation's mode, KV format and sink, each a word or two."""
    cache = {"bf16": "bf16", "fp8": "FP8"}[plan.main_cache.value] + (" + FP4" if plan.fp4_extra else "")
    sink = pick(lang, "sink", "sink") if plan.sink else pick(lang, "无 sink", "no sink")
    return plan.mode.value, cache, sink


def _instantiation_label(plan: UbPlan, lang: Lang) -> str:
    mode, cache, sink = _instantiation_parts(plan, lang)
    return f"{mode} {cache}, {sink}"


def _checked_shipped_plans() -> tuple[UbPlan, ...]:
    plans = shipped_ub_plans(SHIPPED_KERNEL, DSA_V41)
    check_ub_totals(plans)
    return plans


def render_ub_plan_table(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """Every UB field of the six shipped instantiations, in bytes, with totals checked against the kernel's."""
    spec = require_ascend("spec", spec)
    plans = _checked_shipped_plans()
    headers = [pick(lang, "字段", "field"), term("column:source", lang)] + [
        _instantiation_label(p, lang) for p in plans
    ]
    rows: list[list[str | Cell]] = []
    for i, f in enumerate(plans[0].fields):
        cells = [
            number(p.fields[i].bytes, group_digits(p.fields[i].bytes), "B") if p.fields[i].bytes else NO_VALUE
            for p in plans
        ]
        rows.append([f"`{f.name}`", citation(f.source, lang), *cells])
    rows.append(
        [pick(lang, "**合计**", "**total**"), UB_PLAN_CITATION.short]
        + [number(p.total_bytes, f"**{group_digits(p.total_bytes)}**", "B") for p in plans]
    )
    rows.append(
        [pick(lang, "余量", "headroom"), f"UB {group_digits(spec.staging_bytes_per_core)} B (config.h:125)"]
        + [number(p.headroom_bytes(spec), group_digits(p.headroom_bytes(spec)), "B") for p in plans]
    )
    shipped = count_word(len(plans), lang)
    caption = pick(
        lang,
        f"单位：字节，每个 VECTOR Core。合计与内核{shipped}个实例化的 `sizeof(UnifiedBufferMemoryPlan)` 逐一比对"
        f"（{UB_PLAN_CITATION.short}）；UB 容量 {group_digits(spec.staging_bytes_per_core)} B（config.h:125）。",
        f"Bytes per VECTOR Core. Totals are checked against `sizeof(UnifiedBufferMemoryPlan)` of the kernel's "
        f"{shipped} instantiations ({UB_PLAN_CITATION.short}); UB holds "
        f"{group_digits(spec.staging_bytes_per_core)} B (config.h:125).",
    )
    right: Align = "right"
    aligns: tuple[Align, ...] = ("left", "left", *((right,) * len(plans)))
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


#: The UB capacity line's colour, named in the legend.
_CAPACITY_COLOUR: Final = "#d62728"
#: Height of the bars' plotting area, and the share of a slot each bar takes, and the y axis's most tick steps.
_BARS_HEIGHT: Final = 260
_BAR_SHARE: Final = 0.7
_UB_TICKS: Final = 6
#: The y axis reaches this factor past the tallest bar or the capacity line, whichever is higher.
_UB_AXIS_REACH: Final = 1.08
_BARS_TOP, _BARS_RIGHT_MARGIN, _BARS_BOTTOM_MARGIN = 18, 6, 8  # top: as the roofline's


def _is_shipped(config: KernelConfig) -> bool:
    """Whether ``config`` has the shipped kernel's every value (a what-if copy that changed nothing counts too)."""
    return all(getattr(config, name) == getattr(SHIPPED_KERNEL, name) for name in config_fields())


def ub_plan_bars_chart(
    spec: AscendSpec = ASCEND_950,
    config: KernelConfig = SHIPPED_KERNEL,
    *,
    mode: Mode = Mode.PREFILL,
    main_cache: KvFormat | None = None,
    fp4_extra: bool = False,
    sink: bool = False,
    lang: Lang = "zh",
) -> Chart:
    """The UB figure as a [`Chart`][]: its texts and boxes, for [`render_ub_plan_bars`][] and its tests."""
    spec = require_ascend("spec", spec)
    chosen = ub_plan(config, mode, main_cache, fp4_extra=fp4_extra, sink=sink)  # checks them; ForbiddenDesign
    plans = shipped_ub_plans(config)
    shipped = _is_shipped(config)
    if shipped:
        check_ub_totals(plans)
    capacity = spec.staging_bytes_per_core / KiB
    totals = [p.total_bytes / KiB for p in plans]
    y_high = nice_ceiling(max(capacity, *totals) * _UB_AXIS_REACH, _UB_TICKS)
    y_step = nice_step(y_high, _UB_TICKS)
    y_ticks = linear_ticks(0, y_high, y_step)
    bottom = _BARS_TOP + _BARS_HEIGHT
    x_scale = Scale(0, len(plans), y_axis_room(y_ticks, y_step), WIDTH - _BARS_RIGHT_MARGIN)
    y_scale = Scale(0, y_high, bottom, _BARS_TOP)
    y_label = pick(lang, "每个 VECTOR Core 的 UB（KiB）", "UB per VECTOR Core (KiB)")
    axes = Axes(x_scale, y_scale, (), y_ticks, "", y_label, y_step=y_step)
    drawing = draw_axes(axes)
    width = (x_scale.at(1) - x_scale.at(0)) * _BAR_SHARE
    for i, plan in enumerate(plans):
        drawing += _bar(plan, x_scale.at(i + 0.5) - width / 2, width, y_scale, is_chosen=plan == chosen, lang=lang)
    at = y_scale.at(capacity)
    drawing += Drawing((polyline(((axes.left, at), (axes.right, at)), _CAPACITY_COLOUR, style="dashed"),))
    entries = [LegendEntry(name.in_(lang), colour) for (name, _), colour in zip(UB_GROUPS, _COLOURS, strict=True)]
    entries += [
        LegendEntry(
            pick(lang, f"UB 容量 {kib(spec.staging_bytes_per_core)}", f"UB {kib(spec.staging_bytes_per_core)}"),
            _CAPACITY_COLOUR,
            "dashed",
        ),
        LegendEntry(pick(lang, "粗框：所选的实例化", "outlined: the chosen instantiation"), INK, "outline"),
    ]
    legend_top = bottom + 6 + len(_bar_label_lines(chosen, lang)) * LINE + LINE / 2
    legend_width = WIDTH - 2 * AXIS_LABEL_LEFT
    drawing += legend(entries, AXIS_LABEL_LEFT, legend_top, legend_width, name=f"ub-plan-{lang}", most=2)
    height = legend_top + legend_height(entries, legend_width, most=2) + _BARS_BOTTOM_MARGIN
    count = count_word(len(plans), lang)
    if shipped:
        title = pick(lang, f"{count}个实例化的 UB 预算", f"UB plan of the {count} shipped instantiations")
    else:
        tiles = (
            f"H_Q {config.heads_per_core}, B_TOPK {config.b_topk}, 1C{config.vector_cores_per_cube}V, "
            f"INDEX_BLOCK_SIZE {config.index_block_size}"
        )
        title = pick(
            lang, f"{count}个实例化的 UB 预算（{tiles}）", f"UB plan of the {count} instantiations with {tiles}"
        )
    return Chart(drawing, height, title)


def _bar_label_lines(plan: UbPlan, lang: Lang) -> tuple[str, ...]:
    """The lines under a bar: mode, KV format, sink (one short word each, so neighbouring labels never meet)."""
    mode, cache, sink = _instantiation_parts(plan, lang)
    return mode, cache.replace(" + ", "+"), sink


def _bar(plan: UbPlan, left: float, width: float, y: Scale, *, is_chosen: bool, lang: Lang) -> Drawing:
    """One plan's stacked bar, its total in KiB (the axis's unit; the table gives the bytes) and its label below."""
    elements, colours, base = [], set(), 0.0
    for (_, names), colour in zip(UB_GROUPS, _COLOURS, strict=True):
        height = sum(f.bytes for f in plan.fields if f.name in names) / KiB
        if height:
            elements.append(rect(left, y.at(base + height), width, y.at(base) - y.at(base + height), colour))
            colours.add(colour)
        base += height
    total = plan.total_bytes / KiB
    top = y.at(total)
    if is_chosen:
        elements.append(rect(left, top, width, y.at(0) - top, "none", stroke=INK, stroke_width=2.5))
    inside = y.at(0) - top >= LINE + 4
    texts = [
        ChartText(
            f"{total:.1f}",
            left + width / 2,
            top + LINE - 3 if inside else top - 5,
            "middle",
            colour="#ffffff" if inside else INK,
        )
    ]
    texts += [
        ChartText(line, left + width / 2, y.at(0) + 6 + FONT_SIZE + i * LINE, "middle", bold=is_chosen)
        for i, line in enumerate(_bar_label_lines(plan, lang))
    ]
    return Drawing(tuple(elements), tuple(texts), frozenset(colours))


def render_ub_plan_bars(
    spec: AscendSpec = ASCEND_950,
    config: KernelConfig = SHIPPED_KERNEL,
    *,
    mode: Mode = Mode.PREFILL,
    main_cache: KvFormat | None = None,
    fp4_extra: bool = False,
    sink: bool = False,
    lang: Lang = "zh",
    live: bool = False,
) -> str:
    """The six shipped UB plans of ``config`` as stacked bars against the VECTOR Core's 256 KiB (inline SVG).

    The instantiation ``mode``, ``main_cache``, ``fp4_extra`` and ``sink`` choose is outlined. With the shipped
    configuration the totals are first checked against the kernel's ``sizeof``. Standard library only: a live form
    redraws it in the reader's browser, and ``ascend-dsa ub-plan --svg`` writes it for the same options. With
    ``live``, the figure sits in the container the page's ``ub-plan`` form redraws ([`live_figure`][]).
    """
    chart = ub_plan_bars_chart(
        spec, config, mode=mode, main_cache=main_cache, fp4_extra=fp4_extra, sink=sink, lang=lang
    )
    return live_figure("ub-plan", svg_element(chart.html()), caption=chart.title) if live else chart.html()


def _bank_of(start: int, bank_bytes: int) -> int:
    return start // bank_bytes


def render_l1_bank_table(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """The shipped L1 address map, bytes per bank, and our plan's count per bank against each bank's size."""
    spec = require_ascend("spec", spec)
    plan = l1_plan(spec, SHIPPED_KERNEL, DSA_V41)
    per_bank = layout_bytes_per_bank(spec, SHIPPED_L1_LAYOUT)
    if any(b != plan.bytes_per_bank for b in per_bank):
        raise FigureMismatch(
            f"the L1 plan puts {plan.bytes_per_bank} B in each bank but the shipped layout "
            f"({SHIPPED_L1_LAYOUT_SOURCE.citation}) has {per_bank}"
        )
    bank_bytes = spec.ascend.l1_bytes // spec.ascend.l1_banks
    rows = []
    for r in SHIPPED_L1_LAYOUT:
        first, last = _bank_of(r.start_bytes, bank_bytes), _bank_of(r.end_bytes - 1, bank_bytes)
        bank: int | str = first if first == last else f"{first} + {last}"
        rows.append(
            [
                r.name,
                f"{r.start_bytes // KiB}K – {r.end_bytes // KiB}K",
                number(r.bytes // KiB, kib(r.bytes), "KiB"),
                bank,
            ]
        )
    headers = [
        pick(lang, "缓冲", "buffer"),
        pick(lang, "地址范围", "address range"),
        pick(lang, "大小", "size"),
        "bank",
    ]
    layout = table(headers, rows, ("left", "left", "right", "center"))
    bank_rows = [
        [
            i,
            f"{i * bank_bytes // KiB}K – {(i + 1) * bank_bytes // KiB}K",
            number(used // KiB, kib(used), "KiB"),
            number(bank_bytes // KiB, kib(bank_bytes), "KiB"),
            number((bank_bytes - used) // KiB, kib(bank_bytes - used), "KiB"),
            number(100 * used / bank_bytes, f"{used / bank_bytes:.1%}", "%"),
        ]
        for i, used in enumerate(per_bank)
    ]
    bank_headers = [
        "bank",
        pick(lang, "地址", "addresses"),
        pick(lang, "已用", "used"),
        term("column:capacity", lang),
        term("column:headroom", lang),
        term("column:use", lang),
    ]
    caption = pick(
        lang,
        f"地址取自 {citation(SHIPPED_L1_LAYOUT_SOURCE, lang)}；每个 bank 的用量另由缓冲个数与形状算出"
        f"（Q {SHIPPED_KERNEL.l1_q_buffers} 份、KV {SHIPPED_KERNEL.l1_kv_buffers} 份、S {L1_S_BUFFERS} 份，"
        f"各自对半分到{count_word(spec.ascend.l1_banks, lang)}个 bank），两者一致才会出现在页面上。",
        f"Addresses from {SHIPPED_L1_LAYOUT_SOURCE.citation}; the bytes per bank are also computed from the buffer "
        f"counts and shapes (Q x{SHIPPED_KERNEL.l1_q_buffers}, KV x{SHIPPED_KERNEL.l1_kv_buffers}, "
        f"S x{L1_S_BUFFERS}, each split in half across the banks), and the page only builds when both agree.",
    )
    return (
        layout
        + "\n\n"
        + table(bank_headers, bank_rows, ("center", "left", "right", "right", "right", "right"))
        + "\n\n"
        + caption
        + "\n"
    )


#: The L1 figure's free space: a light fill with a darker outline, visible on the figure's white card.
_FREE_COLOUR: Final = "#eeeeee"
_FREE_EDGE: Final = "#999999"


def render_l1_bank_figure(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """The shipped L1 address map drawn as the two banks side by side (inline SVG)."""
    from matplotlib.patches import Patch  # noqa: PLC0415 - loaded when a figure is drawn, not with the package

    spec = require_ascend("spec", spec)
    bank_bytes = spec.ascend.l1_bytes // spec.ascend.l1_banks
    colours = {"Q": "#4e79a7", "KV": "#f28e2b", "S": "#e15759"}
    names = {
        "Q": pick(lang, "Q", "Q"),
        "KV": pick(lang, "KV 块", "KV block"),
        "S": notation_symbol("S").legend.in_(lang),
    }
    with figure(7.5, 2.2) as fig:
        ax = fig.add_subplot()
        for bank in range(spec.ascend.l1_banks):
            ax.barh(bank, bank_bytes / KiB, left=0, height=0.6, facecolor=_FREE_COLOUR, edgecolor=_FREE_EDGE)
        for r in SHIPPED_L1_LAYOUT:
            kind = r.name.split(" ")[0]
            start = r.start_bytes
            while start < r.end_bytes:  # a region across a bank boundary is drawn in both banks
                bank = start // bank_bytes
                end = min(r.end_bytes, (bank + 1) * bank_bytes)
                ax.barh(
                    bank,
                    (end - start) / KiB,
                    left=(start - bank * bank_bytes) / KiB,
                    color=colours[kind],
                    height=0.6,
                    edgecolor="white",
                )
                if (end - start) >= 16 * KiB:
                    ax.text(
                        (start + end) / 2 / KiB - bank * bank_bytes / KiB,
                        bank,
                        kind,
                        ha="center",
                        va="center",
                        color="white",
                        fontsize=9,
                    )
                start = end
        ax.set_yticks(
            range(spec.ascend.l1_banks), [pick(lang, f"bank {b}", f"bank {b}") for b in range(spec.ascend.l1_banks)]
        )
        ax.invert_yaxis()
        ax.set_xlim(0, bank_bytes / KiB)
        ax.set_xlabel(pick(lang, "bank 内偏移（KiB）；S 横跨 256K 边界", "offset in the bank (KiB); S straddles 256K"))
        # Every colour drawn has an entry (S is too thin to carry its letter), in one row below the axes.
        kinds = [kind for kind in colours if any(r.name.split(" ")[0] == kind for r in SHIPPED_L1_LAYOUT)]
        handles = [Patch(color=colours[kind], label=names[kind]) for kind in kinds]
        handles.append(Patch(facecolor=_FREE_COLOUR, edgecolor=_FREE_EDGE, label=pick(lang, "空闲", "free")))
        banks = count_word(spec.ascend.l1_banks, lang)
        title = pick(
            lang, f"L1 的{banks}个 bank：每个张量对半切分", f"L1's {banks} banks: every tensor split in {banks}"
        )
        return to_svg_with_legend_below(fig, ax, title=title, drop=0.45, columns=len(handles), handles=handles)
