"""Named inputs for the two forwards, random and adversarial, and how the blocked forward compares on them.

The site runs these on every build (small shapes, milliseconds): the blocked forward must stay within the stated
bf16 tolerance of the plain one ([`output_tolerance`][]), and no unnormalised exp term
may exceed ``exp(threshold)`` (report (zh) line 67).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Final

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascend_dsa.errors import AscendDsaError
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.models.blocked_forward import blocked_sparse_attn_fwd
from ascend_dsa.models.reference import output_tolerance, sparse_attn_fwd
from ascend_dsa.validate import require_finite, require_int

#: Small shapes: one AI Core's worth of heads would cost more than the point needs.
_S_Q, _H_Q, _D_QK, _D_V, _S_KV = 4, 8, 64, 48, 400
#: Most indices per token a named case may have: the cases are for every site build, not for benchmarks.
MAX_CASE_TOPK: Final = 2**16
#: Share of the random case's indices marked invalid (-1): about one in ten.
RANDOM_INVALID_SHARE: Final = Fraction(1, 10)


def _check_config(config: object) -> None:
    if not isinstance(config, KernelConfig):
        raise TypeError(f"config must be a KernelConfig, got {type(config).__name__}")


@dataclass(frozen=True)
class ForwardCase:
    """One set of forward inputs, under a short name."""

    name: str
    q: NDArray[Any]
    kv: NDArray[Any]
    indices: NDArray[Any]
    sm_scale: float
    d_v: int
    attn_sink: NDArray[Any] | None = None
    topk_length: NDArray[Any] | None = None

    def args(self) -> tuple[Any, ...]:
        """The positional arguments of both forwards."""
        return (self.q, self.kv, self.indices, self.sm_scale, self.d_v, self.attn_sink, self.topk_length)


def random_case(seed: int = 0, topk: int = 4 * SHIPPED_KERNEL.b_topk, spread: float = 6.0) -> ForwardCase:
    """bf16 queries and keys with unit-variance entries (queries times ``spread``), 1 index in 10 invalid."""
    topk = require_int("topk", topk, minimum=0, maximum=MAX_CASE_TOPK)
    spread = require_finite("spread", spread, positive=True)
    rng = np.random.default_rng(require_int("seed", seed, minimum=0))
    q = (rng.standard_normal((_S_Q, _H_Q, _D_QK)) * spread).astype(ml_dtypes.bfloat16)
    kv = rng.standard_normal((_S_KV, 1, _D_QK)).astype(ml_dtypes.bfloat16)
    indices = rng.integers(0, _S_KV, (_S_Q, 1, topk)).astype(np.int32)
    indices[rng.random(indices.shape) < float(RANDOM_INVALID_SHARE)] = -1
    return ForwardCase("random", q, kv, indices, _D_QK**-0.5, _D_V)


def ramp_case(name: str, blocks: int, rise_per_block: float, b_topk: int, *, ascending: bool) -> ForwardCase:
    """Key ``j`` has scaled logit ``j x rise_per_block / b_topk`` on every head; indices ascending or descending."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if not isinstance(ascending, bool):
        raise TypeError(f"ascending must be a bool, got {type(ascending).__name__}")
    rise_per_block = require_finite("rise_per_block", rise_per_block)
    topk = require_int("blocks", blocks, minimum=1) * require_int("b_topk", b_topk, minimum=1)
    if topk > MAX_CASE_TOPK:
        raise ValueError(f"blocks x b_topk must be at most {MAX_CASE_TOPK}, got {topk}")
    kv = np.zeros((topk, 1, _D_QK), dtype=np.float32)
    kv[:, 0, 0] = np.arange(topk) * (rise_per_block / b_topk)
    kv[:, 0, 1:] = np.random.default_rng(1).standard_normal((topk, _D_QK - 1))
    q = np.zeros((_S_Q, _H_Q, _D_QK), dtype=np.float32)
    q[:, :, 0] = 1.0
    order = np.arange(topk) if ascending else np.arange(topk)[::-1]
    indices = np.broadcast_to(order, (_S_Q, 1, topk)).astype(np.int32)
    return ForwardCase(name, q, kv.astype(ml_dtypes.bfloat16), indices, 1.0, _D_V)


