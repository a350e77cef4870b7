"""The MTE2 issue queue: how many KV tokens one VECTOR Core can have in flight (report (zh) lines 138, 216)."""

from __future__ import annotations

from ascend_dsa.hardware import AscendSpec
from ascend_dsa.kernel_config import KernelConfig
from ascend_dsa.validate import require_instance, require_int

#: Tokens one gather2 request copies: ``burst_count = 2`` (report (zh) line 216).
GATHER2_TOKENS_PER_REQUEST = 2


def tokens_in_flight(spec: AscendSpec, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """KV tokens one VECTOR Core can have requested but not received: queue depth x tokens per request."""
    spec = require_instance("spec", spec, AscendSpec)
    tokens_per_request = require_int("tokens_per_request", tokens_per_request, minimum=1)
    return spec.mte2_outstanding_requests * tokens_per_request


def requests_per_block(config: KernelConfig, tokens_per_request: int = GATHER2_TOKENS_PER_REQUEST) -> int:
    """MTE2 requests one VECTOR Core issues for its share of a block (rounded up)."""
    config = require_instance("config", config, KernelConfig)
    tokens_per_request = require_int("tokens_per_request", tokens_per_request, minimum=1)
    return -(-config.b_topk_per_vector_core // tokens_per_request)
