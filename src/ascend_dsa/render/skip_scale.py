"""How often skip-scale rescales: a table, a plot, and what the saved copies of O mean for FixPipe."""

from __future__ import annotations

import math
from fractions import Fraction

from ascend_dsa.facts.assumptions import SHARED_VARIANCE
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.block_cycles import (
    fixpipe_bytes_per_block,
    mma_cycles_per_block,
)
from ascend_dsa.models.blocked_forward import blocked_sparse_attn_fwd
from ascend_dsa.models.design_point import fixpipe_bytes_per_cycle, fixpipe_cycles
from ascend_dsa.models.skip_scale import (
    DEFAULT_SM_SCALE,
    SCORE_ORDERS,
    SWEEP_SM_SCALE_FACTORS,
    SWEEP_TOKENS,
    SWEEP_TOPK,
    RescaleMeasurement,
    ScoreOrder,
    fixpipe_cycles_per_block_with,
    rescale_sweep,
)
from ascend_dsa.render.format import kib
from ascend_dsa.render.markdown import NO_VALUE, Align, label, number, table
from ascend_dsa.render.svg import figure, to_svg
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.forward_cases import TRACE_B_TOPK, two_core_case
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.units import KiB

_ORDER_NAMES: dict[ScoreOrder, tuple[str, str]] = {
    "random": ("随机顺序", "random order"),
    "ascending": ("按分数升序", "ascending score"),
    "descending": ("按分数降序", "descending score"),
}
_ORDER_COLOURS: dict[ScoreOrder, str] = {"random": "#1f77b4", "ascending": "#d62728", "descending": "#2ca02c"}
_FACTOR_STYLES = ("-", "--", "-.", ":")


def _order(order: ScoreOrder, lang: Lang) -> str:
    return pick(lang, *_ORDER_NAMES[order])


def _factor(m: RescaleMeasurement) -> float:
    return float(m.sm_scale / DEFAULT_SM_SCALE)


def _score_model(lang: Lang) -> str:
    return pick(
        lang,
        f"合成分数：原始 logit 的标准差为 √d_qk（d_qk = {DSA_V41.d_qk}），其中 {SHARED_VARIANCE:.0%} 的方差为同一 "
        f"token 的所有 head 共有（indexer 排序依据的那一部分）；每个点取 {SWEEP_TOKENS} 个 q token 的平均，"
        f"{SHIPPED_KERNEL.heads_per_core} 个 head，B_TOPK = {SHIPPED_KERNEL.b_topk}，阈值 "
        f"{SHIPPED_KERNEL.rescale_threshold:g}，随机种子固定。",
        f"Synthetic scores: raw logits have standard deviation √d_qk (d_qk = {DSA_V41.d_qk}), {SHARED_VARIANCE:.0%} "
        f"of their variance shared by all heads of a token (the part an indexer ranks by); each point averages "
        f"{SWEEP_TOKENS} q tokens, {SHIPPED_KERNEL.heads_per_core} heads, B_TOPK = {SHIPPED_KERNEL.b_topk}, "
        f"threshold {SHIPPED_KERNEL.rescale_threshold:g}, fixed seeds.",
    )


