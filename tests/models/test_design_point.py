import dataclasses

import pytest

from ascend_dsa.errors import ForbiddenDesign
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.design_point import (
    FULL_UTILISATION,
    SHIPPED_DESIGN,
    DesignPoint,
    KvCache,
    Limit,
    LimitCheck,
    evaluate,
    fixpipe_bytes_per_cycle,
    smallest_compute_bound_heads,
)
from ascend_dsa.units import KiB


def test_shipped_design_fits_and_the_mte2_queue_binds() -> None:
    """At the report's design every limit holds; the MTE2 queue is exactly full (16 of 16) and binds."""
    evaluation = evaluate(SHIPPED_DESIGN, ASCEND_950)
    assert evaluation.fits
    assert evaluation.binding is Limit.MTE2_QUEUE
    mte2 = evaluation.check(Limit.MTE2_QUEUE)
    assert (mte2.demand, mte2.capacity, mte2.headroom) == (16, 16, 0)
    ub = evaluation.check(Limit.UB)
    assert (ub.demand, ub.headroom) == (259600, 2544)
    l2 = evaluation.check(Limit.L2_ROOFLINE)
    assert l2.capacity == 8192
    assert round(l2.demand) == 6921  # report (zh) line 108
    assert evaluation.check(Limit.L0C).demand == 144 * KiB
    assert evaluation.check(Limit.L1_BANK).demand == 196 * KiB


def test_fixpipe_scales_with_vector_cores() -> None:
    """128 B/cycle with 1C1V (report (zh) line 142); 256 with 1C2V under our stated assumption."""
    assert fixpipe_bytes_per_cycle(ASCEND_950, 1) == 128
    assert fixpipe_bytes_per_cycle(ASCEND_950, 2) == 256
    shipped = evaluate(SHIPPED_DESIGN, ASCEND_950)
    assert shipped.check(Limit.FIXPIPE_O_EVERY_BLOCK).demand == 576
    assert shipped.check(Limit.FIXPIPE_P_ONLY).demand == 64
    with pytest.raises(ValueError, match="vector_cores must be"):
        fixpipe_bytes_per_cycle(ASCEND_950, 0)
    with pytest.raises(ValueError, match="vector_cores must be 1 or 2"):
        fixpipe_bytes_per_cycle(ASCEND_950, 3)


def test_one_vector_core_exceeds_fixpipe_mte2_and_ub() -> None:
    """1C1V at B_TOPK 64: FixPipe 1152 > 1024 cycles when O leaves every block, 32 > 16 requests, UB overflows."""
    evaluation = evaluate(DesignPoint(vector_cores=1), ASCEND_950)
    fixpipe = evaluation.check(Limit.FIXPIPE_O_EVERY_BLOCK)
    assert (fixpipe.demand, fixpipe.capacity) == (1152, 1024)
    assert evaluation.check(Limit.FIXPIPE_P_ONLY).fits
    assert evaluation.check(Limit.MTE2_QUEUE).demand == 32
    assert not evaluation.check(Limit.UB).fits
    assert not evaluation.fits


@pytest.mark.parametrize(
    ("point", "binding", "exceeded"),
    [
        (DesignPoint(heads_per_core=32), Limit.L2_ROOFLINE, {Limit.L2_ROOFLINE}),
        (DesignPoint(heads_per_core=128), Limit.UB, {Limit.L0C, Limit.UB, Limit.L1_BANK}),
        (DesignPoint(b_topk=128), Limit.MTE2_QUEUE, {Limit.UB, Limit.MTE2_QUEUE, Limit.L1_BANK}),
        (DesignPoint(kv_cache=KvCache.FP8_FP4, sink=True), Limit.MTE2_QUEUE, set()),
    ],
)
def test_alternatives(point: DesignPoint, binding: Limit, exceeded: set[Limit]) -> None:
    """32 heads are L2-bound, 128 overflow L0C (report (zh) line 116), larger blocks overflow the MTE2 queue."""
    evaluation = evaluate(point, ASCEND_950)
    assert evaluation.binding is binding
    assert {c.limit for c in evaluation.checks if not c.fits} == exceeded


def test_forbidden_point_names_the_rule() -> None:
    """B_TOPK 96 with INDEX_BLOCK_SIZE 640 is ruled out by the kernel; with 384 it is allowed."""
    with pytest.raises(ForbiddenDesign, match="index-block-multiple-of-b-topk"):
        evaluate(DesignPoint(b_topk=96), ASCEND_950)
    assert evaluate(DesignPoint(b_topk=96, index_block_size=384), ASCEND_950).check(Limit.MTE2_QUEUE).demand == 24


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"heads_per_core": 0}, "heads_per_core must be a positive integer, got 0"),
        ({"topk": -1}, "topk must be a positive integer, got -1"),
        ({"vector_cores": 3}, "vector_cores must be 1 or 2"),
        ({"kv_cache": "fp4"}, "'fp4' is not a valid KvCache"),
    ],
)
def test_bad_design_points(changes: dict[str, object], message: str) -> None:
    """A design point rejects values that are not positive integers, 3 VECTOR Cores and an unknown cache."""
    with pytest.raises(ValueError, match=message):
        DesignPoint(**changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec_changes", "kv_cache", "expected"),
    [
        ({}, KvCache.BF16, 64),
        ({}, KvCache.FP8, 32),
        ({"cores": 24}, KvCache.BF16, 48),
        ({"bandwidth_bytes_per_s": 2.5e12}, KvCache.BF16, 144),
    ],
)
def test_smallest_compute_bound_heads(spec_changes: dict[str, float], kv_cache: KvCache, expected: int) -> None:
    """At topk 512: 64 heads on the 950 (bf16), 32 with FP8 KV, 48 with 24 cores, 144 with half the L2."""
    spec = ASCEND_950.with_overrides(**spec_changes)
    assert smallest_compute_bound_heads(spec, 512, kv_cache) == expected
    assert smallest_compute_bound_heads(spec, 512, kv_cache, candidates=(16,)) in (None, 16)


def test_full_utilisation_is_demand_equal_to_capacity() -> None:
    """A limit whose demand equals its capacity is used 100 % (1) and still fits; one byte more does not."""
    at = LimitCheck(Limit.L0C, 256 * KiB, 256 * KiB, "B")
    assert FULL_UTILISATION == 1
    assert at.utilisation == FULL_UTILISATION
    assert at.fits
    assert not LimitCheck(Limit.L0C, 256 * KiB + 1, 256 * KiB, "B").fits


def test_an_evaluation_cannot_be_changed() -> None:
    """A DesignEvaluation is frozen, like the point it evaluates."""
    evaluation = evaluate(DesignPoint(), ASCEND_950)
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'spec_name'$"):
        evaluation.spec_name = "x"  # type: ignore[misc]
