"""The MTE2 issue queue and what fills it: tokens in flight per VECTOR Core, copies per cached token.

One VECTOR Core has at most 16 requests outstanding (report (zh) lines 138, 216); one copy moves one contiguous run
of bytes, so a token whose data and scales are apart costs two (report (zh) line 220).
"""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST, KernelConfig
from ascend_dsa.facts.kv_formats import KvTokenFormat, SplitTokenLayout
from ascend_dsa.facts.provenance import code_line
from ascend_dsa.validate import door, require_instance, require_int, shown

if TYPE_CHECKING:
    from collections.abc import Iterable

#: Fewest tokens a decode page block may hold: the kernel asserts ``page_block_size > 1``.
MIN_PAGE_BLOCK_TOKENS: Final = 2
MIN_PAGE_BLOCK_TOKENS_SOURCE: Final = code_line("kernel_body.h", 1664)


def copies_for_ranges(ranges: Iterable[ByteRange]) -> int:
    """MTE2 copies needed to fetch ``ranges``: one per contiguous run of bytes once touching ranges are merged.

    One MTE2 copy moves one contiguous source span, so a token whose data and scales are apart costs two.
    """
    if isinstance(ranges, (str, bytes)) or not isinstance(ranges, abc.Iterable):
        raise TypeError(f"ranges must be an iterable of ByteRange, got {shown(ranges)} ({type(ranges).__name__})")
    spans = []
    for item in ranges:
        offset, length = getattr(item, "offset", None), getattr(item, "length", None)
        if offset is None or length is None:
            raise TypeError(f"ranges must hold ByteRange items (offset, length), got {shown(item)}")
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


@dataclass(frozen=True)
class ByteRange:
    """``length`` bytes at ``offset`` inside a page block of the cache."""

    offset: int
    length: int


def token_byte_ranges(
    layout: KvTokenFormat | SplitTokenLayout, token: int, block_tokens: int, *, adjacent: bool = True
) -> tuple[ByteRange, ...]:
    """Where one token's bytes live in a page block of ``block_tokens`` tokens: one range per MTE2 copy.

    A [`KvTokenFormat`][] with ``adjacent`` is the kernel's layout (data and scales of a token together, one
    range). A [`SplitTokenLayout`][] stores the data of every token of the block first and all their scales
    after, as upstream's earlier MODEL1 format did. A [`KvTokenFormat`][] with ``adjacent=False`` is hypothetical:
    V4.1 sizes in that split arrangement, which no upstream format used.
    """
    if not isinstance(layout, KvTokenFormat | SplitTokenLayout):
        raise TypeError(f"layout must be a KvTokenFormat or a SplitTokenLayout, got {type(layout).__name__}")
    if not isinstance(adjacent, bool):
        raise TypeError(f"adjacent must be a bool, got {type(adjacent).__name__}")
    tokens = require_int("block_tokens", block_tokens, minimum=1)
    index = require_int("token", token, minimum=0)
    if index >= tokens:
        raise ValueError(f"token must lie in [0, block_tokens = {tokens}), got {index}")
    if isinstance(layout, KvTokenFormat) and adjacent:
        return (ByteRange(index * layout.token_bytes, layout.token_bytes),)
    data = ByteRange(index * layout.data_bytes, layout.data_bytes)
    scales = ByteRange(tokens * layout.data_bytes + index * layout.scale_bytes, layout.scale_bytes)
    return (data, scales)


def copies_per_token(layout: KvTokenFormat | SplitTokenLayout, *, adjacent: bool = True) -> int:
    """MTE2 copies one token needs: 1 with data and scales adjacent, 2 in a split layout."""
    return len(token_byte_ranges(layout, 0, 2, adjacent=adjacent))


def tokens_in_flight(spec: AscendSpec, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """KV tokens one VECTOR Core can have requested but not received: queue depth x tokens per request."""
    spec = require_ascend("spec", spec)
    tokens_per_request = require_int("tokens_per_request", tokens_per_request, minimum=1)
    return spec.ascend.mte2_outstanding_requests * tokens_per_request


def _requests_per_block(config: KernelConfig, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """[`requests_per_block`][] of values already checked (the package's own callers)."""
    return -(-config.b_topk_per_vector_core // tokens_per_request)


@door(_requests_per_block)
def requests_per_block(config: KernelConfig, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """MTE2 requests one VECTOR Core issues for its share of a block: the share / ``tokens_per_request``, rounded up.

    Every token of the share is copied, and a request may carry fewer tokens than it could: the kernel issues one
    copy per pair, ``B_TOPK_PER_V / 2`` of them, each with ``n_burst`` tokens, 0 for an invalid pair
    (kernel_body.h:1041-1043, 1055-1058). So a share that does not divide evenly needs one more, partial, request.
    """
    config = require_instance("config", config, KernelConfig)
    tokens_per_request = require_int("tokens_per_request", tokens_per_request, minimum=1)
    return _requests_per_block(config, tokens_per_request)
