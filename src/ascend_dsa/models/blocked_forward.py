"""The kernel's model: the sparse-attention forward as an online softmax over blocks, with skip-scale per VECTOR Core.

Report (zh) lines 41-73 and kernel_body.h. [`blocked_sparse_attn_fwd`][] takes FlashMLA's arguments (shapes and
meaning in ``models.reference``) and the kernel's three knobs, and returns ``out`` in bfloat16 as the kernel writes
it, with [`BlockedStats`][] on which VECTOR Core rescaled when. [`skip_scale_decision`][] is the per-core rule on
its own. The plain forwards of ``models.reference`` are the float oracles it is compared with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ascend_dsa.facts.kernel_config import MMA_M_GRANULE_ROWS, SHIPPED_KERNEL
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.models.arrays import require_array, require_elements
from ascend_dsa.models.forward_inputs import (
    BFLOAT16,
    BoolArray,
    FloatArray,
    ForwardInputs,
    IntArray,
    check_inputs,
    exp_shifted,
    gather_logits,
    logits_may_overflow,
    lonely_tokens,
    tokens_per_chunk,
)
from ascend_dsa.validate import require_int, require_real, shown

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: The kernel starts its running max at the lowest finite float, not -inf (kernel_body.h:523-524, ``softmax_vf``).
_LOWEST: Final = np.float32(np.finfo(np.float32).min)

#: Heads one VECTOR Core decides for (``MMA_M_PER_V``, config.h:54): 32 of the 64 heads at ``H_Q = 64``.
HEADS_PER_VECTOR_CORE: Final = SHIPPED_KERNEL.mma_m_per_vector_core


def vector_core_heads(h_q: int) -> int:
    """Heads each VECTOR Core decides for when the kernel runs ``h_q`` heads: half of ``MMA_M``.

    ``MMA_M`` is ``h_q`` rounded up to a multiple of 32 (kernel_body.h ``MMA_M = ku::ceil(H_Q, 32u)``), and core
    ``i`` owns heads ``[i x MMA_M / 2, (i + 1) x MMA_M / 2)`` (``valid_rows_mask_for_row_max``, kernel_body.h:502-516):
    32 and 32 at ``H_Q = 64``, 16 and 16 at ``H_Q = 32`` (506-508), all of them on core 0 from 16 heads down.
    """
    heads = require_int("h_q", h_q, minimum=1)
    mma_m = -(-heads // MMA_M_GRANULE_ROWS) * MMA_M_GRANULE_ROWS
    return mma_m // SHIPPED_KERNEL.vector_cores_per_cube


def _maxima(name: str, value: object) -> FloatArray:
    """``value`` as float32 maxima: real numbers, none NaN, +inf or beyond float32 (-inf, "no key yet", is allowed)."""
    expected = "a real-valued array [..., h_q] within float32"
    array = require_array(name, value, expected)
    if array.dtype != BFLOAT16 and array.dtype.kind not in "fiu":
        raise TypeError(f"{name} must be {expected}, got dtype {array.dtype}")
    require_elements(name, array)
    with np.errstate(over="ignore", invalid="ignore"):
        maxima = np.asarray(array, dtype=np.float32)
    bad = np.isnan(maxima) | (maxima == np.inf) | (np.isinf(maxima) & np.isfinite(array))
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must be {expected}, without NaN or +inf, got {array[where]!r} at {where}")
    return maxima


def skip_scale_decision(
    running_max: NDArray[Any],
    max_for_softmax: NDArray[Any],
    threshold: float,
    heads_per_core: int | None = None,
) -> tuple[BoolArray, FloatArray]:
    """Which VECTOR Cores rescale, and the max each head's softmax uses from now on.

    ``running_max`` and ``max_for_softmax`` are ``[..., h_q]`` in the units of ``threshold``: raw logits against
    [`raw_logit_threshold`][] as the kernel compares them (``asc_sub`` then ``asc_gt_scalar`` on raw maxima,
    kernel_body.h:566-572). Heads are split into consecutive groups of ``heads_per_core``, one per VECTOR Core (the
    last may be partial); ``None`` splits them as the kernel does for ``h_q`` heads ([`vector_core_heads`][]: 16
    and 16 at 32 heads). A core rescales when the largest ``running_max - max_for_softmax`` over *its own* heads,
    computed in float32, is strictly above ``threshold``, and then only its heads adopt their running max
    (kernel_body.h:466-680 ``softmax_vf``: ``asc_reduce_max`` at 568 under ``valid_rows_mask_for_row_max``, 502-516;
    ``asc_gt_scalar`` at 572; ``asc_select`` at 574; config.h:43). ``heads_per_core = h_q`` is the joint rule, one
    decision for all heads, kept as a named variant for comparison.

    Returns:
        ``(triggered [..., cores], new_max [..., h_q])``.

    Raises:
        ValueError: a NaN in the maxima (the kernel's ``>`` would silently say "no rescale").
    """
    running = _maxima("running_max", running_max)
    used = _maxima("max_for_softmax", max_for_softmax)
    if running.shape != used.shape or running.ndim < 1:
        raise ValueError(
            f"running_max and max_for_softmax must have one shape [..., h_q], got {running.shape} and {used.shape}"
        )
    value = require_real("threshold", threshold, "a number >= 0")
    if not value >= 0:
        raise ValueError(f"threshold must be a number >= 0, got {shown(threshold)}")
    h_q = running.shape[-1]
    if heads_per_core is None:
        group = vector_core_heads(max(h_q, 1))
    else:
        group = require_int("heads_per_core", heads_per_core, minimum=1)
    with np.errstate(over="ignore", invalid="ignore"):
        gap = running - used
    if np.isnan(gap).any():
        raise ValueError("running_max and max_for_softmax must not hold NaN (nor opposite infinities), got one")
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


def _check_knobs(b_topk: object, rescale_threshold: object, heads_per_core: object) -> tuple[int, float, int | None]:
    """The block size and heads per core as positive integers, the threshold a number in [0, 64]."""
    block = require_int("b_topk", b_topk, minimum=1)
    expected = f"a number in [0, {MAX_RESCALE_THRESHOLD:g}] (larger ones let float32 exp sums overflow)"
    threshold = require_real("rescale_threshold", rescale_threshold, expected)
    if not 0 <= threshold <= MAX_RESCALE_THRESHOLD:
        raise ValueError(f"rescale_threshold must be {expected}, got {shown(rescale_threshold)}")
    return (
        block,
        threshold,
        None if heads_per_core is None else require_int("heads_per_core", heads_per_core, minimum=1),
    )


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
    inputs: ForwardInputs, rows: slice, chunk: _Chunk, scale: np.float32
) -> tuple[NDArray[Any], FloatArray, FloatArray]:
    """The last step, as ``get_final_lse_and_denorm_vf`` and ``get_final_output_vf`` do it.

    ``lse = ln(row_sum) + max_for_o`` (kernel_body.h:746, 752-753);
    ``denorm = 1 / (row_sum [+ exp(sink - max_for_o)])`` (758-766); ``out = bf16((O_l0c + O_ub) x denorm)`` (bf16 at
    822-826). A token with no valid index (its row max is still the lowest float, 742-743) gets ``out`` 0 (denorm 0,
    767), ``max_logits`` -inf (748) and ``lse`` +inf (754). In kernel_body.h ``get_final_lse_and_denorm_vf`` is
    lines 728-770 and ``get_final_output_vf`` lines 776-846.
    """
    lonely = lonely_tokens(inputs.valid[rows])[:, None]  # [n, 1]
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
        weights = exp_shifted(part, shift)  # S [n, h_q, w] in place, each <= exp(threshold)
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
    heads_per_core: int | None = None,
) -> tuple[NDArray[Any], FloatArray, FloatArray, BlockedStats]:
    """The kernel's model: online softmax over blocks of ``b_topk`` indices, rescaling per VECTOR Core.

    Per block, as kernel_body.h does it: raw ``P = Q K^T`` of the block's keys (invalid keys -inf); raise the raw
    running max (starting from the lowest finite float, kernel_body.h:524, so block 0 adopts its own max, 586-589);
    from block 1 on, each VECTOR Core (``heads_per_core`` heads; by default the kernel's split of ``h_q``,
    [`vector_core_heads`][]) compares the largest rise of its heads' raw max over ``max_for_o`` with
    ``rescale_threshold / sm_scale`` ([`skip_scale_decision`][]). If either core rescales, the
    CUBE copies O out of L0C (kernel_body.h:1583-1591; the VECTOR Cores read the same flags at 1204-1207) and UB
    keeps ``(O_l0c + O_ub) x exp(old - new)``, a factor 1 for the heads of a core that did not rescale; otherwise O
    stays in L0C. Then ``S = exp(P x sm_scale - max_for_o x sm_scale)``, ``row_sum += S.sum()`` and
    ``O_l0c += bf16(S) @ V`` in float32 (report (zh) lines 41-73). At the end ``out = bf16((O_l0c + O_ub) / row_sum)``,
    rounded to bfloat16 as ``get_final_output_vf`` writes it (kernel_body.h:822-826); ``max_logits`` and ``lse`` stay
    float32. The plain forwards are the float oracles this model is compared with.

    Tokens are independent, so they are processed a few at a time (gathered keys within ``arrays.CHUNK_BYTES``);
    a chunk's ``P`` is one matmul over all its keys, sliced per block, and ``S @ V`` is one matmul over the blocks O
    stayed in L0C for. Only rounding order differs from block-by-block products.

    Returns:
        ``(out, max_logits, lse, stats)``: ``out`` bfloat16 ``[s_q, h_q, d_v]``, the others as in
        [`sparse_attn_fwd`][].
    """
    block_size, threshold, group = _check_knobs(b_topk, rescale_threshold, heads_per_core)
    inputs = check_inputs(q, kv, indices, sm_scale, d_v, attn_sink, topk_length, np.float32)
    s_q, h_q, topk = inputs.shape
    n_blocks = max(-(-topk // block_size), 1)
    scale = np.float32(inputs.sm_scale)
    with np.errstate(over="ignore"):  # a tiny sm_scale gives an infinite raw threshold: never rescale
        raw_threshold = float(np.float32(threshold) / scale)  # kernel_body.h:1661, RESCALE_THRESHOLD / sm_scale
    group = vector_core_heads(h_q) if group is None else group
    knobs = _Knobs(min(block_size, max(topk, 1)), raw_threshold, min(group, h_q), scale)
    check = logits_may_overflow(inputs)
    d_qk = inputs.kv.shape[1]

    out = np.empty((s_q, h_q, inputs.d_v), dtype=BFLOAT16)
    max_logits = np.empty((s_q, h_q), dtype=np.float32)
    lse = np.empty((s_q, h_q), dtype=np.float32)
    core_rescaled = np.zeros((s_q, n_blocks, -(-h_q // knobs.heads_per_core)), dtype=np.bool_)
    history = np.empty((3, s_q, n_blocks, h_q), dtype=np.float32)
    max_exp_term = np.zeros(s_q, dtype=np.float32)
    step = tokens_per_chunk(inputs)
    keys_buffer = np.empty((min(step, s_q), topk, d_qk), dtype=np.float32)
    scores_buffer = np.empty((min(step, s_q), h_q, topk), dtype=np.float32)
    for first in range(0, s_q, step):
        rows = slice(first, min(first + step, s_q))
        n = rows.stop - rows.start
        keys, scores = keys_buffer[:n], scores_buffer[:n]
        gather_logits(inputs, rows, keys, scores, check=check)  # keys [n, topk, d_qk], raw P [n, h_q, topk]
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