def render_rescale_table(lang: Lang = "zh", topk: int = SWEEP_TOPK[-1]) -> str:
    """Rescales per q token and O copies saved, for every score order and sm_scale at one topk."""
    rows = [
        (
            _order(m.order, lang),
            f"{_factor(m):g} / √{DSA_V41.d_qk}",
            number(m.logit_spread, f"{m.logit_spread:.1f}"),
            m.blocks,
            " / ".join(f"{c:.2f}" for c in m.mean_core_rescales),
            number(m.mean_rescales, f"{m.mean_rescales:.2f}"),
            number(100 * m.rescale_rate, f"{m.rescale_rate:.1%}", "%"),
            f"{m.o_copies_with_skip_scale:.2f} / {m.o_copies_without_skip_scale}",
            number(100 * m.copies_saved, f"{m.copies_saved:.1%}", "%"),
        )
        for m in rescale_sweep(topks=(topk,))
    ]
    headers = [
        pick(lang, "index 顺序", "index order"),
        "sm_scale",
        pick(lang, "缩放后 logit 标准差", "scaled logit std"),
        term("column:blocks", lang),
        pick(lang, "每个 VECTOR Core 的 rescale 次数", "rescales per VECTOR Core"),
        pick(lang, "每 token 拷出 O 的 rescale 块数", "blocks copying O out, per token"),
        pick(lang, "rescale 的块占比", "share of blocks rescaling"),
        pick(lang, "O 拷出 L0C 次数：有 / 无 skip-scale", "O copies out of L0C: with / without skip-scale"),
        pick(lang, "省下的 O 拷贝", "O copies saved"),
    ]
    caption = pick(
        lang,
        f"topk = {topk}。每个 VECTOR Core 只为自己的 {SHIPPED_KERNEL.mma_m_per_vector_core} 个 head 判断，"
        f"任一个核 rescale，O 就拷出 L0C（kernel_body.h:1583-1590）。"
        f"“rescale 的块占比”不计第一块（它只是确定最大值）。"
        f"没有 skip-scale 时每块都要把 O 拷出 L0C；有了它，只在这些块和最后一次拷出。{_score_model(lang)}",
        f"topk = {topk}. Each VECTOR Core decides for its own {SHIPPED_KERNEL.mma_m_per_vector_core} heads; O leaves "
        f"L0C when either core rescales (kernel_body.h:1583-1590). "
        f"The share of blocks leaves out the first block (it only sets the max). "
        f"Without skip-scale O leaves L0C every block; with it, only at those blocks and once at the end. "
        f"{_score_model(lang)}",
    )
    aligns: tuple[Align, ...] = ("left",) + ("right",) * 8
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


def render_rescale_plot(lang: Lang = "zh") -> str:
    """SVG: rescales per q token and the share of O copies saved against topk, per order and sm_scale."""
    measurements = rescale_sweep()
    with figure(4.6, 5.6) as fig:  # the panels stacked, one column wide, to read on a phone too
        left, right = fig.subplots(2, 1)
        for order in SCORE_ORDERS:
            for style, factor in zip(_FACTOR_STYLES, SWEEP_SM_SCALE_FACTORS, strict=False):
                points = [m for m in measurements if m.order == order and math.isclose(_factor(m), factor)]
                topk = [m.topk for m in points]
                label = f"{_order(order, lang)}, sm_scale×{factor:g}"
                colour = _ORDER_COLOURS[order]
                left.plot(topk, [m.mean_rescales for m in points], style, color=colour, marker="o", label=label)
                right.plot(topk, [100 * m.copies_saved for m in points], style, color=colour, marker="o")
        for axes in (left, right):
            axes.set_xscale("log", base=2)
            axes.set_xticks(list(SWEEP_TOPK), [str(k) for k in SWEEP_TOPK])
            axes.set_xlabel("topk")
            axes.grid(visible=True, alpha=0.3)
        left.set_ylabel(pick(lang, "每个 q token 的 rescale 次数", "rescales per q token"))
        right.set_ylabel(pick(lang, "省下的 O 拷贝 (%)", "O copies saved (%)"))
        right.set_ylim(0, 100)
        fig.tight_layout()
        # Hung below the figure (after tight_layout, which ignores figure legends), clear of the "topk" labels.
        fig.legend(loc="upper center", ncol=1, bbox_to_anchor=(0.5, 0.0), frameon=False)
        title = pick(
            lang,
            "每个 q token 的 rescale 次数（上）和省下的 O 拷贝（下），随 topk 变化",
            "Rescales per q token (top) and O copies saved (bottom) against topk",
        )
        return to_svg(fig, title=title)


