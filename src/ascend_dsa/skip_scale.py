"""How often skip-scale's rescale fires, and how many copies of O out of L0C that saves.

Report (zh) lines 57-69 and 244-252. Without skip-scale, online softmax rescales the output every block, so all
of O leaves L0C every block (FixPipe, report (zh) line 142). With it, O leaves only when some head's max rose by
more than the threshold since the max the softmax uses, plus once at the end. How often that happens depends on
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

from ascend_dsa.block_cycles import fixpipe_cycles_per_block
from ascend_dsa.hardware import ASCEND_950, AscendSpec
from ascend_dsa.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.model import DSA_V41, ModelShape
from ascend_dsa.provenance import Source
from ascend_dsa.reference import skip_scale_decision

ScoreOrder = Literal["random", "ascending", "descending"]
SCORE_ORDERS: Final[tuple[ScoreOrder, ...]] = get_args(ScoreOrder)

#: Share of a logit's variance common to all heads of a token (what the indexer ranks by).
SHARED_VARIANCE: Final = 0.5
SHARED_VARIANCE_SOURCE: Final = Source(
    "assumed", "assumed", note="half of the spread is shared by the heads; the rest is each head's own"
)
#: The usual softmax scale ``1 / sqrt(d_qk)``; the sweep multiplies it.
DEFAULT_SM_SCALE: Final = DSA_V41.d_qk**-0.5
#: The sweep shown on the skip-scale page: score orders x multiples of ``1 / sqrt(d_qk)`` x topk.
SWEEP_SM_SCALE_FACTORS: Final = (1.0, 2.0, 4.0, 8.0)
SWEEP_TOPK: Final = (512, 1024, 2048)
#: Query tokens per measurement: enough for a stable mean, few enough to run on every site build.
SWEEP_TOKENS: Final = 8


def _check_positive_int(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


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
    """``sm_scale``-scaled logits ``[tokens, heads, topk]``, indices in the given order of their shared score."""
    for name, value in (("tokens", tokens), ("heads", heads), ("topk", topk)):
        _check_positive_int(name, value)
    if order not in SCORE_ORDERS:
        raise ValueError(f"order must be one of {', '.join(SCORE_ORDERS)}, got {order!r}")
    if not (math.isfinite(sm_scale) and sm_scale > 0):
        raise ValueError(f"sm_scale must be a positive finite number, got {sm_scale!r}")
    if not 0 <= shared <= 1:
        raise ValueError(f"shared must lie in [0, 1], got {shared!r}")
    rng = np.random.default_rng(seed)
    common = rng.standard_normal((tokens, 1, topk), dtype=np.float32)  # [tokens, 1, topk]
    if order != "random":
        common.sort(axis=2)
        if order == "descending":
            common = common[:, :, ::-1]
    own = rng.standard_normal((tokens, heads, topk), dtype=np.float32)  # [tokens, heads, topk]
    spread = np.float32(sm_scale * math.sqrt(model.d_qk))
    own *= np.float32(math.sqrt(1 - shared)) * spread
    own += np.float32(math.sqrt(shared)) * spread * common
    return own


def rescale_counts(logits: NDArray[np.float32], *, b_topk: int, threshold: float) -> tuple[int, NDArray[np.int64]]:
    """Blocks, and rescales per token, of the blocked forward on these ``sm_scale``-scaled logits.

    Only the maxima matter: block ``k`` rescales when
    [`skip_scale_decision()`][ascend_dsa.reference.skip_scale_decision] says so for
    the running max after block ``k``; block 0 sets the max and never counts.
    """
    _check_positive_int("b_topk", b_topk)
    if logits.ndim != 3:  # noqa: PLR2004 - three axes
        raise ValueError(f"logits must have shape [tokens, heads, topk], got shape {logits.shape}")
    tokens, heads, topk = logits.shape
    blocks = max(-(-topk // b_topk), 1)
    padded = np.full((tokens, heads, blocks * b_topk), -np.inf, dtype=np.float32)
    padded[:, :, :topk] = logits
    running = np.maximum.accumulate(padded.reshape(tokens, heads, blocks, b_topk).max(axis=3), axis=2)
    used = running[:, :, 0]
    rescales = np.zeros(tokens, dtype=np.int64)
    for block in range(1, blocks):
        triggered, used = skip_scale_decision(running[:, :, block], used, threshold)
        rescales += triggered
    return blocks, rescales


@dataclass(frozen=True)
class RescaleMeasurement:
    """How often one score distribution makes the blocked forward rescale, averaged over its query tokens."""

    order: ScoreOrder
    sm_scale: float
    topk: int
    b_topk: int
    threshold: float
    heads: int
    blocks: int
    rescales: tuple[int, ...]  # per query token

    @property
    def logit_spread(self) -> float:
        """Standard deviation of the scaled logits: ``sm_scale x sqrt(d_qk)``."""
        return self.sm_scale * math.sqrt(DSA_V41.d_qk)

    @property
    def mean_rescales(self) -> float:
        """Rescales per query token."""
        return sum(self.rescales) / len(self.rescales)

    @property
    def rescale_rate(self) -> float:
        """Share of the blocks after the first that rescale."""
        return self.mean_rescales / (self.blocks - 1) if self.blocks > 1 else 0.0

    @property
    def o_copies_with_skip_scale(self) -> float:
        """Copies of O out of L0C per query token: one per rescale and one at the end."""
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
    """Rescales of the blocked forward on synthetic scores, with the kernel's heads, ``B_TOPK`` and threshold."""
    logits = synthetic_logits(tokens, config.heads_per_core, topk, sm_scale=sm_scale, order=order, seed=seed)
    blocks, rescales = rescale_counts(logits, b_topk=config.b_topk, threshold=config.rescale_threshold)
    return RescaleMeasurement(
        order=order,
        sm_scale=sm_scale,
        topk=topk,
        b_topk=config.b_topk,
        threshold=config.rescale_threshold,
        heads=config.heads_per_core,
        blocks=blocks,
        rescales=tuple(int(r) for r in rescales),
    )


def rescale_sweep(
    orders: tuple[ScoreOrder, ...] = SCORE_ORDERS,
    sm_scale_factors: tuple[float, ...] = SWEEP_SM_SCALE_FACTORS,
    topks: tuple[int, ...] = SWEEP_TOPK,
    config: KernelConfig = SHIPPED_KERNEL,
) -> tuple[RescaleMeasurement, ...]:
    """One measurement per (order, sm_scale = factor / sqrt(d_qk), topk), each from its own fixed seed."""
    return tuple(
        measure_rescales(order, factor * DEFAULT_SM_SCALE, topk, config=config, seed=seed)
        for seed, (order, factor, topk) in enumerate((o, f, k) for o in orders for f in sm_scale_factors for k in topks)
    )


def fixpipe_cycles_per_block_with(
    measurement: RescaleMeasurement, spec: AscendSpec = ASCEND_950, config: KernelConfig = SHIPPED_KERNEL
) -> Fraction:
    """Mean FixPipe cycles per block when O leaves L0C only ``o_copies_with_skip_scale`` times per token."""
    p_only = fixpipe_cycles_per_block(spec, config, o_leaves=False)
    o_part = fixpipe_cycles_per_block(spec, config, o_leaves=True) - p_only
    share = Fraction(measurement.o_copies_with_skip_scale).limit_denominator(10**6) / measurement.blocks
    return p_only + o_part * share
