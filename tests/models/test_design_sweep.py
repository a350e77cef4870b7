import random
from collections.abc import Callable

import numpy as np
import pytest

from ascend_dsa.errors import ForbiddenDesign
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import HEADS_RANGE, TOKENS_RANGE
from ascend_dsa.models.design_point import LIMITS, DesignPoint, evaluate
from ascend_dsa.models.design_sweep import LARGEST_GRID_VALUE, NONE, DesignGrid, sweep

GRID = DesignGrid(
    heads=(8, 16, 32, 48, 64, 96, 128, 200),
    topk=(256, 512, 2048),
    b_topk=(10, 16, 32, 48, 64, 96, 128),
    vector_cores=(1, 2),
    kv_cache=("bf16", "fp8", "fp8+fp4"),
    sink=(False, True),
    index_block_size=(96, 384, 640, 768),
)


def test_sweep_equals_scalar_evaluation_on_a_sample() -> None:
    """At 400 random points the sweep's utilisations, binding limit and verdict equal evaluate()'s exactly."""
    result = sweep(ASCEND_950, GRID)
    rng = random.Random(5)  # noqa: S311 - a reproducible sample, not a secret
    forbidden = 0
    for _ in range(400):
        index = tuple(rng.randrange(n) for n in GRID.shape)
        point = GRID.point(index)
        try:
            evaluation = evaluate(point, ASCEND_950)
        except ForbiddenDesign:
            forbidden += 1
            assert result.binding[index] == NONE
            assert not result.fits[index]
            continue
        assert result.utilisation_at(index) == tuple(c.utilisation for c in evaluation.checks)
        assert result.binding_limit(index) is evaluation.binding
        assert bool(result.fits[index]) == evaluation.fits
    assert 0 < forbidden < 400  # the sample covers both kinds of point


def test_shapes_and_shipped_point() -> None:
    """Outputs have the grid's shape; the shipped point binds on the MTE2 queue and fits."""
    result = sweep(ASCEND_950, DesignGrid())
    assert result.binding.shape == result.fits.shape == result.rule.shape == (1,) * 7
    assert result.binding_limit((0,) * 7) is LIMITS[int(result.binding[(0,) * 7])]
    assert result.binding_limit((0,) * 7).value == "mte2-queue"  # type: ignore[union-attr]
    assert bool(result.fits[(0,) * 7])
    full = sweep(ASCEND_950, GRID)
    assert full.binding.shape == GRID.shape
    assert full.binding.size == GRID.size


def test_rules_over_the_grid() -> None:
    """B_TOPK 96 with INDEX_BLOCK_SIZE 640 is forbidden everywhere; with 768 it is not."""
    result = sweep(ASCEND_950, GRID)
    b96, ib640, ib768 = GRID.b_topk.index(96), GRID.index_block_size.index(640), GRID.index_block_size.index(768)
    assert np.all(result.binding[:, :, b96, :, :, :, ib640] == NONE)
    assert np.all(result.binding[:, :, b96, :, :, :, ib768] != NONE)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"heads": ()}, "heads must list at least one value"),
        ({"b_topk": (64, 0)}, "b_topk must be a positive integer, got 0"),
        ({"vector_cores": (3,)}, "vector_cores must list 1 or 2"),
        ({"kv_cache": ("fp4",)}, "'fp4' is not a valid KvCache"),
    ],
)
def test_bad_grids(changes: dict[str, object], message: str) -> None:
    """An empty axis, a non-positive value, 3 VECTOR Cores or an unknown cache is refused with the axis named."""
    with pytest.raises(ValueError, match=message):
        DesignGrid(**changes)  # type: ignore[arg-type]


def test_point_index_must_cover_every_axis() -> None:
    """point() needs one position per axis."""
    with pytest.raises(ValueError, match="index must have 7 positions"):
        GRID.point((0, 0))


def test_a_tie_with_the_widest_limit_goes_to_the_limit_listed_first() -> None:
    """At 1 GHz and 2.56 TB/s an AI Core gets 80 B/cycle, so 64 heads at topk 512 need 655360 / 80 = 8192 L2 cycles:
    exactly the CUBE's 8192, utilisation 1, tied with the MTE2 queue's 16 of 16. The L2 roofline (first in LIMITS,
    and the only limit that varies with topk, so the sweep compares it last) binds, as max() makes it for one point.
    """
    spec = ASCEND_950.with_overrides(clock_hz=1e9, bandwidth_bytes_per_s=2.56e12)
    result = sweep(spec, DesignGrid(topk=(512, 1024)))
    by_name = {limit.name: result.utilisation[limit].ravel().tolist() for limit in LIMITS}
    assert by_name["L2_ROOFLINE"] == [1.0, 0.9]
    assert by_name["MTE2_QUEUE"] == [1.0]
    assert [LIMITS[int(b)].name for b in result.binding.ravel()] == ["L2_ROOFLINE", "MTE2_QUEUE"]


def test_fixpipe_p_only_demand_is_not_rounded() -> None:
    """32 heads x B_TOPK 33 of fp32 P is 4224 B; over 1C2V's 256 B/cycle that is 16.5 cycles, not 16."""
    result = sweep(ASCEND_950, DesignGrid(heads=(32,), b_topk=(33,)))
    demand = result.demand[LIMITS[2]]
    assert LIMITS[2].name == "FIXPIPE_P_ONLY"
    assert demand.ravel().tolist() == [16.5]


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            lambda: DesignPoint(topk=2**53),
            r"^topk must lie in the plausible range 1 to 1,048,576 tokens, got 9007199254740992$",
        ),
        (lambda: DesignPoint(heads_per_core=4097), r"^heads_per_core must lie in the plausible range 1 to 4,096 heads"),
        (
            lambda: DesignGrid(heads=(16, 2**20)),
            r"^heads must lie in the plausible range 1 to 4,096 heads, got 1048576$",
        ),
        (lambda: DesignGrid(index_block_size=(2**21,)), r"^index_block_size must lie in the plausible range"),
    ],
)
def test_a_point_and_a_grid_check_the_kernel_ranges(call: Callable[[], object], words: str) -> None:
    """Issue 31 (16): a design point and a grid refuse heads and tokens as KernelConfig does (one range each)."""
    with pytest.raises(ValueError, match=words):
        call()


def test_the_ranges_fit_a_design_sweep() -> None:
    """The largest plausible heads and tokens stay within what a design sweep computes in int64 safely."""
    assert max(HEADS_RANGE.high, TOKENS_RANGE.high) <= LARGEST_GRID_VALUE
    assert DesignGrid(heads=(HEADS_RANGE.high,), topk=(TOKENS_RANGE.high,)).size == 1
