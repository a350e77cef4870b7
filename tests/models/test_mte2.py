import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import FP8_V41, MODEL1_FP8
from ascend_dsa.models.mte2 import (
    MIN_PAGE_BLOCK_TOKENS,
    ByteRange,
    copies_for_ranges,
    requests_per_block,
    token_byte_ranges,
    tokens_in_flight,
)


def test_gather2_fills_queue_with_one_block_share() -> None:
    """16 requests x 2 tokens = 32 tokens = one VECTOR Core's share of a 64-token block (report (zh) line 138)."""
    assert tokens_in_flight(ASCEND_950) == 32 == SHIPPED_KERNEL.b_topk_per_vector_core
    assert requests_per_block(SHIPPED_KERNEL) == 16


def test_single_token_requests() -> None:
    """Without gather2 the queue holds only 16 tokens."""
    assert tokens_in_flight(ASCEND_950, tokens_per_request=1) == 16
    with pytest.raises(ValueError, match="tokens_per_request"):
        tokens_in_flight(ASCEND_950, tokens_per_request=0)


def test_touching_ranges_are_one_copy() -> None:
    """Ranges that touch or overlap merge into one copy; a gap between them costs a second one."""
    assert copies_for_ranges([ByteRange(0, 512), ByteRange(512, 16)]) == 1
    assert copies_for_ranges([ByteRange(0, 512), ByteRange(100, 8)]) == 1
    assert copies_for_ranges([ByteRange(1024, 16), ByteRange(0, 512)]) == 2


def test_bad_ranges_raise() -> None:
    """No range, or an empty one, is refused with the value named."""
    with pytest.raises(ValueError, match="at least one"):
        copies_for_ranges([])
    with pytest.raises(ValueError, match=r"\[8, 8\)"):
        copies_for_ranges([ByteRange(8, 0)])


@pytest.mark.parametrize("token", range(MIN_PAGE_BLOCK_TOKENS))
def test_split_layout_costs_two_copies(token: int) -> None:
    """In the smallest page block the kernel accepts, each FP8 token is two copies apart and one copy adjacent."""
    apart = token_byte_ranges(FP8_V41, token, MIN_PAGE_BLOCK_TOKENS, adjacent=False)
    together = token_byte_ranges(FP8_V41, token, MIN_PAGE_BLOCK_TOKENS, adjacent=True)
    assert (copies_for_ranges(apart), copies_for_ranges(together)) == (2, 1)


def test_split_layout_puts_scales_after_every_tokens_data() -> None:
    """MODEL1's block of 65 tokens: 576 B of data each (448 e4m3 + 64 x 2 B rope), then 8 B of scales each.

    Token 64's data starts at 64 x 576 = 36864 and its scales at 65 x 576 + 64 x 8 = 37952 (584 B a token, upstream's).
    """
    data, scales = token_byte_ranges(MODEL1_FP8, 64, 65)
    assert (data.offset, data.length, scales.offset, scales.length) == (36864, 576, 37952, 8)


def test_a_byte_range_before_the_block_is_refused() -> None:
    """An offset of -1 is refused naming the span."""
    with pytest.raises(ValueError, match=r"non-negative offset and a positive length, got \[-1, 3\)$"):
        copies_for_ranges([ByteRange(-1, 4)])


@pytest.mark.parametrize(
    ("tokens_per_request", "requests"),
    [
        (1, 32),  # no gather2: one token a request
        (2, 16),  # gather2, as shipped
        (3, 11),  # 10 full requests and one of 2 tokens
        (5, 7),  # 6 full and one of 2 tokens: rounding to nearest would give 6
        (31, 2),  # one full and one of a single token
        (33, 1),  # more than the share: one partial request
    ],
)
def test_a_share_that_does_not_divide_needs_one_partial_request(tokens_per_request: int, requests: int) -> None:
    """32 tokens a VECTOR Core in requests of up to k tokens: ceil(32 / k), as the kernel copies every token and a
    request may carry fewer (kernel_body.h:1041-1043, n_burst per copy)."""
    assert SHIPPED_KERNEL.b_topk_per_vector_core == 32
    assert requests_per_block(SHIPPED_KERNEL, tokens_per_request) == requests
