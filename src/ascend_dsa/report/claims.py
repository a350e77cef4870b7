"""The claims ledger: every quantitative statement of the report, what we compute for it, and whether they agree.

Each [`Claim`][] names one published figure (``report_figures.PUBLISHED_FIGURES`` or a head-roofline row), says
in our words what the report claims, computes our value from the package's models, and states the rule by which
the two are compared (exact, rounded to N decimals, a whole percent, a relative tolerance, membership, an upper
bound). [`check_claims`][] raises [`FigureMismatch`][] naming each failing claim, its report line, ours and
theirs; renderers call it before drawing anything, so a mismatch fails the strict site build.

"Stated" claims are constants the package adopts from the report (the icache sizes, say): the check then guards
that the constant we compute with is the one the report prints.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Final, TypeAlias

from ascend_dsa.errors import FigureMismatch, Mismatch
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec
from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST, SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.kv_formats import FP8_V41
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.report_figures import (
    FigureValue,
    PublishedFigure,
    published_figure,
    published_head_roofline,
    published_number,
)
from ascend_dsa.models.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_cycles_per_block,
    identity_rescale_cycles,
    mma_cycles_per_block,
)
from ascend_dsa.models.l1_banks import l1_bank_ranges
from ascend_dsa.models.memory_plans import l0c_output_bytes, l0c_used_bytes, vector_cores_for_accumulator
from ascend_dsa.models.mte2 import (
    MIN_PAGE_BLOCK_TOKENS,
    copies_for_ranges,
    token_byte_ranges,
    tokens_in_flight,
)
from ascend_dsa.models.nd2nz_stride import (
    UB_BANK_GROUPS,
    UB_VECTOR_BYTES,
    blocks_per_token,
    min_conflict_free_padding,
    nz_block_bytes,
)
from ascend_dsa.models.rescale_bound import rescale_factor_bound
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK, Verdict, head_roofline, head_roofline_sweep
from ascend_dsa.models.schedule import VECTOR_STAGES, softmax_slack_cycles
from ascend_dsa.models.throughput import fraction_of_peak
from ascend_dsa.units import TFLOPS, KiB
from ascend_dsa.validate import LARGEST_EXACT_WHOLE, require_instance

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

#: What a claim's computation may return: exact fractions are turned into ints or floats by [`normalise`][].
Computed: TypeAlias = Fraction | int | float | tuple["Computed", ...]

#: B_TOPK values the 1C1V margin argument chooses among: whole 16-row fractals per VECTOR Core (multiples of
#: 2 x 16), up to the largest the report names.
MARGIN_CANDIDATES: Final = (32, 64, 96, 128)

#: The report's chapters (site pages without ``.md``), in the report's order.
CHAPTERS: Final = (
    "index",
    "algorithm/flow",
    "discussion/heads-per-core",
    "discussion/accumulator",
    "discussion/one-vector-core",
    "discussion/nd2nz-when",
    "pipeline",
    "optimizations/gather2",
    "optimizations/kv-cache-layout",
    "optimizations/fast-nd2nz",
    "optimizations/icache",
    "optimizations/l1-banks",
)


class RuleKind(StrEnum):
    """How our value is compared with the report's."""

    EXACT = "exact"
    ROUNDED = "rounded"
    PERCENT = "percent"
    RELATIVE = "relative"
    MEMBER = "member"
    AT_MOST = "at-most"


