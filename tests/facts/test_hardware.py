import math

import numpy as np
import pytest

from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, l2_bytes_per_cycle_per_core, numeric_fields, peak_flops
from ascend_dsa.facts.provenance import Source, report_lines


def test_every_field_has_a_source() -> None:
    """The preset names a source for every numeric field, and nothing else."""
    assert set(ASCEND_950.sources) == set(numeric_fields())


def test_derived_l2_share_matches_report_expression() -> None:
    """5e12 / 32 / 1.65e9 = 94.697 B/cycle per core (report (zh) line 92), computed, not typed."""
    assert l2_bytes_per_cycle_per_core(ASCEND_950) == pytest.approx(94.697, abs=5e-4)


def test_derived_peak() -> None:
    """4096 FMA x 2 x 1.65 GHz x 32 = 432.5376 TFLOPS."""
    assert peak_flops(ASCEND_950) == pytest.approx(432.5376e12)


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


def test_tiny_clock_raises_out_of_range_not_zero_division() -> None:
    """A clock of 1e-300 Hz makes L2 bytes per cycle infinite: OutOfRange (a ValueError), not inf or a crash."""
    with pytest.raises(ValueError, match="L2 bytes per cycle per AI Core comes out as inf"):
        l2_bytes_per_cycle_per_core(ASCEND_950.with_overrides(clock_hz=1e-300))


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
