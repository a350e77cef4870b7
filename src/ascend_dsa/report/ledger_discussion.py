"""The ledger's claims for the report's opening and its discussion.

The chapters: peak share, the algorithm, heads per core, the accumulator, one VECTOR Core or two, and when ND2NZ
is needed. Each entry is a [`Claim`][]; ``claims.CLAIMS`` joins these with ``ledger_design``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.report_figures import published_head_roofline, published_number
from ascend_dsa.models.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_cycles_per_block,
    identity_rescale_cycles,
    mma_cycles_per_block,
)
from ascend_dsa.models.memory_plans import l0c_output_bytes, l0c_used_bytes, vector_cores_for_accumulator
from ascend_dsa.models.mte2 import tokens_in_flight
from ascend_dsa.models.nd2nz_stride import blocks_per_token, nz_block_bytes
from ascend_dsa.models.rescale_bound import rescale_factor_bound
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK, Verdict, head_roofline, head_roofline_sweep
from ascend_dsa.models.throughput import fraction_of_peak
from ascend_dsa.report.rules import EXACT, Claim, ClaimContext, Computed, Rule, RuleKind, exact_kib
from ascend_dsa.units import TFLOPS

if TYPE_CHECKING:
    from collections.abc import Callable
    from fractions import Fraction

#: B_TOPK values the 1C1V margin argument chooses among: whole 16-row fractals per VECTOR Core (multiples of
#: 2 x 16), up to the largest the report names.
MARGIN_CANDIDATES: Final = (32, 64, 96, 128)


def _prefill_fraction(d: ClaimContext) -> float:
    return fraction_of_peak(published_number("prefill-tflops") * TFLOPS, d.spec)


def _decode_fraction(d: ClaimContext) -> float:
    return fraction_of_peak(published_number("decode-tflops") * TFLOPS, d.spec)


def _compute_bound_from(d: ClaimContext) -> int:
    """Smallest head count of the report's grid from which every (heads, topk) point is compute-bound (0: none)."""
    points = head_roofline_sweep(d.spec, REPORT_HEADS, REPORT_TOPK, d.model)
    for heads in sorted(REPORT_HEADS):
        if all(p.verdict() is Verdict.COMPUTE_BOUND for p in points if p.heads >= heads):
            return heads
    return 0


def _ratios_at_shipped_heads(d: ClaimContext) -> tuple[float, ...]:
    return tuple(p.ratio for p in head_roofline_sweep(d.spec, (d.config.heads_per_core,), REPORT_TOPK, d.model))


def _roofline_row(line: int) -> Callable[[ClaimContext], Computed]:
    row = next(r for r in published_head_roofline() if r.line == line)

    def compute(d: ClaimContext) -> Computed:
        point = head_roofline(d.spec, row.heads, row.topk, d.model)
        return (point.cube_cycles, round(point.l2_cycles))

    return compute


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
            _roofline_row(row.line or 0),
        )
        for row in published_head_roofline()
    )


#: The claims of ``index``, ``algorithm/flow`` and ``discussion/*``, in the report's order.
DISCUSSION_CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        "prefill-percent-of-peak",
        "index",
        Rule(RuleKind.PERCENT),
        "prefill 的 410 TFLOPS 约为硬件峰值的 95%",
        "prefill's 410 TFLOPS is about 95% of the hardware peak",
        _prefill_fraction,
        inputs=("prefill-tflops",),
    ),
    Claim(
        "decode-percent-of-peak",
        "index",
        Rule(RuleKind.PERCENT),
        "decode 的 360 TFLOPS 约为硬件峰值的 83%",
        "decode's 360 TFLOPS is about 83% of the hardware peak",
        _decode_fraction,
        inputs=("decode-tflops",),
    ),
    Claim(
        "b-topk-choices",
        "algorithm/flow",
        Rule(RuleKind.MEMBER),
        "B_TOPK 一般取 64 或 96；源码取的值在其中",
        "B_TOPK is usually 64 or 96; the code's value is one of them",
        lambda d: d.config.b_topk,
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
        Rule(RuleKind.RELATIVE, tolerance=0.5),
        "64 个 head 时算力与带宽大致均衡（算存比接近 1；我们按 ±50% 理解“大致”）",
        "at 64 heads compute and memory are roughly balanced (ratio near 1; we read 'roughly' as within 50%)",
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
        Rule(RuleKind.AT_MOST),
        "64 个 head 时源码放进 L0C 的 O 与 P 装得下（不超过 256 KiB）",
        "at 64 heads the O and P the code keeps in L0C fit (at most 256 KiB)",
        lambda d: exact_kib(l0c_used_bytes(d.config, d.model)),
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
        lambda d: d.spec.cube_fma_per_cycle_exact_fp32,
        stated=True,
    ),
    Claim(
        "vector-cores-per-ai-core",
        "discussion/one-vector-core",
        EXACT,
        "每个 AI Core 有两个 VECTOR Core",
        "each AI Core has two VECTOR Cores",
        lambda d: d.spec.vector_cores_per_ai_core,
        stated=True,
    ),
    Claim(
        "mte2-outstanding-requests",
        "discussion/one-vector-core",
        EXACT,
        "每个 VECTOR Core 同时最多 16 个未完成的 MTE2 请求",
        "a VECTOR Core can have at most 16 MTE2 requests outstanding",
        lambda d: d.spec.mte2_outstanding_requests,
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
        lambda d: d.spec.fixpipe_bytes_per_cycle_1c1v,
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
        "token-as-blocks",
        "discussion/nd2nz-when",
        EXACT,
        "一个 token 是 512 个 bf16，即 32 个 32 B 的数据块",
        "one token is 512 bf16 values, i.e. 32 blocks of 32 B",
        lambda d: (d.model.d_qk, blocks_per_token(d.config, d.model), nz_block_bytes(d.config, d.model)),
    ),
)
