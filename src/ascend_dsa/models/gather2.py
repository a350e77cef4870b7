"""gather2: one MTE2 request copies two KV tokens, so a block fits in the MTE2 queue (report (zh) lines 138, 214-216).

A VECTOR Core gathers its half of a block (``B_TOPK / 2`` = 32 tokens). One request per token would need 32
requests, twice the 16 the MTE2 issue queue holds. gather2 pairs the indices at positions ``2p`` and ``2p + 1``
and issues one copy with ``burst_count = 2``: it starts at the smaller token and jumps ``src_stride`` bytes (the
distance between the two tokens) to fetch the larger one. Both land side by side in UB, smaller first.

The pairing rules follow the prefill kernel (kernel_body.h ``process_kv_index_vf``, ``run_issue_kv_gather``):
an index is invalid when it is negative or ``>= s_kv`` (compared as unsigned, so negatives look huge); with one
valid index of a pair the copy fetches that token twice (``src_stride = 0``) and the softmax masks the copy;
with none the request is skipped (``burst_count = 0``).
"""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST, SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.models.mte2 import requests_per_block, tokens_in_flight
from ascend_dsa.validate import require_instance, require_int, require_within, shown

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Bytes of one bf16 prefill KV token: ``d_qk`` x 2 B = 1024 B.
BF16_TOKEN_BYTES = DSA_V41.d_qk * DSA_V41.element_bytes
#: Most indices one call pairs. The kernel pairs one VECTOR Core's half block at a time, B_TOPK / 2 = 32 indices
#: (config.h:56), and a query token reads at most a couple of thousand (topk 1024 in the report's grid, report (zh)
#: line 95; 2048 in FlashMLA's FP8 decoding shape, ``facts.hopper_figures.SPARSE_DECODE_SHAPE``): 2^16 indices is 32
#: such tokens. Every pair becomes a record, so a longer run is refused on its length before any work (a million
#: indices took seconds and half a million records).
GATHER2_INDICES_MAX: Final = 2**16


@dataclass(frozen=True)
class Gather2Copy:
    """One MTE2 request of a gather2: the pair it serves and the copy descriptor the VF computes for it."""

    first: int  # index at the even position
    second: int  # index at the odd position
    smaller: int | None  # the token copied first (lands at UB position 0); None when neither is valid
    larger: int | None  # the token copied second; None when only one index is valid
    base_bytes: int | None  # source offset of ``smaller``; None when the request is skipped
    stride_bytes: int  # src_stride: (larger - smaller) x token bytes, 0 with fewer than two valid tokens
    burst_count: int  # 2, or 0 when the request is skipped

    @property
    def tokens_copied(self) -> int:
        """Tokens this request moves (a duplicated valid token counts twice)."""
        return self.burst_count


def _pair(first: int, second: int, s_kv: int, token_bytes: int) -> Gather2Copy:
    valid = [i for i in sorted((first, second)) if 0 <= i < s_kv]
    if not valid:
        return Gather2Copy(first, second, None, None, None, 0, 0)
    smaller = valid[0]
    larger = valid[1] if len(valid) == 2 else None  # noqa: PLR2004 - a pair
    stride = 0 if larger is None else (larger - smaller) * token_bytes
    return Gather2Copy(first, second, smaller, larger, smaller * token_bytes, stride, GATHER2_TOKENS_PER_REQUEST)


def index_count(indices: object) -> int | None:
    """How many indices ``indices`` holds, read without converting it (an array's size, a sequence's length)."""
    if isinstance(indices, np.ndarray):
        return int(indices.size)
    return len(indices) if isinstance(indices, Sized) else None


def whole_indices(name: str, indices: object, limit: int = GATHER2_INDICES_MAX) -> list[int]:
    """The KV indices in ``indices`` (any shape, flattened) as ints; floats, strings and bools are a TypeError.

    More than ``limit`` of them is a ValueError naming the count, raised before the values are converted.
    """
    if isinstance(indices, str | bytes):
        raise TypeError(f"{name} must be a sequence of whole numbers, got {shown(indices)}")
    count = index_count(indices)
    if count is not None:
        require_within(name, count, limit, "indices")
    values = np.asarray(indices)
    require_within(name, int(values.size), limit, "indices")
    if values.dtype == object:
        return [require_int(f"{name}[{i}]", v) for i, v in enumerate(values.ravel())]
    if values.size and values.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold whole numbers (an integer dtype), got dtype {values.dtype}")
    whole: list[int] = values.ravel().tolist()  # Python ints, whatever the dtype's width
    return whole


