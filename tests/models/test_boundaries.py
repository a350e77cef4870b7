"""Every verdict and fit of the models at its boundary and one step either side.

The expected values are written here from the report's formulas and the kernel's sizes, worked by hand in the
docstrings, never recomputed by the code under test: a threshold moved or a ``<=`` turned into ``<`` fails.
"""

from __future__ import annotations

import math

import pytest

from ascend_dsa.errors import OutOfRange
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.models.design_point import (
    LIMITS,
    DesignEvaluation,
    DesignPoint,
    KvCache,
    Limit,
    LimitCheck,
    evaluate,
    smallest_compute_bound_heads,
)
from ascend_dsa.models.memory_plans import l1_plan, ub_plan, vector_cores_for_accumulator
from ascend_dsa.models.roofline import RooflinePoint, Verdict, cube_cycles, head_roofline
from ascend_dsa.units import KiB

#: A 950 whose per-core L2 share is exactly 80 B/cycle (2.56 TB/s / 32 cores / 1 GHz), so that at 64 heads and
#: topk 512 the L2 cycles, (64 x 2048 + 512 x 1024) B / 80 B = 8192, equal the CUBE cycles, 64 x 512 x 1024 / 4096.
EVEN_SPEC = ASCEND_950.with_overrides(clock_hz=1e9, bandwidth_bytes_per_s=2.56e12)


# --- the roofline verdict ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cube", "l2", "expected"),
    [
        (1000, 1000.0, Verdict.BALANCED),
        (1001, 1000.0, Verdict.COMPUTE_BOUND),
        (999, 1000.0, Verdict.MEMORY_BOUND),
        (1000, math.nextafter(1000.0, 0), Verdict.COMPUTE_BOUND),
        (1000, math.nextafter(1000.0, math.inf), Verdict.MEMORY_BOUND),
    ],
)
def test_verdict_at_a_ratio_of_one_and_one_step_either_side(cube: int, l2: float, expected: Verdict) -> None:
    """A ratio of exactly 1 is balanced even with no band; the nearest ratio above is compute-, below memory-bound."""
    assert RooflinePoint(heads=64, topk=512, cube_cycles=cube, l2_cycles=l2).verdict() is expected


@pytest.mark.parametrize(
    ("cube", "band", "expected"),
    [
        (9, 0.125, Verdict.BALANCED),  # ratio 9/8 = 1.125, exactly at the band's edge
        (9, math.nextafter(0.125, 0), Verdict.COMPUTE_BOUND),
        (7, 0.125, Verdict.BALANCED),  # ratio 7/8 = 0.875, exactly at the other edge
        (7, math.nextafter(0.125, 0), Verdict.MEMORY_BOUND),
        (10, 0.125, Verdict.COMPUTE_BOUND),  # 1.25: a whole step (1/8) past the edge
        (6, 0.125, Verdict.MEMORY_BOUND),
    ],
)
def test_balanced_band_edges(cube: int, band: float, expected: Verdict) -> None:
    """At exactly ``balanced_within`` from 1 is balanced; a band one float narrower is not (eighths are exact)."""
    assert RooflinePoint(heads=64, topk=512, cube_cycles=cube, l2_cycles=8.0).verdict(band) is expected


@pytest.mark.parametrize("band", [-1e-300, math.nan, math.inf, -math.inf])
def test_verdict_band_rejects_what_is_no_fraction(band: float) -> None:
    """The band must be a finite non-negative fraction; the error names it and the value."""
    with pytest.raises(ValueError, match=r"^balanced_within must be a non-negative fraction, got "):
        RooflinePoint(heads=64, topk=512, cube_cycles=8, l2_cycles=8.0).verdict(band)


def test_verdict_band_of_zero_is_allowed() -> None:
    """Zero, the default, is the edge of the allowed bands."""
    assert RooflinePoint(heads=64, topk=512, cube_cycles=8, l2_cycles=8.0).verdict(0.0) is Verdict.BALANCED


@pytest.mark.parametrize(
    ("heads", "expected"),
    [
        # CUBE: heads x 512 x 1024 / 4096 = 128 x heads; L2: (2048 x heads + 524288) B at 5 TB/s / 32 / 1.65 GHz
        # = 94.697 B/cycle. Equal at heads = 524288 / (128 x 94.697 - 2048) = 52.05.
        (52, Verdict.MEMORY_BOUND),  # 6656 cycles against 6661.1: ratio 0.9992
        (53, Verdict.COMPUTE_BOUND),  # 6784 against 6682.7: ratio 1.0152
    ],
)
def test_the_950_crosses_the_roofline_between_52_and_53_heads_at_topk_512(heads: int, expected: Verdict) -> None:
    """On the 950 at topk 512 the last memory-bound head count is 52 and the first compute-bound one 53."""
    assert head_roofline(ASCEND_950, heads, 512).verdict() is expected