@dataclass(frozen=True)
class Rule:
    """A comparison rule; ``decimals`` for rounding rules, ``tolerance`` (a fraction) for relative ones."""

    kind: RuleKind
    decimals: int = 0
    tolerance: float = 0.0

    def __post_init__(self) -> None:
        """Reject negative decimals or tolerance."""
        if self.decimals < 0:
            raise ValueError(f"decimals must be non-negative, got {self.decimals!r}")
        if not math.isfinite(self.tolerance) or self.tolerance < 0:
            raise ValueError(f"tolerance must be a non-negative fraction, got {self.tolerance!r}")

    @property
    def summary(self) -> str:
        """The rule in a few English words, for messages."""
        summaries = {
            RuleKind.EXACT: "exact",
            RuleKind.ROUNDED: f"ours rounded to {self.decimals} decimals",
            RuleKind.PERCENT: f"ours as a percent rounded to {self.decimals} decimals",
            RuleKind.RELATIVE: f"within {self.tolerance:.0%} of the report's value",
            RuleKind.MEMBER: "ours is one of the report's values",
            RuleKind.AT_MOST: "ours at most the report's value",
        }
        return summaries[self.kind]

    def holds(self, ours: FigureValue, theirs: FigureValue) -> bool:
        """Whether ``ours`` agrees with ``theirs`` under this rule."""
        if self.kind is RuleKind.EXACT:
            return ours == theirs
        if self.kind is RuleKind.MEMBER:
            return isinstance(theirs, tuple) and ours in theirs
        pairs = _leaf_pairs(ours, theirs)
        return pairs is not None and all(self._pair_holds(o, t) for o, t in pairs)

    def _pair_holds(self, ours: float, theirs: float) -> bool:
        """One number of ours against one of theirs, for the numeric rules."""
        if self.kind is RuleKind.ROUNDED:
            return round(ours, self.decimals) == theirs
        if self.kind is RuleKind.PERCENT:
            return round(100 * ours, self.decimals) == theirs
        if self.kind is RuleKind.RELATIVE:
            return theirs != 0 and abs(ours / theirs - 1) <= self.tolerance
        return ours <= theirs


EXACT: Final = Rule(RuleKind.EXACT)


def _leaves(value: FigureValue) -> list[float]:
    if isinstance(value, tuple):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _leaf_pairs(ours: FigureValue, theirs: FigureValue) -> list[tuple[float, float]] | None:
    """Pair the numbers of ours and theirs; a single number of theirs applies to every number of ours."""
    mine, published = _leaves(ours), _leaves(theirs)
    if len(published) == 1:
        published = published * len(mine)
    if len(mine) != len(published):
        return None
    return list(zip(mine, published, strict=True))


