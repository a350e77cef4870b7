"""NumPy sparse attention forward, the plain way: one softmax over each token's keys, as float oracles.

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
float32 (float64). The kernel's model, the blocked online softmax with skip-scale, is ``models.blocked_forward``
([`blocked_sparse_attn_fwd`][]): it takes the same arguments and returns ``out`` in bfloat16, as the kernel writes it;
[`output_tolerance`][] bounds how far the two may differ. Both are vectorised over query tokens and heads; the
blocked one loops over blocks of ``b_topk`` indices.

Inputs whose logits overflow the compute type (``|q . k| x sm_scale`` beyond its largest finite value) are rejected
with a ValueError rather than returning NaN.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.models.forward_inputs import (
    BoolArray,
    Float64Array,
    FloatArray,
    ForwardInputs,
    check_inputs,
    exp_shifted,
    float_input,
    gather_logits,
    largest_magnitude,
    logits_may_overflow,
    lonely_tokens,
    tokens_per_chunk,
)
from ascend_dsa.validate import LARGEST_EXACT_WHOLE, MAX_ARRAY_ELEMENTS, require_int, require_within

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Relative rounding error of round-to-nearest bf16 (8 significant bits): 2^-8.
BF16_UNIT_ROUNDOFF: Final = 2.0**-8
#: Relative rounding error of round-to-nearest float32 (24 significant bits): 2^-24.
FP32_UNIT_ROUNDOFF: Final = 2.0**-24

Result = tuple[FloatArray, FloatArray, FloatArray]


def _sink_factor(lse: NDArray[Any], attn_sink: FloatArray | None, lonely: BoolArray) -> NDArray[Any] | None:
    """``exp(lse) / (exp(lse) + exp(sink))`` per row, computed as ``1 / (1 + exp(sink - lse))``; None without sink."""
    if attn_sink is None:
        return None
    finite_lse = np.where(lonely[:, None], 0.0, lse)
    with np.errstate(over="ignore"):  # exp(sink - lse) overflows to +inf exactly when the factor is 0
        factor: NDArray[Any] = 1.0 / (1.0 + np.exp(attn_sink[None, :].astype(lse.dtype) - finite_lse))
    return factor


def _dense_forward(inputs: ForwardInputs) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Softmax over all of a token's gathered keys at once, in the compute type of ``inputs``.

    Tokens are processed a few at a time so that the gathered keys (``[tokens, topk, d_qk]``) stay within
    ``arrays.CHUNK_BYTES`` in one reused buffer; every step is vectorised over the tokens and heads of a chunk.
    """
    s_q, h_q, topk = inputs.shape
    dtype = inputs.q.dtype
    d_qk = inputs.kv.shape[1]
    lonely = lonely_tokens(inputs.valid)
    bias = np.where(inputs.valid, 0.0, -np.inf).astype(dtype)  # [s_q, topk]: invalid keys -> -inf
    out = np.empty((s_q, h_q, inputs.d_v), dtype=dtype)
    max_logits = np.full((s_q, h_q), -np.inf, dtype=dtype)
    sumexp = np.zeros((s_q, h_q), dtype=dtype)
    chunk = tokens_per_chunk(inputs)
    gathered_buffer = np.empty((min(chunk, s_q), topk, d_qk), dtype=dtype)
    check = logits_may_overflow(inputs)
    for first in range(0, s_q, chunk):
        rows = slice(first, min(first + chunk, s_q))
        gathered = gathered_buffer[: rows.stop - rows.start]  # [tokens, topk, d_qk]
        logits = gather_logits(inputs, rows, gathered, check=check)  # [tokens, h_q, topk]
        logits *= dtype.type(inputs.sm_scale)
        logits += bias[rows, None, :]
        if topk:
            max_logits[rows] = logits.max(axis=2)
        shift = np.where(lonely[rows, None], 0.0, max_logits[rows]).astype(dtype)  # [tokens, h_q]
        weights = exp_shifted(logits, shift)  # [tokens, h_q, topk]
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
    return _dense_forward(check_inputs(q, kv, indices, sm_scale, d_v, attn_sink, topk_length, np.float32))


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
    return _dense_forward(check_inputs(q, kv, indices, sm_scale, d_v, attn_sink, topk_length, np.float64))


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
    inputs = check_inputs(q, kv, indices, sm_scale, None, None, topk_length, np.float64)
    s_q, h_q, topk = inputs.shape
    d_qk = inputs.kv.shape[1]
    require_within("s_q x topk x max(d_qk, h_q)", s_q * topk * max(d_qk, h_q), MAX_ARRAY_ELEMENTS, "elements")
    gathered = np.empty((s_q, topk, inputs.kv.shape[1]), dtype=np.float64)  # [s_q, topk, d_qk]
    logits = gather_logits(inputs, slice(0, s_q), gathered, check=logits_may_overflow(inputs))  # [s_q, h_q, topk]
    logits *= inputs.sm_scale
    logits[~np.broadcast_to(inputs.valid[:, None, :], logits.shape)] = -np.inf
    lonely = lonely_tokens(inputs.valid)
    shift = np.where(lonely[:, None], 0.0, logits.max(axis=2, initial=-np.inf))
    weights = exp_shifted(logits.copy(), shift)
    total = np.where(lonely[:, None], 1.0, weights.sum(axis=2))
    return logits, np.asarray(weights / total[:, :, None], dtype=np.float64)


def output_tolerance(kv: NDArray[Any], d_v: int, topk: int) -> float:
    """The largest difference between the blocked and the plain ``out`` that rounding explains: our stated tolerance.

    ``S`` is rounded to bf16 before ``S @ V``: each weight moves by at most ``2^-8`` of itself, and the normalised
    weights of a row sum to at most 1, so ``out`` moves by at most ``2^-8 * max|V|``; rounding ``out`` itself to bf16
    moves it by at most ``2^-8 * |out| <= 2^-8 * max|V|`` again. On top of that we allow
    ``2 * (d_qk + topk) * 2^-24`` of ``max|V|`` for the float32 dot products and sums, which both forwards share.
    """
    array = float_input("kv", kv, "[s_kv, 1, d_qk]")
    if array.ndim != 3:  # noqa: PLR2004 - three axes
        raise ValueError(f"kv must have shape [s_kv, 1, d_qk], got shape {array.shape}")
    d_qk: int = array.shape[-1]
    dims = require_int("d_v", d_v, minimum=1)
    tokens = require_int("topk", topk, minimum=0, maximum=LARGEST_EXACT_WHOLE)
    largest = largest_magnitude(array, dims)
    if not np.isfinite(np.float32(largest)):
        raise ValueError(f"kv must hold finite values of float32, got a largest magnitude of {largest!r}")
    return (2 * BF16_UNIT_ROUNDOFF + 2 * (d_qk + max(tokens, 1)) * FP32_UNIT_ROUNDOFF) * largest