def render_fixpipe_with_skip_scale(lang: Lang = "zh", topk: int = SWEEP_TOPK[-1]) -> str:
    """Mean FixPipe cycles per block with the measured O copies, against the CUBE's cycles per block."""
    spec, config = ASCEND_950, SHIPPED_KERNEL
    mma = mma_cycles_per_block(spec, config)
    every_block = fixpipe_cycles(spec, config, o_leaves=True)
    p_only = fixpipe_cycles(spec, config, o_leaves=False)
    rate, cores = fixpipe_bytes_per_cycle(spec, config.vector_cores_per_cube), config.vector_cores_per_cube
    rows: list[tuple[object, ...]] = [
        (
            pick(lang, "无 skip-scale：每块都拷出 O", "no skip-scale: O leaves every block"),
            NO_VALUE,
            number(every_block, f"{float(every_block):.0f}", "cycles"),
            number(mma, f"{float(mma):.0f}", "cycles"),
            pick(lang, "FixPipe 是瓶颈", "FixPipe-bound")
            if every_block > mma
            else pick(lang, "CUBE 是瓶颈", "CUBE-bound"),
        )
    ]
    for m in rescale_sweep(topks=(topk,)):
        cycles = fixpipe_cycles_per_block_with(m, spec, config)
        rows.append(
            (
                f"{_order(m.order, lang)}, sm_scale×{_factor(m):g}",
                number(m.o_copies_with_skip_scale, f"{m.o_copies_with_skip_scale:.2f}"),
                number(cycles, f"{float(cycles):.0f}", "cycles"),
                number(mma, f"{float(mma):.0f}", "cycles"),
                pick(lang, "FixPipe 是瓶颈", "FixPipe-bound")
                if cycles > mma
                else pick(lang, "CUBE 是瓶颈", "CUBE-bound"),
            )
        )
    headers = [
        pick(lang, "分数分布", "scores"),
        pick(lang, "每 token 拷出 O 次数", "O copies per token"),
        pick(lang, "每块 FixPipe 周期（平均）", "FixPipe cycles per block (mean)"),
        term("column:MMA cycles per block", lang),
        pick(lang, "谁更慢", "slower side"),
    ]
    caption = pick(
        lang,
        f"B_TOPK = {config.b_topk}，topk = {topk}，1C{cores}V，FixPipe {rate} B/cycle（假设，见参考中的“假设”一页）："
        f"P 每块都拷出（{float(p_only):.0f} 周期），O 每拷一次 {float(every_block - p_only):.0f} 周期，"
        "按测得的次数摊到每块上。",
        f"B_TOPK = {config.b_topk}, topk = {topk}, 1C{cores}V, FixPipe {rate} B/cycle (assumed; see the reference's "
        f"assumptions page): P leaves every block ({float(p_only):.0f} cycles), each copy of O costs "
        f"{float(every_block - p_only):.0f} cycles, spread over the blocks by the measured count.",
    )
    return table(headers, rows, ("left", "right", "right", "right", "left")) + "\n\n" + caption + "\n"


