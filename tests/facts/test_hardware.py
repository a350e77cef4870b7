import math

import numpy as np
import pytest

from ascend_dsa.facts.hardware import (
    ASCEND_950,
    CLOCK_HZ_RANGE,
    FIELD_RANGES,
    AscendSpec,
    l2_bytes_per_cycle_per_core,
    numeric_fields,
)
from ascend_dsa.facts.provenance import Source, report_lines


def test_every_field_has_a_source() -> None:
    """The preset names a source for every numeric field, and nothing else."""
    assert set(ASCEND_950.sources) == set(numeric_fields())


def test_derived_l2_share_matches_report_expression() -> None:
    """5e12 / 32 / 1.65e9 = 94.697 B/cycle per core (report (zh) line 92), computed, not typed."""
    assert l2_bytes_per_cycle_per_core(ASCEND_950) == pytest.approx(94.697, abs=5e-4)


@pytest.mark.parametrize(
    ("field", "low", "high"),
    [
        ("clock_hz", 0.5e9, 3e9),
        ("l2_bandwidth_bytes_per_s", 1e12, 50e12),  # catches 5 GB/s or 5 PB/s typed for 5 TB/s
        ("cube_fma_per_cycle", 1024, 16384),
        ("l0c_bytes", 64 * 1024, 1024 * 1024),
        ("ub_bytes_per_vector_core", 64 * 1024, 1024 * 1024),
    ],
)
def test_values_within_physical_bounds(field: str, low: float, high: float) -> None:
    """Values sit in a physically plausible range for an NPU core."""
    assert low <= getattr(ASCEND_950, field) <= high


def test_preset_is_immutable() -> None:
    """A preset cannot be changed in place."""
    with pytest.raises(AttributeError, match=r"^cannot assign to field 'clock_hz'$"):
        ASCEND_950.clock_hz = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"^'mappingproxy' object does not support item assignment$"):
        ASCEND_950.sources["clock_hz"] = Source("x", "report")  # type: ignore[index]


def test_override_marks_field_as_assumed_and_leaves_preset() -> None:
    """An override changes one value, records it as an assumption, and leaves the preset untouched."""
    variant = ASCEND_950.with_overrides(l2_bandwidth_bytes_per_s=4e12, ai_cores=np.int64(24))
    assert variant.l2_bandwidth_bytes_per_s == 4e12
    assert variant.ai_cores == 24
    assert isinstance(variant.ai_cores, int)
    assert variant.sources["ai_cores"].kind == "assumed"
    assert "24" in variant.sources["ai_cores"].note
    assert variant.sources["clock_hz"] == ASCEND_950.sources["clock_hz"]
    assert ASCEND_950.l2_bandwidth_bytes_per_s == 5e12


@pytest.mark.parametrize("bad", [0, -1, math.inf, math.nan])
def test_override_rejects_non_positive(bad: float) -> None:
    """Zero, negative or non-finite values are refused with the field's name."""
    with pytest.raises(ValueError, match="clock_hz must be a positive finite number"):
        ASCEND_950.with_overrides(clock_hz=bad)


def test_override_rejects_unknown_field() -> None:
    """A typo in a field name is an error naming it."""
    with pytest.raises(ValueError, match="cannot override clock_mhz"):
        ASCEND_950.with_overrides(clock_mhz=1650)


def test_missing_source_is_rejected() -> None:
    """A spec without a source for a field cannot be built."""
    sources = dict(ASCEND_950.sources)
    del sources["l1_banks"]
    with pytest.raises(ValueError, match="missing l1_banks"):
        AscendSpec(**{**{f: getattr(ASCEND_950, f) for f in numeric_fields()}, "name": "x", "sources": sources})


def test_derived_source_needs_note() -> None:
    """A derived or assumed source must say how."""
    with pytest.raises(ValueError, match="needs a note"):
        Source(report_lines(116), "derived")


@pytest.mark.parametrize("bad", [32.0, "32", True])
def test_whole_number_fields_reject_floats(bad: object) -> None:
    """A count such as ai_cores takes whole numbers only: 32.0, '32' or True is a TypeError naming it."""
    with pytest.raises(TypeError, match="ai_cores must be a whole number"):
        ASCEND_950.with_overrides(ai_cores=bad)


