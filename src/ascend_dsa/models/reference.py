"""NumPy sparse attention forward: the plain softmax, and the kernel's blocked online softmax with skip-scale.

Report (zh) lines 19-73. The inputs and outputs follow FlashMLA's ``flash_mla_sparse_fwd``:

- ``q``: ``[s_q, h_q, d_qk]``; ``kv``: ``[s_kv, 1, d_qk]`` (one KV head shared by every q head);
- ``indices``: ``[s_q, 1, topk]`` integers; an index ``< 0`` or ``>= s_kv`` is invalid and ignored, and so is every
  index at or past ``topk_length[t]`` when ``topk_length`` (``[s_q]``) is given;
- ``attn_sink``: ``[h_q]``; it scales ``out`` by ``exp(lse) / (exp(lse) + exp(sink))`` and changes neither ``lse``
  nor ``max_logits``;
- returns ``out`` ``[s_q, h_q, d_v]``, ``max_logits`` and ``lse`` ``[s_q, h_q]``. Logits are scaled by ``sm_scale``
  before the max and the natural log-sum-exp; a row with no valid index gets ``out`` 0, ``max_logits`` -inf and
  ``lse`` +inf.

The plain forwards ([`sparse_attn_fwd`][], [`sparse_attn_fwd_float64`][]) are float oracles: ``out`` stays in
float32 (float64). The blocked forward is the kernel's model: it returns ``out`` in bfloat16, as the kernel writes it.
Both are vectorised over query tokens and heads; the blocked one loops over blocks of ``b_topk`` indices.

Inputs whose logits overflow the compute type (``|q . k| x sm_scale`` beyond its largest finite value) are rejected
with a ValueError rather than returning NaN.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.models.arrays import require_array
from ascend_dsa.units import MiB
from ascend_dsa.validate import require_int, require_real

FloatArray = NDArray[np.float32]
Float64Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

BFLOAT16: Final = np.dtype(ml_dtypes.bfloat16)
#: Element types the forwards accept for ``q``, ``kv`` and ``attn_sink``.
FLOAT_DTYPES: Final = (BFLOAT16, np.dtype(np.float32), np.dtype(np.float64))

#: Relative rounding error of round-to-nearest bf16 (8 significant bits): 2^-8.
BF16_UNIT_ROUNDOFF: Final = 2.0**-8
#: Relative rounding error of round-to-nearest float32 (24 significant bits): 2^-24.
FP32_UNIT_ROUNDOFF: Final = 2.0**-24

#: The kernel starts its running max at the lowest finite float, not -inf (kernel_body.h:523-524, ``softmax_vf``).
_LOWEST: Final = np.float32(np.finfo(np.float32).min)

#: Largest buffers of gathered keys and their scores a forward keeps at once (``[tokens, keys, d_qk + h_q]``);
#: only memory, not results.
_GATHER_BUDGET_BYTES: Final = 16 * MiB

Result = tuple[FloatArray, FloatArray, FloatArray]


@dataclass(frozen=True)
class _Inputs:
    """Checked inputs: float arrays in the compute type, the safe gather indices and the validity mask."""

    q: NDArray[Any]  # [s_q, h_q, d_qk]
    kv: NDArray[Any]  # [s_kv, d_qk]
    gather: NDArray[np.intp]  # [s_q, topk], every entry a legal row of kv
    valid: BoolArray  # [s_q, topk]
    sm_scale: float
    d_v: int
    attn_sink: FloatArray | None  # [h_q]
    topk_length: IntArray  # [s_q], the number of leading indices considered per token

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(s_q, h_q, topk)``."""
        return self.q.shape[0], self.q.shape[1], self.valid.shape[1]


def _float_array(name: str, value: object, expected_shape: str, compute: type[np.floating[Any]]) -> NDArray[Any]:
    """``value`` as an array of the compute type; raise unless it was bf16, float32 or float64 and finite."""
    expected = f"a bfloat16, float32 or float64 array {expected_shape}"
    array = require_array(name, value, expected)
    if array.dtype not in FLOAT_DTYPES:
        raise TypeError(f"{name} must be {expected}, got dtype {array.dtype}")
    with np.errstate(over="ignore", invalid="ignore"):  # a float64 beyond float32 becomes inf: rejected below
        converted = array.astype(compute, copy=False)
    if not np.isfinite(converted).all():
        raise ValueError(f"{name} must hold finite values of {np.dtype(compute)} only, got a NaN or an infinity")
    return converted


def _int_array(name: str, value: object, expected_shape: str) -> NDArray[Any]:
    expected = f"an integer array {expected_shape}"
    array = require_array(name, value, expected)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name} must be {expected}, got dtype {array.dtype}")
    return array