@pytest.mark.parametrize(
    ("heads", "expected"), [(63, Verdict.MEMORY_BOUND), (64, Verdict.BALANCED), (65, Verdict.COMPUTE_BOUND)]
)
def test_a_spec_with_exactly_even_cycles(heads: int, expected: Verdict) -> None:
    """At 80 B/cycle, CUBE against L2 cycles: 8064 to 8166.4 at 63 heads, 8192 each at 64, 8320 to 8217.6 at 65."""
    point = head_roofline(EVEN_SPEC, heads, 512)
    assert (point.cube_cycles, point.l2_cycles) == {63: (8064, 8166.4), 64: (8192, 8192.0), 65: (8320, 8217.6)}[heads]
    assert point.verdict() is expected


@pytest.mark.parametrize(
    ("candidates", "expected"),
    [((63, 64, 65), 64), ((63,), None), ((65, 63), 65), ((64,), 64)],
)
def test_smallest_compute_bound_heads_counts_a_ratio_of_one(candidates: tuple[int, ...], expected: int | None) -> None:
    """CUBE cycles equal to L2 cycles count as covering them: 64 heads qualify on the even spec, 63 do not."""
    assert smallest_compute_bound_heads(EVEN_SPEC, 512, candidates=candidates) == expected


def test_smallest_compute_bound_heads_on_the_950_is_53_among_all() -> None:
    """Among every head count from 1, the 950 at topk 512 is first compute-bound at 53 (see the crossing above)."""
    assert smallest_compute_bound_heads(ASCEND_950, 512, candidates=tuple(range(1, 129))) == 53


def test_cube_cycles_of_zero_are_refused() -> None:
    """A CUBE faster than the block's multiply-adds floors its cycles to 0: refused, naming both numbers."""
    spec = ASCEND_950.with_overrides(
        matrix_fma_per_cycle_per_core=16 * 1024 + 1
    )  # 1 head x topk 16 x 1024 = 16384 MACs
    with pytest.raises(
        OutOfRange, match=r"^CUBE cycles come out as 0: matrix_fma_per_cycle_per_core = 16385 exceeds the 16384 "
    ):
        cube_cycles(spec, 1, 16)
    assert cube_cycles(ASCEND_950.with_overrides(matrix_fma_per_cycle_per_core=16 * 1024), 1, 16) == 1


# --- one limit: demand against capacity ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("demand", "fits", "headroom", "utilisation"),
    [
        (16.0, True, 0.0, 1.0),
        (math.nextafter(16.0, math.inf), False, -math.ulp(16.0), math.nextafter(1.0, math.inf)),
        (15.0, True, 1.0, 0.9375),
        (17.0, False, -1.0, 1.0625),
    ],
)
def test_limit_check_at_its_capacity(demand: float, fits: bool, headroom: float, utilisation: float) -> None:  # noqa: FBT001
    """A demand equal to the capacity fits with no headroom and utilisation 1; the next float above does not."""
    check = LimitCheck(Limit.MTE2_QUEUE, demand, 16.0, "requests")
    assert (check.fits, check.headroom, check.utilisation) == (fits, headroom, utilisation)


def _evaluation(*utilisations: float) -> DesignEvaluation:
    checks = tuple(LimitCheck(limit, u * 8, 8.0, "x") for limit, u in zip(LIMITS, utilisations, strict=False))
    return DesignEvaluation(point=DesignPoint(), spec_name="test", checks=checks)


def test_binding_limit_breaks_ties_by_order_and_fits_needs_every_limit() -> None:
    """Equal utilisations bind the first limit in LIMITS order; one limit an eighth over makes the design not fit."""
    assert _evaluation(0.5, 1.0, 1.0).binding is Limit.FIXPIPE_O_EVERY_BLOCK
    assert _evaluation(0.5, 1.0, 1.125).binding is Limit.FIXPIPE_P_ONLY
    assert _evaluation(1.0, 1.0, 1.0).fits
    assert not _evaluation(1.0, 1.125, 1.0).fits


#: The shipped design's demands (prefill, 64 heads, topk 512, B_TOPK 64, 1C2V), from the kernel and report:
#: L0C 128 KiB of O + 16 KiB of P (report (zh) line 116), UB 259600 B (sizeof at config.h:77-125), 16 gather2
#: requests per block per core (32 tokens / 2, report (zh) line 138), L1 bank 196 KiB (64 KiB Q + 128 KiB KV + 4 KiB S).
SHIPPED_DEMANDS = {
    "accumulator_bytes_per_core": 144 * KiB,
    "staging_bytes_per_core": 259600,
    "mte2_outstanding_requests": 16,
}


@pytest.mark.parametrize(
    ("field", "limit"),
    [
        ("accumulator_bytes_per_core", Limit.L0C),
        ("staging_bytes_per_core", Limit.UB),
        ("mte2_outstanding_requests", Limit.MTE2_QUEUE),
    ],
)
@pytest.mark.parametrize(("step", "fits"), [(0, True), (-1, False), (1, True)])
def test_design_fits_a_capacity_of_exactly_its_demand(field: str, limit: Limit, step: int, fits: bool) -> None:  # noqa: FBT001
    """A capacity equal to the shipped design's demand fits; one byte (or request) less does not; one more does."""
    spec = ASCEND_950.with_overrides(**{field: SHIPPED_DEMANDS[field] + step})
    evaluation = evaluate(DesignPoint(), spec)
    assert evaluation.check(limit).fits is fits
    assert evaluation.check(limit).headroom == step
    assert evaluation.fits is fits


