from ascend_dsa.kernel_config import SHIPPED_KERNEL
from ascend_dsa.memory_budget import l0c_output_bytes, l0c_scores_bytes, l0c_used_bytes
from ascend_dsa.units import KiB


def test_l0c_plans() -> None:
    """O at 128 heads fills 256 KiB; at 64 heads O + P use 144 KiB (report (zh) line 116; FACTS section 5)."""
    assert l0c_output_bytes(128) == 256 * KiB
    assert l0c_scores_bytes(SHIPPED_KERNEL) == 16 * KiB
    assert l0c_used_bytes(SHIPPED_KERNEL) == 144 * KiB
