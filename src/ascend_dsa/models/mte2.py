"""The MTE2 issue queue and what fills it: tokens in flight per VECTOR Core, copies per cached token.

One VECTOR Core has at most 16 requests outstanding (report (zh) lines 138, 216); one copy moves one contiguous run
of bytes, so a token whose data and scales are apart costs two (report (zh) line 220).
"""

from __future__ import annotations

from collections import abc
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import AscendSpec
from ascend_dsa.facts.kernel_config import KernelConfig
from ascend_dsa.facts.provenance import code_line

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.models.kv_quant import ByteRange
from ascend_dsa.validate import require_instance, require_int

#: Tokens one gather2 request copies: ``burst_count = 2`` (report (zh) line 216).
GATHER2_TOKENS_PER_REQUEST = 2

#: Fewest tokens a decode page block may hold: the kernel asserts ``page_block_size > 1``.
MIN_PAGE_BLOCK_TOKENS: Final = 2
MIN_PAGE_BLOCK_TOKENS_SOURCE: Final = code_line("kernel_body.h", 1664)


def copies_for_ranges(ranges: Iterable[ByteRange]) -> int:
    """MTE2 copies needed to fetch ``ranges``: one per contiguous run of bytes once touching ranges are merged.

    One MTE2 copy moves one contiguous source span, so a token whose data and scales are apart costs two.
    """
    if isinstance(ranges, (str, bytes)) or not isinstance(ranges, abc.Iterable):
        raise TypeError(f"ranges must be an iterable of ByteRange, got {ranges!r} ({type(ranges).__name__})")
    spans = []
    for item in ranges:
        offset, length = getattr(item, "offset", None), getattr(item, "length", None)
        if offset is None or length is None:
            raise TypeError(f"ranges must hold ByteRange items (offset, length), got {item!r}")
        start = require_int("offset", offset)
        spans.append((start, start + require_int("length", length)))
    spans.sort()
    if not spans:
        raise ValueError("ranges must name at least one byte range, got none")
    for start, end in spans:
        if start < 0 or end <= start:
            raise ValueError(f"byte ranges must have a non-negative offset and a positive length, got [{start}, {end})")
    runs, reach = 1, spans[0][1]
    for start, end in spans[1:]:
        if start > reach:
            runs += 1
        reach = max(reach, end)
    return runs


def tokens_in_flight(spec: AscendSpec, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """KV tokens one VECTOR Core can have requested but not received: queue depth x tokens per request."""
    spec = require_instance("spec", spec, AscendSpec)
    tokens_per_request = require_int("tokens_per_request", tokens_per_request, minimum=1)
    return spec.mte2_outstanding_requests * tokens_per_request


def requests_per_block(config: KernelConfig, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """MTE2 requests one VECTOR Core issues for its share of a block (rounded up)."""
    config = require_instance("config", config, KernelConfig)
    tokens_per_request = require_int("tokens_per_request", tokens_per_request, minimum=1)
    return _requests_per_block(config, tokens_per_request)


def _requests_per_block(config: KernelConfig, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """[`requests_per_block`][] of values already checked (the package's own callers)."""
    return -(-config.b_topk_per_vector_core // tokens_per_request)
