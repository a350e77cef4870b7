"""The textbook ring of buffers: one buffer alternates load and use, two hide the load, more free the loader."""

from __future__ import annotations

import pytest

from ascend_dsa.models.ring_buffer import MAX_RING_BUFFERS, ring_timeline


def test_one_buffer_pays_load_plus_use_per_block() -> None:
    """With a single buffer the next load waits for the use to free it: every block costs both."""
    ring = ring_timeline(3.0, 5.0, 1, blocks=4)
    assert ring.cycles_per_block == 8.0
    assert ring.consumer_waits == (3.0, 3.0, 3.0)
    assert ring.loader_waits == (5.0, 5.0, 5.0)
    assert ring.makespan == 4 * 8.0
    assert [b.buffer for b in ring.blocks] == [0, 0, 0, 0]


def test_two_buffers_hide_a_shorter_load_under_the_use() -> None:
    """Ping-pong: the consumer never waits after the first load; the loader waits use - load for a free buffer."""
    ring = ring_timeline(3.0, 5.0, 2, blocks=4)
    assert ring.cycles_per_block == 5.0
    assert ring.consumer_waits == (0.0, 0.0, 0.0)
    assert ring.loader_waits == (0.0, 2.0, 2.0)
    assert [b.buffer for b in ring.blocks] == [0, 1, 0, 1]
    assert ring.makespan == 3.0 + 4 * 5.0


def test_a_third_buffer_frees_the_loader_but_not_the_period() -> None:
    """Three buffers: the loader runs back to back, the period stays the use's."""
    ring = ring_timeline(3.0, 5.0, 3, blocks=4)
    assert ring.loader_waits == (0.0, 0.0, 0.0)
    assert ring.cycles_per_block == 5.0


def test_a_longer_load_bounds_whatever_the_buffers() -> None:
    """When a load takes longer than a use no buffer count helps: the period is the load (memory-bound)."""
    for buffers in (2, 3, 4):
        assert ring_timeline(7.0, 5.0, buffers, blocks=6).cycles_per_block == 7.0


def test_a_block_never_uses_a_buffer_before_its_previous_holder_is_done() -> None:
    """Block k's load starts after block k - N's use ends: no buffer is overwritten while read."""
    ring = ring_timeline(2.0, 5.0, 2, blocks=8)
    for k, block in enumerate(ring.blocks[2:], start=2):
        assert block.load_start >= ring.blocks[k - 2].use_end
        assert block.use_start >= block.load_end


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((0.0, 5.0, 2, 4), ValueError, r"^load_cycles must be positive, got 0\.0$"),
        ((3.0, float("nan"), 2, 4), ValueError, r"^use_cycles must be a finite number, got nan$"),
        ((3.0, 5.0, 0, 4), ValueError, r"^buffers must be "),
        ((3.0, 5.0, MAX_RING_BUFFERS + 1, 4), ValueError, r"^buffers must be "),
        ((3.0, 5.0, 2, 1), ValueError, r"^blocks must be "),
        ((3.0, 1e300, 2, 4), ValueError, r"^use_cycles must lie in the plausible range"),
        (("3", 5.0, 2, 4), TypeError, r"^load_cycles must be a real number"),
    ],
)
def test_bad_input_is_named(args: tuple[object, ...], error: type[Exception], message: str) -> None:
    """Each argument is checked where it enters, with a one-line message naming it."""
    with pytest.raises(error, match=message):
        ring_timeline(*args)  # type: ignore[arg-type]