@pytest.mark.parametrize("clock_hz", [1e-300, 1e308, 1.7976931348623157e308, 9.9e7, 1.01e10])
def test_a_clock_outside_its_plausible_range_is_refused_naming_it(clock_hz: float) -> None:
    """Issue 31 (16): 1e308 Hz gave figures 300 digits long (and 1e-300 Hz an infinite L2 share, refused only then).

    A clock must lie from 100 MHz to 10 GHz (``CLOCK_HZ_RANGE``, which says why); the preset is refused where the
    value enters, naming the value and the range.
    """
    with pytest.raises(ValueError, match=r"^clock_hz must lie in the plausible range 1e8 to 1e10 Hz, got "):
        ASCEND_950.with_overrides(clock_hz=clock_hz)
    assert l2_bytes_per_cycle_per_core(ASCEND_950.with_overrides(clock_hz=CLOCK_HZ_RANGE.high)) > 0


def test_every_hardware_field_has_a_plausible_range_holding_the_presets() -> None:
    """Each numeric field of AscendSpec and ChipSpec has a range, and the Ascend 950 and H800 presets lie inside."""
    from ascend_dsa.facts.chip import CHIP_FIELD_RANGES, CHIP_FIELD_UNITS  # noqa: PLC0415
    from ascend_dsa.facts.hopper import H800  # noqa: PLC0415

    assert set(FIELD_RANGES) == set(numeric_fields())
    assert set(CHIP_FIELD_RANGES) == set(CHIP_FIELD_UNITS)
    for preset, ranges in ((ASCEND_950, FIELD_RANGES), (H800, CHIP_FIELD_RANGES)):
        for name, plausible in ranges.items():
            assert plausible.low < getattr(preset, name) < plausible.high, (preset.name, name)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("l2_bandwidth_bytes_per_s", 1e308, "l2_bandwidth_bytes_per_s must lie in the plausible range 1e9 to 1e17 B/s"),
        ("ai_cores", 2_000_000, "ai_cores must lie in the plausible range 1 to 1,000,000 cores, got 2000000"),
        ("cube_fma_per_cycle", 2**21, "cube_fma_per_cycle must lie in the plausible range 1 to 1,048,576 FMA/cycle"),
        ("fixpipe_bytes_per_cycle_1c1v", 2**17, "plausible range 1 to 65,536 B/cycle, got 131072"),
        ("l1_bytes", 2**31, "l1_bytes must lie in the plausible range 1 to 1,073,741,824 B"),
        ("l1_banks", 5000, "l1_banks must lie in the plausible range 1 to 4,096, got 5000"),
    ],
)
def test_each_hardware_number_is_refused_outside_its_range(field: str, value: float, words: str) -> None:
    """The other inputs of the hardware, as the clock: a ValueError naming the field, its range and the value."""
    with pytest.raises(ValueError, match=words):
        ASCEND_950.with_overrides(**{field: value})


#: The report (zh) line each preset field cites, read off the report: 85 "4096 FMA per cycle per AICore, L2 5 TB/s",
#: 90 "num_cores = 32", 91 "freq = 1650e6", 116 O of 128 x 512 fp32 fills L0C, 128 "256 FMA / cycle" without HF32,
#: 134 one CUBE and two VECTOR Cores, 138 16 MTE2 requests in flight, 142 FixPipe 128 B/cycle, 238 icache 32K/16K/8K,
#: 242 L1's two banks of 256K.
CITED_LINES = {
    "clock_hz": 91,
    "cube_fma_per_cycle": 85,
    "cube_fma_per_cycle_exact_fp32": 128,
    "l2_bandwidth_bytes_per_s": 85,
    "ai_cores": 90,
    "vector_cores_per_ai_core": 134,
    "mte2_outstanding_requests": 138,
    "fixpipe_bytes_per_cycle_1c1v": 142,
    "l0c_bytes": 116,
    "l1_bytes": 242,
    "l1_banks": 242,
    "icache_cube_bytes": 238,
    "icache_vector_bytes": 238,
    "icache_simd_vf_bytes": 238,
}


def test_each_preset_field_cites_the_report_line_that_states_it() -> None:
    """Every field the report states cites exactly that line; the UB size cites config.h:125, the code."""
    cited = {}
    for key, source in ASCEND_950.sources.items():
        refs = source.refs if isinstance(source.refs, tuple) else (source.refs,)
        spans = [span for ref in refs for span in getattr(ref, "spans", ())]
        if spans:
            cited[key] = spans[0][0] if spans == [(spans[0][0], spans[0][0])] else spans
    assert cited == CITED_LINES
    assert ASCEND_950.sources["ub_bytes_per_vector_core"].refs == "config.h:125"
    assert ASCEND_950.sources["ai_cores"].refs[1] == "config.h:74 (GRID_SHAPE = 32)"