def forward_cases(config: KernelConfig = SHIPPED_KERNEL) -> tuple[ForwardCase, ...]:
    """The cases the site compares: random, then each edge the kernel must get right."""
    _check_config(config)
    b = config.b_topk
    base = random_case()
    threshold = config.rescale_threshold
    all_invalid = base.indices.copy()
    all_invalid[1:] = -1
    all_invalid[2, 0, ::2] = _S_KV  # == s_kv: invalid too
    duplicated = base.indices.copy()
    duplicated[:, :, b:] = duplicated[:, :, :1]  # every index after the first block repeats index 0
    rng = np.random.default_rng(2)
    return (
        base,
        ramp_case("rising", 6, 2 * threshold, b, ascending=True),
        ramp_case("huge-first", 6, 2 * threshold, b, ascending=False),
        replace(base, name="all-invalid", indices=all_invalid),
        replace(base, name="duplicated", indices=duplicated),
        replace(base, name="partial-block", indices=base.indices[:, :, : 2 * b + 7].copy()),
        replace(base, name="topk-length", topk_length=np.array([0, b - 1, b + 1, 3 * b], dtype=np.int32)),
        replace(base, name="sink", attn_sink=rng.standard_normal(_H_Q).astype(np.float32)),
        replace(base, name="sink-inf", attn_sink=np.array([np.inf, -np.inf] * (_H_Q // 2), dtype=np.float32)),
    )


#: The trace case, by eye: scaled logits of heads 0 and 1 for 5 blocks of 4 indices (index ``j`` is key ``j``).
TRACE_LOGITS: Final = (
    ((0, 1, 3, 2), (2, 9, 1, 0), (4, 10, 1, 2), (5, 5, 5, 5), (11, 0, 0, 0)),
    ((1, 1, 1, 1), (0, 0, 0, 0), (0, 0, 0, 0), (8, 0, 0, 0), (0, 0, 0, 0)),
)
TRACE_B_TOPK: Final = 4


def trace_case() -> ForwardCase:
    """One token, two heads, 20 keys whose scaled logits are [`TRACE_LOGITS`][] (``sm_scale`` 1, bf16-exact).

    Key ``j`` is ``(logit of head 0, logit of head 1, j, 1)``; head ``h`` queries with the unit vector ``e_h``.
    """
    logits = np.array(TRACE_LOGITS, dtype=np.float32).reshape(2, -1)  # [heads, keys]
    keys = logits.shape[1]
    kv = np.stack([logits[0], logits[1], np.arange(keys), np.ones(keys)], axis=1)[:, None, :]  # [keys, 1, 4]
    q = np.eye(2, 4, dtype=np.float32)[None]  # [1, 2, 4]
    indices = np.arange(keys, dtype=np.int32)[None, None, :]
    return ForwardCase("trace", q.astype(ml_dtypes.bfloat16), kv.astype(ml_dtypes.bfloat16), indices, 1.0, 4)


def two_core_case(config: KernelConfig = SHIPPED_KERNEL, b_topk: int = TRACE_B_TOPK) -> ForwardCase:
    """One token whose two VECTOR Cores disagree: where the kernel's rule and the joint rule part ways.

    ``config.heads_per_core`` heads, ``sm_scale`` 1, three blocks of ``b_topk`` keys. The first core's heads jump by
    ``threshold + 1`` at block 1; the second core's heads climb by two thirds of the threshold at blocks 1 and 2
    (at the shipped threshold: 7, then 4 and 4). Per core, the first core rescales at block 1 and the second at
    block 2; jointly, every head adopts its max at block 1 and nothing rescales at block 2.
    """
    _check_config(config)
    width = require_int("b_topk", b_topk, minimum=1)
    threshold = config.rescale_threshold
    jump, climb = threshold + 1, threshold * 2 / 3
    keys = np.zeros((3 * width, 1, 4), dtype=np.float32)  # key j: (logit of core 0's heads, of core 1's, 0, 1)
    keys[:, 0, 3] = 1.0
    keys[width, 0, :2] = (jump, climb)
    keys[2 * width, 0, :2] = (0.0, 2 * climb)
    q = np.zeros((1, config.heads_per_core, 4), dtype=np.float32)
    q[0, : config.mma_m_per_vector_core, 0] = 1.0
    q[0, config.mma_m_per_vector_core :, 1] = 1.0
    indices = np.arange(3 * width, dtype=np.int32)[None, None, :]
    return ForwardCase("two-cores", q.astype(ml_dtypes.bfloat16), keys.astype(ml_dtypes.bfloat16), indices, 1.0, 4)


@dataclass(frozen=True)
class ForwardComparison:
    """The blocked forward against the plain one on one case."""

    name: str
    tokens: int
    blocks: int  # the most blocks any token ran
    rescales: int  # summed over tokens
    out_difference: float  # max |out_blocked - out_plain|
    out_tolerance: float
    lse_difference: float  # max over rows where lse is finite; inf if the infinities differ
    max_exp_term: float
    exp_bound: float  # exp(threshold)

    @property
    def agrees(self) -> bool:
        """Within the bf16 tolerance, lse within 1e-4, and every exp term within exp(threshold)."""
        return (
            self.out_difference <= self.out_tolerance
            and self.lse_difference <= 1e-4  # noqa: PLR2004 - float32 log-sum-exp over a few hundred terms
            and self.max_exp_term <= self.exp_bound
        )


def compare_forwards(case: ForwardCase, config: KernelConfig = SHIPPED_KERNEL) -> ForwardComparison:
    """Run both forwards on ``case`` with the kernel's block size and threshold and measure their difference.

    The blocked forward returns ``out`` in bf16, as the kernel writes it; the plain one is the float32 oracle.
    """
    if not isinstance(case, ForwardCase):
        raise TypeError(f"case must be a ForwardCase, got {type(case).__name__}")
    _check_config(config)
    out, _, lse = sparse_attn_fwd(*case.args())
    out_bf16, _, lse_b, stats = blocked_sparse_attn_fwd(
        *case.args(),
        b_topk=config.b_topk,
        rescale_threshold=config.rescale_threshold,
        heads_per_core=config.mma_m_per_vector_core,
    )
    out_b = out_bf16.astype(np.float32)
    infinite = np.isinf(lse)
    same_infinities = np.array_equal(infinite, np.isinf(lse_b)) and np.array_equal(lse[infinite], lse_b[infinite])
    finite = np.isfinite(lse)
    lse_difference = float(np.abs(lse_b[finite] - lse[finite]).max(initial=0.0)) if same_infinities else math.inf
    return ForwardComparison(
        name=case.name,
        tokens=case.q.shape[0],
        blocks=int(stats.blocks.max()),
        rescales=int(stats.rescales.sum()),
        out_difference=float(np.abs(out_b - out).max()),
        out_tolerance=output_tolerance(case.kv, case.d_v, case.indices.shape[2]),
        lse_difference=lse_difference,
        max_exp_term=float(stats.max_exp_term.max()),
        exp_bound=float(np.exp(np.float32(config.rescale_threshold))),
    )


def check_forwards_agree(comparisons: tuple[ForwardComparison, ...]) -> None:
    """Raise [`AscendDsaError`][] naming every case where the blocked forward strays."""
    if not isinstance(comparisons, tuple) or not all(isinstance(c, ForwardComparison) for c in comparisons):
        raise TypeError(f"comparisons must be a tuple of ForwardComparison, got {type(comparisons).__name__}")
    bad = [c for c in comparisons if not c.agrees]
    if bad:
        details = "; ".join(
            f"{c.name}: |d out| {c.out_difference:.3g} vs {c.out_tolerance:.3g}, |d lse| {c.lse_difference:.3g}, "
            f"max exp {c.max_exp_term:.6g} vs {c.exp_bound:.6g}"
            for c in bad
        )
        raise AscendDsaError(f"the blocked forward disagrees with the plain one: {details}")


FORWARD_CASE_NAMES: Final = tuple(c.name for c in forward_cases())
