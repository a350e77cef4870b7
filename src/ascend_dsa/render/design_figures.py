"""The design space as figures: the feasibility map and MMA against FixPipe (inline SVG, drawn by matplotlib).

The tables of the same page are in ``render.design_space``; the limit names come from there. The head roofline,
which a live form redraws, is drawn with the standard library in ``render.roofline``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch, PathPatch
from matplotlib.path import Path

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kernel_rules import UINT32_PER_VECTOR
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, pick
from ascend_dsa.models.block_cycles import fixpipe_break_even_b_topk, mma_cycles_per_block
from ascend_dsa.models.design_point import (
    LIMITS,
    SHIPPED_DESIGN,
    KvCache,
    fixpipe_cycles,
)
from ascend_dsa.models.design_sweep import NONE, DesignGrid, sweep
from ascend_dsa.render.design_space import limit_name
from ascend_dsa.render.svg import figure, to_svg, to_svg_with_legend_below
from ascend_dsa.report.checks import check_fixpipe_break_even
from ascend_dsa.report.scenarios import MAP_STEPS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.facts.hardware import AscendSpec

_LIMIT_COLOURS: Final = ("#4e79a7", "#f28e2b", "#ffbe7d", "#e15759", "#59a14f", "#b07aa1", "#9c755f")
_FORBIDDEN_COLOUR: Final = "#d9d9d9"


def fitted_index_block_size(b_topk: int, at_least: int = SHIPPED_KERNEL.index_block_size) -> int:
    """The smallest INDEX_BLOCK_SIZE of at least ``at_least`` that the index rules allow with ``b_topk``."""
    step = math.lcm(b_topk, 2 * UINT32_PER_VECTOR)
    return -(-at_least // step) * step


def feasibility_map(
    spec: AscendSpec, vector_cores: int, *, fitted_index_block: bool, kv_cache: KvCache = KvCache.BF16
) -> tuple[np.ndarray, np.ndarray]:
    """Binding-limit codes and the exceeded mask over (heads, B_TOPK), topk 512.

    With ``fitted_index_block`` each B_TOPK gets [`fitted_index_block_size`][]; otherwise the shipped 640.
    """
    index_blocks = (
        tuple(sorted({fitted_index_block_size(b) for b in MAP_STEPS}))
        if fitted_index_block
        else (SHIPPED_KERNEL.index_block_size,)
    )
    grid = DesignGrid(
        heads=MAP_STEPS,
        b_topk=MAP_STEPS,
        vector_cores=(vector_cores,),
        kv_cache=(kv_cache,),
        index_block_size=index_blocks,
    )
    result = sweep(spec, grid, DSA_V41)
    shape = (len(MAP_STEPS), len(MAP_STEPS), len(index_blocks))  # heads, B_TOPK, INDEX_BLOCK_SIZE
    pick_ib = np.asarray(
        [index_blocks.index(fitted_index_block_size(b)) if fitted_index_block else 0 for b in MAP_STEPS]
    ).reshape(1, -1, 1)
    binding = np.take_along_axis(result.binding.reshape(shape), pick_ib, axis=2)[..., 0]
    fits = np.take_along_axis(result.fits.reshape(shape), pick_ib, axis=2)[..., 0]
    return binding, ~fits & (binding != NONE)


def _rectangles(centres: Iterable[tuple[float, float]], half: float) -> Path:
    """One compound path of squares around ``centres``: a single SVG element however many squares there are."""
    vertices, codes = [], []
    for x, y in centres:
        vertices += [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half), (0, 0)]
        codes += [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
    return Path(vertices, codes)


def _crosses(centres: Iterable[tuple[float, float]], half: float) -> Path:
    """One compound path of small crosses around ``centres``."""
    vertices, codes = [], []
    for x, y in centres:
        vertices += [(x - half, y - half), (x + half, y + half), (x - half, y + half), (x + half, y - half)]
        codes += [Path.MOVETO, Path.LINETO, Path.MOVETO, Path.LINETO]
    return Path(vertices, codes)


def _draw_cells(ax: Axes, codes: np.ndarray, colours: list[str], exceeded: np.ndarray) -> None:
    """Fill the (heads, B_TOPK) cells by code, one path per colour, and cross out the exceeded ones."""
    half = (MAP_STEPS[1] - MAP_STEPS[0]) / 2
    for code, colour in enumerate(colours):
        heads_idx, b_idx = np.nonzero(codes == code)
        if heads_idx.size:
            centres = [(MAP_STEPS[h], MAP_STEPS[b]) for h, b in zip(heads_idx, b_idx, strict=True)]
            ax.add_patch(PathPatch(_rectangles(centres, half), facecolor=colour, edgecolor="white", linewidth=0.4))
    heads_idx, b_idx = np.nonzero(exceeded)
    centres = [(MAP_STEPS[h], MAP_STEPS[b]) for h, b in zip(heads_idx, b_idx, strict=True)]
    if centres:
        ax.add_patch(PathPatch(_crosses(centres, half * 0.35), fill=False, edgecolor="black", linewidth=0.7))
    ax.set_xlim(MAP_STEPS[0] - half, MAP_STEPS[-1] + half)
    ax.set_ylim(MAP_STEPS[0] - half, MAP_STEPS[-1] + half)


def render_feasibility_map(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """Over (heads, B_TOPK), colour each cell by the limit that binds (inline SVG).

    Three panels: 1C2V with the shipped INDEX_BLOCK_SIZE 640, then 1C2V and 1C1V with INDEX_BLOCK_SIZE fitted
    to each B_TOPK (see [`fitted_index_block_size`][]), so that the rows 640 forbids show their limits too.
    """
    panels = (
        (
            2,
            False,
            pick(
                lang,
                f"1C2V，INDEX_BLOCK_SIZE {SHIPPED_KERNEL.index_block_size}（内核）",
                f"1C2V, INDEX_BLOCK_SIZE {SHIPPED_KERNEL.index_block_size} (the kernel's)",
            ),
        ),
        (2, True, pick(lang, "1C2V，INDEX_BLOCK_SIZE 按 B_TOPK 调整", "1C2V, INDEX_BLOCK_SIZE fitted to B_TOPK")),
        (1, True, pick(lang, "1C1V，INDEX_BLOCK_SIZE 按 B_TOPK 调整", "1C1V, INDEX_BLOCK_SIZE fitted to B_TOPK")),
    )
    used: set[int] = set()  # colour codes some cell of some panel has: the legend lists only these
    # The panels stacked, one column wide: the figure reads on a phone without scrolling (issue 27).
    with figure(4.6, 3.0 * len(panels)) as fig:
        axes = fig.subplots(len(panels), 1, sharex=True)
        for ax, (vector_cores, fitted, title) in zip(axes, panels, strict=True):
            binding, exceeded = feasibility_map(spec, vector_cores, fitted_index_block=fitted)
            codes = np.where(binding == NONE, len(LIMITS), binding)
            used.update(int(code) for code in np.unique(codes))
            _draw_cells(ax, codes, [*_LIMIT_COLOURS, _FORBIDDEN_COLOUR], exceeded)
            ax.scatter(
                [SHIPPED_DESIGN.heads_per_core],
                [SHIPPED_DESIGN.b_topk],
                marker="*",
                s=160,
                facecolor="white",
                edgecolor="black",
                zorder=3,
            )
            ax.set_title(title)
            ax.set_xticks([16, 64, 128, 192, 256])
            ax.set_yticks([16, 64, 128, 192, 256])
            ax.set_ylabel("B_TOPK")
        axes[-1].set_xlabel(pick(lang, "每个 AI Core 的 q head 数", "q heads per AI Core"))
        handles = [
            Patch(color=c, label=limit_name(limit, lang, short=True))
            for code, (limit, c) in enumerate(zip(LIMITS, _LIMIT_COLOURS, strict=True))
            if code in used
        ]
        if len(LIMITS) in used:
            label = pick(lang, "内核规则禁止", "forbidden by a kernel rule")
            handles.append(Patch(color=_FORBIDDEN_COLOUR, label=label))
        handles.append(Patch(color="white", label=pick(lang, "× 超出该限制", "× limit exceeded")))
        handles.append(Patch(color="white", label=pick(lang, "★ 报告的选择", "★ the report's choice")))
        fig.subplots_adjust(hspace=0.35, bottom=0.2 / len(panels) + 0.08)
        fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.06), ncol=2, frameon=False)
        title = pick(
            lang,
            f"每格的颜色：占用率最高（最先触顶）的限制；bf16，topk {DesignGrid().topk[0]}",
            f"Colour: the limit with the highest use (the first to bind); bf16, topk {DesignGrid().topk[0]}",
        )
        return to_svg(fig, title=title)


def render_mma_fixpipe_figure(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """MMA against FixPipe cycles per block over B_TOPK for 1C1V, 1C2V and P only, with the 73.14 line (SVG)."""
    break_even = float(fixpipe_break_even_b_topk(spec, SHIPPED_KERNEL, DSA_V41))
    if spec is ASCEND_950:
        check_fixpipe_break_even(break_even)
    b_values = list(range(16, 161, 4))
    one = [SHIPPED_KERNEL.with_overrides(b_topk=b, vector_cores_per_cube=1) for b in b_values]
    two = [SHIPPED_KERNEL.with_overrides(b_topk=b) for b in b_values]
    fixpipe_lines = (  # label, configurations, whether O leaves L0C every block, colour, line style
        (pick(lang, "FixPipe 1C1V，每块搬 O", "FixPipe 1C1V, O every block"), one, True, "#e15759", "-"),
        (
            pick(lang, "FixPipe 1C2V，每块搬 O（假设带宽翻倍）", "FixPipe 1C2V, O every block (rate assumed doubled)"),
            two,
            True,
            "#f28e2b",
            "--",
        ),
        (pick(lang, "FixPipe 1C1V，只搬 P", "FixPipe 1C1V, P only"), one, False, "#4e79a7", "-"),
        (pick(lang, "FixPipe 1C2V，只搬 P", "FixPipe 1C2V, P only"), two, False, "#4e79a7", "--"),
    )
    series = (
        (pick(lang, "MMA（CUBE）", "MMA (CUBE)"), [float(mma_cycles_per_block(spec, c)) for c in one], "#000000", "-"),
        *(
            (label, [float(fixpipe_cycles(spec, c, o_leaves=o_leaves)) for c in configs], colour, style)
            for label, configs, o_leaves, colour, style in fixpipe_lines
        ),
    )
    with figure(4.6, 3.6) as fig:
        ax = fig.add_subplot()
        for label, values, colour, style in series:
            ax.plot(b_values, values, color=colour, linestyle=style, label=label)
        ax.axvline(break_even, color="#e15759", linewidth=1, linestyle=":")
        ax.text(break_even + 2, 2300, f"B_TOPK = {break_even:.2f}", color="#e15759", fontsize=9)
        ax.axvline(SHIPPED_KERNEL.b_topk, color="black", linewidth=1, linestyle=":")
        ax.text(
            SHIPPED_KERNEL.b_topk - 2,
            2300,
            pick(lang, f"内核：{SHIPPED_KERNEL.b_topk}", f"kernel: {SHIPPED_KERNEL.b_topk}"),
            ha="right",
            fontsize=9,
        )
        ax.set_xlabel("B_TOPK")
        ax.set_ylabel(
            pick(
                lang,
                f"每个 KV 块的周期数（{SHIPPED_KERNEL.mma_m} 行）",
                f"cycles per KV block ({SHIPPED_KERNEL.mma_m} rows)",
            )
        )
        ax.set_ylim(0, 2600)
        title = pick(
            lang,
            "MMA 线在 FixPipe 线之上，FixPipe 才不是瓶颈",
            "FixPipe is not the bottleneck where MMA is above it",
        )
        # Below the axes, neither line label (B_TOPK = ..., kernel: 64) can cover an entry.
        return to_svg_with_legend_below(fig, ax, title=title, drop=0.18, columns=1)