def gather2_copies(indices: Sequence[int], s_kv: int, token_bytes: int = BF16_TOKEN_BYTES) -> tuple[Gather2Copy, ...]:
    """The gather2 requests for a run of indices, pairing positions ``(0, 1), (2, 3), ...``.

    At most ``GATHER2_INDICES_MAX`` indices: a longer run is refused on its length, before any work.
    """
    values = whole_indices("indices", indices)
    if len(values) % GATHER2_TOKENS_PER_REQUEST:
        raise ValueError(f"indices must come in pairs (an even count), got {len(values)} indices")
    s_kv = require_int("s_kv", s_kv, minimum=1)
    token_bytes = require_int("token_bytes", token_bytes, minimum=1)
    return tuple(_pair(values[p], values[p + 1], s_kv, token_bytes) for p in range(0, len(values), 2))


@dataclass(frozen=True)
class Gather2Plan:
    """The requests of one block, split between the VECTOR Cores as the kernel splits them."""

    per_vector_core: tuple[tuple[Gather2Copy, ...], ...]

    @property
    def requests_per_vector_core(self) -> tuple[int, ...]:
        """MTE2 requests each VECTOR Core issues for the block (skipped ones included: they are still issued)."""
        return tuple(len(copies) for copies in self.per_vector_core)

    @property
    def requests_without_gather2(self) -> tuple[int, ...]:
        """Requests each VECTOR Core would issue with one token per request."""
        return tuple(len(copies) * GATHER2_TOKENS_PER_REQUEST for copies in self.per_vector_core)

    @property
    def skipped(self) -> int:
        """Requests that copy nothing because both of their indices are invalid."""
        return sum(c.burst_count == 0 for copies in self.per_vector_core for c in copies)


def gather2_plan(
    block_indices: Sequence[int] | np.ndarray[Any, Any],
    s_kv: int,
    config: KernelConfig = SHIPPED_KERNEL,
    token_bytes: int = BF16_TOKEN_BYTES,
) -> Gather2Plan:
    """gather2 requests of one block of ``B_TOPK`` indices: VECTOR Core ``v`` takes positions ``[32 v, 32 v + 32)``."""
    config = require_instance("config", config, KernelConfig)
    count = index_count(block_indices)
    if count is not None and count > config.b_topk:  # refused on its length, before the indices are converted
        raise ValueError(f"block_indices must hold B_TOPK = {config.b_topk} indices, got {count}")
    values = whole_indices("block_indices", block_indices)
    if len(values) != config.b_topk:
        raise ValueError(f"block_indices must hold B_TOPK = {config.b_topk} indices, got {len(values)}")
    share = config.b_topk_per_vector_core
    per_core = tuple(
        gather2_copies(values[v * share : (v + 1) * share], s_kv, token_bytes)
        for v in range(config.vector_cores_per_cube)
    )
    return Gather2Plan(per_core)


def check_gather2_fills_queue(spec: AscendSpec = ASCEND_950, config: KernelConfig = SHIPPED_KERNEL) -> int:
    """Raise [`FigureMismatch`][] unless gather2 makes one block's share exactly fill the MTE2 queue.

    Report (zh) line 138: 16 outstanding requests x 2 tokens = 32 tokens in flight, which is ``B_TOPK / 2``, and a
    VECTOR Core's share of a block needs exactly 16 requests. Returns the requests per VECTOR Core per block.
    """
    spec = require_ascend("spec", spec)
    config = require_instance("config", config, KernelConfig)
    in_flight = tokens_in_flight(spec)
    requests = requests_per_block(config)
    if in_flight != config.b_topk_per_vector_core or requests != spec.ascend.mte2_outstanding_requests:
        raise FigureMismatch(
            f"report (zh) line 138: gather2 should keep a VECTOR Core's {config.b_topk_per_vector_core} tokens in "
            f"{spec.ascend.mte2_outstanding_requests} requests; ours gives {in_flight} tokens in flight and "
            f"{requests} requests"
        )
    return requests
