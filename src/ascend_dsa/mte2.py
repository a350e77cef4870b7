"""The MTE2 issue queue: how many KV tokens one VECTOR Core can have in flight (report (zh) lines 138, 216)."""

from __future__ import annotations

from ascend_dsa.hardware import AscendSpec
from ascend_dsa.kernel_config import KernelConfig

#: Tokens one gather2 request copies: ``burst_count = 2`` (report (zh) line 216).
GATHER2_TOKENS_PER_REQUEST = 2


def tokens_in_flight(spec: AscendSpec, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """KV tokens one VECTOR Core can have requested but not received: queue depth x tokens per request."""
    if tokens_per_request <= 0:
        raise ValueError(f"tokens_per_request must be a positive integer, got {tokens_per_request!r}")
    return spec.mte2_outstanding_requests * tokens_per_request


def requests_per_block(config: KernelConfig, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """MTE2 requests one VECTOR Core issues for its share of a block (rounded up)."""
    if tokens_per_request <= 0:
        raise ValueError(f"tokens_per_request must be a positive integer, got {tokens_per_request!r}")
    return -(-config.b_topk_per_vector_core // tokens_per_request)
