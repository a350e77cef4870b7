"""What both sparse-attention forwards share: their inputs checked once, and the numerical steps they take alike.

[`check_inputs`][] turns FlashMLA's arguments (shapes in ``models.reference``) into a [`ForwardInputs`][]: float
arrays in the compute type, legal gather indices and the validity mask. The plain forwards (``models.reference``)
and the kernel's blocked one (``models.blocked_forward``) then share the overflow check on logits, the shifted
exponential and the tokens with no valid index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascend_dsa.models.arrays import CHUNK_BYTES, require_array, require_elements, row_chunks
from ascend_dsa.validate import require_int, require_real, shown

FloatArray = NDArray[np.float32]
Float64Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

BFLOAT16: Final = np.dtype(ml_dtypes.bfloat16)
#: Element types the forwards accept for ``q``, ``kv`` and ``attn_sink``.
FLOAT_DTYPES: Final = (BFLOAT16, np.dtype(np.float32), np.dtype(np.float64))


@dataclass(frozen=True)
class ForwardInputs:
    """Checked inputs: float arrays in the compute type, the safe gather indices and the validity mask."""

    q: NDArray[Any]  # [s_q, h_q, d_qk]
    kv: NDArray[Any]  # [rows, d_qk]: only the rows of the cache some valid index names, in row order
    gather: NDArray[np.intp]  # [s_q, topk], every entry a legal row of kv (of the gathered rows above)
    valid: BoolArray  # [s_q, topk]
    sm_scale: float
    d_v: int
    attn_sink: FloatArray | None  # [h_q]
    topk_length: IntArray  # [s_q], the number of leading indices considered per token

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(s_q, h_q, topk)``."""
        return self.q.shape[0], self.q.shape[1], self.valid.shape[1]


def float_input(name: str, value: object, expected_shape: str) -> NDArray[Any]:
    """``value`` as an array as given (no copy); raise unless it is bf16, float32 or float64."""
    expected = f"a bfloat16, float32 or float64 array {expected_shape}"
    array = require_array(name, value, expected)
    if array.dtype not in FLOAT_DTYPES:
        raise TypeError(f"{name} must be {expected}, got dtype {array.dtype}")
    return array


def float_array(name: str, value: object, expected_shape: str, compute: type[np.floating[Any]]) -> NDArray[Any]:
    """``value`` as an array of the compute type; raise unless it was bf16, float32 or float64 and finite."""
    array = require_elements(name, float_input(name, value, expected_shape))
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
        raise ValueError(f"sm_scale must be {expected}, got {shown(sm_scale)}")
    return value


def check_inputs(
    q: object,
    kv: object,
    indices: object,
    sm_scale: object,
    d_v: object,
    attn_sink: object,
    topk_length: object,
    compute: type[np.floating[Any]],
) -> ForwardInputs:
    """FlashMLA's arguments checked once, in ``compute``: ValueError or TypeError naming the first one that is off."""
    q_arr = float_array("q", q, "[s_q, h_q, d_qk]", compute)
    if q_arr.ndim != 3 or min(q_arr.shape) < 1:  # noqa: PLR2004 - three axes
        raise ValueError(f"q must have shape [s_q, h_q, d_qk] with every axis >= 1, got shape {q_arr.shape}")
    s_q, h_q, d_qk = q_arr.shape
    kv_arr = float_input("kv", kv, "[s_kv, 1, d_qk]")  # converted below, only the rows the indices name
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
    rows = np.unique(flat[valid])  # the cache rows read, ascending: memory follows topk, not the cache
    gathered = _gathered_rows(kv_arr, rows, compute)
    return ForwardInputs(
        q=q_arr,
        kv=gathered,
        gather=np.where(valid, np.searchsorted(rows, flat), 0).astype(np.intp),
        valid=valid,
        sm_scale=scale,
        d_v=value_dims,
        attn_sink=sink,
        topk_length=lengths,
    )


