"""The Ascend 950 as the report describes it: one AI Core, the L2 it shares, every constant with its source.

Presets are frozen; a what-if variant comes from [`AscendSpec.with_overrides`][], which marks the changed
fields as assumptions. Quantities that follow from the constants are computed by functions, never stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from ascend_dsa.facts.provenance import (
    Preset,
    Source,
    check_sources,
    code_line,
    overridden_preset,
    report_line,
    report_lines,
)
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

if TYPE_CHECKING:
    from collections.abc import Collection

#: Unit of each hardware field, for tables and error messages.
FIELD_UNITS: Mapping[str, str] = MappingProxyType(
    {
        "clock_hz": "Hz",
        "cube_fma_per_cycle": "FMA/cycle",
        "cube_fma_per_cycle_exact_fp32": "FMA/cycle",
        "l2_bandwidth_bytes_per_s": "B/s",
        "ai_cores": "AI Cores",
        "vector_cores_per_ai_core": "VECTOR Cores",
        "mte2_outstanding_requests": "requests",
        "fixpipe_bytes_per_cycle_1c1v": "B/cycle",
        "l0c_bytes": "B",
        "l1_bytes": "B",
        "l1_banks": "banks",
        "ub_bytes_per_vector_core": "B",
        "icache_cube_bytes": "B",
        "icache_vector_bytes": "B",
        "icache_simd_vf_bytes": "B",
    }
)


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
        "cube_fma_per_cycle": MATRIX_FMA_PER_CYCLE_RANGE,
        "cube_fma_per_cycle_exact_fp32": MATRIX_FMA_PER_CYCLE_RANGE,
        "l2_bandwidth_bytes_per_s": BANDWIDTH_BYTES_PER_S_RANGE,
        "ai_cores": CORES_RANGE,
        "vector_cores_per_ai_core": PER_CORE_COUNT_RANGE,
        "mte2_outstanding_requests": PER_CORE_COUNT_RANGE,
        "fixpipe_bytes_per_cycle_1c1v": DATAPATH_BYTES_PER_CYCLE_RANGE,
        "l0c_bytes": BUFFER_BYTES_RANGE,
        "l1_bytes": BUFFER_BYTES_RANGE,
        "l1_banks": PER_CORE_COUNT_RANGE,
        "ub_bytes_per_vector_core": BUFFER_BYTES_RANGE,
        "icache_cube_bytes": BUFFER_BYTES_RANGE,
        "icache_vector_bytes": BUFFER_BYTES_RANGE,
        "icache_simd_vf_bytes": BUFFER_BYTES_RANGE,
    }
)


@dataclass(frozen=True)
class AscendSpec:
    """One Ascend AI Core (1 CUBE + VECTOR Cores) and its share of the chip, with a source for every field."""

    name: str
    clock_hz: float
    cube_fma_per_cycle: int
    cube_fma_per_cycle_exact_fp32: int
    l2_bandwidth_bytes_per_s: float
    ai_cores: int
    vector_cores_per_ai_core: int
    mte2_outstanding_requests: int
    fixpipe_bytes_per_cycle_1c1v: int
    l0c_bytes: int
    l1_bytes: int
    l1_banks: int
    ub_bytes_per_vector_core: int
    icache_cube_bytes: int
    icache_vector_bytes: int
    icache_simd_vf_bytes: int
    sources: Mapping[str, Source] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        """Reject a missing or unknown source, a float in a whole-number field, and a value outside its range.

        Whole-number fields take any integer type (``np.int64(32)`` too) and are stored as ``int``; the two rates
        take any real number and are stored as ``float``. Each field must lie in its ``FIELD_RANGES`` entry.
        """
        require_instance("name", self.name, str)
        _check_preset_numbers(self, FIELD_UNITS, whole_number_fields(), "hardware", FIELD_RANGES)

    def with_overrides(self, **changes: Any) -> AscendSpec:  # noqa: ANN401 - values are checked by __post_init__
        """A copy with some fields changed; each changed field's source becomes a what-if assumption."""
        name, sources = overridden_preset(self, numeric_fields(), changes)
        return dataclasses.replace(self, name=name, sources=sources, **changes)


