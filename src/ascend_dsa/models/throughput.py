"""Achieved throughput against the peak (report (zh) line 5) and against the pipeline model's bound."""

from __future__ import annotations

from fractions import Fraction

from ascend_dsa.facts.hardware import AnyChip, AscendSpec, peak_flops
from ascend_dsa.facts.kernel_config import KernelConfig, require_spec_config_model
from ascend_dsa.facts.kv_formats import KvFormat
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.models.block_cycles import mma_cycles_per_block
from ascend_dsa.models.pipeline import simulate, stage_costs
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


def pipeline_bound_flops(
    spec: AscendSpec,
    config: KernelConfig,
    model: ModelShape = DSA_V41,
    kv_format: KvFormat = KvFormat.BF16,
    blocks: int = 32,
) -> float:
    """The pipeline model's bound on the chip's FLOP/s: the peak times the CUBE's steady-state use in ``simulate``.

    A kernel that ran exactly as [`simulate`][ascend_dsa.models.pipeline.simulate] schedules it would reach this
    rate; everything the model leaves out (``report.validation_boundary``) is between it and a measurement.
    """
    timeline = simulate(stage_costs(spec, config, model, kv_format), config, blocks)
    return finite_result("pipeline bound", peak_flops(spec) * timeline.cube_utilisation, positive=True)


def share_of_pipeline_bound(achieved_flops: float, bound_flops: float) -> float:
    """Achieved FLOP/s over the pipeline model's bound: how close the kernel comes to what the model allows."""
    achieved = require_finite("achieved_flops", achieved_flops, positive=True)
    bound = require_finite("bound_flops", bound_flops, positive=True)
    return finite_result("share of the pipeline bound", achieved / bound, positive=True)