def _gathered_rows(kv: NDArray[Any], rows: NDArray[np.int64], compute: type[np.floating[Any]]) -> NDArray[Any]:
    """Rows ``rows`` of ``kv`` ``[s_kv, 1, d_qk]`` as ``[rows, d_qk]`` in ``compute`` (one zero row when none).

    Only these rows are converted and checked: a NaN in a row no index names changes no result.
    """
    if not rows.size:
        return np.zeros((1, kv.shape[2]), dtype=compute)
    picked = kv[rows, 0, :]  # [rows, d_qk], in kv's own type
    with np.errstate(over="ignore", invalid="ignore"):  # a float64 beyond float32 becomes inf: rejected below
        converted = np.asarray(picked, dtype=compute)
    finite = np.isfinite(converted).all(axis=1)
    if not finite.all():
        row = int(rows[np.argmin(finite)])
        raise ValueError(
            f"kv must hold finite values of {np.dtype(compute)} in the rows the indices name, got a NaN or an "
            f"infinity in row {row}"
        )
    return converted


def largest_magnitude(array: NDArray[Any], dims: int) -> float:
    """``max |array[..., :dims]|`` in float64 (NaN or inf if one is), a block of rows at a time; 0 if empty."""
    if not array.size:
        return 0.0
    dims = min(dims, array.shape[-1])
    rows = array.reshape(-1, array.shape[-1])[:, :dims]
    largest = 0.0
    for block in row_chunks(rows.shape[0], dims * np.dtype(np.float64).itemsize):
        part = np.asarray(rows[block], dtype=np.float64)
        with np.errstate(invalid="ignore"):
            part_largest = float(np.abs(part).max())
        if not math.isfinite(part_largest):
            return part_largest  # NaN or inf: the caller names it
        largest = max(largest, part_largest)
    return largest


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


def logits_may_overflow(inputs: ForwardInputs) -> bool:
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


def check_logits(logits: NDArray[Any], scale: float) -> None:
    """Raise unless every raw logit and every scaled one is finite (only called when overflow is possible)."""
    with np.errstate(over="ignore", invalid="ignore"):
        finite = bool(np.isfinite(logits).all() and np.isfinite(logits * logits.dtype.type(scale)).all())
    if not finite:
        raise ValueError(
            f"q . k x sm_scale overflows {logits.dtype}: the inputs are finite but a logit is not; "
            "scale q, kv or sm_scale down"
        )


def exp_shifted(logits: NDArray[Any], shift: NDArray[Any]) -> NDArray[Any]:
    """``exp(logits - shift[..., None])`` in place, with results below the smallest normal float set to exactly 0.

    Subnormal weights change no sum at the precision kept, and subnormal operands slow BLAS down a hundredfold.
    """
    logits -= shift[..., None]
    logits[logits < np.log(np.finfo(logits.dtype).tiny)] = -np.inf
    weights: NDArray[Any] = np.exp(logits, out=logits)
    return weights


def lonely_tokens(valid: BoolArray) -> BoolArray:
    """``[s_q]``: the tokens with no valid index at all."""
    return np.asarray(~valid.any(axis=1), dtype=np.bool_)


def tokens_per_chunk(inputs: ForwardInputs) -> int:
    """Tokens a forward takes at once: their gathered keys and scores (``[tokens, topk, d_qk + h_q]``) fit the budget.

    The budget is ``arrays.CHUNK_BYTES``; at least one token.
    """
    _, h_q, topk = inputs.shape
    d_qk = inputs.kv.shape[1]
    tokens: int = CHUNK_BYTES // max(1, topk * (d_qk + h_q) * inputs.q.dtype.itemsize)
    return max(1, tokens)


def gather_logits(
    inputs: ForwardInputs, rows: slice, keys: NDArray[Any], out: NDArray[Any] | None = None, *, check: bool
) -> NDArray[Any]:
    """Gather the keys of tokens ``rows`` into ``keys`` and return their raw logits ``Q K^T`` (into ``out`` if given).

    ``keys``: ``[n, topk, d_qk]``; the logits: ``[n, h_q, topk]``, unscaled. With ``check`` (see
    [`logits_may_overflow`][]) a logit that overflows the compute type raises a ValueError.
    """
    # The indices are already legal; mode="clip" spares numpy a buffered copy of the output.
    np.take(inputs.kv, inputs.gather[rows], axis=0, out=keys, mode="clip")
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported just below
        logits: NDArray[Any] = np.matmul(inputs.q[rows], keys.transpose(0, 2, 1), out=out)
    if check:
        check_logits(logits, inputs.sm_scale)
    return logits
