import pytest

from ascend_dsa.facts.hardware import ASCEND_950, peak_flops
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import KvFormat
from ascend_dsa.models.throughput import (
    cycles_per_block_at,
    fraction_of_peak,
    pipeline_bound_flops,
    share_of_pipeline_bound,
)


def test_fractions_of_peak() -> None:
    """410 and 360 TFLOPS are 94.79% and 83.23% of 432.54 (report (zh) line 5 rounds to 95% and 83%)."""
    assert fraction_of_peak(410e12, ASCEND_950) == pytest.approx(0.94789, abs=1e-5)
    assert fraction_of_peak(360e12, ASCEND_950) == pytest.approx(0.83230, abs=1e-5)


def test_cycles_per_block() -> None:
    """At 410 TFLOPS a 1024-cycle block takes about 1080 cycles on average."""
    assert cycles_per_block_at(410e12, ASCEND_950, SHIPPED_KERNEL) == pytest.approx(1080.29, abs=0.01)
    with pytest.raises(ValueError, match="achieved_flops must be positive"):
        fraction_of_peak(0, ASCEND_950)


def test_pipeline_bound_is_the_peak_when_the_cube_never_idles() -> None:
    """Prefill (bf16) and decode (FP8) as shipped keep the modelled CUBE busy: the bound is the peak."""
    for kv_format in (KvFormat.BF16, KvFormat.FP8):
        assert pipeline_bound_flops(ASCEND_950, SHIPPED_KERNEL, kv_format=kv_format) == pytest.approx(
            peak_flops(ASCEND_950)
        )


def test_pipeline_bound_drops_when_the_cube_waits() -> None:
    """A tenth of the L2 bandwidth leaves the CUBE waiting for gathers: the bound falls below the peak."""
    slow = ASCEND_950.with_overrides(bandwidth_bytes_per_s=ASCEND_950.bandwidth_bytes_per_s / 10)
    assert pipeline_bound_flops(slow, SHIPPED_KERNEL) < 0.5 * peak_flops(slow)


def test_share_of_pipeline_bound_is_a_ratio_and_rejects_nonsense() -> None:
    """Achieved over bound; a zero or negative bound is refused naming it."""
    assert share_of_pipeline_bound(3.0, 4.0) == 0.75
    with pytest.raises(ValueError, match="bound_flops"):
        share_of_pipeline_bound(1.0, 0.0)
