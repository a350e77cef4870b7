import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.throughput import cycles_per_block_at, fraction_of_peak


def test_fractions_of_peak() -> None:
    """410 and 360 TFLOPS are 94.79% and 83.23% of 432.54 (report (zh) line 5 rounds to 95% and 83%)."""
    assert fraction_of_peak(410e12, ASCEND_950) == pytest.approx(0.94789, abs=1e-5)
    assert fraction_of_peak(360e12, ASCEND_950) == pytest.approx(0.83230, abs=1e-5)


def test_cycles_per_block() -> None:
    """At 410 TFLOPS a 1024-cycle block takes about 1080 cycles on average."""
    assert cycles_per_block_at(410e12, ASCEND_950, SHIPPED_KERNEL) == pytest.approx(1080.29, abs=0.01)
    with pytest.raises(ValueError, match="achieved_flops must be positive"):
        fraction_of_peak(0, ASCEND_950)
