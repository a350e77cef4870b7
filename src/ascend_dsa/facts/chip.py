"""A chip as the roofline and cycle models see it: clock, matrix rate, cores, the bandwidth they share, buffers.

[`ChipSpec`][] is what the Ascend 950 (one AI Core) and the H800 (one SM) have in common, each field with its
source. An [`AscendSpec`][] becomes one with [`as_chip`][] (nothing of its numbers changes: its CUBE rate in FMA
per cycle is the matrix rate in FLOP per cycle halved); the H800 preset is a ChipSpec from the start
(``facts.hopper``). Nothing Ascend-specific is required of a ChipSpec.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeAlias

from ascend_dsa.facts.hardware import (
    BANDWIDTH_BYTES_PER_S_RANGE,
    BUFFER_BYTES_RANGE,
    CLOCK_HZ_RANGE,
    CORES_RANGE,
    MATRIX_FMA_PER_CYCLE_RANGE,
    AscendSpec,
    _check_preset_numbers,
    _l2_bytes_per_cycle_per_core,
)
from ascend_dsa.facts.provenance import Source, overridden_preset
from ascend_dsa.lang import Text
from ascend_dsa.validate import Plausible, finite_result, require_finite, require_instance, require_plausible

#: The numeric fields of a ChipSpec, each with its unit (tables and error messages).
CHIP_FIELD_UNITS: Mapping[str, str] = MappingProxyType(
    {
        "clock_hz": "Hz",
        "matrix_flop_per_cycle_per_core": "FLOP/cycle",
        "cores": "cores",
        "bandwidth_bytes_per_s": "B/s",
        "accumulator_bytes_per_core": "B",
        "staging_bytes_per_core": "B",
    }
)
#: The plausible range of each numeric field of a ChipSpec: the hardware's ranges (``facts.hardware``), the matrix
#: rate counted in FLOP (two per multiply-add), the accumulator and the staging buffer as on-chip buffers.
CHIP_FIELD_RANGES: Mapping[str, Plausible] = MappingProxyType(
    {
        "clock_hz": CLOCK_HZ_RANGE,
        "matrix_flop_per_cycle_per_core": Plausible(
            2 * MATRIX_FMA_PER_CYCLE_RANGE.low, 2 * MATRIX_FMA_PER_CYCLE_RANGE.high, "FLOP/cycle"
        ),
        "cores": CORES_RANGE,
        "bandwidth_bytes_per_s": BANDWIDTH_BYTES_PER_S_RANGE,
        "accumulator_bytes_per_core": BUFFER_BYTES_RANGE,
        "staging_bytes_per_core": BUFFER_BYTES_RANGE,
    }
)
#: The fields of a ChipSpec that count things (the others are rates).
_WHOLE_NUMBER_FIELDS = (
    "matrix_flop_per_cycle_per_core",
    "cores",
    "accumulator_bytes_per_core",
    "staging_bytes_per_core",
)


@dataclass(frozen=True)
class ChipSpec:
    """One core of a chip and its share of the bandwidth that bounds it, with a source for every number.

    ``bandwidth`` names that bandwidth (the 950's L2, the H800's HBM); ``accumulator`` the on-chip store that
    holds the output while it accumulates (L0C; the register file); ``staging`` the buffer a core's side task
    works in (one VECTOR Core's UB; the shared memory one CTA may use).
    """

    name: str
    clock_hz: float
    matrix_flop_per_cycle_per_core: int
    cores: int
    bandwidth_bytes_per_s: float
    accumulator_bytes_per_core: int
    staging_bytes_per_core: int
    bandwidth: Text
    accumulator: Text
    staging: Text
    sources: Mapping[str, Source] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        """Reject a missing or unknown source, a float count, an odd matrix rate and a value not positive."""
        require_instance("name", self.name, str)
        for name in ("bandwidth", "accumulator", "staging"):
            require_instance(name, getattr(self, name), Text)
        _check_preset_numbers(self, CHIP_FIELD_UNITS, _WHOLE_NUMBER_FIELDS, "chip", CHIP_FIELD_RANGES)
        if self.matrix_flop_per_cycle_per_core % 2:
            raise ValueError(
                "matrix_flop_per_cycle_per_core must be even (two FLOP per multiply-add), "
                f"got {self.matrix_flop_per_cycle_per_core}"
            )

    @property
    def matrix_fma_per_cycle_per_core(self) -> int:
        """Multiply-adds per cycle per core: half the matrix FLOP rate."""
        return self.matrix_flop_per_cycle_per_core // 2

    def with_overrides(self, **changes: Any) -> ChipSpec:  # noqa: ANN401 - values are checked by __post_init__
        """A copy with some numbers changed; each changed field's source becomes a what-if assumption."""
        name, sources = overridden_preset(self, CHIP_FIELD_UNITS, changes)
        return dataclasses.replace(self, name=name, sources=sources, **changes)


#: What the roofline and cycle models accept as a chip.
AnyChip: TypeAlias = AscendSpec | ChipSpec


def require_chip(spec: object) -> AnyChip:
    """``spec`` when it is an AscendSpec or a ChipSpec, else a `TypeError` naming both."""
    if not isinstance(spec, AscendSpec | ChipSpec):
        raise TypeError(f"spec must be an AscendSpec or a ChipSpec, got {spec!r:.60} ({type(spec).__name__})")
    return spec


def matrix_fma_rate(spec: AnyChip) -> tuple[str, int]:
    """The field that gives multiply-adds per cycle per core, and its value (``cube_fma_per_cycle`` on Ascend)."""
    if isinstance(spec, AscendSpec):
        return "cube_fma_per_cycle", spec.cube_fma_per_cycle
    return "matrix_fma_per_cycle_per_core", spec.matrix_fma_per_cycle_per_core


def as_chip(spec: AnyChip) -> ChipSpec:
    """``spec`` as a ChipSpec: an AscendSpec's AI Core, L2, L0C and one VECTOR Core's UB, sources kept."""
    spec = require_chip(spec)
    if isinstance(spec, ChipSpec):
        return spec
    fma = spec.sources["cube_fma_per_cycle"]
    return ChipSpec(
        name=spec.name,
        clock_hz=spec.clock_hz,
        matrix_flop_per_cycle_per_core=2 * spec.cube_fma_per_cycle,
        cores=spec.ai_cores,
        bandwidth_bytes_per_s=spec.l2_bandwidth_bytes_per_s,
        accumulator_bytes_per_core=spec.l0c_bytes,
        staging_bytes_per_core=spec.ub_bytes_per_vector_core,
        bandwidth=Text("L2", "L2"),
        accumulator=Text("L0C", "L0C"),
        staging=Text("UB（每个 VECTOR Core）", "UB (per VECTOR Core)"),
        sources={
            "clock_hz": spec.sources["clock_hz"],
            "matrix_flop_per_cycle_per_core": Source(
                fma.parts, "derived", note=Text("CUBE 每周期 FMA 数 × 2", "CUBE FMA per cycle x 2")
            ),
            "cores": spec.sources["ai_cores"],
            "bandwidth_bytes_per_s": spec.sources["l2_bandwidth_bytes_per_s"],
            "accumulator_bytes_per_core": spec.sources["l0c_bytes"],
            "staging_bytes_per_core": spec.sources["ub_bytes_per_vector_core"],
        },
    )


def bandwidth_bytes_per_cycle_per_core(spec: AnyChip) -> float:
    """Bytes one core can draw per cycle when all cores share the bounding bandwidth evenly."""
    return _bandwidth_bytes_per_cycle_per_core(require_chip(spec))


def _bandwidth_bytes_per_cycle_per_core(spec: AnyChip) -> float:
    """[`bandwidth_bytes_per_cycle_per_core`][] of a ``spec`` already checked (the package's own callers)."""
    if isinstance(spec, AscendSpec):
        return _l2_bytes_per_cycle_per_core(spec)
    rate = spec.bandwidth_bytes_per_s / spec.cores / spec.clock_hz
    return finite_result("bytes per cycle per core", rate, positive=True)


def peak_flops(spec: AnyChip, clock_hz: float | None = None) -> float:
    """Peak matrix FLOP/s of the whole chip: FLOP per cycle x cores x clock (the preset's, or ``clock_hz``).

    On the Ascend 950, 4096 FMA x 2 FLOP x 1.65 GHz x 32 AI Cores (bf16; the report never prints it).
    """
    chip = as_chip(spec)
    if clock_hz is None:
        clock = chip.clock_hz
    else:
        clock = require_plausible("clock_hz", require_finite("clock_hz", clock_hz, positive=True), CLOCK_HZ_RANGE)
    return finite_result("peak FLOP/s", chip.matrix_flop_per_cycle_per_core * chip.cores * clock, positive=True)


def ridge_flop_per_byte(spec: AnyChip) -> float:
    """FLOP per byte of the bounding bandwidth at which the matrix unit and the bandwidth take equally long."""
    chip = as_chip(spec)
    return finite_result("ridge point", peak_flops(chip) / chip.bandwidth_bytes_per_s, positive=True)
