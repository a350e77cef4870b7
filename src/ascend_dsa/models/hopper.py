"""FlashMLA's Hopper kernels on this project's ruler: per-core cycles of the matrix unit against the next-slowest unit.

Closed-form and standard-library only, like the Ascend models: the MMA cycles of one KV token, the CUDA-core
cycles of dequantising it (with and without the two-CTA "crossover"), the FP8 token's bytes, the cache of a long
context, the compute-bound head count of the dense kernel, and the FP8 decoding kernel's shared-memory plan.
Every function takes its chip and shape as arguments, so the same call answers for the other chip's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ascend_dsa.facts.hardware import AnyChip, ChipSpec, peak_flops
from ascend_dsa.facts.hopper import (
    DEQUANT_RESULTS_PER_CYCLE,
    FP8_BYTES,
    HOPPER_B_TOPK,
    HOPPER_HEADS_PER_CTA,
    HOPPER_K_BUFFERS,
    MLA_V32,
    QUANT_TILE_ELEMENTS,
    ROPE_DIM,
    SMEM_ARRAY_ALIGN_BYTES,
    SMEM_BARRIER_BYTES,
    SMEM_BARRIERS,
    SMEM_ROW_ARRAYS,
    SMEM_S_ALIGN_BYTES,
    TMA_BOX_COLUMNS,
)
from ascend_dsa.facts.model_shape import ModelShape
from ascend_dsa.units import BF16_BYTES, FP32_BYTES
from ascend_dsa.validate import require_finite, require_instance, require_int


def _count(name: str, value: int) -> int:
    return require_int(name, value, minimum=1)


def mma_cycles_per_token(spec: AnyChip, heads: int = HOPPER_HEADS_PER_CTA, model: ModelShape = MLA_V32) -> Fraction:
    """Matrix-unit cycles of one KV token for ``heads`` query heads: ``heads x (d_k + d_v) x 2`` FLOP over the rate."""
    chip = require_instance("spec", spec, ChipSpec)
    model = require_instance("model", model, ModelShape)
    flop = _count("heads", heads) * (model.d_qk + model.d_v) * 2
    return Fraction(flop, chip.matrix_flop_per_cycle_per_core)


def dequant_cycles_per_token(
    quantised_elements: int | None = None, *, sharing_ctas: int = 1, model: ModelShape = MLA_V32
) -> Fraction:
    """CUDA-core cycles to dequantise one FP8 token on one SM: each step's 1/throughput, summed, times the elements.

    ``quantised_elements`` defaults to the non-RoPE part (``d_k - 64``); ``sharing_ctas`` CTAs split each token
    (the crossover: 2).
    """
    model = require_instance("model", model, ModelShape)
    elements = model.d_qk - ROPE_DIM if quantised_elements is None else _count("quantised_elements", quantised_elements)
    per_element = sum((Fraction(1, rate) for _step, rate in DEQUANT_RESULTS_PER_CYCLE), Fraction(0))
    return per_element * elements / _count("sharing_ctas", sharing_ctas)


def fp8_token_parts(model: ModelShape = MLA_V32) -> tuple[int, int, int]:
    """The FP8 token's parts: float8 values, fp32 scales (one per 128-element tile), bf16 RoPE values."""
    model = require_instance("model", model, ModelShape)
    quantised = model.d_qk - ROPE_DIM
    return (quantised, quantised // QUANT_TILE_ELEMENTS, ROPE_DIM)


def fp8_token_bytes(model: ModelShape = MLA_V32) -> int:
    """Bytes of one FP8 KV token: 512 float8 + 4 fp32 scales + 64 bf16 (656 for V3.2)."""
    values, scales, rope = fp8_token_parts(model)
    return values * FP8_BYTES + scales * FP32_BYTES + rope * BF16_BYTES


def kv_cache_bytes(tokens: int, layers: int, model: ModelShape = MLA_V32) -> int:
    """Bytes of a bf16 MLA cache: ``d_k`` elements per token per layer."""
    model = require_instance("model", model, ModelShape)
    return _count("tokens", tokens) * _count("layers", layers) * model.d_qk * model.element_bytes


def tma_boxes_per_k_block(model: ModelShape = MLA_V32, box_columns: int = TMA_BOX_COLUMNS) -> int:
    """TMA copies of one K block, one per ``box_columns`` of ``d_k`` (9 for 576 / 64)."""
    model = require_instance("model", model, ModelShape)
    box = _count("box_columns", box_columns)
    return -(-model.d_qk // box)


def dense_compute_bound_heads(
    spec: AnyChip, clock_hz: float, model: ModelShape = MLA_V32, *, exact: bool = True
) -> float:
    """Query heads (``h_q x s_q``) from which dense bf16 decoding is compute-bound at ``clock_hz``.

    FLOP per byte of the cache is ``h (d_k + d_v) / d_k`` (dense blog line 11); it must reach peak / bandwidth.
    With ``exact=False`` the factor ``(d_k + d_v) / d_k`` is taken as 2, as the blog does.
    """
    peak = peak_flops(spec, clock_hz)  # checks spec and the clock
    model = require_instance("model", model, ModelShape)
    ridge = peak / spec.bandwidth_bytes_per_s
    factor = Fraction(model.d_qk + model.d_v, model.d_qk) if exact else 2
    return ridge / float(factor)


def crossover_gain(spec: AnyChip, heads: int = HOPPER_HEADS_PER_CTA, model: ModelShape = MLA_V32) -> Fraction:
    """Speed-up the crossover predicts: the slower unit per token without it over the slower unit with it."""
    mma = mma_cycles_per_token(spec, heads, model)
    alone = max(mma, dequant_cycles_per_token(model=model))
    shared = max(mma, dequant_cycles_per_token(sharing_ctas=2, model=model))
    return alone / shared


def fp8_decode_bound_flops(
    spec: AnyChip,
    clock_hz: float | None = None,
    *,
    sharing_ctas: int = 1,
    heads: int = HOPPER_HEADS_PER_CTA,
    model: ModelShape = MLA_V32,
) -> float:
    """FLOP/s the model allows FP8 decoding: the peak times MMA cycles over the slower of MMA and dequantisation.

    Each core does one token's MMA FLOP in the slower unit's cycles (about 588 TFLOPS at 1600 MHz without the
    crossover, the full 865 with it): the bound the measured TFLOPS are held to (``sharing_ctas`` as in
    [`dequant_cycles_per_token`][]).
    """
    mma = mma_cycles_per_token(spec, heads, model)
    slower = max(mma, dequant_cycles_per_token(sharing_ctas=sharing_ctas, model=model))
    return peak_flops(spec, clock_hz) * float(mma / slower)


def break_even_tokens(topk: int, sparse_flops: float, dense_flops: float) -> float:
    """Context length at which dense decoding takes as long as sparse decoding of ``topk`` tokens."""
    sparse = require_finite("sparse_flops", sparse_flops, positive=True)
    return _count("topk", topk) * require_finite("dense_flops", dense_flops, positive=True) / sparse


@dataclass(frozen=True)
class SmemPart:
    """One member of the FP8 decoding kernel's shared-memory plan: its bytes and the alignment its type asks for."""

    name: str
    size_bytes: int
    align_bytes: int


def fp8_decode_smem_plan(
    model: ModelShape = MLA_V32, heads: int = HOPPER_HEADS_PER_CTA, b_topk: int = HOPPER_B_TOPK
) -> tuple[SmemPart, ...]:
    """The members of ``SharedMemoryPlan`` in order (decode sparse_fp8 config.h lines 91-103), each aligned as declared.

    ``u`` is a union: its size is its largest member, the two K buffers.
    """
    model = require_instance("model", model, ModelShape)
    rows, block = _count("heads", heads), _count("b_topk", b_topk)
    return (
        SmemPart("q", rows * model.d_qk * BF16_BYTES, SMEM_ARRAY_ALIGN_BYTES),
        SmemPart("u.k[2]", HOPPER_K_BUFFERS * block * model.d_qk * BF16_BYTES, SMEM_ARRAY_ALIGN_BYTES),
        SmemPart("s", rows * block * BF16_BYTES, SMEM_S_ALIGN_BYTES),
        SmemPart("is_kv_valid", HOPPER_K_BUFFERS * block, 1),
        SmemPart("sM, sL, sScale, sOScale", SMEM_ROW_ARRAYS * rows * FP32_BYTES, FP32_BYTES),
        SmemPart("barriers", SMEM_BARRIERS * SMEM_BARRIER_BYTES, SMEM_BARRIER_BYTES),
    )


def _round_up(size: int, align: int) -> int:
    return -(-size // align) * align


def _sizeof(parts: tuple[SmemPart, ...]) -> int:
    """``sizeof`` by the C++ rule: each member at a multiple of its alignment, the end at one of the largest."""
    end = 0
    for part in parts:
        end = _round_up(end, part.align_bytes) + part.size_bytes
    return _round_up(end, max(part.align_bytes for part in parts))


def fp8_decode_smem_member_bytes(model: ModelShape = MLA_V32) -> int:
    """The sum of the plan's members (230,584 B for V3.2): less than the kernel allocates."""
    return sum(part.size_bytes for part in fp8_decode_smem_plan(model))


def fp8_decode_smem_bytes(model: ModelShape = MLA_V32) -> int:
    """Shared memory the FP8 decoding kernel allocates: ``sizeof(SharedMemoryPlan)`` (231,424 B for V3.2).

    The kernel asks for ``sizeof`` (decode splitkv_mla.cuh line 753), and ``CUTE_ALIGNAS(1024)`` on ``s`` makes the
    struct 1024-byte aligned, so its size is the members' end rounded up to a multiple of 1024.
    """
    return _sizeof(fp8_decode_smem_plan(model))
