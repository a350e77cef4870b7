import math

import numpy as np
import pytest

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, config_fields


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


@pytest.mark.parametrize("bad", [64.0, math.nan, math.inf, "64", True])
def test_whole_number_fields_reject_floats_and_other_types(bad: object) -> None:
    """A float (even 64.0), NaN, inf, a string or a bool in a whole-number field is a TypeError naming it."""
    with pytest.raises(TypeError, match="b_topk must be a whole number"):
        SHIPPED_KERNEL.with_overrides(b_topk=bad)


def test_numpy_integers_are_accepted_and_stored_as_int() -> None:
    """np.int64(32) is a whole number; the field holds a plain int."""
    variant = SHIPPED_KERNEL.with_overrides(heads_per_core=np.int64(32))
    assert variant.heads_per_core == 32
    assert type(variant.heads_per_core) is int


@pytest.mark.parametrize("bad", [math.nan, math.inf, 0.0])
def test_rescale_threshold_must_be_positive_and_finite(bad: float) -> None:
    """The one real-valued field rejects NaN, inf and zero with ValueError naming it."""
    with pytest.raises(ValueError, match="rescale_threshold must be"):
        SHIPPED_KERNEL.with_overrides(rescale_threshold=bad)