def normalise(value: Computed) -> FigureValue:
    """Fractions become ints when whole, floats otherwise; tuples are normalised item by item."""
    if isinstance(value, tuple):
        return tuple(normalise(v) for v in value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def plain(value: FigureValue) -> str:
    """A figure in plain text for messages: whole numbers as such, others to 6 significant digits."""
    if isinstance(value, tuple):
        return "(" + ", ".join(plain(v) for v in value) + ")"
    if isinstance(value, float) and (not value.is_integer() or abs(value) >= LARGEST_EXACT_WHOLE):
        return f"{value:.6g}"
    return str(int(value)) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class ClaimContext:
    """The hardware, kernel configuration and model every claim is computed for."""

    spec: AscendSpec = ASCEND_950
    config: KernelConfig = SHIPPED_KERNEL
    model: ModelShape = DSA_V41

    def __post_init__(self) -> None:
        """Reject a spec, configuration or model of the wrong class (a TypeError naming it)."""
        require_instance("spec", self.spec, AscendSpec)
        require_instance("config", self.config, KernelConfig)
        require_instance("model", self.model, ModelShape)


SHIPPED_CONTEXT: Final = ClaimContext()


@dataclass(frozen=True)
class Claim:
    """One statement of the report: the figure it publishes, our value for it, and the comparison rule.

    ``claim_id`` is also the key of the published figure compared; ``inputs`` names published figures that our
    computation takes as given (the 410 TFLOPS whose fraction of peak we compute).
    """

    claim_id: str
    chapter: str
    rule: Rule
    zh: str
    en: str
    compute: Callable[[ClaimContext], Computed] = field(repr=False, compare=False)
    inputs: tuple[str, ...] = ()
    stated: bool = False

    def __post_init__(self) -> None:
        """Reject an unknown chapter, or a figure or input that the report does not publish."""
        if self.chapter not in CHAPTERS:
            raise ValueError(f"chapter must be one of {', '.join(CHAPTERS)}, got {self.chapter!r}")
        for key in (self.claim_id, *self.inputs):
            published_figure(key)

    @property
    def figure(self) -> PublishedFigure:
        """The published figure this claim is compared with."""
        return published_figure(self.claim_id)

    def ours(self, design: ClaimContext = SHIPPED_CONTEXT) -> FigureValue:
        """Our value, computed for ``design``."""
        return normalise(self.compute(design))


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


def _copies_per_token(_d: ClaimContext) -> tuple[int, int]:
    """MTE2 copies per token of the decode main cache (FP8, config.h:76), ``(data and scales apart, adjacent)``.

    Each is the worst token of the smallest page block the kernel accepts.
    """
    fmt = FP8_V41
    block = MIN_PAGE_BLOCK_TOKENS

    def worst(*, adjacent: bool) -> int:
        return max(copies_for_ranges(token_byte_ranges(fmt, t, block, adjacent=adjacent)) for t in range(block))

    return (worst(adjacent=False), worst(adjacent=True))


def _offset(step: int) -> Callable[[ClaimContext], Computed]:
    stage = next(s for s in VECTOR_STAGES if s.report_step == step)
    return lambda _d: stage.offset


def _kib(value: int) -> Fraction:
    return Fraction(value, KiB)


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


CLAIMS: Final[tuple[Claim, ...]] = (
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
        lambda d: _kib(l0c_output_bytes(max(REPORT_HEADS), d.model)),
    ),
    Claim(
        "l0c-capacity",
        "discussion/heads-per-core",
        Rule(RuleKind.AT_MOST),
        "64 个 head 时源码放进 L0C 的 O 与 P 装得下（不超过 256 KiB）",
        "at 64 heads the O and P the code keeps in L0C fit (at most 256 KiB)",
        lambda d: _kib(l0c_used_bytes(d.config, d.model)),
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
    Claim(
        "design-heads-and-vector-cores",
        "pipeline",
        EXACT,
        "定稿：每个 AI Core 64 个 head，1C2V",
        "the design: 64 heads per AI Core, 1C2V",
        lambda d: (d.config.heads_per_core, d.config.vector_cores_per_cube),
    ),
    Claim(
        "softmax-slack-cycles",
        "pipeline",
        EXACT,
        "P[i] 就绪到被使用之间约 1024 周期（SV[i-1] 与 QK[i+1]）",
        "about 1024 cycles pass between P[i] ready and used (SV[i-1] and QK[i+1])",
        lambda d: softmax_slack_cycles(d.spec, d.config, d.model),
    ),
    Claim(
        "vector-step-1-offset",
        "pipeline",
        EXACT,
        "VECTOR 第 1 步：读第 i+5 块的 index",
        "VECTOR step 1: read the indices of block i+5",
        _offset(1),
    ),
    Claim(
        "vector-step-2-offset",
        "pipeline",
        EXACT,
        "VECTOR 第 2 步：第 i+3 块的 ND2NZ 与 UB→L1 拷贝",
        "VECTOR step 2: ND2NZ and UB->L1 copy of block i+3",
        _offset(2),
    ),
    Claim(
        "vector-step-3-offset",
        "pipeline",
        EXACT,
        "VECTOR 第 3 步：第 i+1 块的 softmax",
        "VECTOR step 3: softmax of block i+1",
        _offset(3),
    ),
    Claim(
        "vector-step-4-offset",
        "pipeline",
        EXACT,
        "VECTOR 第 4 步：第 i+5 块的 index 预处理",
        "VECTOR step 4: preprocess the indices of block i+5",
        _offset(4),
    ),
    Claim(
        "vector-step-5-offset",
        "pipeline",
        EXACT,
        "VECTOR 第 5 步：第 i 块的 O scale",
        "VECTOR step 5: scale O for block i",
        _offset(5),
    ),
    Claim(
        "vector-step-6-offset",
        "pipeline",
        EXACT,
        "VECTOR 第 6 步：把第 i+1 块是否 skip-scale 写入 SS buffer",
        "VECTOR step 6: write block i+1's skip-scale flag to the SS buffer",
        _offset(6),
    ),
    Claim(
        "vector-step-7-offset",
        "pipeline",
        EXACT,
        "VECTOR 第 7 步：发起第 i+5 块的 MTE2 拷贝",
        "VECTOR step 7: issue the MTE2 gather of block i+5",
        _offset(7),
    ),
    Claim(
        "mte2-queue-depth",
        "optimizations/gather2",
        EXACT,
        "MTE2 Issue Queue 深度为 16",
        "the MTE2 issue queue is 16 deep",
        lambda d: d.spec.mte2_outstanding_requests,
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
        lambda d: _kib(d.spec.icache_cube_bytes),
        stated=True,
    ),
    Claim(
        "icache-vector",
        "optimizations/icache",
        EXACT,
        "VECTOR Core 的 icache 为 16K",
        "the VECTOR Core's icache is 16K",
        lambda d: _kib(d.spec.icache_vector_bytes),
        stated=True,
    ),
    Claim(
        "icache-simd-vf",
        "optimizations/icache",
        EXACT,
        "SIMD VF 的 icache 为 8K",
        "the SIMD VF's icache is 8K",
        lambda d: _kib(d.spec.icache_simd_vf_bytes),
        stated=True,
    ),
    Claim(
        "l1-bank-ranges",
        "optimizations/l1-banks",
        EXACT,
        "L1 两个 bank 分别管 0-256K 与 256K-512K",
        "L1's two banks own 0-256K and 256K-512K",
        lambda d: tuple((_kib(a), _kib(b)) for a, b in l1_bank_ranges(d.spec)),
    ),
)


def claim(claim_id: str) -> Claim:
    """The claim named ``claim_id``."""
    for c in CLAIMS:
        if c.claim_id == claim_id:
            return c
    raise ValueError(f"claim_id must name a ledger claim, got {claim_id!r}")


@dataclass(frozen=True)
class ClaimResult:
    """A claim evaluated: our value and whether it agrees with the report's under the claim's rule."""

    claim: Claim
    ours: FigureValue
    passed: bool

    def ours_text(self) -> str:
        """Our value as the messages print it (a percentage for a percentage rule)."""
        if self.claim.rule.kind is RuleKind.PERCENT and not isinstance(self.ours, tuple):
            return f"{100 * self.ours:.2f}%"
        return plain(self.ours)

    def theirs_text(self) -> str:
        """The report's value as the messages print it, with how the report writes it when that differs."""
        figure = self.claim.figure
        written = f" (written {figure.written!r})" if figure.written else ""
        return f"{plain(figure.value)}{written}"

    def describe(self) -> str:
        """One line naming the claim, its report line, ours, theirs and the rule."""
        return (
            f"claim {self.claim.claim_id} ({self.claim.figure.citation.short}): ours {self.ours_text()}, "
            f"report {self.theirs_text()}; rule: {self.claim.rule.summary}"
        )

    def mismatch(self) -> Mismatch:
        """The claim as a [`Mismatch`][]: the fields `describe` joins into one line."""
        return Mismatch(
            subject=f"claim {self.claim.claim_id}",
            citation=self.claim.figure.citation.short,
            ours=self.ours_text(),
            theirs=self.theirs_text(),
            rule=self.claim.rule.summary,
        )


def select_claims(chapter: str | None = None, ids: Iterable[str] | None = None) -> tuple[Claim, ...]:
    """The claims of one chapter, or the named ones, or all of them."""
    if chapter is not None and chapter not in CHAPTERS:
        raise ValueError(f"chapter must be one of {', '.join(CHAPTERS)}, got {chapter!r}")
    chosen = CLAIMS if ids is None else tuple(claim(i) for i in ids)
    return tuple(c for c in chosen if chapter is None or c.chapter == chapter)


def evaluate_claims(
    design: ClaimContext = SHIPPED_CONTEXT, *, chapter: str | None = None, ids: Iterable[str] | None = None
) -> tuple[ClaimResult, ...]:
    """Every selected claim with our value and its status."""
    design = require_instance("design", design, ClaimContext)
    results = []
    for c in select_claims(chapter, ids):
        ours = c.ours(design)
        results.append(ClaimResult(c, ours, c.rule.holds(ours, c.figure.value)))
    return tuple(results)


def check_claims(
    design: ClaimContext = SHIPPED_CONTEXT, *, chapter: str | None = None, ids: Iterable[str] | None = None
) -> tuple[ClaimResult, ...]:
    """Evaluate the selected claims; raise [`FigureMismatch`][] naming every one that fails."""
    results = evaluate_claims(design, chapter=chapter, ids=ids)
    failing = [r for r in results if not r.passed]
    if failing:
        raise FigureMismatch(
            f"{len(failing)} claim(s) differ from the report: " + "; ".join(r.describe() for r in failing),
            [r.mismatch() for r in failing],
        )
    return results
