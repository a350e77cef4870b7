"""Cycles of one KV block on one AI Core: CUBE work, FixPipe copies, and an identity-matmul rescale.

Report (zh) lines 126-128 and 142.

A block is ``B_TOPK`` gathered KV tokens; the CUBE computes ``P = Q K^T`` and ``O += S V`` for ``MMA_M`` rows.
FixPipe moves fp32 results out of L0C: P every block and, without skip-scale, all of O too.
"""

from __future__ import annotations

from fractions import Fraction

from ascend_dsa.errors import OutsideModel
from ascend_dsa.facts.assumptions import HF32_RATE_OVER_BF16
from ascend_dsa.facts.hardware import AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import KernelConfig, require_spec_config_model
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.lang import Text
from ascend_dsa.units import FP32_BYTES
from ascend_dsa.validate import door, require_bool, require_instance, require_int


def _mma_cycles_per_block(spec: AscendSpec, config: KernelConfig, model: ModelShape) -> Fraction:
    """[`mma_cycles_per_block`][] of values already checked (the package's own callers)."""
    return Fraction(config.mma_m * config.b_topk * (model.d_qk + model.d_v), spec.matrix_fma_per_cycle_per_core)


@door(_mma_cycles_per_block)
def mma_cycles_per_block(spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41) -> Fraction:
    """CUBE cycles of one block: ``MMA_M x B_TOPK x (d_qk + d_v)`` MACs at full rate (16 x B_TOPK at 64 rows)."""
    return _mma_cycles_per_block(*require_spec_config_model(spec, config, model))


def _fixpipe_bytes_per_block(config: KernelConfig, model: ModelShape, *, o_leaves: bool) -> int:
    """[`fixpipe_bytes_per_block`][] of values already checked (the package's own callers)."""
    p_bytes = config.mma_m * config.b_topk * FP32_BYTES
    o_bytes = config.mma_m * model.d_v * FP32_BYTES if o_leaves else 0
    return p_bytes + o_bytes


@door(_fixpipe_bytes_per_block)
def fixpipe_bytes_per_block(config: KernelConfig, model: ModelShape = DSA_V41, *, o_leaves: bool = True) -> int:
    """fp32 bytes FixPipe copies out of L0C per block: P always, O (``MMA_M x d_v``) only when ``o_leaves``."""
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    return _fixpipe_bytes_per_block(config, model, o_leaves=require_bool("o_leaves", o_leaves))


def _fixpipe_cycles_per_block(spec: AscendSpec, config: KernelConfig, model: ModelShape, *, o_leaves: bool) -> Fraction:
    """[`fixpipe_cycles_per_block`][] of values already checked (the package's own callers)."""
    return Fraction(
        _fixpipe_bytes_per_block(config, model, o_leaves=o_leaves), spec.ascend.fixpipe_bytes_per_cycle_1c1v
    )


@door(_fixpipe_cycles_per_block)
def fixpipe_cycles_per_block(
    spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41, *, o_leaves: bool = True
) -> Fraction:
    """FixPipe cycles per block at the 1C1V rate of 128 B/cycle (1024 + 2 x B_TOPK when O leaves every block)."""
    spec, config, model = require_spec_config_model(spec, config, model)
    return _fixpipe_cycles_per_block(spec, config, model, o_leaves=require_bool("o_leaves", o_leaves))


def fixpipe_break_even_b_topk(spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41) -> Fraction:
    """The B_TOPK above which MMA outlasts FixPipe when O leaves every block (1024 / 14 = 73.14 on the 950).

    Both sides are linear in B_TOPK: ``a x B > c + b x B`` holds for ``B > c / (a - b)``.
    """
    spec, config, model = require_spec_config_model(spec, config, model)
    rows = config.mma_m
    a = Fraction(rows * (model.d_qk + model.d_v), spec.matrix_fma_per_cycle_per_core)
    b = Fraction(rows * FP32_BYTES, spec.ascend.fixpipe_bytes_per_cycle_1c1v)
    c = Fraction(rows * model.d_v * FP32_BYTES, spec.ascend.fixpipe_bytes_per_cycle_1c1v)
    if a <= b:
        rates = (
            f"cube_fma_per_cycle = {spec.matrix_fma_per_cycle_per_core}, "
            f"fixpipe_bytes_per_cycle_1c1v = {spec.ascend.fixpipe_bytes_per_cycle_1c1v}"
        )
        raise OutsideModel(
            Text(
                f"没有哪个 B_TOPK 能让 MMA 比 FixPipe 耗时更长：每个 token MMA 要 {float(a):g} 周期，FixPipe 要 "
                f"{float(b):g} 周期（{rates}）；MMA 必须更长",
                f"no B_TOPK lets MMA outlast FixPipe: per token MMA takes {float(a):g} cycles and FixPipe "
                f"{float(b):g} ({rates}); MMA must take longer",
            )
        )
    return c / (a - b)


def hf32_fma_per_cycle(spec: AscendSpec) -> int:
    """fp32 FMA per cycle with HF32 on: the bf16 rate times the assumed ratio (the report gives no HF32-on rate)."""
    spec = require_ascend("spec", spec)
    return spec.matrix_fma_per_cycle_per_core * HF32_RATE_OVER_BF16


def identity_rescale_cycles(spec: AscendSpec, m: int, k: int, n: int, *, exact_fp32: bool = True) -> Fraction:
    """Cycles of an ``m x k x n`` matmul used to move (and rescale) O into L0C through an identity matrix.

    With ``exact_fp32`` the CUBE runs with HF32 off at its fp32 rate (256 FMA/cycle, report (zh) line 128);
    otherwise at the HF32 rate, which the report does not give ([`hf32_fma_per_cycle`][], an assumption).
    """
    spec = require_ascend("spec", spec)
    m, k, n = (require_int(name, value, minimum=1) for name, value in (("m", m), ("k", k), ("n", n)))
    exact_fp32 = require_bool("exact_fp32", exact_fp32)
    rate = spec.ascend.cube_fma_per_cycle_exact_fp32 if exact_fp32 else hf32_fma_per_cycle(spec)
    return Fraction(m * k * n, rate)
