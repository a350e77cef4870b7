"""The page inputs: the model chapter's by-eye example holds each kind of index it explains, and its scores."""

from __future__ import annotations

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.pipeline import Task, stage_costs
from ascend_dsa.report.scenarios import (
    EXAMPLE_INDICES,
    EXAMPLE_KEYS,
    EXAMPLE_QUERY,
    EXAMPLE_S_KV,
    PRIMER_RING_BLOCKS,
    PRIMER_RING_BUFFERS,
    primer_ring,
)


def test_the_example_has_every_kind_of_index() -> None:
    """Valid rows, the kernel's -1, one equal to s_kv (6, out of range) and a repeat (2, twice)."""
    assert EXAMPLE_S_KV == 6
    assert EXAMPLE_INDICES.count(-1) == 1
    assert EXAMPLE_INDICES.count(EXAMPLE_S_KV) == 1
    assert EXAMPLE_INDICES.count(2) == 2
    assert sorted(i for i in EXAMPLE_INDICES if 0 <= i < EXAMPLE_S_KV) == [0, 2, 2, 5]


def test_the_example_scores_by_eye() -> None:
    """q = (1, 0.5): key 2 = (2, 1) scores 2.5, key 5 = (1.5, -1) scores 1, key 0 = (1, 0) scores 1."""
    scores = {i: sum(q * k for q, k in zip(EXAMPLE_QUERY, EXAMPLE_KEYS[i], strict=True)) for i in (0, 2, 5)}
    assert scores == {0: 1.0, 2: 2.5, 5: 1.0}


def test_the_primer_ring_loads_a_gather_and_uses_the_cube_work() -> None:
    """The double-buffering primer's ring: load = the pipeline model's gather, use = its QK + SV, for each count."""
    cycles = stage_costs(ASCEND_950).cycles
    for buffers in PRIMER_RING_BUFFERS:
        ring = primer_ring(buffers)
        assert ring.load_cycles == cycles[Task.GATHER]
        assert ring.use_cycles == cycles[Task.QK] + cycles[Task.SV]
        assert len(ring.blocks) == PRIMER_RING_BLOCKS
    assert primer_ring(1).cycles_per_block == pytest.approx(cycles[Task.GATHER] + 1024)
    with pytest.raises(TypeError, match=r"^spec must be"):
        primer_ring(2, None)  # type: ignore[arg-type]
