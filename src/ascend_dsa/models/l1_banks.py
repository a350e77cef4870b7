"""The two banks of L1 (report (zh) line 242): which addresses each owns."""

from __future__ import annotations

from ascend_dsa.facts.hardware import AscendSpec, require_ascend
from ascend_dsa.validate import require_int


def l1_bank_bytes(spec: AscendSpec) -> int:
    """Bytes per L1 bank: capacity split evenly (512 KiB / 2 = 256 KiB)."""
    spec = require_ascend("spec", spec)
    if spec.ascend.l1_bytes % spec.ascend.l1_banks:
        raise ValueError(f"l1_bytes must split evenly into {spec.ascend.l1_banks} banks, got {spec.ascend.l1_bytes}")
    return spec.ascend.l1_bytes // spec.ascend.l1_banks


def l1_bank_ranges(spec: AscendSpec) -> tuple[tuple[int, int], ...]:
    """Each bank's address range ``[start, end)`` in bytes: ``[0, 256K)`` and ``[256K, 512K)`` on the 950."""
    spec = require_ascend("spec", spec)
    size = l1_bank_bytes(spec)
    return tuple((bank * size, (bank + 1) * size) for bank in range(spec.ascend.l1_banks))


def l1_bank_of(address: int, spec: AscendSpec) -> int:
    """The bank that owns byte ``address`` of L1."""
    spec = require_ascend("spec", spec)
    offset = require_int("address", address)
    if not 0 <= offset < spec.ascend.l1_bytes:
        raise ValueError(f"address must be a byte offset in [0, {spec.ascend.l1_bytes}), got {offset}")
    return offset // l1_bank_bytes(spec)
