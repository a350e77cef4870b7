"""The ledger's claims for the report's opening and its discussion.

The chapters: peak share, the algorithm, heads per core, the accumulator, one VECTOR Core or two, and when ND2NZ
is needed. Each entry is a [`Claim`][]; ``claims.CLAIMS`` joins these with ``ledger_design``'s.

Why this module is long: it is data, one claim record of a few lines per number of the report's first half (about
fifty), each with both languages' sentences; the chapters it covers share the design context and helpers above them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.kv_formats import KvFormat, kv_bytes_per_token
from ascend_dsa.facts.report_figures import HEAD_ROOFLINE_PUBLISHED_TEXT, published_head_roofline
from ascend_dsa.facts.report_inputs import DECODE_ACHIEVED_FLOPS, PREFILL_ACHIEVED_FLOPS, REPORT_ALTERNATIVE_B_TOPK
from ascend_dsa.models.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_cycles_per_block,
    identity_rescale_cycles,
    mma_cycles_per_block,
)
from ascend_dsa.models.memory_plans import l0c_output_bytes, vector_cores_for_accumulator
from ascend_dsa.models.mte2 import tokens_in_flight
from ascend_dsa.models.nd2nz_stride import blocks_per_token, nz_block_bytes
from ascend_dsa.models.online_softmax import ONLINE_SOFTMAX_START
from ascend_dsa.models.rescale_bound import rescale_factor_bound
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK, Verdict, head_roofline_sweep
from ascend_dsa.models.throughput import fraction_of_peak
from ascend_dsa.report.rules import EXACT, Claim, ClaimContext, Computed, Rule, RuleKind, exact_kib
from ascend_dsa.units import TB, TFLOPS

if TYPE_CHECKING:
    from collections.abc import Callable

#: B_TOPK values the 1C1V margin argument chooses among: whole 16-row fractals per VECTOR Core (multiples of
#: 2 x 16), up to the largest the report names.
MARGIN_CANDIDATES: Final = (32, 64, 96, 128)


def _prefill_fraction(d: ClaimContext) -> float:
    return fraction_of_peak(PREFILL_ACHIEVED_FLOPS, d.spec)


def _decode_fraction(d: ClaimContext) -> float:
    return fraction_of_peak(DECODE_ACHIEVED_FLOPS, d.spec)


def _compute_bound_from(d: ClaimContext) -> int:
    """Smallest head count of the report's grid from which every (heads, topk) point is compute-bound (0: none)."""
    points = head_roofline_sweep(d.spec, REPORT_HEADS, REPORT_TOPK, d.model)
    for heads in sorted(REPORT_HEADS):
        if all(p.verdict() is Verdict.COMPUTE_BOUND for p in points if p.heads >= heads):
            return heads
    return 0


def _ratios_at_shipped_heads(d: ClaimContext) -> tuple[float, ...]:
    return tuple(p.ratio for p in head_roofline_sweep(d.spec, (d.config.heads_per_core,), REPORT_TOPK, d.model))


def _roofline_row(index: int) -> Callable[[ClaimContext], Computed]:
    """The ``index``-th point of our sweep over the report's grid, heads first, as the report's loop prints it."""

    def compute(d: ClaimContext) -> Computed:
        point = head_roofline_sweep(d.spec, REPORT_HEADS, REPORT_TOPK, d.model)[index]
        return (point.heads, point.topk, point.cube_cycles, round(point.l2_cycles))

    return compute


def _print_format(_d: ClaimContext) -> tuple[int, ...]:
    """Field widths of heads, topk, CUBE and L2 cycles, and the L2 cycles' decimals, in the printed rows.

    Read off rows 105-111: the first row (line 104) lost its leading blank in Markdown.
    """
    rows = HEAD_ROOFLINE_PUBLISHED_TEXT[1:]
    fields = [[part.split("=")[-1] for part in row.split(",")] for row in rows]
    widths = {tuple(len(f) for f in row) for row in fields}
    decimals = {len(row[-1].partition(".")[2]) for row in fields}
    if len(widths) != 1 or len(decimals) != 1:
        return ()
    return (*widths.pop(), decimals.pop())


