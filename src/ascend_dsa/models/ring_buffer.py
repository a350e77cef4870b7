"""Double buffering in its smallest form: one loader, one consumer and a ring of buffers between them.

Block ``k`` is loaded into buffer ``k mod N`` and consumed from it. The loader (one copy engine, in order) starts
block ``k`` once its previous load is done and the consumer has finished block ``k - N``, the block that last held
the buffer; the consumer starts block ``k`` once its load is done and it has finished block ``k - 1``. With one
buffer loads and computes take turns; with two (ping-pong) the next load runs under the current compute, and once a
load is shorter than a compute the consumer never waits again. The primer on double buffering draws this model; the
kernel's own pipeline, with its many units and rings, is [`ascend_dsa.models.pipeline.simulate`][].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ascend_dsa.validate import Plausible, door, require_finite, require_int, require_plausible

#: Most buffers a ring may have: a figure shows one to a few, and no buffer of the kernel has more than six.
MAX_RING_BUFFERS: Final = 16
#: Most blocks one timeline runs: enough to show the steady state of any ring up to ``MAX_RING_BUFFERS``.
MAX_RING_BLOCKS: Final = 256
#: Cycles of one load or one compute, from a thousandth of a cycle to 2^32 cycles (seconds of a 1 GHz clock).
RING_CYCLES_RANGE: Final = Plausible(1e-3, 2**32, "cycles")


@dataclass(frozen=True)
class RingBlock:
    """One block through the ring: the buffer it uses, when its load runs and when the consumer uses it."""

    block: int
    buffer: int
    load_start: float
    load_end: float
    use_start: float
    use_end: float


@dataclass(frozen=True)
class RingTimeline:
    """Every block's load and use, for one ring of ``buffers`` buffers, with loads and uses of fixed length."""

    buffers: int
    load_cycles: float
    use_cycles: float
    blocks: tuple[RingBlock, ...]

    @property
    def makespan(self) -> float:
        """Cycles from the first load's start to the last use's end."""
        return self.blocks[-1].use_end

    @property
    def consumer_waits(self) -> tuple[float, ...]:
        """Per block after the first: cycles the consumer sat idle before it (0 when the load was already done)."""
        return tuple(b.use_start - a.use_end for a, b in zip(self.blocks, self.blocks[1:], strict=False))

    @property
    def loader_waits(self) -> tuple[float, ...]:
        """Per block after the first: cycles the loader waited for a free buffer after its previous load."""
        return tuple(b.load_start - a.load_end for a, b in zip(self.blocks, self.blocks[1:], strict=False))

    @property
    def cycles_per_block(self) -> float:
        """Cycles between the ends of the last two uses: the steady period once the ring has filled."""
        return self.blocks[-1].use_end - self.blocks[-2].use_end


def _cycles(name: str, value: object) -> float:
    """``value`` as the cycles of one load or use: positive, finite and in ``RING_CYCLES_RANGE``."""
    return require_plausible(name, require_finite(name, value, positive=True), RING_CYCLES_RANGE)


def _ring_timeline(load_cycles: float, use_cycles: float, buffers: int, blocks: int) -> RingTimeline:
    """[`ring_timeline`][] of values already checked."""
    placed: list[RingBlock] = []
    for k in range(blocks):
        freed = placed[k - buffers].use_end if k >= buffers else 0.0
        load_start = max(placed[-1].load_end if placed else 0.0, freed)
        load_end = load_start + load_cycles
        use_start = max(load_end, placed[-1].use_end if placed else 0.0)
        placed.append(RingBlock(k, k % buffers, load_start, load_end, use_start, use_start + use_cycles))
    return RingTimeline(buffers, load_cycles, use_cycles, tuple(placed))


@door(_ring_timeline)
def ring_timeline(load_cycles: float, use_cycles: float, buffers: int, blocks: int = 6) -> RingTimeline:
    """Load and use ``blocks`` blocks through a ring of ``buffers`` buffers; each load and each use takes fixed cycles.

    ``blocks`` must be at least two, so that a steady period exists.
    """
    load = _cycles("load_cycles", load_cycles)
    use = _cycles("use_cycles", use_cycles)
    buffers = require_int("buffers", buffers, minimum=1, maximum=MAX_RING_BUFFERS)
    blocks = require_int("blocks", blocks, minimum=2, maximum=MAX_RING_BLOCKS)
    return _ring_timeline(load, use, buffers, blocks)
