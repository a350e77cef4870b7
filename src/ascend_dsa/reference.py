"""NumPy sparse attention forward: the plain softmax, and the kernel's blocked online softmax with skip-scale.

Report (zh) lines 19-73. The inputs and outputs follow FlashMLA's ``flash_mla_sparse_fwd``:

- ``q``: ``[s_q, h_q, d_qk]``; ``kv``: ``[s_kv, 1, d_qk]`` (one KV head shared by every q head);
- ``indices``: ``[s_q, 1, topk]`` integers; an index ``< 0`` or ``>= s_kv`` is invalid and ignored, and so is every
  index at or past ``topk_length[t]`` when ``topk_length`` (``[s_q]``) is given;
- ``attn_sink``: ``[h_q]``; it scales ``out`` by ``exp(lse) / (exp(lse) + exp(sink))`` and changes neither ``lse``
  nor ``max_logits``;
- returns ``out`` ``[s_q, h_q, d_v]``, ``max_logits`` and ``lse`` ``[s_q, h_q]``, all float32. Logits are scaled by
  ``sm_scale`` before the max and the natural log-sum-exp; a row with no valid index gets ``out`` 0,
  ``max_logits`` -inf and ``lse`` +inf.

Both forwards are vectorised over query tokens and heads; the blocked one loops over blocks of ``b_topk`` indices.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascend_dsa.kernel_config import SHIPPED_KERNEL
from ascend_dsa.model import DSA_V41
from ascend_dsa.units import MiB

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

#: The kernel starts its running max at the lowest finite float, not -inf (kernel_body.h ``softmax_vf``).
_LOWEST: Final = np.float32(np.finfo(np.float32).min)

#: Largest buffer of gathered keys a forward keeps at once (``[tokens, keys, d_qk]``); only memory, not results.
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
    array = np.asarray(value)
    if array.dtype not in FLOAT_DTYPES:
        raise ValueError(f"{name} must be bfloat16, float32 or float64 {expected_shape}, got dtype {array.dtype}")
    with np.errstate(over="ignore", invalid="ignore"):  # a float64 beyond float32 becomes inf: rejected below
        converted = array.astype(compute, copy=False)
    if not np.isfinite(converted).all():
        raise ValueError(f"{name} must hold finite values only, got a NaN or an infinity")
    return converted


def _int_array(name: str, value: object, expected_shape: str) -> NDArray[Any]:
    array = np.asarray(value)
    if array.dtype.kind not in "iu":
        raise ValueError(f"{name} must be an int32 array {expected_shape}, got dtype {array.dtype}")
    return array


def _check_inputs(  # noqa: C901 - one check per argument, each with its own message
    q: object,
    kv: object,
    indices: object,
    sm_scale: float,
    d_v: int,
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
    if isinstance(sm_scale, bool) or not isinstance(sm_scale, int | float | np.floating):
        raise ValueError(f"sm_scale must be a positive finite number, got {sm_scale!r}")  # noqa: TRY004 - bad input is a ValueError here
    if not (math.isfinite(sm_scale) and sm_scale > 0):
        raise ValueError(f"sm_scale must be a positive finite number, got {sm_scale!r}")
    if isinstance(d_v, bool) or not isinstance(d_v, int | np.integer) or not 1 <= d_v <= d_qk:
        raise ValueError(f"d_v must be an integer in [1, d_qk = {d_qk}], got {d_v!r}")
    sink: FloatArray | None = None
    if attn_sink is not None:
        sink_arr = np.asarray(attn_sink)
        if sink_arr.dtype not in FLOAT_DTYPES or sink_arr.shape != (h_q,):
            raise ValueError(
                f"attn_sink must be a float array of shape [h_q] = ({h_q},), got {sink_arr.dtype} {sink_arr.shape}"
            )
        sink = sink_arr.astype(np.float32)
        if np.isnan(sink).any():
            raise ValueError("attn_sink must not hold NaN (+inf and -inf are allowed), got a NaN")
    lengths = np.full(s_q, topk, dtype=np.int64)
    if topk_length is not None:
        lengths_arr = _int_array("topk_length", topk_length, f"[s_q] = ({s_q},)")
        if lengths_arr.shape != (s_q,):
            raise ValueError(f"topk_length must have shape [s_q] = ({s_q},), got shape {lengths_arr.shape}")
        if lengths_arr.size and (lengths_arr.min() < 0 or lengths_arr.max() > topk):
            low, high = lengths_arr.min(), lengths_arr.max()
            raise ValueError(f"topk_length must lie in [0, topk = {topk}], got values from {low} to {high}")
        lengths = lengths_arr.astype(np.int64)
    flat = idx[:, 0, :].astype(np.int64)  # [s_q, topk]
    valid = (flat >= 0) & (flat < s_kv) & (np.arange(topk)[None, :] < lengths[:, None])
    return _Inputs(
        q=q_arr,
        kv=kv_arr[:, 0, :],
        gather=np.where(valid, flat, 0).astype(np.intp),
        valid=valid,
        sm_scale=float(sm_scale),
        d_v=int(d_v),
        attn_sink=sink,
        topk_length=lengths,
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
    chunk = max(1, _GATHER_BUDGET_BYTES // max(1, topk * d_qk * dtype.itemsize))
    gathered_buffer = np.empty((min(chunk, s_q), topk, d_qk), dtype=dtype)
    for first in range(0, s_q, chunk):
        rows = slice(first, min(first + chunk, s_q))
        gathered = gathered_buffer[: rows.stop - rows.start]  # [tokens, topk, d_qk]
        # The indices are already legal; mode="clip" spares numpy a buffered copy of the output.
        np.take(inputs.kv, inputs.gather[rows], axis=0, out=gathered, mode="clip")
        logits = np.matmul(inputs.q[rows], gathered.transpose(0, 2, 1))  # [tokens, h_q, topk]
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

    Computes in float32 (what the benchmark's floor measures); see
    [`sparse_attn_fwd_float64()`][ascend_dsa.reference.sparse_attn_fwd_float64] for the same
    maths in float64. Shapes and meaning as in the module docstring.

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
    """The dense oracle: `sparse_attn_fwd()` computed in float64, returned in float64."""
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
    d_qk = np.asarray(q).shape[-1]
    inputs = _check_inputs(q, kv, indices, sm_scale, d_qk, None, topk_length, np.float64)
    gathered = np.take(inputs.kv, inputs.gather, axis=0)  # [s_q, topk, d_qk]
    logits = np.matmul(inputs.q, gathered.transpose(0, 2, 1)) * inputs.sm_scale  # [s_q, h_q, topk]
    logits[~np.broadcast_to(inputs.valid[:, None, :], logits.shape)] = -np.inf
    lonely = _lonely(inputs.valid)
    shift = np.where(lonely[:, None], 0.0, logits.max(axis=2, initial=-np.inf))
    weights = _exp_shifted(logits.copy(), shift)
    total = np.where(lonely[:, None], 1.0, weights.sum(axis=2))
    return logits, np.asarray(weights / total[:, :, None], dtype=np.float64)


def skip_scale_decision(
    running_max: FloatArray, max_for_softmax: FloatArray, threshold: float
) -> tuple[BoolArray, FloatArray]:
    """Whether each token rescales, and the max its softmax uses from now on.

    ``running_max`` and ``max_for_softmax`` are ``[..., h_q]`` sm_scale-scaled logits. A token rescales when *some*
    head's running max exceeds the max its softmax uses by more than ``threshold`` (strict ``>``, config.h:43);
    then every head of the token adopts its running max. Otherwise nothing changes: that skipped work is skip-scale.
    """
    triggered = np.asarray(((running_max - max_for_softmax) > np.float32(threshold)).any(axis=-1), dtype=np.bool_)
    return triggered, np.where(triggered[..., None], running_max, max_for_softmax).astype(np.float32)


@dataclass(frozen=True)
class BlockedStats:
    """What the blocked forward did, per query token; the per-block arrays hold the state after each block.

    ``running_max``, ``max_for_softmax`` and ``running_sumexp`` are ``[s_q, n_blocks, h_q]`` float32 with logits
    already scaled by ``sm_scale``; ``rescaled`` is ``[s_q, n_blocks]`` (block 0 never counts: it sets the max).
    """

    b_topk: int
    rescale_threshold: float
    blocks: IntArray  # [s_q], blocks the kernel runs for each token: max(ceil(topk_length / b_topk), 1)
    rescaled: BoolArray  # [s_q, n_blocks]
    running_max: FloatArray
    max_for_softmax: FloatArray
    running_sumexp: FloatArray
    max_exp_term: FloatArray  # [s_q], the largest exp(logit - max_for_softmax) before normalisation

    @property
    def rescales(self) -> IntArray:
        """Blocks that rescaled, per token."""
        return np.asarray(self.rescaled.sum(axis=1), dtype=np.int64)

    @property
    def o_copies(self) -> IntArray:
        """Times O leaves L0C per token with skip-scale: once per rescale and once at the end."""
        return self.rescales + 1


def _round_to_bf16(values: FloatArray) -> FloatArray:
    """Round float32 values to the nearest bfloat16 (ties to even) and widen back to float32."""
    return values.astype(BFLOAT16).astype(np.float32)


def _check_knobs(b_topk: int, rescale_threshold: float) -> None:
    """Reject a block size that is not a positive integer and a threshold that is not finite and >= 0."""
    if isinstance(b_topk, bool) or not isinstance(b_topk, int | np.integer) or b_topk <= 0:
        raise ValueError(f"b_topk must be a positive integer, got {b_topk!r}")
    if isinstance(rescale_threshold, bool) or not isinstance(rescale_threshold, int | float | np.floating):
        raise ValueError(f"rescale_threshold must be a finite number >= 0, got {rescale_threshold!r}")  # noqa: TRY004
    if not (math.isfinite(rescale_threshold) and rescale_threshold >= 0):
        raise ValueError(f"rescale_threshold must be a finite number >= 0, got {rescale_threshold!r}")


def _normalise(
    inputs: _Inputs, out_accum: FloatArray, running_max: FloatArray, max_for_softmax: FloatArray, sumexp: FloatArray
) -> Result:
    """The last step: ``out = out_accum / (sumexp [+ exp(sink - max)])``, ``lse = log(sumexp) + max``.

    A token with no valid index gets ``out`` 0, ``max_logits`` -inf and ``lse`` +inf.
    """
    lonely = _lonely(inputs.valid)[:, None]  # [s_q, 1]
    safe_sum = np.where(lonely, np.float32(1.0), sumexp)
    lse = np.where(lonely, np.float32(np.inf), np.log(safe_sum) + max_for_softmax).astype(np.float32)
    max_logits = np.where(lonely, np.float32(-np.inf), running_max).astype(np.float32)
    denominator = safe_sum
    if inputs.attn_sink is not None:
        with np.errstate(over="ignore"):  # a sink far above the max makes the denominator +inf and out 0
            denominator = safe_sum + np.exp(inputs.attn_sink[None, :] - max_for_softmax)
    out = np.where(lonely[:, :, None], np.float32(0.0), out_accum / denominator[:, :, None]).astype(np.float32)
    return out, max_logits, lse


def blocked_sparse_attn_fwd(  # noqa: PLR0913 - FlashMLA's signature plus the kernel's two knobs
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
) -> tuple[FloatArray, FloatArray, FloatArray, BlockedStats]:
    """The kernel's algorithm: online softmax over blocks of ``b_topk`` indices, rescaling only past a threshold.

    Per block: gather the block's keys, ``P = Q K^T * sm_scale`` (invalid keys -inf), raise the running max, let
    [`skip_scale_decision()`][ascend_dsa.reference.skip_scale_decision] decide whether to rescale ``out_accum`` and
    ``running_sumexp``, then
    ``S = exp(P - max_for_softmax)``, ``running_sumexp += S.sum()`` and ``out_accum += bf16(S) @ V`` in float32
    (report (zh) lines 41-73). Unlike the report, the running max starts at the lowest finite float and block 0
    simply adopts its own max, as the kernel does; the kernel also decides per VECTOR Core (32 heads) which rows
    adopt the new max, while here all heads of a token move together (the O copy-out is the same either way).

    Returns:
        ``(out, max_logits, lse, stats)``; the first three as in
        [`sparse_attn_fwd()`][ascend_dsa.reference.sparse_attn_fwd].
    """
    _check_knobs(b_topk, rescale_threshold)
    inputs = _check_inputs(q, kv, indices, sm_scale, d_v, attn_sink, topk_length, np.float32)
    s_q, h_q, topk = inputs.shape
    n_blocks = max(-(-topk // b_topk), 1)
    width = n_blocks * b_topk
    gather = np.zeros((s_q, width), dtype=np.intp)  # the tail of the last block is padded with invalid slots
    gather[:, :topk] = inputs.gather
    bias = np.full((s_q, width), -np.inf, dtype=np.float32)  # 0 for a valid key, -inf for an invalid one
    bias[:, :topk][inputs.valid] = 0.0
    scale = np.float32(inputs.sm_scale)

    running_max = np.full((s_q, h_q), _LOWEST, dtype=np.float32)
    max_for_softmax = running_max.copy()
    running_sumexp = np.zeros((s_q, h_q), dtype=np.float32)
    out_accum = np.zeros((s_q, h_q, inputs.d_v), dtype=np.float32)
    rescaled = np.zeros((s_q, n_blocks), dtype=np.bool_)
    history = np.empty((3, s_q, n_blocks, h_q), dtype=np.float32)
    max_exp_term = np.zeros(s_q, dtype=np.float32)

    keys = np.empty((s_q, b_topk, inputs.kv.shape[1]), dtype=np.float32)  # reused by every block
    logits = np.empty((s_q, h_q, b_topk), dtype=np.float32)
    product = np.empty_like(out_accum)  # one block's S @ V, reused so that no block allocates 16 MiB
    for block in range(n_blocks):
        cols = slice(block * b_topk, (block + 1) * b_topk)
        np.take(inputs.kv, gather[:, cols], axis=0, out=keys, mode="clip")  # [s_q, b_topk, d_qk]
        np.matmul(inputs.q, keys.transpose(0, 2, 1), out=logits)  # [s_q, h_q, b_topk]
        logits *= scale
        logits += bias[:, None, cols]
        np.maximum(running_max, logits.max(axis=2), out=running_max)
        if block == 0:
            max_for_softmax = running_max.copy()
        else:
            triggered, new_max = skip_scale_decision(running_max, max_for_softmax, rescale_threshold)
            if triggered.any():
                factor = np.exp(max_for_softmax[triggered] - new_max[triggered])  # [n, h_q], 0 after an empty start
                out_accum[triggered] *= factor[:, :, None]
                running_sumexp[triggered] *= factor
                max_for_softmax = new_max
                rescaled[:, block] = triggered
        weights = _exp_shifted(logits, max_for_softmax)  # [s_q, h_q, b_topk], each <= exp(threshold)
        running_sumexp += weights.sum(axis=2)
        np.maximum(max_exp_term, weights.max(axis=(1, 2)), out=max_exp_term)
        np.matmul(_round_to_bf16(weights), keys[:, :, : inputs.d_v], out=product)
        out_accum += product
        history[0, :, block] = running_max
        history[1, :, block] = max_for_softmax
        history[2, :, block] = running_sumexp

    out, max_logits, lse = _normalise(inputs, out_accum, running_max, max_for_softmax, running_sumexp)
    stats = BlockedStats(
        b_topk=int(b_topk),
        rescale_threshold=float(rescale_threshold),
        blocks=np.maximum(-(-inputs.topk_length // b_topk), 1),
        rescaled=rescaled,
        running_max=history[0],
        max_for_softmax=history[1],
        running_sumexp=history[2],
        max_exp_term=max_exp_term,
    )
    return out, max_logits, lse, stats


def output_tolerance(kv: NDArray[Any], d_v: int, topk: int) -> float:
    """The largest difference between the blocked and the plain ``out`` that rounding explains: our stated tolerance.

    ``S`` is rounded to bf16 before ``S @ V``: each weight moves by at most ``2^-8`` of itself, and the normalised
    weights of a row sum to at most 1, so ``out`` moves by at most ``2^-8 * max|V|``. On top of that we allow
    ``2 * (d_qk + topk) * 2^-24`` of ``max|V|`` for the float32 dot products and sums, which both forwards share.
    """
    values = np.abs(np.asarray(kv).astype(np.float32))
    d_qk = values.shape[-1] if values.ndim else 0
    largest = float(values[..., :d_v].max()) if values.size else 0.0
    return (BF16_UNIT_ROUNDOFF + 2 * (d_qk + max(topk, 1)) * FP32_UNIT_ROUNDOFF) * largest
