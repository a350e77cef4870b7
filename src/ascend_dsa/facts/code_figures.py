"""Figures that follow from the kernel's source rather than the report's text, kept as constants and checked.

``sizeof(UnifiedBufferMemoryPlan)`` for each shipped instantiation is fixed by config.h:77-125 (the fields) and
the six ``instantiations/*.asc`` files (mode, FP4 extra cache, attention sink; all with H_Q 64 and
INDEX_BLOCK_SIZE 640). The kernel only asserts that each is at most 256 KiB (config.h:125); the totals below are
the struct sizes a compiler lays out for those instantiations, stated once here so that a change to our plan that
moves any of them fails the build (``ascend_dsa.report.checks.check_ub_totals``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.facts.provenance import CONFIG_H_COMMIT, CONFIG_H_PATH, Citation

UB_PLAN_CITATION: Final = Citation(CONFIG_H_PATH, CONFIG_H_COMMIT, 77, 125)


@dataclass(frozen=True)
class ShippedUbTotal:
    """``sizeof(UnifiedBufferMemoryPlan)`` of one shipped instantiation, in bytes."""

    mode: Mode
    fp4_extra: bool
    sink: bool
    total_bytes: int
    instantiation: str  # the file under csrc/ascend_kernels/prefill/sparse/instantiations/

    def key(self) -> tuple[Mode, bool, bool]:
        """What identifies the instantiation."""
        return (self.mode, self.fp4_extra, self.sink)


#: The six UB totals, per VECTOR Core (config.h:77-125 at the six instantiations).
SHIPPED_UB_TOTALS: Final = (
    ShippedUbTotal(
        Mode.PREFILL, fp4_extra=False, sink=False, total_bytes=259600, instantiation="v41_h64_prefill_nosink"
    ),
    ShippedUbTotal(Mode.PREFILL, fp4_extra=False, sink=True, total_bytes=259728, instantiation="v41_h64_prefill_sink"),
    ShippedUbTotal(Mode.DECODE, fp4_extra=False, sink=False, total_bytes=214544, instantiation="v41_h64_decode_nosink"),
    ShippedUbTotal(Mode.DECODE, fp4_extra=False, sink=True, total_bytes=214672, instantiation="v41_h64_decode_sink"),
    ShippedUbTotal(
        Mode.DECODE, fp4_extra=True, sink=False, total_bytes=244240, instantiation="v41fp4_h64_decode_nosink"
    ),
    ShippedUbTotal(Mode.DECODE, fp4_extra=True, sink=True, total_bytes=244368, instantiation="v41fp4_h64_decode_sink"),
)
