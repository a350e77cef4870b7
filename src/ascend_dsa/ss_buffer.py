"""The SS buffer: where each VECTOR Core tells the CUBE whether a block rescales (report (zh) line 162).

``SSBufferMemoryPlan`` (config.h:127-129) holds ``uint32 is_rescale_triggered[8][8][NUM_VEC_CORE_PER_AI_CORE]``:
one flag per (job slot, KV block slot, VECTOR Core). Eight slots each keep a new flag from overwriting one the CUBE
has not read yet.
"""

from __future__ import annotations

from typing import Final

from ascend_dsa.hardware import AscendSpec
from ascend_dsa.provenance import code_line

#: Slots for the job index and for the KV block index (config.h:128, ``[8][8]``).
SS_JOB_SLOTS: Final = 8
SS_BLOCK_SLOTS: Final = 8
#: Bytes of one flag (``uint32_t``).
SS_FLAG_BYTES: Final = 4
SOURCE: Final = code_line("config.h", 127, 129)


def ss_buffer_bytes(spec: AscendSpec) -> int:
    """Bytes of the SS buffer: job slots x block slots x VECTOR Cores x 4 (512 on the 950)."""
    return SS_JOB_SLOTS * SS_BLOCK_SLOTS * spec.vector_cores_per_ai_core * SS_FLAG_BYTES