def _check_sm_scale(sm_scale: object, compute: type[np.floating[Any]]) -> float:
    expected = f"a positive number finite and nonzero in {np.dtype(compute)}"
    value = require_real("sm_scale", sm_scale, expected)
    with np.errstate(over="ignore", under="ignore"):
        in_compute = compute(value)
    if not (math.isfinite(value) and value > 0 and np.isfinite(in_compute) and in_compute > 0):
        raise ValueError(f"sm_scale must be {expected}, got {sm_scale!r}")
    return value


def _check_inputs(
    q: object,
    kv: object,
    indices: object,
    sm_scale: object,
    d_v: object,
    attn_sink: object,
    topk_length: object,
    compute: type[np.floating[Any]],
) -> _Inputs:
    q_arr = _float_array("q", q, "[s_q, h_q, d_qk]", compute)
    if q_arr.ndim != 3 or min(q_arr.shape) < 1:  # noqa: PLR2004 - three axes
        raise ValueError(f"q must have shape [s_q, h_q, d_qk] with every axis >= 1, got shape {q_arr.shape}")
    s_q, h_q, d_qk = q_arr.shape
    kv_arr = _float_array("kv", kv, "[s_kv, 1, d_qk]", compute)
    if kv_arr.ndim != 3 or kv_arr.shape[0] < 1 or kv_arr.shape[1:] != (1, d_qk):  # noqa: PLR2004
        raise ValueError(f"kv must have shape [s_kv >= 1, 1, d_qk = {d_qk}], got shape {kv_arr.shape}")
    s_kv = kv_arr.shape[0]
    idx = _int_array("indices", indices, "[s_q, 1, topk]")
    if idx.ndim != 3 or idx.shape[:2] != (s_q, 1):  # noqa: PLR2004
        raise ValueError(f"indices must have shape [s_q = {s_q}, 1, topk], got shape {idx.shape}")
    topk = idx.shape[2]
    scale = _check_sm_scale(sm_scale, compute)
    value_dims = d_qk if d_v is None else require_int("d_v", d_v, minimum=1, maximum=d_qk)
    sink = _check_sink(attn_sink, h_q)
    lengths = np.full(s_q, topk, dtype=np.int64)
    if topk_length is not None:
        lengths_arr = _int_array("topk_length", topk_length, f"[s_q] = ({s_q},)")
        if lengths_arr.shape != (s_q,):
            raise ValueError(f"topk_length must have shape [s_q] = ({s_q},), got shape {lengths_arr.shape}")
        if lengths_arr.size and (lengths_arr.min() < 0 or lengths_arr.max() > topk):
            low, high = lengths_arr.min(), lengths_arr.max()
            raise ValueError(f"topk_length must lie in [0, topk = {topk}], got values from {low} to {high}")
        lengths = lengths_arr.astype(np.int64)
    with np.errstate(over="ignore"):  # uint64 indices past int64 wrap to negative: invalid either way
        flat = idx[:, 0, :].astype(np.int64)  # [s_q, topk]
    valid = (flat >= 0) & (flat < s_kv) & (np.arange(topk)[None, :] < lengths[:, None])
    return _Inputs(
        q=q_arr,
        kv=kv_arr[:, 0, :],
        gather=np.where(valid, flat, 0).astype(np.intp),
        valid=valid,
        sm_scale=scale,
        d_v=value_dims,
        attn_sink=sink,
        topk_length=lengths,
    )


def _check_sink(attn_sink: object, h_q: int) -> FloatArray | None:
    if attn_sink is None:
        return None
    expected = f"None or a float array of shape [h_q] = ({h_q},)"
    sink_arr = require_array("attn_sink", attn_sink, expected)
    if sink_arr.dtype not in FLOAT_DTYPES:
        raise TypeError(f"attn_sink must be {expected}, got dtype {sink_arr.dtype}")
    if sink_arr.shape != (h_q,):
        raise ValueError(f"attn_sink must be {expected}, got shape {sink_arr.shape}")
    with np.errstate(over="ignore"):  # a float64 beyond float32 becomes +-inf, which the sink allows
        sink = sink_arr.astype(np.float32)
    if np.isnan(sink).any():
        raise ValueError("attn_sink must not hold NaN (+inf and -inf are allowed), got a NaN")
    return sink


def _logits_may_overflow(inputs: _Inputs) -> bool:
    """Whether some ``|q . k| x sm_scale`` (or a partial sum of it) might pass the compute type's largest value.

    By Cauchy-Schwarz every partial sum of ``q . k`` is at most ``|q| |k|``; when the largest such product, times
    ``max(sm_scale, 1)``, stays below half the largest finite value, nothing can overflow and no check is needed.
    """
    largest = float(np.finfo(inputs.q.dtype).max)
    with np.errstate(over="ignore", invalid="ignore"):  # an infinite norm means: check
        q_norm = float(np.sqrt(np.square(inputs.q, dtype=np.float64).sum(axis=-1)).max())
        k_norm = float(np.sqrt(np.square(inputs.kv, dtype=np.float64).sum(axis=-1)).max())
        bound = q_norm * k_norm * max(inputs.sm_scale, 1.0)
    return not bound < largest / 2


