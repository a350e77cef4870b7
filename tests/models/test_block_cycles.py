import pytest

from ascend_dsa.facts.assumptions import HF32_RATE, HF32_RATE_OVER_BF16
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_cycles_per_block,
    hf32_fma_per_cycle,
    identity_rescale_cycles,
    mma_cycles_per_block,
)


@pytest.mark.parametrize(
    ("b_topk", "mma", "fixpipe"),
    [(32, 512, 1088), (64, 1024, 1152), (73, 1168, 1170), (74, 1184, 1172), (96, 1536, 1216), (128, 2048, 1280)],
)
def test_report_formulas(b_topk: int, mma: int, fixpipe: int) -> None:
    """MMA = 16 x B_TOPK and FixPipe = 1024 + 2 x B_TOPK (report (zh) line 142)."""
    config = SHIPPED_KERNEL.with_overrides(b_topk=b_topk)
    assert mma_cycles_per_block(ASCEND_950, config) == mma
    assert fixpipe_cycles_per_block(ASCEND_950, config) == fixpipe


def test_break_even() -> None:
    """B_TOPK > 1024 / 14 = 73.14 (report (zh) line 142)."""
    assert float(fixpipe_break_even_b_topk(ASCEND_950, SHIPPED_KERNEL)) == pytest.approx(73.142857, abs=1e-6)


def test_p_only_fixpipe() -> None:
    """When only P leaves L0C a 64-token block needs 128 FixPipe cycles."""
    assert fixpipe_cycles_per_block(ASCEND_950, SHIPPED_KERNEL, o_leaves=False) == 128


def test_identity_rescale() -> None:
    """64 x 64 x 512 at 256 FMA/cycle = 8192 cycles; 512 at the full rate (report (zh) lines 126-128)."""
    assert identity_rescale_cycles(ASCEND_950, 64, 64, 512) == 8192
    assert identity_rescale_cycles(ASCEND_950, 64, 64, 512, exact_fp32=False) == 512
    with pytest.raises(ValueError, match="k must be a positive integer"):
        identity_rescale_cycles(ASCEND_950, 64, 0, 512)


def test_hf32_rate_comes_from_the_assumption() -> None:
    """The HF32-on rate is the bf16 rate times the registered assumption, not a second typed value."""
    assert HF32_RATE.source.kind == "assumed"
    assert hf32_fma_per_cycle(ASCEND_950) == ASCEND_950.matrix_fma_per_cycle_per_core * HF32_RATE_OVER_BF16
