"""The SS buffer: how the skip-scale decision travels from the VECTOR Cores to the CUBE (report (zh) line 162).

``SSBufferMemoryPlan`` (config.h:127-129) holds one ``uint32`` flag per job slot, block slot and VECTOR Core. The
flags of the two VECTOR Cores for one block sit next to each other, so the CUBE (kernel_body.h:1587) and each
VECTOR Core (kernel_body.h:1205) read them together as one ``uint64``: O moves when either core asked for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from ascend_dsa.facts.kernel_config import KernelConfig
from ascend_dsa.facts.provenance import Source, code_line
from ascend_dsa.validate import shown

#: Job slots of ``is_rescale_triggered`` (config.h:128, indexed by ``job_idx % 8``).
SS_JOB_SLOTS: Final = 8
#: Block slots of ``is_rescale_triggered`` (config.h:128, indexed by ``kv_block_idx % 8``).
SS_BLOCK_SLOTS: Final = 8
#: Bytes of one core's flag: ``uint32_t`` (config.h:128).
SS_FLAG_BYTES: Final = 4
#: Bytes the CUBE and the VECTOR Cores read for one block: ``*(volatile __ssbuf__ uint64_t*)`` (kernel_body.h:1587).
SS_READ_BYTES: Final = 8
#: The CUBE addresses VECTOR Core 1 with its flag number plus 16 (``cross_core_*_flag_2aiv``, kernel_body.h:73, 81).
CROSS_CORE_FLAG_STRIDE: Final = 16
#: Where the layout and the read are written.
SS_LAYOUT_SOURCE: Final = code_line("config.h", 127, 129)
SS_READ_SOURCE: Final = code_line("kernel_body.h", 1587)
_BITS_PER_BYTE: Final = 8


def ss_buffer_bytes(config: KernelConfig) -> int:
    """Bytes of ``SSBufferMemoryPlan``: job slots x block slots x VECTOR Cores x one flag."""
    return SS_JOB_SLOTS * SS_BLOCK_SLOTS * config.vector_cores_per_cube * SS_FLAG_BYTES


def flag_offset_bytes(config: KernelConfig, job: int, block: int, core: int) -> int:
    """Byte offset of VECTOR Core ``core``'s flag for job ``job`` and KV block ``block`` (row-major C array)."""
    for name, value in (("job", job), ("block", block)):
        if value < 0:
            raise ValueError(f"{name} must be a non-negative index, got {shown(value)}")
    if not 0 <= core < config.vector_cores_per_cube:
        raise ValueError(f"core must lie in [0, {config.vector_cores_per_cube}), got {shown(core)}")
    slot = (job % SS_JOB_SLOTS) * SS_BLOCK_SLOTS + block % SS_BLOCK_SLOTS
    return (slot * config.vector_cores_per_cube + core) * SS_FLAG_BYTES


@dataclass(frozen=True)
class BlockFlags:
    """Where one block's flags lie and whether the kernel's single read covers every one of them exactly."""

    first_byte: int
    flag_bytes: int
    read_bytes: int
    aligned: bool

    @property
    def covered(self) -> bool:
        """True when one aligned read of ``read_bytes`` takes in all the cores' flags and nothing else."""
        return self.aligned and self.flag_bytes == self.read_bytes

    @property
    def read_bits(self) -> int:
        """Width of the read, in bits."""
        return self.read_bytes * _BITS_PER_BYTE


def block_flags(config: KernelConfig, job: int, block: int) -> BlockFlags:
    """The flags of all VECTOR Cores for one block, against the one ``uint64`` read of kernel_body.h:1587."""
    first = flag_offset_bytes(config, job, block, 0)
    last = flag_offset_bytes(config, job, block, config.vector_cores_per_cube - 1) + SS_FLAG_BYTES
    return BlockFlags(first, last - first, SS_READ_BYTES, first % SS_READ_BYTES == 0)


@dataclass(frozen=True)
class HandshakeStep:
    """One step of the per-block handshake: who acts, what it does (a key), the cross-core flag, where in the code."""

    actor: Literal["vector", "cube"]
    action: Literal["write-flag", "set-v2c", "wait-v2c", "set-c2v", "read-and-copy-o", "read-and-scale-o"]
    flag: str
    source: Source


#: The handshake for one KV block (every block but the first), in the order it happens.
HANDSHAKE_STEPS: Final = (
    HandshakeStep("vector", "write-flag", "", code_line("kernel_body.h", 1188, 1189)),
    HandshakeStep("vector", "set-v2c", "SS_BUFFER_FULL_V2C", code_line("kernel_body.h", 1190)),
    HandshakeStep(
        "cube",
        "wait-v2c",
        "SS_BUFFER_FULL_V2C",
        Source("kernel_body.h:1585 (cross_core_wait_flag_2aiv, 77-83)", "code"),
    ),
    HandshakeStep(
        "cube", "set-c2v", "SS_BUFFER_FULL_C2V", Source("kernel_body.h:1586 (cross_core_set_flag_2aiv, 69-75)", "code")
    ),
    HandshakeStep("cube", "read-and-copy-o", "", code_line("kernel_body.h", 1587, 1591)),
    HandshakeStep("vector", "read-and-scale-o", "SS_BUFFER_FULL_C2V", code_line("kernel_body.h", 1204, 1226)),
)