@pytest.mark.parametrize(("step", "fits"), [(0, True), (-1, False), (1, True)])
def test_l1_bank_fits_a_bank_of_exactly_its_fill(step: int, fits: bool) -> None:  # noqa: FBT001
    """Two banks of 196 KiB hold the shipped L1 plan exactly; a byte less per bank does not (L1 split evenly)."""
    spec = ASCEND_950.with_overrides(l1_bytes=2 * (196 * KiB + step))
    assert evaluate(DesignPoint(), spec).check(Limit.L1_BANK).fits is fits
    assert l1_plan(spec, SHIPPED_KERNEL).headroom_bytes(spec) == step


def test_l2_roofline_limit_fits_at_a_ratio_of_one() -> None:
    """On the even spec the L2 limit's demand equals its capacity (8192 cycles) and fits; topk 511 does not."""
    at_one = evaluate(DesignPoint(), EVEN_SPEC).check(Limit.L2_ROOFLINE)
    assert (at_one.demand, at_one.capacity, at_one.fits) == (8192.0, 8192.0, True)
    below = evaluate(DesignPoint(topk=511), EVEN_SPEC).check(Limit.L2_ROOFLINE)
    # 64 heads at topk 511: CUBE 64 x 511 x 1024 / 4096 = 8176; L2 (131072 + 523264) / 80 = 8179.2 cycles
    assert (below.capacity, below.demand, below.fits) == (8176.0, 8179.2, False)


# --- the UB plan's fit (the kernel's static_assert, config.h:125) -------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "fp4_extra", "sink", "total"),
    [
        (Mode.PREFILL, False, False, 259600),
        (Mode.DECODE, False, False, 214544),
        (Mode.DECODE, True, False, 244240),
    ],
)
@pytest.mark.parametrize(("step", "fits", "headroom"), [(0, True, 0), (-1, False, -1), (1, True, 1)])
def test_ub_plan_fits_a_ub_of_exactly_its_size(
    mode: Mode,
    fp4_extra: bool,  # noqa: FBT001
    sink: bool,  # noqa: FBT001
    total: int,
    step: int,
    fits: bool,  # noqa: FBT001
    headroom: int,
) -> None:
    """A UB of exactly the plan's sizeof fits with 0 B to spare; one byte smaller is one byte short."""
    plan = ub_plan(SHIPPED_KERNEL, mode, fp4_extra=fp4_extra, sink=sink)
    assert plan.total_bytes == total
    spec = ASCEND_950.with_overrides(staging_bytes_per_core=total + step)
    assert (plan.fits(spec), plan.headroom_bytes(spec)) == (fits, headroom)


def test_a_sink_adds_one_fp32_per_row_of_a_vector_core() -> None:
    """The attention sink adds ``attn_sink[MMA_M_PER_V]``: 32 rows x 4 B = 128 B (config.h:88)."""
    assert ub_plan(SHIPPED_KERNEL, Mode.PREFILL, sink=True).total_bytes == 259600 + 128


# --- the accumulator's VECTOR Cores (report (zh) line 116) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("heads", "cores"),
    [
        (127, 1),  # 127 x 512 x 4 B = 260096 B < 262144 B of UB
        (128, 2),  # 262144 B: a share as large as the UB leaves no room, so two cores
        (255, 2),  # 522240 / 2 = 261120 B per core
    ],
)
def test_accumulator_share_must_be_smaller_than_a_ub(heads: int, cores: int) -> None:
    """A share of exactly one UB is not enough (the KV, P and statistics need room too); one row less is."""
    assert vector_cores_for_accumulator(ASCEND_950, heads) == cores


def test_accumulator_of_two_full_ubs_is_refused() -> None:
    """At 256 heads each of the two VECTOR Cores would hold exactly 262144 B: refused, naming heads and bytes."""
    with pytest.raises(ValueError, match=r"2 VECTOR Cores can share .* got 256 heads \(524288 B\)$"):
        vector_cores_for_accumulator(ASCEND_950, 256)


@pytest.mark.parametrize("kv_cache", list(KvCache))
def test_shipped_design_fits_in_every_cache(kv_cache: KvCache) -> None:
    """Each cache's shipped design fits; the MTE2 queue is exactly full (16 of 16 requests), hence binds."""
    evaluation = evaluate(DesignPoint(kv_cache=kv_cache), ASCEND_950)
    assert evaluation.fits
    assert evaluation.check(Limit.MTE2_QUEUE).utilisation == 1.0
    assert evaluation.binding is Limit.MTE2_QUEUE