def _check_logits(logits: NDArray[Any], scale: float) -> None:
    """Raise unless every raw logit and every scaled one is finite (only called when overflow is possible)."""
    with np.errstate(over="ignore", invalid="ignore"):
        finite = bool(np.isfinite(logits).all() and np.isfinite(logits * logits.dtype.type(scale)).all())
    if not finite:
        raise ValueError(
            f"q . k x sm_scale overflows {logits.dtype}: the inputs are finite but a logit is not; "
            "scale q, kv or sm_scale down"
        )


def _sink_factor(lse: NDArray[Any], attn_sink: FloatArray | None, lonely: BoolArray) -> NDArray[Any] | None:
    """``exp(lse) / (exp(lse) + exp(sink))`` per row, computed as ``1 / (1 + exp(sink - lse))``; None without sink."""
    if attn_sink is None:
        return None
    finite_lse = np.where(lonely[:, None], 0.0, lse)
    with np.errstate(over="ignore"):  # exp(sink - lse) overflows to +inf exactly when the factor is 0
        factor: NDArray[Any] = 1.0 / (1.0 + np.exp(attn_sink[None, :].astype(lse.dtype) - finite_lse))
    return factor


def _exp_shifted(logits: NDArray[Any], shift: NDArray[Any]) -> NDArray[Any]:
    """``exp(logits - shift[..., None])`` in place, with results below the smallest normal float set to exactly 0.

    Subnormal weights change no sum at the precision kept, and subnormal operands slow BLAS down a hundredfold.
    """
    logits -= shift[..., None]
    logits[logits < np.log(np.finfo(logits.dtype).tiny)] = -np.inf
    weights: NDArray[Any] = np.exp(logits, out=logits)
    return weights


def _lonely(valid: BoolArray) -> BoolArray:
    """``[s_q]``: the tokens with no valid index at all."""
    return np.asarray(~valid.any(axis=1), dtype=np.bool_)


