"""Unit multipliers, so that sizes and rates read as they are spoken (``256 * KiB``)."""

from __future__ import annotations

from typing import Final

KiB: Final = 1024
MiB: Final = 1024 * KiB
GiB: Final = 1024 * MiB

GHz: Final = 1e9
MHz: Final = 1e6

MB: Final = 1e6  # decimal megabyte, as in a download of "13.8 MB"
GB: Final = 1e9  # decimal gigabyte, as in "25.6 GB/s"
TB: Final = 1e12  # decimal terabyte, as in "5 TB/s"
PB: Final = 1e15  # decimal petabyte, as in "21 PB/s"
TFLOPS: Final = 1e12

BF16_BYTES: Final = 2
FP32_BYTES: Final = 4
