"""The Ascend 950 as the report describes it: one AI Core, the L2 it shares, every constant with its source.

Presets are frozen; a what-if variant comes from [`AscendSpec.with_overrides`][], which marks the changed
fields as assumptions. Quantities that follow from the constants are computed by functions, never stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

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
from ascend_dsa.units import TB, KiB, MHz
from ascend_dsa.validate import LARGEST_EXACT_WHOLE, finite_result, require_finite, require_instance, require_int, shown

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
        """Reject a missing or unknown source, a float in a whole-number field, and a value not positive and finite.

        Whole-number fields take any integer type (``np.int64(32)`` too) and are stored as ``int``; the two rates
        take any real number and are stored as ``float``.
        """
        require_instance("name", self.name, str)
        _check_preset_numbers(self, FIELD_UNITS, whole_number_fields(), "hardware")

    def with_overrides(self, **changes: Any) -> AscendSpec:  # noqa: ANN401 - values are checked by __post_init__
        """A copy with some fields changed; each changed field's source becomes a what-if assumption."""
        name, sources = overridden_preset(self, numeric_fields(), changes)
        return dataclasses.replace(self, name=name, sources=sources, **changes)


def _check_preset_numbers(preset: Preset, units: Mapping[str, str], whole: Collection[str], what: str) -> None:
    """The checks of a frozen preset's ``__post_init__``: its sources, then each of its numbers, stored checked.

    ``units`` names the numeric fields in order, each with its unit. A field in ``whole`` takes any integer type and
    is stored as ``int``; the others (rates) take any real number and are stored as ``float``. Rejects a missing or
    unknown source (``what`` names the kind of preset), a float in a whole-number field, and a value not positive and
    finite.
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
        object.__setattr__(preset, name, checked)
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


def peak_flops(spec: AscendSpec) -> float:
    """Peak bf16 FLOP/s of the chip: FMA per cycle x 2 FLOP x clock x cores (never printed by the report)."""
    spec = require_instance("spec", spec, AscendSpec)
    return finite_result("peak FLOP/s", spec.cube_fma_per_cycle * 2 * spec.clock_hz * spec.ai_cores, positive=True)


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
