"""How often skip-scale's rescale fires, and how many copies of O out of L0C that saves.

Report (zh) lines 57-69 and 244-252. Without skip-scale, online softmax rescales the output every block, so all
of O leaves L0C every block (FixPipe, report (zh) line 142). With it, each VECTOR Core rescales its own heads only
when one of them rose by more than the threshold above the max its softmax uses, and O leaves L0C at every block
where either core rescales, plus once at the end (kernel_body.h:1583-1590). How often that happens depends on
the scores alone: their spread (``sm_scale`` times the raw dot products), the order the indices come in, and topk.

The scores here are synthetic and deterministic. A raw logit is the dot product of a query and a key whose entries
have unit variance, so it has standard deviation ``sqrt(d_qk)``. A share of its variance (``SHARED_VARIANCE``) is
common to all heads of the token: that is the part an indexer can rank by, and the "ascending" and "descending"
orders sort the indices by it. "random" leaves them in random order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Final, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from ascend_dsa.facts.assumptions import SHARED_SCORE_VARIANCE, SHARED_VARIANCE, SM_SCALE_EXPONENT
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.models.arrays import require_array
from ascend_dsa.models.blocked_forward import skip_scale_decision, vector_core_heads
from ascend_dsa.models.design_point import fixpipe_cycles
from ascend_dsa.models.rescale_bound import raw_logit_threshold
from ascend_dsa.validate import require_finite, require_int, require_iterable, shown

ScoreOrder = Literal["random", "ascending", "descending"]
SCORE_ORDERS: Final[tuple[ScoreOrder, ...]] = get_args(ScoreOrder)

#: Share of a logit's variance common to all heads of a token (what the indexer ranks by).
SHARED_VARIANCE_SOURCE: Final = SHARED_SCORE_VARIANCE.source
#: The usual softmax scale ``1 / sqrt(d_qk)``; the sweep multiplies it.
DEFAULT_SM_SCALE: Final = DSA_V41.d_qk**SM_SCALE_EXPONENT
#: The sweep shown on the skip-scale page: score orders x multiples of ``1 / sqrt(d_qk)`` x topk.
SWEEP_SM_SCALE_FACTORS: Final = (1.0, 2.0, 4.0, 8.0)
SWEEP_TOPK: Final = (512, 1024, 2048)
#: Query tokens per measurement: enough for a stable mean, few enough to run on every site build.
SWEEP_TOKENS: Final = 8


#: Most logits one synthetic draw may hold (512 MiB of float32): larger requests are refused, not attempted.
MAX_SYNTHETIC_LOGITS: Final = 2**27


def _check_positive_int(name: str, value: object) -> int:
    return require_int(name, value, minimum=1)


def _logit_spread(sm_scale: float, model: ModelShape, overflow: ValueError) -> np.float32:
    """``sm_scale x sqrt(d_qk)`` as float32, raising ``overflow`` when it is not a finite float32."""
    spread = sm_scale * math.sqrt(model.d_qk)
    if not spread <= float(np.finfo(np.float32).max):
        raise overflow
    return np.float32(spread)


def synthetic_logits(
    tokens: int,
    heads: int,
    topk: int,
    *,
    sm_scale: float,
    order: ScoreOrder,
    model: ModelShape = DSA_V41,
    shared: float = SHARED_VARIANCE,
    seed: int = 0,
) -> NDArray[np.float32]:
    """``sm_scale``-scaled logits ``[tokens, heads, topk]``, indices in the given order of their shared score.

    The draws depend on ``seed`` alone, so ``sm_scale = 1`` gives the raw logits of the same scores.
    """
    size = 1
    for name, value in (("tokens", tokens), ("heads", heads), ("topk", topk)):
        size *= _check_positive_int(name, value)
    if size > MAX_SYNTHETIC_LOGITS:
        raise ValueError(f"tokens x heads x topk must be at most {MAX_SYNTHETIC_LOGITS}, got {size}")
    if not isinstance(order, str):
        raise TypeError(f"order must be one of {', '.join(SCORE_ORDERS)}, got {type(order).__name__} {shown(order)}")
    if order not in SCORE_ORDERS:
        raise ValueError(f"order must be one of {', '.join(SCORE_ORDERS)}, got {shown(order)}")
    require_finite("sm_scale", sm_scale, positive=True)
    if not isinstance(model, ModelShape):
        raise TypeError(f"model must be a ModelShape, got {type(model).__name__}")
    if not 0 <= require_finite("shared", shared, minimum=0.0) <= 1:
        raise ValueError(f"shared must lie in [0, 1], got {shown(shared)}")
    rng = np.random.default_rng(require_int("seed", seed, minimum=0))
    common = rng.standard_normal((tokens, 1, topk), dtype=np.float32)  # [tokens, 1, topk]
    if order != "random":
        common.sort(axis=2)
        if order == "descending":
            common = common[:, :, ::-1]
    own = rng.standard_normal((tokens, heads, topk), dtype=np.float32)  # [tokens, heads, topk]
    overflow = ValueError(f"sm_scale must keep the scaled logits finite in float32, got {shown(sm_scale)}")
    spread = _logit_spread(sm_scale, model, overflow)
    try:
        with np.errstate(over="raise", invalid="raise"):
            own *= np.float32(math.sqrt(1 - shared)) * spread
            own += np.float32(math.sqrt(shared)) * spread * common
    except FloatingPointError:
        raise overflow from None
    return own


def rescale_counts(
    logits: NDArray[np.float32],
    *,
    sm_scale: float,
    b_topk: int,
    threshold: float,
    heads_per_core: int | None = None,
) -> tuple[int, NDArray[np.int64], NDArray[np.int64]]:
    """Blocks, O copies before the last per token, and rescales per token and VECTOR Core, on raw logits.

    ``logits`` are raw ``P = Q K^T`` (not scaled by ``sm_scale``), as the kernel compares them: at block ``k`` each
    core rescales when [`skip_scale_decision`][] says so for the raw running max after block ``k`` against
    [`raw_logit_threshold`][] ``(threshold, sm_scale)`` (strict ``>``, kernel_body.h:572), and O leaves L0C when either
    core does; block 0 sets the max and never counts. ``heads_per_core`` defaults to the kernel's split of the
    heads ([`vector_core_heads`][]); ``heads_per_core = heads`` gives the joint rule (one decision for all heads),
    the named variant the kernel does not use.

    Returns:
        ``(blocks, rescales [tokens], core_rescales [tokens, cores])``.
    """
    _check_positive_int("b_topk", b_topk)
    if heads_per_core is not None:
        _check_positive_int("heads_per_core", heads_per_core)
    limit = raw_logit_threshold(
        require_finite("threshold", threshold, minimum=0.0), require_finite("sm_scale", sm_scale, positive=True)
    )
    expected = "a float array [tokens >= 1, heads >= 1, topk]"
    array = require_array("logits", logits, expected)
    if array.dtype.kind != "f":
        raise TypeError(f"logits must be {expected}, got dtype {array.dtype}")
    if array.ndim != 3 or 0 in array.shape[:2]:  # noqa: PLR2004 - three axes
        raise ValueError(f"logits must be {expected}, got shape {array.shape}")
    if np.isnan(array).any():
        raise ValueError("logits must not hold NaN, got one")
    tokens, heads, topk = array.shape
    width = max(min(b_topk, topk), 1)
    blocks = max(-(-topk // width), 1)
    padded = np.full((tokens, heads, blocks * width), -np.inf, dtype=np.float32)
    padded[:, :, :topk] = array
    running = np.maximum.accumulate(padded.reshape(tokens, heads, blocks, width).max(axis=3), axis=2)
    used = running[:, :, 0]
    group = min(vector_core_heads(heads) if heads_per_core is None else heads_per_core, heads)
    rescales = np.zeros(tokens, dtype=np.int64)
    core_rescales = np.zeros((tokens, -(-heads // group)), dtype=np.int64)
    for block in range(1, blocks):
        triggered, used = skip_scale_decision(running[:, :, block], used, limit, group)
        core_rescales += triggered
        rescales += triggered.any(axis=1)
    return blocks, rescales, core_rescales


@dataclass(frozen=True)
class RescaleMeasurement:
    """How often one score distribution makes the blocked forward rescale, averaged over its query tokens."""

    order: ScoreOrder
    sm_scale: float
    topk: int
    b_topk: int
    threshold: float
    heads: int
    heads_per_core: int
    blocks: int
    rescales: tuple[int, ...]  # per query token: blocks where either VECTOR Core rescaled
    core_rescales: tuple[tuple[int, ...], ...]  # per query token, per VECTOR Core

    @property
    def logit_spread(self) -> float:
        """Standard deviation of the scaled logits: ``sm_scale x sqrt(d_qk)``."""
        return self.sm_scale * math.sqrt(DSA_V41.d_qk)

    @property
    def mean_rescales(self) -> float:
        """Rescales per query token."""
        return sum(self.rescales) / len(self.rescales)

    @property
    def mean_core_rescales(self) -> tuple[float, ...]:
        """Rescales per query token of each VECTOR Core, for its own heads."""
        return tuple(sum(c) / len(self.core_rescales) for c in zip(*self.core_rescales, strict=True))

    @property
    def rescale_rate(self) -> float:
        """Share of the blocks after the first that rescale."""
        return self.mean_rescales / (self.blocks - 1) if self.blocks > 1 else 0.0

    @property
    def o_copies_with_skip_scale(self) -> float:
        """Copies of O out of L0C per query token: one per block where either core rescales, one at the end."""
        return self.mean_rescales + 1

    @property
    def o_copies_without_skip_scale(self) -> int:
        """Copies of O out of L0C per query token when every block rescales: one per block."""
        return self.blocks

    @property
    def copies_saved(self) -> float:
        """Fraction of O copies skip-scale saves."""
        return 1 - self.o_copies_with_skip_scale / self.o_copies_without_skip_scale


@lru_cache(maxsize=256)
def measure_rescales(
    order: ScoreOrder,
    sm_scale: float,
    topk: int,
    *,
    config: KernelConfig = SHIPPED_KERNEL,
    tokens: int = SWEEP_TOKENS,
    seed: int = 0,
) -> RescaleMeasurement:
    """Rescales of the blocked forward on synthetic scores, with the kernel's heads, cores, ``B_TOPK`` and threshold.

    The raw logits are ``synthetic_logits`` at ``sm_scale = 1``; ``sm_scale`` enters only the threshold, as in the
    kernel.
    """
    if not isinstance(config, KernelConfig):
        raise TypeError(f"config must be a KernelConfig, got {type(config).__name__}")
    logits = synthetic_logits(tokens, config.heads_per_core, topk, sm_scale=1.0, order=order, seed=seed)
    blocks, rescales, core_rescales = rescale_counts(
        logits,
        sm_scale=sm_scale,
        b_topk=config.b_topk,
        threshold=config.rescale_threshold,
        heads_per_core=config.mma_m_per_vector_core,
    )
    return RescaleMeasurement(
        order=order,
        sm_scale=sm_scale,
        topk=topk,
        b_topk=config.b_topk,
        threshold=config.rescale_threshold,
        heads=config.heads_per_core,
        heads_per_core=config.mma_m_per_vector_core,
        blocks=blocks,
        rescales=tuple(int(r) for r in rescales),
        core_rescales=tuple(tuple(int(c) for c in row) for row in core_rescales),
    )


def rescale_sweep(
    orders: tuple[ScoreOrder, ...] = SCORE_ORDERS,
    sm_scale_factors: tuple[float, ...] = SWEEP_SM_SCALE_FACTORS,
    topks: tuple[int, ...] = SWEEP_TOPK,
    config: KernelConfig = SHIPPED_KERNEL,
) -> tuple[RescaleMeasurement, ...]:
    """One measurement per (order, sm_scale = factor / sqrt(d_qk), topk), each from its own fixed seed."""
    for name, axis in (("orders", orders), ("sm_scale_factors", sm_scale_factors), ("topks", topks)):
        require_iterable(name, axis)
    return tuple(
        measure_rescales(order, factor * DEFAULT_SM_SCALE, topk, config=config, seed=seed)
        for seed, (order, factor, topk) in enumerate((o, f, k) for o in orders for f in sm_scale_factors for k in topks)
    )


def fixpipe_cycles_per_block_with(
    measurement: RescaleMeasurement, spec: AscendSpec = ASCEND_950, config: KernelConfig = SHIPPED_KERNEL
) -> Fraction:
    """Mean FixPipe cycles per block when O leaves L0C only ``o_copies_with_skip_scale`` times per token.

    At the FixPipe rate of ``config``'s VECTOR Cores (`ascend_dsa.facts.assumptions.FIXPIPE_1C2V` under 1C2V).
    """
    for name, value, kind in (
        ("measurement", measurement, RescaleMeasurement),
        ("config", config, KernelConfig),
    ):
        if not isinstance(value, kind):
            raise TypeError(f"{name} must be a {kind.__name__}, got {type(value).__name__}")
    spec = require_ascend("spec", spec)
    p_only = fixpipe_cycles(spec, config, o_leaves=False)
    o_part = fixpipe_cycles(spec, config, o_leaves=True) - p_only
    share = Fraction(measurement.o_copies_with_skip_scale).limit_denominator(10**6) / measurement.blocks
    return p_only + o_part * share
