"""A chip as the models see it, one core and its share of the chip, every number with its source; the Ascend 950.

[`ChipSpec`][] is one type for every chip: the clock, the matrix unit's rate, the cores and the bandwidth they share,
the buffer that accumulates the output and the one a core's side task works in, each with a source. What only an
Ascend AI Core has (VECTOR Cores, MTE2, FixPipe, L1, icaches) is a record of its own, [`AscendUnits`][], in the
field ``ascend`` (``None`` on other chips); ``AscendSpec`` is the type of a chip that has it, so that a model of the
Ascend kernel reads ``spec.ascend.l1_banks`` with no check beyond the one at its door ([`require_ascend`][]).
Presets are frozen; a what-if variant comes from [`ChipSpec.with_overrides`][], which marks the changed fields as
assumptions. Quantities that follow from the constants are computed by functions, never stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Generic, TypeAlias, TypeGuard, TypeVar

from ascend_dsa.facts.provenance import Source, check_sources, code_line, overridden_preset, report_line, report_lines
from ascend_dsa.lang import Text
from ascend_dsa.units import GB, PB, TB, GHz, GiB, KiB, MHz
from ascend_dsa.validate import (
    LARGEST_EXACT_WHOLE,
    Plausible,
    finite_result,
    require_finite,
    require_instance,
    require_int,
    require_plausible,
    shown,
)

#: Unit of each field every chip has, for tables and error messages.
CHIP_FIELD_UNITS: Mapping[str, str] = MappingProxyType(
    {
        "clock_hz": "Hz",
        "matrix_fma_per_cycle_per_core": "FMA/cycle",
        "cores": "cores",
        "bandwidth_bytes_per_s": "B/s",
        "accumulator_bytes_per_core": "B",
        "staging_bytes_per_core": "B",
    }
)
#: Unit of each field of an Ascend AI Core's own units.
ASCEND_FIELD_UNITS: Mapping[str, str] = MappingProxyType(
    {
        "cube_fma_per_cycle_exact_fp32": "FMA/cycle",
        "vector_cores_per_ai_core": "VECTOR Cores",
        "mte2_outstanding_requests": "requests",
        "fixpipe_bytes_per_cycle_1c1v": "B/cycle",
        "l1_bytes": "B",
        "l1_banks": "banks",
        "icache_cube_bytes": "B",
        "icache_vector_bytes": "B",
        "icache_simd_vf_bytes": "B",
    }
)
#: Unit of each hardware field of an Ascend chip (the chip's, its cores being AI Cores, then its AI Core's own).
FIELD_UNITS: Mapping[str, str] = MappingProxyType({**CHIP_FIELD_UNITS, "cores": "AI Cores", **ASCEND_FIELD_UNITS})


# --- Plausible ranges of the hardware numbers -----------------------------------------------------------------------
# Generous enough for any chip built or announced, narrow enough that a typo (a clock of 1e308 Hz) is refused naming
# the range instead of being computed into figures hundreds of digits long. Each says why its bounds stand where they
# do; the H800's numbers (facts.hopper) and the Ascend 950's (below) sit well inside every one.

#: A clock from 100 MHz to 10 GHz. Accelerators run their matrix units at 1-2 GHz (the 950 at 1.65 GHz, report (zh)
#: line 91; the H800 at 1.83 GHz, FlashMLA's FP8 blog line 17) and the fastest CPUs boost to about 6 GHz; below
#: 100 MHz is a microcontroller's clock.
CLOCK_HZ_RANGE: Final = Plausible(100 * MHz, 10 * GHz, "Hz")
#: A bandwidth from 1 GB/s to 100 PB/s. The 950's L2 gives 5 TB/s (report (zh) line 85), the H800's HBM 3.35 TB/s;
#: one DDR4 channel gives 25.6 GB/s, and the largest on-chip bandwidth announced, a wafer-scale engine's SRAM
#: (Cerebras WSE-3), 21 PB/s.
BANDWIDTH_BYTES_PER_S_RANGE: Final = Plausible(1 * GB, 100 * PB, "B/s")
#: From 1 to 1,000,000 cores sharing that bandwidth: 32 AI Cores on the 950 (report (zh) line 90), 132 SMs on the
#: H800, about 900,000 cores on a wafer-scale engine (Cerebras WSE-3).
CORES_RANGE: Final = Plausible(1, 1_000_000, "cores")
#: Matrix multiply-adds per cycle per core, from 1 to 2^20: the 950's CUBE does 16 x 16 x 16 = 4,096 (report (zh)
#: line 85), an H800 SM 2,048, a TPU v4 core's four 128 x 128 arrays 65,536; 2^20 is 16 times the largest.
MATRIX_FMA_PER_CYCLE_RANGE: Final = Plausible(1, 2**20, "FMA/cycle")
#: Bytes per cycle of one on-chip data path, from 1 B to 64 KiB: FixPipe moves 128 B/cycle under 1C1V (report (zh)
#: line 142); 64 KiB per cycle is 512 times that, wider than any SRAM port.
DATAPATH_BYTES_PER_CYCLE_RANGE: Final = Plausible(1, 64 * KiB, "B/cycle")
#: Bytes of one core's on-chip buffer, from 1 B to 1 GiB: the 950's L1 of 512 KiB (report (zh) line 242) is its
#: largest, an H800 SM has a 256 KiB register file; 1 GiB per core is 2,000 times the largest.
BUFFER_BYTES_RANGE: Final = Plausible(1, 1 * GiB, "B")
#: Small counts per core (VECTOR Cores, L1 banks, outstanding MTE2 requests), from 1 to 4,096: the 950 pairs 2
#: VECTOR Cores with its CUBE, splits L1 into 2 banks (report (zh) line 242) and queues 16 MTE2 requests (line 138);
#: 4,096 is 256 times the largest.
PER_CORE_COUNT_RANGE: Final = Plausible(1, 4096)

#: The plausible range of each hardware field.
FIELD_RANGES: Mapping[str, Plausible] = MappingProxyType(
    {
        "clock_hz": CLOCK_HZ_RANGE,
        "matrix_fma_per_cycle_per_core": MATRIX_FMA_PER_CYCLE_RANGE,
        "cores": CORES_RANGE,
        "bandwidth_bytes_per_s": BANDWIDTH_BYTES_PER_S_RANGE,
        "accumulator_bytes_per_core": BUFFER_BYTES_RANGE,
        "staging_bytes_per_core": BUFFER_BYTES_RANGE,
        "cube_fma_per_cycle_exact_fp32": MATRIX_FMA_PER_CYCLE_RANGE,
        "vector_cores_per_ai_core": PER_CORE_COUNT_RANGE,
        "mte2_outstanding_requests": PER_CORE_COUNT_RANGE,
        "fixpipe_bytes_per_cycle_1c1v": DATAPATH_BYTES_PER_CYCLE_RANGE,
        "l1_bytes": BUFFER_BYTES_RANGE,
        "l1_banks": PER_CORE_COUNT_RANGE,
        "icache_cube_bytes": BUFFER_BYTES_RANGE,
        "icache_vector_bytes": BUFFER_BYTES_RANGE,
        "icache_simd_vf_bytes": BUFFER_BYTES_RANGE,
    }
)
#: The fields that are rates (real numbers); every other field counts things and is a whole number.
_RATE_FIELDS: Final = ("clock_hz", "bandwidth_bytes_per_s")


@dataclass(frozen=True)
class AscendUnits:
    """What an Ascend AI Core adds to a chip: its VECTOR Cores, MTE2 queue, FixPipe, L1, icaches, exact-fp32 rate.

    Its numbers are checked, and their sources held, by the [`ChipSpec`][] it belongs to.
    """

    cube_fma_per_cycle_exact_fp32: int
    vector_cores_per_ai_core: int
    mte2_outstanding_requests: int
    fixpipe_bytes_per_cycle_1c1v: int
    l1_bytes: int
    l1_banks: int
    icache_cube_bytes: int
    icache_vector_bytes: int
    icache_simd_vf_bytes: int


#: ``AscendUnits`` on an Ascend chip, ``None`` on any other.
U_co = TypeVar("U_co", bound="AscendUnits | None", covariant=True)


@dataclass(frozen=True)
class ChipSpec(Generic[U_co]):
    """One core of a chip and its share of the bandwidth that bounds it, with a source for every number.

    ``bandwidth`` names that bandwidth (the 950's L2, the H800's HBM); ``accumulator`` the on-chip store that holds
    the output while it accumulates (L0C; the register file); ``staging`` the buffer a core's side task works in
    (one VECTOR Core's UB; the shared memory one CTA may use). ``ascend`` holds an Ascend AI Core's own units, or
    ``None``; ``sources`` names a source for every number, the Ascend units' too.
    """

    name: str
    clock_hz: float
    matrix_fma_per_cycle_per_core: int
    cores: int
    bandwidth_bytes_per_s: float
    accumulator_bytes_per_core: int
    staging_bytes_per_core: int
    bandwidth: Text
    accumulator: Text
    staging: Text
    ascend: U_co
    sources: Mapping[str, Source] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        """Reject a missing or unknown source, a float in a whole-number field, and a value outside its range.

        Whole-number fields take any integer type (``np.int64(32)`` too) and are stored as ``int``; the two rates
        take any real number and are stored as ``float``. Each field must lie in its ``FIELD_RANGES`` entry.
        """
        require_instance("name", self.name, str)
        for name in ("bandwidth", "accumulator", "staging"):
            require_instance(name, getattr(self, name), Text)
        if self.ascend is not None:
            require_instance("ascend", self.ascend, AscendUnits)
        if not isinstance(self.sources, Mapping):
            raise TypeError(f"sources must map field names to Source, got {shown(self.sources)}")
        check_sources(self.sources, self.field_units(), "hardware")
        _check_numbers(self, CHIP_FIELD_UNITS)
        if self.ascend is not None:
            _check_numbers(self.ascend, ASCEND_FIELD_UNITS)
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))

    def field_units(self) -> Mapping[str, str]:
        """This chip's numeric fields, each with its unit: every chip's, then the Ascend units' if it has them."""
        return FIELD_UNITS if self.ascend is not None else CHIP_FIELD_UNITS

    def number(self, name: str) -> float:
        """The value of the numeric field ``name``, the chip's own or its Ascend units' (a table's row, a what-if)."""
        if name not in self.field_units():
            raise ValueError(f"name must be one of {', '.join(self.field_units())}, got {shown(name)}")
        holder = self if name in CHIP_FIELD_UNITS else self.ascend
        value: float = getattr(holder, name)
        return value

    @property
    def bandwidth_bytes_per_cycle_per_core(self) -> float:
        """Bytes one core draws per cycle when the cores share the bounding bandwidth evenly (L2: report line 92)."""
        rate = self.bandwidth_bytes_per_s / self.cores / self.clock_hz
        return finite_result("bytes per cycle per core", rate, positive=True)

    @property
    def matrix_flop_per_cycle_per_core(self) -> int:
        """Matrix FLOP per cycle per core: two per multiply-add."""
        return 2 * self.matrix_fma_per_cycle_per_core

    def with_overrides(self, **changes: Any) -> ChipSpec[U_co]:  # noqa: ANN401 - values are checked by __post_init__
        """A copy with some numbers changed (the Ascend units' too); each changed field's source becomes a what-if."""
        name, sources = overridden_preset(self, self.field_units(), changes, self.number)
        own = {key: value for key, value in changes.items() if key in CHIP_FIELD_UNITS}
        units = {key: value for key, value in changes.items() if key not in CHIP_FIELD_UNITS}
        ascend = self.ascend if not units or self.ascend is None else dataclasses.replace(self.ascend, **units)
        return dataclasses.replace(self, name=name, sources=sources, ascend=ascend, **own)


#: A chip with an Ascend AI Core's units: what the models of the Ascend kernel take.
AscendSpec: TypeAlias = ChipSpec[AscendUnits]
#: Any chip: what the roofline and the cross-chip models take.
AnyChip: TypeAlias = ChipSpec[AscendUnits | None]


def _check_numbers(holder: object, units: Mapping[str, str]) -> None:
    """Check each number of ``holder`` named in ``units`` and store it checked (whole numbers as ``int``)."""
    for name, unit in units.items():
        value = getattr(holder, name)
        if name in _RATE_FIELDS:
            try:
                checked: float = require_finite(name, value, positive=True)
            except ValueError:
                raise ValueError(f"{name} must be a positive finite number of {unit}, got {shown(value)}") from None
        else:
            checked = require_int(name, value, minimum=1, maximum=LARGEST_EXACT_WHOLE)
        object.__setattr__(holder, name, require_plausible(name, checked, FIELD_RANGES[name]))


def is_ascend(spec: AnyChip) -> TypeGuard[AscendSpec]:
    """Whether ``spec`` has an Ascend AI Core's units (a VECTOR Core, a UB, an MTE2 queue...)."""
    return require_instance("spec", spec, ChipSpec).ascend is not None


def require_ascend(name: str, spec: object) -> AscendSpec:
    """``spec`` when it is a chip with Ascend units, else a `TypeError` naming what it is."""
    try:
        chip = require_instance(name, spec, ChipSpec)
    except TypeError:
        raise TypeError(f"{name} must be a AscendSpec, got {shown(spec)} ({type(spec).__name__})") from None
    if chip.ascend is None:
        raise TypeError(f"{name} must be a AscendSpec, got {shown(chip.name)} (a ChipSpec without Ascend units)")
    return chip


def numeric_fields() -> tuple[str, ...]:
    """The names of an Ascend chip's fields that carry a value and a source."""
    return tuple(FIELD_UNITS)


def whole_number_fields() -> tuple[str, ...]:
    """The hardware fields that count things (cores, bytes, FMA per cycle): whole numbers, never floats."""
    return tuple(name for name in FIELD_UNITS if name not in _RATE_FIELDS)


def peak_flops(spec: AnyChip, clock_hz: float | None = None) -> float:
    """Peak matrix FLOP/s of the whole chip: FLOP per cycle x cores x clock (the preset's, or ``clock_hz``).

    On the Ascend 950, 4096 FMA x 2 FLOP x 1.65 GHz x 32 AI Cores (bf16; the report never prints it).
    """
    spec = require_instance("spec", spec, ChipSpec)
    if clock_hz is None:
        clock = spec.clock_hz
    else:
        clock = require_plausible("clock_hz", require_finite("clock_hz", clock_hz, positive=True), CLOCK_HZ_RANGE)
    return finite_result("peak FLOP/s", spec.matrix_flop_per_cycle_per_core * spec.cores * clock, positive=True)


def ridge_flop_per_byte(spec: AnyChip) -> float:
    """FLOP per byte of the bounding bandwidth at which the matrix unit and the bandwidth take equally long."""
    peak = peak_flops(spec)  # checks spec
    return finite_result("ridge point", peak / spec.bandwidth_bytes_per_s, positive=True)


ASCEND_950: Final[AscendSpec] = ChipSpec(
    name="Ascend 950",
    clock_hz=1650 * MHz,
    matrix_fma_per_cycle_per_core=4096,
    cores=32,
    bandwidth_bytes_per_s=5 * TB,
    accumulator_bytes_per_core=256 * KiB,
    staging_bytes_per_core=256 * KiB,
    bandwidth=Text("L2", "L2"),
    accumulator=Text("L0C", "L0C"),
    staging=Text("UB（每个 VECTOR Core）", "UB (per VECTOR Core)"),
    ascend=AscendUnits(
        cube_fma_per_cycle_exact_fp32=256,
        vector_cores_per_ai_core=2,
        mte2_outstanding_requests=16,
        fixpipe_bytes_per_cycle_1c1v=128,
        l1_bytes=512 * KiB,
        l1_banks=2,
        icache_cube_bytes=32 * KiB,
        icache_vector_bytes=16 * KiB,
        icache_simd_vf_bytes=8 * KiB,
    ),
    sources={
        "clock_hz": report_line(91),
        "matrix_fma_per_cycle_per_core": report_line(85),
        "cube_fma_per_cycle_exact_fp32": report_line(128),
        "bandwidth_bytes_per_s": report_line(85),
        "cores": Source((report_lines(90), "config.h:74 (GRID_SHAPE = 32)"), "report"),
        "vector_cores_per_ai_core": Source((report_lines(134), "kernel_body.h __mix__(1, 2)"), "report"),
        "mte2_outstanding_requests": report_line(138),
        "fixpipe_bytes_per_cycle_1c1v": report_line(142),
        "accumulator_bytes_per_core": Source(
            report_lines(116),
            "derived",
            note=Text(
                "报告说 128 × 512 的 fp32 O（256 KB）正好占满 L0C",
                "the report says O of 128 x 512 fp32 (256 KB) fills L0C completely",
            ),
        ),
        "l1_bytes": report_line(242),
        "l1_banks": report_line(242),
        "staging_bytes_per_core": code_line("config.h", 125),
        "icache_cube_bytes": report_line(238),
        "icache_vector_bytes": report_line(238),
        "icache_simd_vf_bytes": report_line(238),
    },
)
