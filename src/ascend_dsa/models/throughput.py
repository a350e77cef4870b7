"""Achieved throughput against the peak (report (zh) line 5): what fraction, and what it means per block."""

from __future__ import annotations

from fractions import Fraction

from ascend_dsa.facts.hardware import AnyChip, AscendSpec, peak_flops
from ascend_dsa.facts.kernel_config import KernelConfig, require_spec_config_model
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.models.block_cycles import mma_cycles_per_block
from ascend_dsa.validate import finite_result, require_finite


def fraction_of_peak(achieved_flops: float, spec: AnyChip) -> float:
    """Achieved FLOP/s over the derived peak (4096 x 2 x 1.65 GHz x 32 = 432.54 TFLOPS on the 950; any chip spec)."""
    peak = peak_flops(spec)
    achieved = require_finite("achieved_flops", achieved_flops, positive=True)
    return finite_result("fraction of peak", achieved / peak, positive=True)


def cycles_per_block_at(
    achieved_flops: float, spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41
) -> float:
    """Cycles one block takes on average if the chip sustains ``achieved_flops`` (MMA cycles / fraction of peak)."""
    spec, config, model = require_spec_config_model(spec, config, model)
    cycles = mma_cycles_per_block(spec, config, model) / Fraction(fraction_of_peak(achieved_flops, spec))
    return finite_result("cycles per block", float(cycles), positive=True)