def _dense_forward(inputs: _Inputs) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Softmax over all of a token's gathered keys at once, in the compute type of ``inputs``.

    Tokens are processed a few at a time so that the gathered keys (``[tokens, topk, d_qk]``) stay within
    ``_GATHER_BUDGET_BYTES`` in one reused buffer; every step is vectorised over the tokens and heads of a chunk.
    """
    s_q, h_q, topk = inputs.shape
    dtype = inputs.q.dtype
    d_qk = inputs.kv.shape[1]
    lonely = _lonely(inputs.valid)
    bias = np.where(inputs.valid, 0.0, -np.inf).astype(dtype)  # [s_q, topk]: invalid keys -> -inf
    out = np.empty((s_q, h_q, inputs.d_v), dtype=dtype)
    max_logits = np.full((s_q, h_q), -np.inf, dtype=dtype)
    sumexp = np.zeros((s_q, h_q), dtype=dtype)
    chunk = max(1, _GATHER_BUDGET_BYTES // max(1, topk * (d_qk + h_q) * dtype.itemsize))
    gathered_buffer = np.empty((min(chunk, s_q), topk, d_qk), dtype=dtype)
    check = _logits_may_overflow(inputs)
    for first in range(0, s_q, chunk):
        rows = slice(first, min(first + chunk, s_q))
        gathered = gathered_buffer[: rows.stop - rows.start]  # [tokens, topk, d_qk]
        # The indices are already legal; mode="clip" spares numpy a buffered copy of the output.
        np.take(inputs.kv, inputs.gather[rows], axis=0, out=gathered, mode="clip")
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported just below
            logits = np.matmul(inputs.q[rows], gathered.transpose(0, 2, 1))  # [tokens, h_q, topk]
        if check:
            _check_logits(logits, inputs.sm_scale)
        logits *= dtype.type(inputs.sm_scale)
        logits += bias[rows, None, :]
        if topk:
            max_logits[rows] = logits.max(axis=2)
        shift = np.where(lonely[rows, None], 0.0, max_logits[rows]).astype(dtype)  # [tokens, h_q]
        weights = _exp_shifted(logits, shift)  # [tokens, h_q, topk]
        sumexp[rows] = weights.sum(axis=2)
        np.matmul(weights, gathered[:, :, : inputs.d_v], out=out[rows])  # [tokens, h_q, d_v]
    safe_sum = np.where(lonely[:, None], 1.0, sumexp).astype(dtype)
    out /= safe_sum[:, :, None]
    shift = np.where(lonely[:, None], 0.0, max_logits).astype(dtype)
    lse = np.where(lonely[:, None], np.inf, np.log(safe_sum) + shift).astype(dtype)
    factor = _sink_factor(lse, inputs.attn_sink, lonely)
    if factor is not None:
        out *= factor[:, :, None].astype(dtype)
    return out, max_logits, lse


def sparse_attn_fwd(
    q: NDArray[Any],
    kv: NDArray[Any],
    indices: NDArray[Any],
    sm_scale: float,
    d_v: int = DSA_V41.d_v,
    attn_sink: NDArray[Any] | None = None,
    topk_length: NDArray[Any] | None = None,
) -> Result:
    """The plain reference: gather each token's keys, one softmax over all of them, then ``S @ V``.

    A float oracle, not a model of the kernel: it computes in float32 (what the benchmark's floor measures) and
    returns ``out`` in float32, where the kernel writes bf16 ([`blocked_sparse_attn_fwd`][] models that). See
    [`sparse_attn_fwd_float64`][] for the same maths in float64. Shapes and meaning as in the module docstring.

    Returns:
        ``(out [s_q, h_q, d_v], max_logits [s_q, h_q], lse [s_q, h_q])``, float32.
    """
    inputs = _check_inputs(q, kv, indices, sm_scale, d_v, attn_sink, topk_length, np.float32)
    out, max_logits, lse = _dense_forward(inputs)
    return out.astype(np.float32), max_logits.astype(np.float32), lse.astype(np.float32)


def sparse_attn_fwd_float64(
    q: NDArray[Any],
    kv: NDArray[Any],
    indices: NDArray[Any],
    sm_scale: float,
    d_v: int = DSA_V41.d_v,
    attn_sink: NDArray[Any] | None = None,
    topk_length: NDArray[Any] | None = None,
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """The dense oracle: [`sparse_attn_fwd`][] computed in float64, returned in float64 (``out`` included)."""
    inputs = _check_inputs(q, kv, indices, sm_scale, d_v, attn_sink, topk_length, np.float64)
    out, max_logits, lse = _dense_forward(inputs)
    return out.astype(np.float64), max_logits.astype(np.float64), lse.astype(np.float64)


def sparse_attn_weights(
    q: NDArray[Any],
    kv: NDArray[Any],
    indices: NDArray[Any],
    sm_scale: float,
    topk_length: NDArray[Any] | None = None,
) -> tuple[Float64Array, Float64Array]:
    """Per index, in float64: the scaled logit (-inf where invalid) and its softmax weight (0 where invalid).

    ``[s_q, h_q, topk]`` each; an index listed twice gets its weight twice. For looking at small cases.
    """
    inputs = _check_inputs(q, kv, indices, sm_scale, None, None, topk_length, np.float64)
    gathered = np.take(inputs.kv, inputs.gather, axis=0)  # [s_q, topk, d_qk]
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported just below
        logits = np.matmul(inputs.q, gathered.transpose(0, 2, 1))  # [s_q, h_q, topk]
    if _logits_may_overflow(inputs):
        _check_logits(logits, inputs.sm_scale)
    logits *= inputs.sm_scale
    logits[~np.broadcast_to(inputs.valid[:, None, :], logits.shape)] = -np.inf
    lonely = _lonely(inputs.valid)
    shift = np.where(lonely[:, None], 0.0, logits.max(axis=2, initial=-np.inf))
    weights = _exp_shifted(logits.copy(), shift)
    total = np.where(lonely[:, None], 1.0, weights.sum(axis=2))
    return logits, np.asarray(weights / total[:, :, None], dtype=np.float64)


#: Heads one VECTOR Core decides for (``MMA_M_PER_V``, config.h:54): 32 of the 64 heads at ``H_Q = 64``.
HEADS_PER_VECTOR_CORE: Final = SHIPPED_KERNEL.mma_m_per_vector_core


def skip_scale_decision(
    running_max: NDArray[Any],
    max_for_softmax: NDArray[Any],
    threshold: float,
    heads_per_core: int = HEADS_PER_VECTOR_CORE,
) -> tuple[BoolArray, FloatArray]:
    """Which VECTOR Cores rescale, and the max each head's softmax uses from now on.

    ``running_max`` and ``max_for_softmax`` are ``[..., h_q]`` in the units of ``threshold``. Heads are split into
    consecutive groups of ``heads_per_core``, one per VECTOR Core (the last may be partial). A core rescales when the
    largest ``running_max - max_for_softmax`` over *its own* heads is strictly above ``threshold``, and then only its
    heads adopt their running max (kernel_body.h:466-680 ``softmax_vf``: ``asc_reduce_max`` at 568 under
    ``valid_rows_mask_for_row_max``, 502-516, all lanes at ``H_Q == 64``, 503-505; ``asc_gt_scalar`` at 572;
    ``asc_select`` at 574; config.h:43). ``heads_per_core = h_q`` is the joint rule, one decision for all heads, kept
    as a named variant for comparison.

    Returns:
        ``(triggered [..., cores], new_max [..., h_q])``.

    Raises:
        ValueError: a NaN in the maxima (the kernel's ``>`` would silently say "no rescale").
    """
    running = np.asarray(running_max, dtype=np.float32)
    used = np.asarray(max_for_softmax, dtype=np.float32)
    if running.shape != used.shape or running.ndim < 1:
        raise ValueError(
            f"running_max and max_for_softmax must have one shape [..., h_q], got {running.shape} and {used.shape}"
        )
    value = require_real("threshold", threshold, "a number >= 0")
    if not value >= 0:
        raise ValueError(f"threshold must be a number >= 0, got {threshold!r}")
    group = require_int("heads_per_core", heads_per_core, minimum=1)
    with np.errstate(over="ignore", invalid="ignore"):
        gap = running - used
    if np.isnan(gap).any():
        raise ValueError("running_max and max_for_softmax must not hold NaN (nor opposite infinities), got one")
    h_q = running.shape[-1]
    group = max(min(group, h_q), 1)  # a core wider than the heads holds them all
    cores = -(-h_q // group)
    padded = np.full((*gap.shape[:-1], cores * group), -np.inf, dtype=np.float32)
    padded[..., :h_q] = gap
    core_gap = padded.reshape(*gap.shape[:-1], cores, group).max(axis=-1)  # [..., cores]
    with np.errstate(over="ignore"):
        triggered = np.asarray(core_gap > np.float32(value), dtype=np.bool_)
    per_head = np.repeat(triggered, group, axis=-1)[..., :h_q]
    return triggered, np.where(per_head, running, used).astype(np.float32)


@dataclass(frozen=True)
class BlockedStats:
    """What the blocked forward did, per query token; the per-block arrays hold the state after each block.

    ``running_max``, ``max_for_softmax`` and ``running_sumexp`` are ``[s_q, n_blocks, h_q]`` float32 with logits
    scaled by ``sm_scale``. ``core_rescaled`` is ``[s_q, n_blocks, cores]``: which VECTOR Core rescaled its heads
    at which block (block 0 never counts: it sets the max).
    """

    b_topk: int
    rescale_threshold: float
    heads_per_core: int
    blocks: IntArray  # [s_q], blocks the kernel runs for each token: max(ceil(topk_length / b_topk), 1)
    core_rescaled: BoolArray  # [s_q, n_blocks, cores]
    running_max: FloatArray
    max_for_softmax: FloatArray
    running_sumexp: FloatArray
    max_exp_term: FloatArray  # [s_q], the largest exp(logit - max_for_softmax) before normalisation

    @property
    def rescaled(self) -> BoolArray:
        """``[s_q, n_blocks]``: blocks at which O left L0C, that is, some VECTOR Core rescaled (kernel_body.h:1588)."""
        return np.asarray(self.core_rescaled.any(axis=2), dtype=np.bool_)

    @property
    def core_rescales(self) -> IntArray:
        """``[s_q, cores]``: blocks at which each VECTOR Core rescaled its own heads."""
        return np.asarray(self.core_rescaled.sum(axis=1), dtype=np.int64)

    @property
    def rescales(self) -> IntArray:
        """Blocks at which some VECTOR Core rescaled, per token: the O copies out of L0C before the last."""
        return np.asarray(self.rescaled.sum(axis=1), dtype=np.int64)

    @property
    def o_copies(self) -> IntArray:
        """Times O leaves L0C per token: once per block where either core rescales, and once at the end."""
        return self.rescales + 1


def _round_to_bf16(values: FloatArray) -> FloatArray:
    """Round float32 values to the nearest bfloat16 (ties to even) and widen back to float32."""
    return values.astype(BFLOAT16).astype(np.float32)


#: Largest rescale threshold the blocked forward accepts: each unnormalised term is at most ``exp(threshold)`` and
#: a row sums at most 2^31 of them, so ``exp(64) x 2^31`` (about 1.3e37) keeps every float32 sum finite.
MAX_RESCALE_THRESHOLD: Final = 64.0


def _check_knobs(b_topk: object, rescale_threshold: object, heads_per_core: object) -> tuple[int, float, int]:
    """The block size and heads per core as positive integers, the threshold a number in [0, 64]."""
    block = require_int("b_topk", b_topk, minimum=1)
    expected = f"a number in [0, {MAX_RESCALE_THRESHOLD:g}] (larger ones let float32 exp sums overflow)"
    threshold = require_real("rescale_threshold", rescale_threshold, expected)
    if not 0 <= threshold <= MAX_RESCALE_THRESHOLD:
        raise ValueError(f"rescale_threshold must be {expected}, got {rescale_threshold!r}")
    return block, threshold, require_int("heads_per_core", heads_per_core, minimum=1)


@dataclass
class _Chunk:
    """The kernel's state for a few query tokens: their gathered keys and scores, raw row maxima, row sums, O in UB.

    ``scores`` holds the raw ``P = Q K^T`` of every block and, once a block is done, its ``bf16(S)`` in place. O in
    L0C is ``S @ V`` summed since O last left L0C; it is formed when O leaves (one matmul over those blocks, as
    the CUBE accumulates them in L0C), so ``segment`` records the first column not yet in UB, per token.
    """

    keys: FloatArray  # [n, topk, d_qk]
    scores: FloatArray  # [n, h_q, topk]
    d_v: int
    running_max: FloatArray  # [n, h_q], raw logits (not scaled), as ``ub_buf.row_max``
    max_for_o: FloatArray  # [n, h_q], raw, as ``ub_buf.row_max_for_o``
    row_sum: FloatArray  # [n, h_q]
    o_ub: FloatArray  # [n, h_q, d_v], ``ub_buf.output_accum``
    segment: IntArray  # [n]

    def o_l0c(self, tokens: NDArray[np.intp], stop: int) -> FloatArray:
        """``[len(tokens), h_q, d_v]``: what L0C holds for ``tokens`` before column ``stop``, in float32."""
        o_l0c = np.zeros((tokens.size, self.scores.shape[1], self.d_v), dtype=np.float32)
        for start in np.unique(self.segment[tokens]):
            same = np.flatnonzero(self.segment[tokens] == start)
            if stop > start:
                listed = tokens[same]
                first = int(listed[0])
                picked: NDArray[np.intp] | slice = listed
                if np.array_equal(listed, np.arange(first, first + listed.size)):
                    picked = slice(first, first + listed.size)  # a view, not a copy of the keys
                o_l0c[same] = np.matmul(self.scores[picked, :, start:stop], self.keys[picked, start:stop, : self.d_v])
        return o_l0c

    def copy_out_and_rescale(self, tokens: NDArray[np.intp], new_max: FloatArray, scale: np.float32, stop: int) -> None:
        """FixPipe copies O of ``tokens`` out of L0C; UB keeps ``(O_l0c + O_ub) x exp(old - new)`` per head.

        kernel_body.h:686-725 ``add_and_scale_o_vf`` and ``softmax_vf`` (``row_scales``, 579-583); a head whose
        core did not rescale has ``new == old`` and factor 1.
        """
        with np.errstate(over="ignore"):  # after an empty start the old max is the lowest float: factor 0
            factor = np.exp(self.max_for_o[tokens] * scale - new_max[tokens] * scale)  # [n, h_q]
        merged = self.o_l0c(tokens, stop)
        merged += self.o_ub[tokens]
        merged *= factor[:, :, None]
        self.o_ub[tokens] = merged
        self.segment[tokens] = stop
        self.row_sum[tokens] *= factor
        self.max_for_o = new_max


def _finish(
    inputs: _Inputs, rows: slice, chunk: _Chunk, scale: np.float32
) -> tuple[NDArray[Any], FloatArray, FloatArray]:
    """The last step, as ``get_final_lse_and_denorm_vf`` and ``get_final_output_vf`` do it.

    ``lse = ln(row_sum) + max_for_o`` (kernel_body.h:746, 752-753);
    ``denorm = 1 / (row_sum [+ exp(sink - max_for_o)])`` (758-766); ``out = bf16((O_l0c + O_ub) x denorm)`` (bf16 at
    822-826). A token with no valid index (its row max is still the lowest float, 742-743) gets ``out`` 0 (denorm 0,
    767), ``max_logits`` -inf (748) and ``lse`` +inf (754). In kernel_body.h ``get_final_lse_and_denorm_vf`` is
    lines 728-770 and ``get_final_output_vf`` lines 776-846.
    """
    lonely = _lonely(inputs.valid[rows])[:, None]  # [n, 1]
    max_for_o = chunk.max_for_o * scale
    safe_sum = np.where(lonely, np.float32(1.0), chunk.row_sum)
    lse = np.where(lonely, np.float32(np.inf), np.log(safe_sum) + max_for_o).astype(np.float32)
    max_logits = np.where(lonely, np.float32(-np.inf), chunk.running_max * scale).astype(np.float32)
    denominator = safe_sum
    if inputs.attn_sink is not None:
        with np.errstate(over="ignore"):  # a sink far above the max makes the denominator +inf and out 0
            denominator = safe_sum + np.exp(inputs.attn_sink[None, :] - max_for_o)
    denorm = np.where(lonely, np.float32(0.0), np.float32(1.0) / denominator).astype(np.float32)
    out = chunk.o_l0c(np.arange(lonely.shape[0], dtype=np.intp), chunk.scores.shape[2])
    out += chunk.o_ub
    out *= denorm[:, :, None]
    return out.astype(BFLOAT16), max_logits, lse


@dataclass(frozen=True)
class _Knobs:
    """The blocked forward's settings, checked: block size, raw threshold, heads per VECTOR Core."""

    b_topk: int
    raw_threshold: float  # ``float32(threshold) / float32(sm_scale)``, as the host computes it (kernel_body.h:1661)
    heads_per_core: int
    scale: np.float32


def _run_blocks(chunk: _Chunk, knobs: _Knobs, core_rescaled: BoolArray, history: FloatArray) -> FloatArray:
    """The kernel's block loop over one chunk of tokens; fills ``core_rescaled`` and ``history``, returns max exp."""
    n, _, topk = chunk.scores.shape
    scale = knobs.scale
    max_exp_term = np.zeros(n, dtype=np.float32)
    for block in range(core_rescaled.shape[1]):
        start = block * knobs.b_topk
        stop = min(start + knobs.b_topk, topk)
        part = chunk.scores[:, :, start:stop]  # raw P of this block [n, h_q, w], invalid keys -inf
        block_max = part.max(axis=2, initial=-np.inf)
        np.maximum(chunk.running_max, block_max, out=chunk.running_max)
        if block == 0:
            chunk.max_for_o = chunk.running_max.copy()
        else:
            triggered, new_max = skip_scale_decision(
                chunk.running_max, chunk.max_for_o, knobs.raw_threshold, knobs.heads_per_core
            )
            core_rescaled[:, block] = triggered
            copy_out = np.flatnonzero(triggered.any(axis=1))  # either core: the CUBE copies O out of L0C
            if copy_out.size:
                chunk.copy_out_and_rescale(copy_out, new_max, scale, start)
        shift = chunk.max_for_o * scale  # [n, h_q]
        part *= scale
        weights = _exp_shifted(part, shift)  # S [n, h_q, w] in place, each <= exp(threshold)
        chunk.row_sum += weights.sum(axis=2)
        with np.errstate(under="ignore"):  # the same float32 steps on the block's largest logit
            term = np.exp(block_max * scale - shift).max(axis=1, initial=0.0)
        np.maximum(max_exp_term, term, out=max_exp_term)
        part[...] = _round_to_bf16(weights)  # S is cast to bf16 before S @ V
        history[0, :, block] = chunk.running_max * scale
        history[1, :, block] = shift
        history[2, :, block] = chunk.row_sum
    return max_exp_term


def blocked_sparse_attn_fwd(  # noqa: PLR0913 - FlashMLA's signature plus the kernel's three knobs
    q: NDArray[Any],
    kv: NDArray[Any],
    indices: NDArray[Any],
    sm_scale: float,
    d_v: int = DSA_V41.d_v,
    attn_sink: NDArray[Any] | None = None,
    topk_length: NDArray[Any] | None = None,
    *,
    b_topk: int = SHIPPED_KERNEL.b_topk,
    rescale_threshold: float = SHIPPED_KERNEL.rescale_threshold,
    heads_per_core: int = HEADS_PER_VECTOR_CORE,
) -> tuple[NDArray[Any], FloatArray, FloatArray, BlockedStats]:
    """The kernel's model: online softmax over blocks of ``b_topk`` indices, rescaling per VECTOR Core.

    Per block, as kernel_body.h does it: raw ``P = Q K^T`` of the block's keys (invalid keys -inf); raise the raw
    running max (starting from the lowest finite float, kernel_body.h:524, so block 0 adopts its own max, 586-589);
    from block 1 on, each VECTOR Core (``heads_per_core`` heads) compares the largest rise of its heads' max over
    ``max_for_o`` with ``rescale_threshold / sm_scale`` ([`skip_scale_decision`][]). If either core rescales, the
    CUBE copies O out of L0C (kernel_body.h:1583-1590; the VECTOR Cores read the same flags at 1204-1207) and UB
    keeps ``(O_l0c + O_ub) x exp(old - new)``, a factor 1 for the heads of a core that did not rescale; otherwise O
    stays in L0C. Then ``S = exp(P x sm_scale - max_for_o x sm_scale)``, ``row_sum += S.sum()`` and
    ``O_l0c += bf16(S) @ V`` in float32 (report (zh) lines 41-73). At the end ``out = bf16((O_l0c + O_ub) / row_sum)``,
    rounded to bfloat16 as ``get_final_output_vf`` writes it (kernel_body.h:822-826); ``max_logits`` and ``lse`` stay
    float32. The plain forwards are the float oracles this model is compared with.

    Tokens are independent, so they are processed a few at a time (gathered keys within ``_GATHER_BUDGET_BYTES``);
    a chunk's ``P`` is one matmul over all its keys, sliced per block, and ``S @ V`` is one matmul over the blocks O
    stayed in L0C for. Only rounding order differs from block-by-block products.

    Returns:
        ``(out, max_logits, lse, stats)``: ``out`` bfloat16 ``[s_q, h_q, d_v]``, the others as in
        [`sparse_attn_fwd`][].
    """
    block_size, threshold, group = _check_knobs(b_topk, rescale_threshold, heads_per_core)
    inputs = _check_inputs(q, kv, indices, sm_scale, d_v, attn_sink, topk_length, np.float32)
    s_q, h_q, topk = inputs.shape
    n_blocks = max(-(-topk // block_size), 1)
    scale = np.float32(inputs.sm_scale)
    with np.errstate(over="ignore"):  # a tiny sm_scale gives an infinite raw threshold: never rescale
        raw_threshold = float(np.float32(threshold) / scale)  # kernel_body.h:1661, RESCALE_THRESHOLD / sm_scale
    knobs = _Knobs(min(block_size, max(topk, 1)), raw_threshold, min(group, h_q), scale)
    check = _logits_may_overflow(inputs)
    d_qk = inputs.kv.shape[1]

    out = np.empty((s_q, h_q, inputs.d_v), dtype=BFLOAT16)
    max_logits = np.empty((s_q, h_q), dtype=np.float32)
    lse = np.empty((s_q, h_q), dtype=np.float32)
    core_rescaled = np.zeros((s_q, n_blocks, -(-h_q // knobs.heads_per_core)), dtype=np.bool_)
    history = np.empty((3, s_q, n_blocks, h_q), dtype=np.float32)
    max_exp_term = np.zeros(s_q, dtype=np.float32)
    step = max(1, _GATHER_BUDGET_BYTES // max(1, topk * (d_qk + h_q) * 4))  # tokens per chunk
    keys_buffer = np.empty((min(step, s_q), topk, d_qk), dtype=np.float32)
    scores_buffer = np.empty((min(step, s_q), h_q, topk), dtype=np.float32)
    for first in range(0, s_q, step):
        rows = slice(first, min(first + step, s_q))
        n = rows.stop - rows.start
        keys, scores = keys_buffer[:n], scores_buffer[:n]
        np.take(inputs.kv, inputs.gather[rows], axis=0, out=keys, mode="clip")  # [n, topk, d_qk]
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported just below
            np.matmul(inputs.q[rows], keys.transpose(0, 2, 1), out=scores)  # raw P [n, h_q, topk]
        if check:
            _check_logits(scores, inputs.sm_scale)
        valid = inputs.valid[rows]
        if not valid.all():
            scores[~np.broadcast_to(valid[:, None, :], scores.shape)] = -np.inf
        chunk = _Chunk(
            keys=keys,
            scores=scores,
            d_v=inputs.d_v,
            running_max=np.full((n, h_q), _LOWEST, dtype=np.float32),
            max_for_o=np.full((n, h_q), _LOWEST, dtype=np.float32),
            row_sum=np.zeros((n, h_q), dtype=np.float32),
            o_ub=np.zeros((n, h_q, inputs.d_v), dtype=np.float32),
            segment=np.zeros(n, dtype=np.int64),
        )
        max_exp_term[rows] = _run_blocks(chunk, knobs, core_rescaled[rows], history[:, rows])
        out[rows], max_logits[rows], lse[rows] = _finish(inputs, rows, chunk, scale)

    stats = BlockedStats(
        b_topk=block_size,
        rescale_threshold=threshold,
        heads_per_core=group,
        blocks=np.maximum(-(-inputs.topk_length // knobs.b_topk), 1),
        core_rescaled=core_rescaled,
        running_max=history[0],
        max_for_softmax=history[1],
        running_sumexp=history[2],
        max_exp_term=max_exp_term,
    )
    return out, max_logits, lse, stats


def output_tolerance(kv: NDArray[Any], d_v: int, topk: int) -> float:
    """The largest difference between the blocked and the plain ``out`` that rounding explains: our stated tolerance.

    ``S`` is rounded to bf16 before ``S @ V``: each weight moves by at most ``2^-8`` of itself, and the normalised
    weights of a row sum to at most 1, so ``out`` moves by at most ``2^-8 * max|V|``; rounding ``out`` itself to bf16
    moves it by at most ``2^-8 * |out| <= 2^-8 * max|V|`` again. On top of that we allow
    ``2 * (d_qk + topk) * 2^-24`` of ``max|V|`` for the float32 dot products and sums, which both forwards share.
    """
    array = _float_array("kv", kv, "[s_kv, 1, d_qk]", np.float32)
    if array.ndim != 3:  # noqa: PLR2004 - three axes
        raise ValueError(f"kv must have shape [s_kv, 1, d_qk], got shape {array.shape}")
    values = np.abs(array)
    d_qk = values.shape[-1] if values.ndim else 0
    dims = require_int("d_v", d_v, minimum=1)
    require_int("topk", topk, minimum=0)
    largest = float(values[..., :dims].max()) if values.size else 0.0
    return (2 * BF16_UNIT_ROUNDOFF + 2 * (d_qk + max(topk, 1)) * FP32_UNIT_ROUNDOFF) * largest
