"""gather2 pairing: descriptors per pair, requests per VECTOR Core, and the MTE2 queue claim of report line 138."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_dsa import ASCEND_950, SHIPPED_KERNEL, FigureMismatch
from ascend_dsa.models.gather2 import (
    BF16_TOKEN_BYTES,
    GATHER2_INDICES_MAX,
    check_gather2_fills_queue,
    gather2_copies,
    gather2_plan,
)


@pytest.mark.parametrize(
    ("pair", "smaller", "larger", "base", "stride", "burst"),
    [
        ((81, 8), 8, 81, 8 * 1024, 73 * 1024, 2),
        ((3, 9), 3, 9, 3 * 1024, 6 * 1024, 2),
        ((18, -1), 18, None, 18 * 1024, 0, 2),
        ((100, 7), 7, None, 7 * 1024, 0, 2),
        ((-1, 100), None, None, None, 0, 0),
        ((5, 5), 5, 5, 5 * 1024, 0, 2),
    ],
)
def test_pair_descriptors(
    pair: tuple[int, int], smaller: int | None, larger: int | None, base: int | None, stride: int, burst: int
) -> None:
    """Smaller first, stride = distance in bytes; one valid index is copied twice; none skips the copy."""
    (copy,) = gather2_copies(pair, s_kv=100)
    assert (copy.smaller, copy.larger, copy.base_bytes, copy.stride_bytes, copy.burst_count) == (
        smaller,
        larger,
        base,
        stride,
        burst,
    )
    assert copy.tokens_copied == burst


def test_a_block_needs_16_requests_per_vector_core() -> None:
    """64 indices: each of the 2 VECTOR Cores issues 16 requests instead of 32."""
    plan = gather2_plan(np.arange(64), s_kv=1000)
    assert plan.requests_per_vector_core == (16, 16)
    assert plan.requests_without_gather2 == (32, 32)
    assert plan.skipped == 0
    assert plan.per_vector_core[1][0].first == 32


def test_queue_claim_of_line_138() -> None:
    """16 outstanding requests x 2 tokens = 32 tokens = one VECTOR Core's share of a block."""
    assert check_gather2_fills_queue() == ASCEND_950.ascend.mte2_outstanding_requests == 16


def test_queue_claim_fails_for_a_bigger_block() -> None:
    """With B_TOPK = 128 a VECTOR Core's share needs 32 requests: the queue is not enough and the check says so."""
    with pytest.raises(FigureMismatch, match="report \\(zh\\) line 138"):
        check_gather2_fills_queue(config=SHIPPED_KERNEL.with_overrides(b_topk=128))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-3, 25), min_size=2, max_size=40).filter(lambda v: len(v) % 2 == 0))
def test_every_valid_index_is_fetched(indices: list[int]) -> None:
    """Whatever the indices, the copies fetch each valid index as often as it appears, at its own address."""
    s_kv = 20
    fetched: Counter[int] = Counter()
    for copy in gather2_copies(indices, s_kv):
        if copy.burst_count:
            assert copy.base_bytes is not None
            assert copy.smaller is not None
            assert copy.base_bytes == copy.smaller * BF16_TOKEN_BYTES
            fetched[copy.smaller] += 1
            if copy.larger is not None:
                assert copy.base_bytes + copy.stride_bytes == copy.larger * BF16_TOKEN_BYTES
                fetched[copy.larger] += 1
    assert fetched == Counter(i for i in indices if 0 <= i < s_kv)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: gather2_copies([1, 2, 3], 10), "indices must come in pairs .*got 3 indices"),
        (lambda: gather2_copies([1, 2], 0), "s_kv must be a positive integer, got 0"),
        (lambda: gather2_copies([1, 2], 10, token_bytes=0), "token_bytes must be a positive integer, got 0"),
        (lambda: gather2_plan(np.arange(10), 100), "block_indices must hold B_TOPK = 64 indices, got 10"),
    ],
)
def test_bad_input(call: object, message: str) -> None:
    """Odd counts, empty caches and wrong block sizes raise ValueError with the value received."""
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("indices", "message"),
    [
        (np.arange(64) + 0.5, "block_indices must hold whole numbers .*float64"),
        (np.arange(64) * 1.0, "block_indices must hold whole numbers .*float64"),
        ([str(i) for i in range(64)], "block_indices must hold whole numbers"),
        ([True] * 64, "block_indices must hold whole numbers .*bool"),
        ("abc", "block_indices must be a sequence of whole numbers"),
    ],
)
def test_indices_are_never_truncated(indices: object, message: str) -> None:
    """Float, string or bool indices are a TypeError naming block_indices, never truncated to ints."""
    with pytest.raises(TypeError, match=message):
        gather2_plan(indices, 100)  # type: ignore[arg-type]


class _Unread(Sequence[int]):
    """A sequence of ``length`` indices none of which may be read: reading one fails the test."""

    def __init__(self, length: int) -> None:
        self.length = length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: object) -> int:  # type: ignore[override]
        raise AssertionError(f"index {index!r} was read before the length was checked")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: gather2_plan(_Unread(10**7), 100), r"^block_indices must hold B_TOPK = 64 indices, got 10000000$"),
        (lambda: gather2_plan(np.broadcast_to(np.int64(0), (10**7,)), 100), r"got 10000000$"),
        (
            lambda: gather2_copies(_Unread(10**6), 100),
            rf"^indices asks for 1,000,000 indices, more than the limit of {GATHER2_INDICES_MAX:,}$",
        ),
        (lambda: gather2_copies(np.broadcast_to(np.int64(0), (10**6,)), 100), "more than the limit of 65,536$"),
    ],
)
def test_too_many_indices_are_refused_on_their_length(call: Callable[[], object], message: str) -> None:
    """Issue 31 (18): 10^7 indices were converted (3.8 s) before gather2_plan refused their count, and gather2_copies
    paired 10^6 for seconds; both now refuse on the length alone, without reading an index.
    """
    with pytest.raises(ValueError, match=message):
        call()


def test_a_run_at_the_limit_is_paired() -> None:
    """``GATHER2_INDICES_MAX`` indices are taken: the limit refuses only what is past it."""
    assert len(gather2_copies(np.zeros(GATHER2_INDICES_MAX, np.int64), 1)) == GATHER2_INDICES_MAX // 2


def test_numpy_integer_arguments_are_accepted() -> None:
    """np.int64 indices and s_kv are whole numbers."""
    plan = gather2_plan(np.arange(64, dtype=np.int64), np.int64(100))
    assert plan.requests_per_vector_core == (16, 16)
