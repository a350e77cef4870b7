"""The unit multipliers: binary sizes are powers of two, decimal ones powers of ten, element sizes the formats'."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from ascend_dsa.units import BF16_BYTES, FP32_BYTES, GB, PB, TB, TFLOPS, GHz, GiB, KiB, MHz, MiB


def test_binary_sizes_are_powers_of_two() -> None:
    """KiB, MiB and GiB are 2**10, 2**20 and 2**30 bytes (a KiB of 1000 would shrink every buffer plan)."""
    assert (KiB, MiB, GiB) == (2**10, 2**20, 2**30)


def test_decimal_units_are_powers_of_ten() -> None:
    """Clocks, bandwidths and FLOP rates are decimal, as the datasheets print them ("5 TB/s" is 5e12 B/s)."""
    assert (MHz, GHz) == (10**6, 10**9)
    assert (GB, TB, PB, TFLOPS) == (10**9, 10**12, 10**15, 10**12)


def test_element_sizes_are_the_formats() -> None:
    """bf16 and fp32 elements take the bytes NumPy and ml_dtypes give them."""
    assert np.dtype(ml_dtypes.bfloat16).itemsize == BF16_BYTES
    assert np.dtype(np.float32).itemsize == FP32_BYTES