def _fixpipe_formula(d: ClaimContext) -> tuple[Fraction, Fraction]:
    """``(constant, per-token)`` cycles of FixPipe per block, read off two block sizes (1024 and 2)."""
    one = fixpipe_cycles_per_block(d.spec, d.config.with_overrides(b_topk=1), d.model)
    two = fixpipe_cycles_per_block(d.spec, d.config.with_overrides(b_topk=2), d.model)
    return (one - (two - one), two - one)


def _margin_b_topk(d: ClaimContext) -> tuple[int, ...]:
    """The candidates for which MMA outlasts FixPipe when all of O leaves L0C every block."""
    fits = []
    for b_topk in MARGIN_CANDIDATES:
        config = d.config.with_overrides(b_topk=b_topk)
        if mma_cycles_per_block(d.spec, config, d.model) > fixpipe_cycles_per_block(d.spec, config, d.model):
            fits.append(b_topk)
    return tuple(fits)


def _roofline_claims() -> tuple[Claim, ...]:
    return tuple(
        Claim(
            f"head-roofline-line-{row.line}",
            "discussion/heads-per-core",
            EXACT,
            f"h_q = {row.heads}、topk = {row.topk} 时每核 CUBE 周期与 L2 周期（L2 周期取整）",
            f"CUBE and L2 cycles per AI Core at h_q = {row.heads}, topk = {row.topk} (L2 cycles rounded)",
            _roofline_row(index),
        )
        for index, row in enumerate(published_head_roofline())
    )


