import math

import pytest

from ascend_dsa.models.online_softmax import ONLINE_SOFTMAX_START, fold_block


def test_start_is_the_empty_reduction() -> None:
    """Folding one block from the start gives that block's own maximum and sum of exponentials (line 45's values)."""
    logits = [0.5, 2.0, -1.0]
    state = fold_block(ONLINE_SOFTMAX_START, logits, threshold=6)
    assert ONLINE_SOFTMAX_START.values() == (-math.inf, -math.inf, 0.0)
    assert state.running_max == state.running_max_for_softmax == 2.0
    assert state.running_sumexp == pytest.approx(sum(math.exp(x - 2.0) for x in logits))


def test_small_rise_skips_the_rescale() -> None:
    """A rise within the threshold keeps the softmax's max; one beyond it adopts the new max (lines 57-69)."""
    state = fold_block(ONLINE_SOFTMAX_START, [0.0], threshold=6)
    kept = fold_block(state, [6.0], threshold=6)
    assert (kept.running_max, kept.running_max_for_softmax) == (6.0, 0.0)
    moved = fold_block(state, [6.5], threshold=6)
    assert moved.running_max_for_softmax == 6.5
    with pytest.raises(ValueError, match="logits"):
        fold_block(state, [], threshold=6)


def test_a_rescale_carries_the_old_sum_over_to_the_new_maximum() -> None:
    """Block [0] then block [10] at threshold 6: the gap 10 > 6 rescales, so the sum is e^(0-10) + e^(10-10)."""
    state = fold_block(fold_block(ONLINE_SOFTMAX_START, [0.0], 6.0), [10.0], 6.0)
    assert state.running_max_for_softmax == 10.0
    assert state.running_sumexp == pytest.approx(math.exp(-10.0) + 1.0, rel=1e-15)
