import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.peak_clock import clock_range_for_percent, flops_per_cycle, intersect
from ascend_dsa.units import TFLOPS, GHz


def test_flops_per_cycle() -> None:
    """4096 FMA x 2 x 32 cores = 262144 FLOP per cycle chip-wide."""
    assert flops_per_cycle(ASCEND_950) == 262144


def test_both_percentages_pin_the_clock_near_1_65_ghz() -> None:
    """95% of 410 and 83% of 360 together allow only 1.6447-1.6551 GHz, which contains 1.65 GHz."""
    prefill = clock_range_for_percent(410 * TFLOPS, 95, ASCEND_950)
    decode = clock_range_for_percent(360 * TFLOPS, 83, ASCEND_950)
    both = intersect(prefill, decode)
    assert both is not None
    assert both[0] / GHz == pytest.approx(1.6447, abs=1e-4)
    assert both[1] / GHz == pytest.approx(1.6551, abs=1e-4)
    assert both[0] <= ASCEND_950.clock_hz <= both[1]


def test_disjoint_ranges() -> None:
    """Intervals that do not overlap have no intersection."""
    assert intersect((1.0, 2.0), (3.0, 4.0)) is None


@pytest.mark.parametrize(("achieved", "percent", "name"), [(0.0, 95, "achieved_flops"), (1e12, 0, "percent")])
def test_bad_input(achieved: float, percent: int, name: str) -> None:
    """Non-positive throughput or a percent outside 1..100 is an error naming it."""
    with pytest.raises(ValueError, match=name):
        clock_range_for_percent(achieved, percent, ASCEND_950)


def test_a_range_of_one_point_is_a_range() -> None:
    """(2, 2) has low == high, which is allowed; its intersection with (1, 3) is itself."""
    assert intersect((2.0, 2.0), (1.0, 3.0)) == (2.0, 2.0)
