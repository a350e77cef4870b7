"""The SS buffer's size follows config.h:128."""

from __future__ import annotations

from ascend_dsa.hardware import ASCEND_950
from ascend_dsa.ss_buffer import ss_buffer_bytes


def test_ss_buffer_is_512_bytes_on_the_950() -> None:
    """8 job slots x 8 block slots x 2 VECTOR Cores x 4 B = 512 B."""
    assert ss_buffer_bytes(ASCEND_950) == 512


def test_ss_buffer_grows_with_vector_cores() -> None:
    """One flag per VECTOR Core: a single core halves the buffer."""
    assert ss_buffer_bytes(ASCEND_950.with_overrides(vector_cores_per_ai_core=1)) == 256
