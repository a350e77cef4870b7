import pytest

from ascend_dsa.kernel_config import SHIPPED_KERNEL, config_fields


def test_every_field_sourced() -> None:
    """Each configuration constant carries a source."""
    assert set(SHIPPED_KERNEL.sources) == set(config_fields())


def test_derived_tiles() -> None:
    """MMA_M = 64, 32 rows and 32 tokens per VECTOR Core (config.h:28, 54, 56)."""
    assert SHIPPED_KERNEL.mma_m == 64
    assert SHIPPED_KERNEL.mma_m_per_vector_core == 32
    assert SHIPPED_KERNEL.b_topk_per_vector_core == 32


@pytest.mark.parametrize(("heads", "mma_m"), [(1, 32), (32, 32), (33, 64), (64, 64), (100, 128)])
def test_mma_m_rounds_up_to_32(heads: int, mma_m: int) -> None:
    """MMA_M is heads rounded up to a multiple of 32."""
    assert SHIPPED_KERNEL.with_overrides(heads_per_core=heads).mma_m == mma_m


def test_override_marks_assumption_and_rejects_bad_values() -> None:
    """Overrides are recorded; zero and unknown names are refused."""
    variant = SHIPPED_KERNEL.with_overrides(b_topk=96)
    assert variant.sources["b_topk"].kind == "assumed"
    with pytest.raises(ValueError, match="b_topk must be a positive integer"):
        SHIPPED_KERNEL.with_overrides(b_topk=0)
    with pytest.raises(ValueError, match="cannot override btopk"):
        SHIPPED_KERNEL.with_overrides(btopk=96)