def render_core_decisions(lang: Lang = "zh") -> str:
    """The constructed two-core token, block by block: each core's rise, who rescales, and when O leaves L0C."""
    config = SHIPPED_KERNEL
    case = two_core_case(config)
    cores = config.mma_m_per_vector_core
    kernel = blocked_sparse_attn_fwd(
        *case.args(), b_topk=TRACE_B_TOPK, rescale_threshold=config.rescale_threshold, heads_per_core=cores
    )[3]
    joint = blocked_sparse_attn_fwd(
        *case.args(), b_topk=TRACE_B_TOPK, rescale_threshold=config.rescale_threshold, heads_per_core=case.q.shape[1]
    )[3]
    yes, no = pick(lang, "是", "yes"), pick(lang, "否", "no")
    rows: list[tuple[object, ...]] = []
    for block in range(1, kernel.core_rescaled.shape[1]):
        rise = kernel.running_max[0, block] - kernel.max_for_softmax[0, block - 1]  # [h_q]
        per_core = [float(rise[c * cores : (c + 1) * cores].max()) for c in range(kernel.core_rescaled.shape[2])]
        rescaling = [str(c) for c in range(len(per_core)) if kernel.core_rescaled[0, block, c]]
        rows.append(
            (
                block,
                " / ".join(f"{r:g}" for r in per_core),
                label(", ".join(rescaling)) if rescaling else NO_VALUE,
                yes if kernel.rescaled[0, block] else no,
                yes if joint.rescaled[0, block] else no,
            )
        )
    rows.append(
        (
            pick(lang, "O 拷出次数（含最后一次）", "O copies (with the last)"),
            "",
            "",
            int(kernel.o_copies[0]),
            int(joint.o_copies[0]),
        )
    )
    headers = [
        term("column:block", lang),
        pick(lang, "各 VECTOR Core 的最大涨幅", "largest rise per VECTOR Core"),
        pick(lang, "rescale 的核", "cores rescaling"),
        pick(lang, "内核：O 拷出 L0C", "kernel: O leaves L0C"),
        pick(lang, "合并判断（对照）：O 拷出", "joint rule (for comparison): O leaves"),
    ]
    caption = pick(
        lang,
        f"一个 q token、{case.q.shape[1]} 个 head、`sm_scale = {case.sm_scale:g}`、阈值 {config.rescale_threshold:g}；"
        f"每个 VECTOR Core 负责 {cores} 个 head。涨幅是本块后的最大值减去上一块后 softmax 所用的最大值。"
        "合并判断是把所有 head 放在一起判断、一起更新的做法，内核并不这样做。",
        f"One q token, {case.q.shape[1]} heads, `sm_scale = {case.sm_scale:g}`, threshold "
        f"{config.rescale_threshold:g}; each VECTOR Core owns {cores} heads. A rise is the max after this block minus "
        "the max the softmax used after the previous one. The joint rule decides and updates all heads together; the "
        "kernel does not.",
    )
    aligns: tuple[Align, ...] = ("left", "right", "center", "center", "center")
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


def render_skip_scale_savings(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """What leaves L0C per block with and without a rescale, and the FixPipe cycles at the 1C1V and 1C2V rates.

    The 1C1V rate is the report's (line 142); the 1C2V rate is `ascend_dsa.facts.assumptions.FIXPIPE_1C2V`.
    """
    check_claims(design, ids=("fixpipe-bytes-per-cycle-1c1v", "fixpipe-cycles-formula"))
    spec, config, model = design.spec, design.config, design.model
    mma = mma_cycles_per_block(spec, config, model)
    one_v, two_v = fixpipe_bytes_per_cycle(spec, 1), fixpipe_bytes_per_cycle(spec, 2)
    rows = []
    for name, o_leaves in (
        (("触发 rescale：O 与 P", "rescale: O and P"), True),
        (("skip：只有 P", "skip: P only"), False),
    ):
        moved = fixpipe_bytes_per_block(config, model, o_leaves=o_leaves)
        row: list[object] = [pick(lang, *name), number(moved // KiB, kib(moved), "KiB")]
        for rate in (one_v, two_v):
            cycles = Fraction(moved, rate)
            row += [
                number(cycles, f"{float(cycles):.0f}", "cycles"),
                number(cycles / mma, f"{float(cycles / mma):.3f}"),
            ]
        rows.append(row)
    headers = [
        pick(lang, "本块", "this block"),
        pick(lang, "FixPipe 搬出", "FixPipe moves"),
        pick(lang, f"1C1V 周期（{one_v} B/周期）", f"1C1V cycles ({one_v} B/cycle)"),
        pick(lang, f"与一块 MMA（{float(mma):.0f}）之比", f"over one block's MMA ({float(mma):.0f})"),
        pick(lang, f"1C2V 周期（{two_v} B/周期，假设）", f"1C2V cycles ({two_v} B/cycle, assumed)"),
        pick(lang, "与一块 MMA 之比", "over one block's MMA"),
    ]
    return table(headers, rows, ("left", "right", "right", "right", "right", "right")) + "\n"
