"""The generic chip spec: the H800 preset sourced and within physical bounds, the 950 projected without a change."""

from __future__ import annotations

import dataclasses

import pytest

from ascend_dsa.facts.chip import (
    CHIP_FIELD_UNITS,
    ChipSpec,
    as_chip,
    bandwidth_bytes_per_cycle_per_core,
    peak_flops,
    ridge_flop_per_byte,
)
from ascend_dsa.facts.hardware import ASCEND_950, l2_bytes_per_cycle_per_core
from ascend_dsa.facts.hopper import H800, HOPPER_COMMIT, MLA_V32
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK, head_roofline_sweep
from ascend_dsa.units import KiB


def test_every_h800_field_has_a_source_naming_its_document() -> None:
    """Each number of the H800 preset cites a FlashMLA file line or NVIDIA's guide by its title."""
    assert set(H800.sources) == set(CHIP_FIELD_UNITS)
    for name, source in H800.sources.items():
        assert source.citation.strip(), name
        assert "line" in source.citation or "NVIDIA CUDA C++ Programming Guide" in source.citation, name
    assert len(HOPPER_COMMIT) == 40


def test_h800_within_physical_bounds() -> None:
    """Clock in the GHz range, bandwidth in TB/s, 256 KiB of registers, 227 KiB of shared memory per CTA."""
    assert 1e9 < H800.clock_hz < 3e9
    assert 1e12 < H800.bandwidth_bytes_per_s < 1e13
    assert H800.accumulator_bytes_per_core == 256 * KiB
    assert H800.staging_bytes_per_core == 232448
    assert H800.matrix_fma_per_cycle_per_core == 2048


def test_ascend_projection_keeps_every_number() -> None:
    """as_chip(ASCEND_950) has the 950's clock, 2 x 4096 FLOP, 32 cores, 5 TB/s, L0C and UB; rates agree."""
    chip = as_chip(ASCEND_950)
    assert chip.matrix_flop_per_cycle_per_core == 2 * ASCEND_950.cube_fma_per_cycle
    assert (chip.cores, chip.clock_hz) == (ASCEND_950.ai_cores, ASCEND_950.clock_hz)
    assert chip.accumulator_bytes_per_core == ASCEND_950.l0c_bytes
    assert chip.staging_bytes_per_core == ASCEND_950.ub_bytes_per_vector_core
    assert bandwidth_bytes_per_cycle_per_core(chip) == l2_bytes_per_cycle_per_core(ASCEND_950)
    assert peak_flops(chip) == peak_flops(ASCEND_950)
    assert ridge_flop_per_byte(ASCEND_950) == pytest.approx(peak_flops(ASCEND_950) / 5e12)


def test_roofline_on_the_projection_equals_the_report_table() -> None:
    """The generic path gives the 950's head-roofline points exactly as the AscendSpec path does."""
    ours = head_roofline_sweep(as_chip(ASCEND_950), REPORT_HEADS, REPORT_TOPK)
    assert ours == head_roofline_sweep(ASCEND_950, REPORT_HEADS, REPORT_TOPK)


def test_h800_roofline_uses_its_own_numbers() -> None:
    """On the H800 the matrix cycles of 64 heads x topk 64 are 64 x 64 x 1088 x 2 / 4096."""
    (point,) = head_roofline_sweep(H800, (64,), (64,), MLA_V32)
    assert point.cube_cycles == 64 * 64 * 1088 * 2 // 4096


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"matrix_flop_per_cycle_per_core": 4097}, "must be even"),
        ({"cores": 0}, "cores"),
        ({"clock_hz": float("inf")}, "clock_hz must be a positive finite number of Hz"),
        ({"sources": {}}, "missing"),
    ],
)
def test_chip_spec_rejects_bad_values(change: dict[str, object], message: str) -> None:
    """An odd FLOP rate, no cores, an infinite clock or missing sources raise naming the field."""
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(H800, **change)  # type: ignore[arg-type]


def test_with_overrides_marks_the_change_as_a_what_if() -> None:
    """A changed field's source becomes a what-if assumption; an unknown field is refused."""
    changed = H800.with_overrides(cores=66)
    assert changed.cores == 66
    assert changed.sources["cores"].kind == "assumed"
    assert changed.name.endswith("(what-if)")
    with pytest.raises(ValueError, match="cannot override"):
        H800.with_overrides(ai_cores=1)


def test_as_chip_rejects_other_types() -> None:
    """Anything but an AscendSpec or ChipSpec is a TypeError naming both."""
    with pytest.raises(TypeError, match="AscendSpec or a ChipSpec"):
        as_chip("h800")  # type: ignore[arg-type]
    assert isinstance(as_chip(H800), ChipSpec)


def test_one_peak_for_every_chip() -> None:
    """One peak function: 4096 FMA x 2 x 1.65 GHz x 32 = 432.5376 TFLOPS on the 950, 989.4 TFLOPS on the H800."""
    assert peak_flops(ASCEND_950) == pytest.approx(432.5376e12)
    assert peak_flops(H800) == pytest.approx(989.4e12, rel=1e-4)
    assert peak_flops(ASCEND_950, clock_hz=1.6e9) == pytest.approx(2 * 4096 * 32 * 1.6e9)