def _check_preset_numbers(
    preset: Preset, units: Mapping[str, str], whole: Collection[str], what: str, ranges: Mapping[str, Plausible]
) -> None:
    """The checks of a frozen preset's ``__post_init__``: its sources, then each of its numbers, stored checked.

    ``units`` names the numeric fields in order, each with its unit. A field in ``whole`` takes any integer type and
    is stored as ``int``; the others (rates) take any real number and are stored as ``float``. Rejects a missing or
    unknown source (``what`` names the kind of preset), a float in a whole-number field, a value not positive and
    finite, and one outside its plausible range in ``ranges``.
    """
    if not isinstance(preset.sources, Mapping):
        raise TypeError(f"sources must map field names to Source, got {shown(preset.sources)}")
    check_sources(preset.sources, units, what)
    for name, unit in units.items():
        value = getattr(preset, name)
        if name in whole:
            checked: float = require_int(name, value, minimum=1, maximum=LARGEST_EXACT_WHOLE)
        else:
            try:
                checked = require_finite(name, value, positive=True)
            except ValueError:
                raise ValueError(f"{name} must be a positive finite number of {unit}, got {shown(value)}") from None
        object.__setattr__(preset, name, require_plausible(name, checked, ranges[name]))
    object.__setattr__(preset, "sources", MappingProxyType(dict(preset.sources)))


def numeric_fields() -> tuple[str, ...]:
    """The names of the hardware fields that carry a value and a source."""
    return tuple(f.name for f in dataclasses.fields(AscendSpec) if f.name not in ("name", "sources"))


def whole_number_fields() -> tuple[str, ...]:
    """The hardware fields that count things (cores, bytes, FMA per cycle): whole numbers, never floats."""
    return tuple(f.name for f in dataclasses.fields(AscendSpec) if f.type == "int")


def l2_bytes_per_cycle_per_core(spec: AscendSpec) -> float:
    """L2 bytes one AI Core can draw per cycle when all cores share the L2 evenly (report (zh) line 92)."""
    return _l2_bytes_per_cycle_per_core(require_instance("spec", spec, AscendSpec))


def _l2_bytes_per_cycle_per_core(spec: AscendSpec) -> float:
    """[`l2_bytes_per_cycle_per_core`][] of a ``spec`` already checked (the package's own callers)."""
    rate = spec.l2_bandwidth_bytes_per_s / spec.ai_cores / spec.clock_hz
    return finite_result("L2 bytes per cycle per AI Core", rate, positive=True)


ASCEND_950 = AscendSpec(
    name="Ascend 950",
    clock_hz=1650 * MHz,
    cube_fma_per_cycle=4096,
    cube_fma_per_cycle_exact_fp32=256,
    l2_bandwidth_bytes_per_s=5 * TB,
    ai_cores=32,
    vector_cores_per_ai_core=2,
    mte2_outstanding_requests=16,
    fixpipe_bytes_per_cycle_1c1v=128,
    l0c_bytes=256 * KiB,
    l1_bytes=512 * KiB,
    l1_banks=2,
    ub_bytes_per_vector_core=256 * KiB,
    icache_cube_bytes=32 * KiB,
    icache_vector_bytes=16 * KiB,
    icache_simd_vf_bytes=8 * KiB,
    sources={
        "clock_hz": report_line(91),
        "cube_fma_per_cycle": report_line(85),
        "cube_fma_per_cycle_exact_fp32": report_line(128),
        "l2_bandwidth_bytes_per_s": report_line(85),
        "ai_cores": Source((report_lines(90), "config.h:74 (GRID_SHAPE = 32)"), "report"),
        "vector_cores_per_ai_core": Source((report_lines(134), "kernel_body.h __mix__(1, 2)"), "report"),
        "mte2_outstanding_requests": report_line(138),
        "fixpipe_bytes_per_cycle_1c1v": report_line(142),
        "l0c_bytes": Source(
            report_lines(116),
            "derived",
            note=Text(
                "报告说 128 × 512 的 fp32 O（256 KB）正好占满 L0C",
                "the report says O of 128 x 512 fp32 (256 KB) fills L0C completely",
            ),
        ),
        "l1_bytes": report_line(242),
        "l1_banks": report_line(242),
        "ub_bytes_per_vector_core": code_line("config.h", 125),
        "icache_cube_bytes": report_line(238),
        "icache_vector_bytes": report_line(238),
        "icache_simd_vf_bytes": report_line(238),
    },
)