#: The claims of ``index``, ``algorithm/flow`` and ``discussion/*``, in the report's order.
DISCUSSION_CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        "prefill-tflops",
        "index",
        EXACT,
        "prefill 实测 410 TFLOPS（页面用的就是这个数）",
        "prefill reaches 410 TFLOPS (the number the pages use)",
        lambda _d: PREFILL_ACHIEVED_FLOPS / TFLOPS,
        stated=True,
    ),
    Claim(
        "decode-tflops",
        "index",
        EXACT,
        "decode 实测 360 TFLOPS（页面用的就是这个数）",
        "decode reaches 360 TFLOPS (the number the pages use)",
        lambda _d: DECODE_ACHIEVED_FLOPS / TFLOPS,
        stated=True,
    ),
    Claim(
        "prefill-percent-of-peak",
        "index",
        Rule(RuleKind.PERCENT),
        "prefill 的 410 TFLOPS 约为硬件峰值的 95%",
        "prefill's 410 TFLOPS is about 95% of the hardware peak",
        _prefill_fraction,
    ),
    Claim(
        "decode-percent-of-peak",
        "index",
        Rule(RuleKind.PERCENT),
        "decode 的 360 TFLOPS 约为硬件峰值的 83%",
        "decode's 360 TFLOPS is about 83% of the hardware peak",
        _decode_fraction,
    ),
    Claim(
        "b-topk-choices",
        "algorithm/flow",
        EXACT,
        "B_TOPK 一般取 64 或 96：前者是源码的值，后者是页面评估的另一个选择",
        "B_TOPK is usually 64 or 96: the first is the code's value, the second the alternative the pages evaluate",
        lambda d: (d.config.b_topk, REPORT_ALTERNATIVE_B_TOPK),
    ),
    Claim(
        "online-softmax-initial-values",
        "algorithm/flow",
        EXACT,
        "running_max、running_max_for_softmax、running_sumexp 的初值为 -∞、-∞、0",
        "running_max, running_max_for_softmax and running_sumexp start at -∞, -∞ and 0",
        lambda _d: ONLINE_SOFTMAX_START.values(),
    ),
    Claim(
        "rescale-threshold",
        "algorithm/flow",
        EXACT,
        "RESCALE_THRES 取 6（源码常量）",
        "RESCALE_THRES is 6 (the code's constant)",
        lambda d: d.config.rescale_threshold,
        stated=True,
    ),
    Claim(
        "rescale-factor-bound",
        "algorithm/flow",
        Rule(RuleKind.ROUNDED, decimals=2),
        "不触发 rescale 时 exp(running_max - running_max_for_softmax) 至多 exp(6)",
        "without a rescale, exp(running_max - running_max_for_softmax) stays at most exp(6)",
        lambda d: rescale_factor_bound(d.config.rescale_threshold),
    ),
    Claim(
        "cube-fma-per-cycle",
        "discussion/heads-per-core",
        EXACT,
        "CUBE 打满时每个 AI Core 每周期 4096 次乘加",
        "a fully busy CUBE does 4096 FMA per cycle per AI Core",
        lambda d: d.spec.matrix_fma_per_cycle_per_core,
        stated=True,
    ),
    Claim(
        "l2-bandwidth-tb-per-s",
        "discussion/heads-per-core",
        EXACT,
        "L2 总带宽 5 TB/s",
        "L2's total bandwidth is 5 TB/s",
        lambda d: d.spec.bandwidth_bytes_per_s / TB,
        stated=True,
    ),
    Claim(
        "roofline-head-dim",
        "discussion/heads-per-core",
        EXACT,
        "算存比脚本里 head 维度 d 为 512",
        "the ratio script's head dimension d is 512",
        lambda d: d.model.d_qk,
        stated=True,
    ),
    Claim(
        "l2-bandwidth-bytes-per-s",
        "discussion/heads-per-core",
        EXACT,
        "脚本里 L2 总带宽写作 5e12 B/s",
        "the script writes L2's total bandwidth as 5e12 B/s",
        lambda d: d.spec.bandwidth_bytes_per_s,
        stated=True,
    ),
    Claim(
        "ai-cores",
        "discussion/heads-per-core",
        EXACT,
        "L2 带宽由 32 个 AI Core 分享",
        "32 AI Cores share the L2 bandwidth",
        lambda d: d.spec.cores,
        stated=True,
    ),
    Claim(
        "clock-hz",
        "discussion/heads-per-core",
        EXACT,
        "主频 1650 MHz",
        "the clock is 1650 MHz",
        lambda d: d.spec.clock_hz,
        stated=True,
    ),
    Claim(
        "roofline-heads-grid",
        "discussion/heads-per-core",
        EXACT,
        "脚本扫描的 head 数为 16、32、64、128",
        "the script sweeps 16, 32, 64 and 128 heads",
        lambda _d: REPORT_HEADS,
        stated=True,
    ),
    Claim(
        "roofline-topk-grid",
        "discussion/heads-per-core",
        EXACT,
        "脚本扫描的 topk 为 512、1024",
        "the script sweeps topk 512 and 1024",
        lambda _d: REPORT_TOPK,
        stated=True,
    ),
    Claim(
        "roofline-qo-factors",
        "discussion/heads-per-core",
        EXACT,
        "Q 与 O 的流量为 h_q × d × 2 B × 2（bf16，读 Q 写 O）",
        "Q and O traffic is h_q x d x 2 B x 2 (bf16, Q read and O written)",
        lambda d: (d.model.element_bytes, Fraction(d.model.d_qk + d.model.d_v, d.model.d_qk)),
    ),
    Claim(
        "roofline-kv-bytes-per-dim",
        "discussion/heads-per-core",
        EXACT,
        "KV 流量为 topk × d × 2 B（bf16 的 token）",
        "KV traffic is topk x d x 2 B (a bf16 token)",
        lambda d: Fraction(kv_bytes_per_token(KvFormat.BF16), d.model.d_qk),
    ),
    Claim(
        "roofline-print-format",
        "discussion/heads-per-core",
        EXACT,
        "打印格式的列宽 3、4、6、6，L2 周期取 0 位小数，与印出的各行一致",
        "the print format's widths 3, 4, 6, 6 and 0 decimals for L2 cycles match the printed rows",
        _print_format,
    ),
    *_roofline_claims(),
    Claim(
        "compute-bound-from-heads",
        "discussion/heads-per-core",
        EXACT,
        "只有每核 head 数 ≥ 64 时才是算力 bound",
        "only from 64 heads per AI Core up is the kernel compute-bound",
        _compute_bound_from,
    ),
    Claim(
        "balanced-ratio-at-64-heads",
        "discussion/heads-per-core",
        Rule(RuleKind.ROUNDED),
        "64 个 head 时算力与带宽大致均衡（两个 topk 的算存比取整都是 1）",
        "at 64 heads compute and memory are roughly balanced (both topk's ratios round to 1)",
        _ratios_at_shipped_heads,
    ),
    Claim(
        "l0c-o-at-128-heads",
        "discussion/heads-per-core",
        EXACT,
        "128 个 head 的 fp32 O（128 × 512 × 4 B）有 256 KiB",
        "the fp32 O of 128 heads (128 x 512 x 4 B) is 256 KiB",
        lambda d: exact_kib(l0c_output_bytes(max(REPORT_HEADS), d.model)),
    ),
    Claim(
        "l0c-capacity",
        "discussion/heads-per-core",
        EXACT,
        "L0C 的容量为 256 KiB（128 个 head 的 O 正好占满）",
        "L0C holds 256 KiB (the O of 128 heads fills it exactly)",
        lambda d: exact_kib(d.spec.accumulator_bytes_per_core),
        stated=True,
    ),
    Claim(
        "o-shape-at-128-heads",
        "discussion/heads-per-core",
        EXACT,
        "这个 O 是 128 × 512（head 数 × d_v）",
        "that O is 128 x 512 (heads x d_v)",
        lambda d: (max(REPORT_HEADS), d.model.d_v),
    ),
    Claim(
        "mmad-m-saturating-cube",
        "discussion/heads-per-core",
        EXACT,
        "MMAD 的 M 取 64 就能打满 CUBE；源码的 MMA_M 正是 64",
        "an MMAD with M = 64 saturates the CUBE; the code's MMA_M is 64",
        lambda d: d.config.mma_m,
    ),
    Claim(
        "accumulator-vector-cores-at-128-heads",
        "discussion/accumulator",
        EXACT,
        "128 个 head 时累加器只能放在 VECTOR 一侧，一个 VECTOR Core 的 UB 放不下，必须两个分担",
        "at 128 heads the accumulator must live on the VECTOR side, and one VECTOR Core's UB cannot hold it: "
        "it takes both",
        lambda d: vector_cores_for_accumulator(d.spec, max(REPORT_HEADS), d.model),
    ),
    Claim(
        "identity-rescale-shape",
        "discussion/accumulator",
        EXACT,
        "把 64 × 512 的 O 经单位矩阵搬回 L0C 是 64 × 64 × 512 的矩阵乘",
        "moving the 64 x 512 O back into L0C by an identity is a 64 x 64 x 512 matmul",
        lambda d: (d.config.mma_m, d.config.mma_m, d.model.d_v),
    ),
    Claim(
        "identity-rescale-cycles",
        "discussion/accumulator",
        EXACT,
        "关闭 HF32 时，经单位矩阵把 O 搬回 L0C 的 64×64×512 矩阵乘需 8192 周期",
        "with HF32 off, the 64x64x512 identity matmul that moves O back into L0C takes 8192 cycles",
        lambda d: identity_rescale_cycles(d.spec, d.config.mma_m, d.config.mma_m, d.model.d_v),
    ),
    Claim(
        "hf32-off-fma-per-cycle",
        "discussion/accumulator",
        EXACT,
        "关闭 HF32 时 CUBE 每周期 256 次乘加",
        "with HF32 off the CUBE does 256 FMA per cycle",
        lambda d: d.spec.ascend.cube_fma_per_cycle_exact_fp32,
        stated=True,
    ),
    Claim(
        "vector-cores-per-ai-core",
        "discussion/one-vector-core",
        EXACT,
        "每个 AI Core 有两个 VECTOR Core",
        "each AI Core has two VECTOR Cores",
        lambda d: d.spec.ascend.vector_cores_per_ai_core,
        stated=True,
    ),
    Claim(
        "mte2-outstanding-requests",
        "discussion/one-vector-core",
        EXACT,
        "每个 VECTOR Core 同时最多 16 个未完成的 MTE2 请求",
        "a VECTOR Core can have at most 16 MTE2 requests outstanding",
        lambda d: d.spec.ascend.mte2_outstanding_requests,
        stated=True,
    ),
    Claim(
        "mte2-tokens-in-flight",
        "discussion/one-vector-core",
        EXACT,
        "用上 gather2 也只能同时在途 32 个 token",
        "even with gather2 only 32 tokens can be in flight",
        lambda d: tokens_in_flight(d.spec),
    ),
    Claim(
        "fixpipe-bytes-per-cycle-1c1v",
        "discussion/one-vector-core",
        EXACT,
        "1C1V 时 FixPipe 每周期搬 128 字节",
        "under 1C1V FixPipe moves 128 bytes per cycle",
        lambda d: d.spec.ascend.fixpipe_bytes_per_cycle_1c1v,
        stated=True,
    ),
    Claim(
        "mma-cycles-per-token",
        "discussion/one-vector-core",
        EXACT,
        "每块 MMA 周期为 16 × B_TOPK",
        "MMA cycles per block are 16 x B_TOPK",
        lambda d: mma_cycles_per_block(d.spec, d.config, d.model) / d.config.b_topk,
    ),
    Claim(
        "fixpipe-cycles-formula",
        "discussion/one-vector-core",
        EXACT,
        "O 与 P 每块都搬出 L0C 时，FixPipe 每块 1024 + 2 × B_TOPK 周期",
        "with O and P leaving L0C every block, FixPipe takes 1024 + 2 x B_TOPK cycles per block",
        _fixpipe_formula,
    ),
    Claim(
        "mma-m-heads",
        "discussion/one-vector-core",
        EXACT,
        "MMA_M 即每个 AI Core 的 q head 数，为 64",
        "MMA_M, the q heads per AI Core, is 64",
        lambda d: d.config.mma_m,
    ),
    Claim(
        "fixpipe-break-even-b-topk",
        "discussion/one-vector-core",
        Rule(RuleKind.ROUNDED, decimals=2),
        "FixPipe 不成为瓶颈需要 B_TOPK > 73.14",
        "FixPipe stops being the bottleneck only for B_TOPK > 73.14",
        lambda d: fixpipe_break_even_b_topk(d.spec, d.config, d.model),
    ),
    Claim(
        "fixpipe-margin-b-topk",
        "discussion/one-vector-core",
        EXACT,
        "留出余量，1C1V 下 B_TOPK 要取 96 或 128",
        "with margin, 1C1V needs B_TOPK of 96 or 128",
        _margin_b_topk,
    ),
    Claim(
        "design-vector-cores-per-cube",
        "discussion/one-vector-core",
        EXACT,
        "结论：每个 CUBE Core 配两个 VECTOR Core",
        "the conclusion: two VECTOR Cores per CUBE Core",
        lambda d: d.config.vector_cores_per_cube,
    ),
    Claim(
        "nd-kv-strides",
        "discussion/nd2nz-when",
        EXACT,
        "显存里的 KV 按 ND 存放，stride 为 [d_qk, 1]（以元素计）",
        "KV is stored ND in device memory with strides [d_qk, 1] (in elements)",
        lambda d: (
            Fraction(kv_bytes_per_token(KvFormat.BF16), d.model.element_bytes),
            Fraction(d.model.element_bytes, d.model.element_bytes),
        ),
    ),
    Claim(
        "token-as-blocks",
        "discussion/nd2nz-when",
        EXACT,
        "一个 token 是 512 个 bf16，即 32 个 32 B 的数据块",
        "one token is 512 bf16 values, i.e. 32 blocks of 32 B",
        lambda d: (d.model.d_qk, blocks_per_token(d.config, d.model), nz_block_bytes(d.config, d.model)),
    ),
)
