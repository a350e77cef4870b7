import dataclasses
import math

import numpy as np
import pytest

from ascend_dsa.facts.hardware import (
    ASCEND_950,
    CHIP_FIELD_UNITS,
    CLOCK_HZ_RANGE,
    FIELD_RANGES,
    ChipSpec,
    is_ascend,
    numeric_fields,
    peak_flops,
    require_ascend,
    ridge_flop_per_byte,
)
from ascend_dsa.facts.provenance import Source, report_lines


def test_every_field_has_a_source() -> None:
    """The preset names a source for every numeric field, and nothing else."""
    assert set(ASCEND_950.sources) == set(numeric_fields())


def test_derived_l2_share_matches_report_expression() -> None:
    """5e12 / 32 / 1.65e9 = 94.697 B/cycle per core (report (zh) line 92), computed, not typed."""
    assert ASCEND_950.bandwidth_bytes_per_cycle_per_core == pytest.approx(94.697, abs=5e-4)


@pytest.mark.parametrize(
    ("field", "low", "high"),
    [
        ("clock_hz", 0.5e9, 3e9),
        ("bandwidth_bytes_per_s", 1e12, 50e12),  # catches 5 GB/s or 5 PB/s typed for 5 TB/s
        ("matrix_fma_per_cycle_per_core", 1024, 16384),
        ("accumulator_bytes_per_core", 64 * 1024, 1024 * 1024),
        ("staging_bytes_per_core", 64 * 1024, 1024 * 1024),
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
    variant = ASCEND_950.with_overrides(bandwidth_bytes_per_s=4e12, cores=np.int64(24))
    assert variant.bandwidth_bytes_per_s == 4e12
    assert variant.cores == 24
    assert isinstance(variant.cores, int)
    assert variant.sources["cores"].kind == "assumed"
    assert "24" in variant.sources["cores"].note
    assert variant.sources["clock_hz"] == ASCEND_950.sources["clock_hz"]
    assert ASCEND_950.bandwidth_bytes_per_s == 5e12


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
        dataclasses.replace(ASCEND_950, sources=sources)


def test_derived_source_needs_note() -> None:
    """A derived or assumed source must say how."""
    with pytest.raises(ValueError, match="needs a note"):
        Source(report_lines(116), "derived")


@pytest.mark.parametrize("bad", [32.0, "32", True])
def test_whole_number_fields_reject_floats(bad: object) -> None:
    """A count such as cores takes whole numbers only: 32.0, '32' or True is a TypeError naming it."""
    with pytest.raises(TypeError, match="cores must be a whole number"):
        ASCEND_950.with_overrides(cores=bad)


@pytest.mark.parametrize("clock_hz", [1e-300, 1e308, 1.7976931348623157e308, 9.9e7, 1.01e10])
def test_a_clock_outside_its_plausible_range_is_refused_naming_it(clock_hz: float) -> None:
    """Issue 31 (16): 1e308 Hz gave figures 300 digits long (and 1e-300 Hz an infinite L2 share, refused only then).

    A clock must lie from 100 MHz to 10 GHz (``CLOCK_HZ_RANGE``, which says why); the preset is refused where the
    value enters, naming the value and the range.
    """
    with pytest.raises(ValueError, match=r"^clock_hz must lie in the plausible range 1e8 to 1e10 Hz, got "):
        ASCEND_950.with_overrides(clock_hz=clock_hz)
    assert ASCEND_950.with_overrides(clock_hz=CLOCK_HZ_RANGE.high).bandwidth_bytes_per_cycle_per_core > 0


def test_every_hardware_field_has_a_plausible_range_holding_the_presets() -> None:
    """Each numeric field of a chip and of its Ascend units has a range, and the 950 and H800 presets lie inside."""
    from ascend_dsa.facts.hopper import H800  # noqa: PLC0415

    assert set(FIELD_RANGES) == set(numeric_fields())
    for preset in (ASCEND_950, H800):
        for name in preset.field_units():
            plausible = FIELD_RANGES[name]
            assert plausible.low < preset.number(name) < plausible.high, (preset.name, name)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("bandwidth_bytes_per_s", 1e308, "bandwidth_bytes_per_s must lie in the plausible range 1e9 to 1e17 B/s"),
        ("cores", 2_000_000, "cores must lie in the plausible range 1 to 1,000,000 cores, got 2000000"),
        (
            "matrix_fma_per_cycle_per_core",
            2**21,
            "matrix_fma_per_cycle_per_core must lie in the plausible range 1 to 1,048,576 FMA/cycle",
        ),
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
    "matrix_fma_per_cycle_per_core": 85,
    "cube_fma_per_cycle_exact_fp32": 128,
    "bandwidth_bytes_per_s": 85,
    "cores": 90,
    "vector_cores_per_ai_core": 134,
    "mte2_outstanding_requests": 138,
    "fixpipe_bytes_per_cycle_1c1v": 142,
    "accumulator_bytes_per_core": 116,
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
    assert ASCEND_950.sources["staging_bytes_per_core"].refs == "config.h:125"
    assert ASCEND_950.sources["cores"].refs[1] == "config.h:74 (GRID_SHAPE = 32)"


def test_every_h800_field_has_a_source_naming_its_document() -> None:
    """Each number of the H800 preset cites a FlashMLA file line or NVIDIA's guide; it has no Ascend units."""
    from ascend_dsa.facts.hopper import H800, HOPPER_COMMIT  # noqa: PLC0415

    assert H800.ascend is None
    assert set(H800.sources) == set(CHIP_FIELD_UNITS)
    for name, source in H800.sources.items():
        assert source.citation.strip(), name
        assert "line" in source.citation or "NVIDIA CUDA C++ Programming Guide" in source.citation, name
    assert len(HOPPER_COMMIT) == 40


def test_h800_within_physical_bounds() -> None:
    """Clock in the GHz range, bandwidth in TB/s, 256 KiB of registers, 227 KiB of shared memory per CTA."""
    from ascend_dsa.facts.hopper import H800  # noqa: PLC0415

    assert 1e9 < H800.clock_hz < 3e9
    assert 1e12 < H800.bandwidth_bytes_per_s < 1e13
    assert H800.accumulator_bytes_per_core == 256 * 1024
    assert H800.staging_bytes_per_core == 232448
    assert (H800.matrix_fma_per_cycle_per_core, H800.matrix_flop_per_cycle_per_core) == (2048, 4096)


def test_one_type_for_every_chip() -> None:
    """The 950 and the H800 are both a ChipSpec; only the 950 has Ascend units, and only it passes require_ascend."""
    from ascend_dsa.facts.hopper import H800  # noqa: PLC0415

    assert type(ASCEND_950) is type(H800) is ChipSpec
    assert is_ascend(ASCEND_950)
    assert not is_ascend(H800)
    assert require_ascend("spec", ASCEND_950) is ASCEND_950
    with pytest.raises(TypeError, match=r"^spec must be a AscendSpec, got 'H800 SXM5' \(a ChipSpec without Ascend"):
        require_ascend("spec", H800)
    with pytest.raises(TypeError, match=r"^spec must be a AscendSpec, got 'x' \(str\)$"):
        require_ascend("spec", "x")


def test_ascend_units_are_overridden_and_sourced_like_the_chips_own() -> None:
    """with_overrides reaches an Ascend unit by its name, marks it a what-if, and refuses it on a chip without one."""
    from ascend_dsa.facts.hopper import H800  # noqa: PLC0415

    variant = ASCEND_950.with_overrides(l1_banks=4, clock_hz=1.6e9)
    assert (variant.ascend.l1_banks, variant.clock_hz) == (4, 1.6e9)
    assert variant.sources["l1_banks"].kind == "assumed"
    assert variant.number("l1_banks") == 4
    assert ASCEND_950.ascend.l1_banks == 2
    with pytest.raises(ValueError, match="cannot override l1_banks"):
        H800.with_overrides(l1_banks=4)
    with pytest.raises(ValueError, match="name must be one of clock_hz"):
        H800.number("l1_banks")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cores": 0}, "cores"),
        ({"clock_hz": float("inf")}, "clock_hz must be a positive finite number of Hz"),
        ({"sources": {}}, "missing"),
    ],
)
def test_chip_spec_rejects_bad_values(change: dict[str, object], message: str) -> None:
    """No cores, an infinite clock or missing sources raise naming the field."""
    from ascend_dsa.facts.hopper import H800  # noqa: PLC0415

    with pytest.raises(ValueError, match=message):
        dataclasses.replace(H800, **change)  # type: ignore[arg-type]


def test_one_peak_and_one_bandwidth_share_for_every_chip() -> None:
    """peak_flops: 4096 FMA x 2 x 1.65 GHz x 32 = 432.5376 TFLOPS on the 950, 989.4 on the H800; ridge = peak / BW."""
    from ascend_dsa.facts.hopper import H800  # noqa: PLC0415

    assert peak_flops(ASCEND_950) == pytest.approx(432.5376e12)
    assert peak_flops(H800) == pytest.approx(989.4e12, rel=1e-4)
    assert peak_flops(ASCEND_950, clock_hz=1.6e9) == pytest.approx(2 * 4096 * 32 * 1.6e9)
    assert ridge_flop_per_byte(ASCEND_950) == pytest.approx(peak_flops(ASCEND_950) / 5e12)
    assert H800.bandwidth_bytes_per_cycle_per_core == pytest.approx(3.35e12 / 132 / 1.83e9)
