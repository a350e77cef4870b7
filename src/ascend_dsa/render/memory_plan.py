"""UB and L1 plans as text, Markdown tables and SVG figures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.code_figures import UB_PLAN_CITATION
from ascend_dsa.facts.glossary import notation_symbol
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, Text, pick, term
from ascend_dsa.models.memory_plans import (
    L1_S_BUFFERS,
    SHIPPED_L1_LAYOUT,
    SHIPPED_L1_LAYOUT_SOURCE,
    l1_plan,
    layout_bytes_per_bank,
    shipped_ub_plans,
)
from ascend_dsa.render.format import count_word, group_digits, kib
from ascend_dsa.render.markdown import Align, citation, table
from ascend_dsa.render.svg import figure, to_svg, to_svg_with_legend_below
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


def ub_plan_text(plan: UbPlan, spec: AscendSpec = ASCEND_950) -> str:
    """The plan as plain text for the command line: one line per field, then the total against UB."""
    width = max(len(f.name) for f in plan.fields)
    config = plan.config
    title = (
        f"# UB plan per VECTOR Core: {plan.describe()}; H_Q {config.heads_per_core}, B_TOPK {config.b_topk}, "
        f"1C{config.vector_cores_per_cube}V, INDEX_BLOCK_SIZE {config.index_block_size} ({UB_PLAN_CITATION.short})"
    )
    lines = [title]
    for f in plan.fields:
        note = f"  ({f.condition})" if f.condition and not f.bytes else ""
        lines.append(
            f"{f.name:<{width}}  {_shape(f.shape, ' x '):>16} x {f.element_bytes} B = {f.bytes:>7} B  "
            f"[{f.source.citation}]{note}"
        )
    verdict = "fits" if plan.fits(spec) else "DOES NOT FIT"
    lines.append(
        f"{'total':<{width}}  {plan.total_bytes:>7} B of {spec.staging_bytes_per_core} B "
        f"({plan.total_bytes / spec.staging_bytes_per_core:.2%}); headroom {plan.headroom_bytes(spec)} B: {verdict}"
    )
    return "\n".join(lines)


def _instantiation_label(plan: UbPlan, lang: Lang) -> str:
    cache = {"bf16": "bf16", "fp8": "FP8"}[plan.main_cache.value] + (" + FP4" if plan.fp4_extra else "")
    sink = pick(lang, "sink", "sink") if plan.sink else pick(lang, "无 sink", "no sink")
    return f"{plan.mode.value} {cache}, {sink}"


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
    rows: list[list[str]] = []
    for i, f in enumerate(plans[0].fields):
        cells = [group_digits(p.fields[i].bytes) if p.fields[i].bytes else "—" for p in plans]
        rows.append([f"`{f.name}`", citation(f.source, lang), *cells])
    rows.append(
        [pick(lang, "**合计**", "**total**"), UB_PLAN_CITATION.short]
        + [f"**{group_digits(p.total_bytes)}**" for p in plans]
    )
    rows.append(
        [pick(lang, "余量", "headroom"), f"UB {group_digits(spec.staging_bytes_per_core)} B (config.h:125)"]
        + [group_digits(p.headroom_bytes(spec)) for p in plans]
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


def render_ub_plan_bars(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """The six shipped UB plans as stacked bars against the VECTOR Core's 256 KiB (inline SVG)."""
    spec = require_ascend("spec", spec)
    plans = _checked_shipped_plans()
    with figure(8.5, 4.2) as fig:
        ax = fig.add_subplot()
        # One short line each (mode, KV format, sink), so the labels of neighbouring bars never meet.
        labels = [_instantiation_label(p, lang).replace(", ", "\n").replace(" ", "\n", 1) for p in plans]
        x = range(len(plans))
        bottoms = [0.0] * len(plans)
        for (name, names), colour in zip(UB_GROUPS, _COLOURS, strict=True):
            heights = [sum(f.bytes for f in p.fields if f.name in names) / KiB for p in plans]
            ax.bar(x, heights, bottom=bottoms, color=colour, label=name.in_(lang), width=0.6)
            bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
        capacity = spec.staging_bytes_per_core / KiB
        ax.axhline(capacity, color="#d62728", linewidth=1.5, linestyle="--")
        ax.text(
            len(plans) - 0.5,
            capacity + 3,
            pick(lang, f"UB 容量 {capacity:.0f} KiB", f"UB {capacity:.0f} KiB"),
            ha="right",
            va="bottom",
            color="#d62728",
            fontsize=9,
        )
        for i, p in enumerate(plans):
            # In KiB, the axis's unit (the table above gives the bytes).
            total = f"{p.total_bytes / KiB:.1f}"
            ax.text(i, bottoms[i] - 4, total, ha="center", va="top", fontsize=8, color="white")
        ax.set_xticks(list(x), labels, fontsize=8)
        ax.set_ylabel(pick(lang, "每个 VECTOR Core 的 UB（KiB）", "UB per VECTOR Core (KiB)"))
        ax.set_ylim(0, capacity * 1.12)
        ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
        shipped = count_word(len(plans), lang)
        return to_svg(
            fig, title=pick(lang, f"{shipped}个实例化的 UB 预算", f"UB plan of the {shipped} shipped instantiations")
        )


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
        bank = str(first) if first == last else f"{first} + {last}"
        rows.append([r.name, f"{r.start_bytes // KiB}K – {r.end_bytes // KiB}K", kib(r.bytes), bank])
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
            kib(used),
            kib(bank_bytes),
            kib(bank_bytes - used),
            f"{used / bank_bytes:.1%}",
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
