"""The ledger's claims for the report's pipeline and its optimizations.

The chapters: the design chosen, the VECTOR schedule, gather2, the KV cache layout, fast ND2NZ, icache sizes and L1
banks. Each entry is a [`Claim`][]; ``claims.CLAIMS`` joins these after ``ledger_discussion``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST
from ascend_dsa.facts.kv_formats import FP8_V41, Mode, default_main_cache
from ascend_dsa.facts.report_inputs import DECODE_ACHIEVED_FLOPS, PREFILL_ACHIEVED_FLOPS
from ascend_dsa.models.l1_banks import l1_bank_ranges
from ascend_dsa.models.mte2 import MIN_PAGE_BLOCK_TOKENS, copies_for_ranges, token_byte_ranges
from ascend_dsa.models.nd2nz_stride import UB_BANK_GROUPS, UB_VECTOR_BYTES, min_conflict_free_padding
from ascend_dsa.models.schedule import VECTOR_STAGES, softmax_slack_cycles, steps_between_scores_and_use
from ascend_dsa.models.throughput import pipeline_bound_flops, share_of_pipeline_bound
from ascend_dsa.report.rules import EXACT, Claim, ClaimContext, Computed, Rule, RuleKind, exact_kib
from ascend_dsa.report.scenarios import SIMULATED_BLOCKS

if TYPE_CHECKING:
    from collections.abc import Callable

#: The report's seven VECTOR steps (pipeline chapter): the step, then what it does on which block, in Chinese and
#: in English; each claim compares the block offset with the one ``models.schedule.VECTOR_STAGES`` gives.
_VECTOR_STEPS: Final = (
    (1, "读第 i+5 块的 index", "read the indices of block i+5"),
    (2, "第 i+3 块的 ND2NZ 与 UB→L1 拷贝", "ND2NZ and UB->L1 copy of block i+3"),
    (3, "第 i+1 块的 softmax", "softmax of block i+1"),
    (4, "第 i+5 块的 index 预处理", "preprocess the indices of block i+5"),
    (5, "第 i 块的 O scale", "scale O for block i"),
    (6, "把第 i+1 块是否 skip-scale 写入 SS buffer", "write block i+1's skip-scale flag to the SS buffer"),
    (7, "发起第 i+5 块的 MTE2 拷贝", "issue the MTE2 gather of block i+5"),
)


def _copies_per_token(_d: ClaimContext) -> tuple[int, int]:
    """MTE2 copies per token of the decode main cache (FP8, config.h:76), ``(data and scales apart, adjacent)``.

    Each is the worst token of the smallest page block the kernel accepts.
    """
    fmt = FP8_V41
    block = MIN_PAGE_BLOCK_TOKENS

    def worst(*, adjacent: bool) -> int:
        return max(copies_for_ranges(token_byte_ranges(fmt, t, block, adjacent=adjacent)) for t in range(block))

    return (worst(adjacent=False), worst(adjacent=True))


def _share_of_pipeline_bound(achieved_flops: float, mode: Mode) -> Callable[[ClaimContext], Computed]:
    """The measured FLOP/s of ``mode`` over the pipeline model's bound for that mode's KV format (a ratio)."""

    def compute(d: ClaimContext) -> Computed:
        bound = pipeline_bound_flops(d.spec, d.config, d.model, default_main_cache(mode), SIMULATED_BLOCKS)
        return share_of_pipeline_bound(achieved_flops, bound)

    return compute


def _offset(step: int) -> Callable[[ClaimContext], Computed]:
    stage = next(s for s in VECTOR_STAGES if s.report_step == step)
    return lambda _d: stage.offset


def _vector_step_claims() -> tuple[Claim, ...]:
    return tuple(
        Claim(
            f"vector-step-{step}-offset",
            "pipeline",
            EXACT,
            f"VECTOR 第 {step} 步：{zh}",
            f"VECTOR step {step}: {en}",
            _offset(step),
        )
        for step, zh, en in _VECTOR_STEPS
    )


#: The claims of ``pipeline`` and ``optimizations/*``, in the report's order.
DESIGN_CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        "design-heads-and-vector-cores",
        "pipeline",
        EXACT,
        "定稿：每个 AI Core 64 个 head，1C2V",
        "the design: 64 heads per AI Core, 1C2V",
        lambda d: (d.config.heads_per_core, d.config.vector_cores_per_cube),
    ),
    Claim(
        "cube-step-offsets",
        "pipeline",
        EXACT,
        "QK[i] 与 SV[i] 之间，CUBE 先做前一块的 SV（i-1），再做后一块的 QK（i+1）",
        "between QK[i] and SV[i] the CUBE runs SV of the block before (i-1), then QK of the block after (i+1)",
        lambda _d: tuple(step.offset for step in steps_between_scores_and_use()),
    ),
    Claim(
        "softmax-slack-cycles",
        "pipeline",
        EXACT,
        "P[i] 就绪到被使用之间约 1024 周期（SV[i-1] 与 QK[i+1]）",
        "about 1024 cycles pass between P[i] ready and used (SV[i-1] and QK[i+1])",
        lambda d: softmax_slack_cycles(d.spec, d.config, d.model),
    ),
    *_vector_step_claims(),
    Claim(
        "prefill-share-of-pipeline-bound",
        "pipeline",
        Rule(RuleKind.PERCENT),
        "prefill 实测的 410 TFLOPS 占流水线模型上限（峰值 × 模型稳态中 CUBE 的利用率）的比例，即报告说的占峰值 95%",
        "prefill's measured 410 TFLOPS over the pipeline model's bound (peak x the CUBE's steady-state use in the "
        "model): the report's 95% of peak",
        _share_of_pipeline_bound(PREFILL_ACHIEVED_FLOPS, Mode.PREFILL),
        compares="prefill-percent-of-peak",
    ),
    Claim(
        "decode-share-of-pipeline-bound",
        "pipeline",
        Rule(RuleKind.PERCENT),
        "decode 实测的 360 TFLOPS 占流水线模型上限（FP8 KV，峰值 × 模型稳态中 CUBE 的利用率）的比例，"
        "即报告说的占峰值 83%",
        "decode's measured 360 TFLOPS over the pipeline model's bound (FP8 KV, peak x the CUBE's steady-state use in "
        "the model): the report's 83% of peak",
        _share_of_pipeline_bound(DECODE_ACHIEVED_FLOPS, Mode.DECODE),
        compares="decode-percent-of-peak",
    ),
    Claim(
        "mte2-queue-depth",
        "optimizations/gather2",
        EXACT,
        "MTE2 Issue Queue 深度为 16",
        "the MTE2 issue queue is 16 deep",
        lambda d: d.spec.ascend.mte2_outstanding_requests,
        stated=True,
    ),
    Claim(
        "gather2-burst-count",
        "optimizations/gather2",
        EXACT,
        "burst_count = 2：一个 MTE2 请求搬两个 token",
        "burst_count = 2: one MTE2 request copies two tokens",
        lambda _d: GATHER2_TOKENS_PER_REQUEST,
        stated=True,
    ),
    Claim(
        "mte2-copies-per-token",
        "optimizations/kv-cache-layout",
        EXACT,
        "旧布局（数据与 scale 分开放）每个 token 要两次 MTE2 拷贝，相邻放置后只要一次",
        "with data and scales apart (the old layout) a token takes two MTE2 copies; adjacent, one",
        _copies_per_token,
    ),
    Claim(
        "nz-padding-rows",
        "optimizations/fast-nd2nz",
        EXACT,
        "NZ buffer 多 pad 一行即可消除 UB bank conflict",
        "one padded row in the NZ buffer removes UB bank conflicts",
        lambda d: min_conflict_free_padding(d.config, d.model),
    ),
    Claim(
        "nd2nz-vector-pair",
        "optimizations/fast-nd2nz",
        EXACT,
        "一次处理一对相邻的 256 B 向量，以用满 UB 所有 bank",
        "a pair of adjacent 256 B vectors at a time, to use every UB bank",
        lambda _d: (UB_BANK_GROUPS, UB_VECTOR_BYTES),
    ),
    Claim(
        "icache-cube",
        "optimizations/icache",
        EXACT,
        "CUBE Core 的 icache 为 32K",
        "the CUBE Core's icache is 32K",
        lambda d: exact_kib(d.spec.ascend.icache_cube_bytes),
        stated=True,
    ),
    Claim(
        "icache-vector",
        "optimizations/icache",
        EXACT,
        "VECTOR Core 的 icache 为 16K",
        "the VECTOR Core's icache is 16K",
        lambda d: exact_kib(d.spec.ascend.icache_vector_bytes),
        stated=True,
    ),
    Claim(
        "icache-simd-vf",
        "optimizations/icache",
        EXACT,
        "SIMD VF 的 icache 为 8K",
        "the SIMD VF's icache is 8K",
        lambda d: exact_kib(d.spec.ascend.icache_simd_vf_bytes),
        stated=True,
    ),
    Claim(
        "l1-banks",
        "optimizations/l1-banks",
        EXACT,
        "L1 分为两个 bank，每个张量切成两份",
        "L1 has two banks, and every tensor is cut in two",
        lambda d: d.spec.ascend.l1_banks,
        stated=True,
    ),
    Claim(
        "l1-bank-ranges",
        "optimizations/l1-banks",
        EXACT,
        "L1 两个 bank 分别管 0-256K 与 256K-512K",
        "L1's two banks own 0-256K and 256K-512K",
        lambda d: tuple((exact_kib(a), exact_kib(b)) for a, b in l1_bank_ranges(d.spec)),
    ),
)
