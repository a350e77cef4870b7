import pytest

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.ss_buffer import (
    HANDSHAKE_STEPS,
    SS_LAYOUT_SOURCE,
    block_flags,
    flag_offset_bytes,
    ss_buffer_bytes,
)


def test_ss_buffer_is_512_bytes() -> None:
    """8 job slots x 8 block slots x 2 VECTOR Cores x 4 B (config.h:128)."""
    assert ss_buffer_bytes(SHIPPED_KERNEL) == 512


def test_flags_of_one_block_are_neighbours() -> None:
    """Core 1's flag follows core 0's; the next block starts 8 B later, the next job 64 B later."""
    assert flag_offset_bytes(SHIPPED_KERNEL, 0, 1, 0) == 8
    assert flag_offset_bytes(SHIPPED_KERNEL, 0, 1, 1) == 12
    assert flag_offset_bytes(SHIPPED_KERNEL, 1, 1, 0) == 72
    assert flag_offset_bytes(SHIPPED_KERNEL, 8, 9, 0) == flag_offset_bytes(SHIPPED_KERNEL, 0, 1, 0)


def test_one_read_covers_both_flags() -> None:
    """Under 1C2V one aligned 8-byte read takes in exactly both cores' flags of a block."""
    flags = block_flags(SHIPPED_KERNEL, 3, 5)
    assert flags.covered
    assert flags.read_bits == 64


def test_one_vector_core_leaves_the_read_half_empty() -> None:
    """Under 1C1V a block's flags are 4 B, so the kernel's 8-byte read would also take the next block's flag."""
    flags = block_flags(SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=1), 0, 1)
    assert not flags.covered


def test_bad_indices_raise() -> None:
    """A negative job or a core outside the AI Core is refused, naming the value."""
    with pytest.raises(ValueError, match="job"):
        flag_offset_bytes(SHIPPED_KERNEL, -1, 0, 0)
    with pytest.raises(ValueError, match=r"core must lie in \[0, 2\), got 2"):
        flag_offset_bytes(SHIPPED_KERNEL, 0, 0, 2)


def test_handshake_order() -> None:
    """The VECTOR Cores signal V2C before the CUBE waits for it, and the CUBE answers C2V before anyone reads."""
    actions = [s.action for s in HANDSHAKE_STEPS]
    assert actions.index("set-v2c") < actions.index("wait-v2c") < actions.index("set-c2v")
    assert actions.index("set-c2v") < actions.index("read-and-copy-o")
    assert actions.index("set-c2v") < actions.index("read-and-scale-o")
    assert all(s.source.kind == "code" for s in HANDSHAKE_STEPS)


def test_four_cores_flags_span_sixteen_bytes_past_the_read() -> None:
    """With 4 VECTOR Cores a block's four 4 B flags span 16 B, more than the kernel's one 8 B read covers."""
    flags = block_flags(SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=4), 0, 1)
    assert (flags.first_byte, flags.flag_bytes, flags.read_bytes) == (16, 16, 8)
    assert not flags.covered


def test_the_layout_cites_config_h() -> None:
    """config.h:127-129 is the SSBufferMemoryPlan struct: uint32 is_rescale_triggered[8][8][2]."""
    assert SS_LAYOUT_SOURCE.refs == "config.h:127-129"


def test_each_handshake_step_cites_the_kernel_lines_that_do_it() -> None:
    """Lines read in kernel_body.h at a123d0b: each step's span starts and ends where the kernel does that step.

    1189 writes the flag and 1190 sets SS_BUFFER_FULL_V2C (VECTOR); 1585 waits for it and 1586 answers
    SS_BUFFER_FULL_C2V (CUBE); 1587 reads both flags as one uint64 and 1589-1591 copy O out when it is non-zero;
    1204 waits for C2V, 1205-1207 read the same word and 1210-1226 scale O into out_accum (VECTOR).
    """
    assert [s.source.citation for s in HANDSHAKE_STEPS] == [
        "kernel_body.h:1188-1189",
        "kernel_body.h:1190",
        "kernel_body.h:1585 (cross_core_wait_flag_2aiv, 77-83)",
        "kernel_body.h:1586 (cross_core_set_flag_2aiv, 69-75)",
        "kernel_body.h:1587-1591",
        "kernel_body.h:1204-1226",
    ]
