import pytest

from ascend_dsa.hardware import ASCEND_950
from ascend_dsa.kernel_config import SHIPPED_KERNEL
from ascend_dsa.mte2 import requests_per_block, tokens_in_flight


def test_gather2_fills_queue_with_one_block_share() -> None:
    """16 requests x 2 tokens = 32 tokens = one VECTOR Core's share of a 64-token block (report (zh) line 138)."""
    assert tokens_in_flight(ASCEND_950) == 32 == SHIPPED_KERNEL.b_topk_per_vector_core
    assert requests_per_block(SHIPPED_KERNEL) == 16


def test_single_token_requests() -> None:
    """Without gather2 the queue holds only 16 tokens."""
    assert tokens_in_flight(ASCEND_950, tokens_per_request=1) == 16
    with pytest.raises(ValueError, match="tokens_per_request"):
        tokens_in_flight(ASCEND_950, tokens_per_request=0)
