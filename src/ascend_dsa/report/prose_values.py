"""The numbers page prose may show: name -> a function of nothing returning the number and its unit.

A page writes ``{{ name }}`` and the build puts the value here in its place (see `ascend_dsa.site.prose_numbers`).
Every entry computes from the package, so a changed constant changes the prose with it. Names say what the number
is, with its unit last (``clock_mhz``, ``l0c_kib``); ``unit="%"`` marks a fraction shown as a percentage.

Why this module is long: it is one table, a line or two per number the pages quote (about 160 of them). Split by
chapter, a value two chapters quote would need a home of its own, and the prose check's one lookup would become a
merge of tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from types import MappingProxyType
from typing import Final

import ml_dtypes
import numpy as np

from ascend_dsa.facts.assumptions import FIXPIPE_1C2V_SPEEDUP, UB_ROW_BYTES, VECTOR_BYTES_PER_CYCLE
from ascend_dsa.facts.code_figures import SHIPPED_UB_TOTALS
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, peak_flops, ridge_flop_per_byte
from ascend_dsa.facts.hopper import H800, H800_THROTTLED_CLOCK_HZ, HOPPER_HEADS_PER_CTA
from ascend_dsa.facts.hopper_figures import (
    DENSE_DECODE_ACHIEVED_BYTES_PER_S,
    DENSE_DECODE_ACHIEVED_FLOPS,
    NO_CROSSOVER_ACHIEVED_FLOPS,
    SPARSE_DECODE_ACHIEVED_FLOPS,
    hopper_number,
)
from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST, MMA_M_GRANULE_ROWS, SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.kernel_rules import VECTOR_BYTES
from ascend_dsa.facts.kv_formats import FP8_V41, MTE2_ROW_ALIGN_BYTES, KvFormat, Mode, kv_bytes_per_token
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.facts.report_figures import published_figure, published_number
from ascend_dsa.facts.report_inputs import DECODE_ACHIEVED_FLOPS, PREFILL_ACHIEVED_FLOPS
from ascend_dsa.models.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_bytes_per_block,
    fixpipe_cycles_per_block,
    identity_rescale_cycles,
    mma_cycles_per_block,
)
from ascend_dsa.models.blocked_forward import skip_scale_decision
from ascend_dsa.models.design_point import (
    FULL_UTILISATION,
    SHIPPED_DESIGN,
    KvCache,
    Limit,
    evaluate,
    fixpipe_bytes_per_cycle,
)
from ascend_dsa.models.hopper import (
    crossover_gain,
    dequant_cycles_per_token,
    fp8_decode_bound_flops,
    mma_cycles_per_token,
)
from ascend_dsa.models.memory_plans import (
    JOB_PARITY_BUFFERS,
    UbPlan,
    l0c_output_bytes,
    l0c_used_bytes,
    layout_bytes_per_bank,
    ub_plan,
)
from ascend_dsa.models.mte2 import requests_per_block, tokens_in_flight
from ascend_dsa.models.nd2nz_stride import (
    UB_BANK_GROUPS,
    blocks_per_token,
    min_conflict_free_padding,
    nz_block_bytes,
    ub_nz_stride_bytes,
)
from ascend_dsa.models.nz_layout import nd_offset_bytes
from ascend_dsa.models.online_softmax import ONLINE_SOFTMAX_START
from ascend_dsa.models.peak_clock import flops_per_cycle
from ascend_dsa.models.pipeline import (
    CubeWaitBounds,
    StageCosts,
    Task,
    Unit,
    cube_wait_bounds,
    first_waiting_cycles,
    stage_costs,
)
from ascend_dsa.models.rescale_bound import raw_logit_threshold, rescale_factor_bound
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK, arithmetic_intensity, head_roofline
from ascend_dsa.models.schedule import VECTOR_STAGES, pipeline_depth, vector_stage
from ascend_dsa.models.skip_scale import DEFAULT_SM_SCALE
from ascend_dsa.models.ss_buffer import SS_BLOCK_SLOTS, SS_FLAG_BYTES, SS_JOB_SLOTS, ss_buffer_bytes
from ascend_dsa.models.throughput import cycles_per_block_at, fraction_of_peak
from ascend_dsa.report.forward_cases import TRACE_B_TOPK, TRACE_LOGITS, trace_case
from ascend_dsa.report.ledger_hopper import HOPPER_CLAIMS
from ascend_dsa.report.scenarios import (
    ALTERNATIVE_B_TOPK,
    ALTERNATIVE_B_TOPK_DIVIDING,
    EXAMPLE_INDICES,
    EXAMPLE_QUERY,
    EXAMPLE_S_KV,
    FEWER_HEADS,
    MAP_STEPS,
    MORE_HEADS,
    ND2NZ_EXAMPLE_DIMS,
    ND2NZ_EXAMPLE_TOKENS,
    ONE_VECTOR_CORE,
    PRIMER_RING_BLOCKS,
    PRIMER_TILE_FRACTALS_ACROSS,
    SIMULATED_BLOCKS,
    primer_ring,
)
from ascend_dsa.report.what_if import FEWER_AI_CORES, compute_bound_heads, with_fewer_cores, with_half_l2
from ascend_dsa.units import FP32_BYTES, TB, TFLOPS, GHz, KiB, MHz


@dataclass(frozen=True)
class Quantity:
    """A number for prose: its value, its unit, and the decimals it is shown with."""

    value: int | float | Fraction
    unit: str = ""
    decimals: int = 0

    def __post_init__(self) -> None:
        """Reject a value that is not a number, or negative decimals."""
        if isinstance(self.value, bool) or not isinstance(self.value, int | float | Fraction):
            raise TypeError(f"value must be a number, got {self.value!r}")
        if self.decimals < 0:
            raise ValueError(f"decimals must be >= 0, got {self.decimals!r}")


def _fp8_bound(*, sharing_ctas: int) -> float:
    """FLOP/s the model allows FlashMLA's FP8 decoding at the throttled clock, without (1) or with (2) the crossover."""
    return fp8_decode_bound_flops(H800, H800_THROTTLED_CLOCK_HZ, sharing_ctas=sharing_ctas)


def _achieved(case: str) -> float:
    """FLOP/s the pages take for ``case`` (prefill or decode): the report's measurement, checked by its claim."""
    return {"prefill": PREFILL_ACHIEVED_FLOPS, "decode": DECODE_ACHIEVED_FLOPS}[case]


def _mma_block() -> Fraction:
    return mma_cycles_per_block(ASCEND_950, SHIPPED_KERNEL, DSA_V41)


_VALUES: dict[str, Callable[[], Quantity]] = {
    # --- hardware (ascend_dsa.facts.hardware.ASCEND_950) -----------------------------------------------------------
    "clock_mhz": lambda: Quantity(ASCEND_950.clock_hz / MHz, "MHz"),
    "clock_ghz": lambda: Quantity(ASCEND_950.clock_hz / GHz, "GHz", 2),
    "ai_cores": lambda: Quantity(ASCEND_950.cores),
    "cube_fma_per_cycle": lambda: Quantity(ASCEND_950.matrix_fma_per_cycle_per_core, "FMA/cycle"),
    "flop_per_fma": lambda: Quantity(
        flops_per_cycle(ASCEND_950) // ASCEND_950.matrix_fma_per_cycle_per_core // ASCEND_950.cores
    ),
    "l2_tb_per_s": lambda: Quantity(ASCEND_950.bandwidth_bytes_per_s / TB, "TB/s"),
    "l0c_kib": lambda: Quantity(ASCEND_950.accumulator_bytes_per_core / KiB, "KiB"),
    "l2_bytes_per_cycle_per_core": lambda: Quantity(ASCEND_950.bandwidth_bytes_per_cycle_per_core, "B/cycle", 3),
    "bf16_bytes": lambda: Quantity(DSA_V41.element_bytes, "B"),
    "fp32_bytes": lambda: Quantity(FP32_BYTES, "B"),
    "bf16_kv_token_bytes": lambda: Quantity(kv_bytes_per_token(KvFormat.BF16), "B"),
    "fp8_kv_token_bytes": lambda: Quantity(kv_bytes_per_token(KvFormat.FP8), "B"),
    "fp8_kv_data_bytes": lambda: Quantity(FP8_V41.data_bytes, "B"),
    "fp8_dims_per_scale": lambda: Quantity(FP8_V41.dims_per_scale or 0),
    "fp8_scales_per_token": lambda: Quantity(FP8_V41.scale_count),
    "fp8_ub_row_bytes": lambda: Quantity(FP8_V41.ub_token_bytes, "B"),
    "mte2_row_align_bytes": lambda: Quantity(MTE2_ROW_ALIGN_BYTES, "B"),
    # --- model and kernel -------------------------------------------------------------------------------------
    "d_qk": lambda: Quantity(DSA_V41.d_qk),
    "d_v": lambda: Quantity(DSA_V41.d_v),
    "b_topk": lambda: Quantity(SHIPPED_KERNEL.b_topk),
    "heads_per_core": lambda: Quantity(SHIPPED_KERNEL.heads_per_core),
    "mma_cycles_per_block": lambda: Quantity(_mma_block(), "cycles"),
    # --- the report's headline figures and the peak they imply (index) -----------------------------------------
    "peak_tflops": lambda: Quantity(peak_flops(ASCEND_950) / TFLOPS, "TFLOPS", 2),
    "prefill_tflops": lambda: Quantity(_achieved("prefill") / TFLOPS, "TFLOPS"),
    "decode_tflops": lambda: Quantity(_achieved("decode") / TFLOPS, "TFLOPS"),
    "prefill_percent_of_peak": lambda: Quantity(published_number("prefill-percent-of-peak") / 100, "%"),
    "decode_percent_of_peak": lambda: Quantity(published_number("decode-percent-of-peak") / 100, "%"),
    "prefill_fraction_of_peak": lambda: Quantity(fraction_of_peak(_achieved("prefill"), ASCEND_950), "%", 2),
    "prefill_fraction_of_peak_decimal": lambda: Quantity(fraction_of_peak(_achieved("prefill"), ASCEND_950), "", 4),
    "prefill_cycles_per_block": lambda: Quantity(
        cycles_per_block_at(_achieved("prefill"), ASCEND_950, SHIPPED_KERNEL), "cycles"
    ),
    "prefill_idle_cycles_per_block": lambda: Quantity(
        cycles_per_block_at(_achieved("prefill"), ASCEND_950, SHIPPED_KERNEL) - float(_mma_block()), "cycles"
    ),
    "decode_cycles_per_block": lambda: Quantity(
        cycles_per_block_at(_achieved("decode"), ASCEND_950, SHIPPED_KERNEL), "cycles"
    ),
    "decode_extra_cycles_per_block": lambda: Quantity(
        cycles_per_block_at(_achieved("decode"), ASCEND_950, SHIPPED_KERNEL) - float(_mma_block()), "cycles"
    ),
}


def _count(value: int) -> Quantity:
    return Quantity(value)


def _roofline_ratio(heads: int, topk: int, kv_format: KvFormat = KvFormat.BF16) -> Quantity:
    return Quantity(
        head_roofline(ASCEND_950, heads, topk, kv_bytes_per_token=kv_bytes_per_token(kv_format)).ratio, "", 2
    )


def _roofline_values() -> dict[str, Callable[[], Quantity]]:
    """The report's roofline grid (lines 104-111): heads, topk, and each point's compute-to-L2 ratio."""
    values: dict[str, Callable[[], Quantity]] = {}
    for heads in REPORT_HEADS:
        values[f"roofline_heads_{heads}"] = partial(_count, heads)
        for topk in REPORT_TOPK:
            values[f"roofline_ratio_{heads}_{topk}"] = partial(_roofline_ratio, heads, topk)
            values[f"roofline_fp8_ratio_{heads}_{topk}"] = partial(_roofline_ratio, heads, topk, KvFormat.FP8)
    for topk in REPORT_TOPK:
        values[f"roofline_topk_{topk}"] = partial(_count, topk)
    for heads in REPORT_HEADS:
        values[f"roofline_o_kib_{heads}"] = partial(_output_kib, heads)
        values[f"roofline_l2_wait_{heads}"] = partial(_l2_wait, heads)
        for topk in REPORT_TOPK:
            values[f"roofline_margin_{heads}_{topk}"] = partial(_compute_margin, heads, topk)
    return values


def _output_kib(heads: int) -> Quantity:
    """The fp32 output O of ``heads`` heads: heads x d_v x 4 B (report (zh) line 116), in KiB."""
    return Quantity(Fraction(l0c_output_bytes(heads, DSA_V41), KiB), "KiB")


def _l2_wait(heads: int) -> Quantity:
    """The least share of time the CUBE waits on L2 at ``heads`` heads, over the report's topk values."""
    return Quantity(FULL_UTILISATION - max(head_roofline(ASCEND_950, heads, k).ratio for k in REPORT_TOPK), "%")


def _compute_margin(heads: int, topk: int) -> Quantity:
    """How far the compute-to-L2 ratio passes one (the balance point) at ``heads`` and ``topk``."""
    return Quantity(head_roofline(ASCEND_950, heads, topk).ratio - FULL_UTILISATION, "%")


_VALUES.update(_roofline_values())


#: Machine epsilon of bf16 (ml_dtypes' finfo is untyped).
_BF16_EPS: Final = float(ml_dtypes.finfo(ml_dtypes.bfloat16).eps)  # type: ignore[no-untyped-call]


def _costs() -> StageCosts:
    return stage_costs(ASCEND_950, SHIPPED_KERNEL)


def _cost(task: Task) -> Quantity:
    return Quantity(_costs().cycles[task], "cycles")


def _bounds(**changes: float) -> CubeWaitBounds:
    return cube_wait_bounds(_costs().with_cycles(**changes), SHIPPED_KERNEL)


def _softmax_latency_limit() -> float:
    """The most softmax cycles per block for which S[i] still reaches L1 before SV[i] starts."""
    costs = _costs().cycles
    return costs[Task.QK] + costs[Task.SV] - costs[Task.P_OUT] - costs[Task.S_TO_L1]


def _softmax_limit(*, with_burst: bool) -> Quantity:
    """The most softmax cycles per block for which S[i] is in time and the VECTOR keeps up (on average, or always)."""
    bounds = _bounds(softmax=0)
    vector = bounds.unit_cycles[Unit.VECTOR] + (bounds.burst_cycles[Unit.VECTOR] if with_burst else 0)
    return Quantity(min(bounds.cube_cycles - vector, _softmax_latency_limit()), "cycles")


def _published_pair(key: str) -> tuple[int, ...]:
    """The whole numbers of a published figure that lists several (e.g. line 43's B_TOPK of 64 or 96)."""
    value = published_figure(key).value
    items = value if isinstance(value, tuple) else (value,)
    return tuple(int(v) for v in items if isinstance(v, int | float))


def _published_margin() -> tuple[int, ...]:
    """The B_TOPK the report proposes for a margin (line 142), as the ledger checks them."""
    return _published_pair("fixpipe-margin-b-topk")


def _prefill_ub() -> UbPlan:
    return ub_plan(SHIPPED_KERNEL, Mode.PREFILL)


def _identity_rescale(*, exact_fp32: bool) -> Fraction:
    """Cycles of the identity matmul that moves a scaled O back into L0C (MMA_M x MMA_M x d_v)."""
    m = SHIPPED_KERNEL.mma_m
    return identity_rescale_cycles(ASCEND_950, m, m, DSA_V41.d_v, exact_fp32=exact_fp32)


def _heads_range(spec: AscendSpec, kv_cache: KvCache = KvCache.BF16) -> tuple[int, int]:
    """The fewest and the most heads the what-if topk values need to stay compute-bound on ``spec``."""
    heads = [h for h in compute_bound_heads(spec, kv_cache).values() if h is not None]
    return min(heads), max(heads)


def _with_b_topk(b_topk: int) -> KernelConfig:
    return SHIPPED_KERNEL.with_overrides(b_topk=b_topk)


def _fixpipe_1c1v(b_topk: int, *, o_leaves: bool = True) -> Fraction:
    return fixpipe_cycles_per_block(ASCEND_950, _with_b_topk(b_topk), DSA_V41, o_leaves=o_leaves)


def _mma(b_topk: int) -> Fraction:
    return mma_cycles_per_block(ASCEND_950, _with_b_topk(b_topk), DSA_V41)


def _break_even() -> Fraction:
    return fixpipe_break_even_b_topk(ASCEND_950, SHIPPED_KERNEL, DSA_V41)


_VALUES.update(
    {
        # --- one-vector-core: MTE2 queue and FixPipe under 1C1V (report (zh) lines 138-142) ----------------------
        "mte2_outstanding_requests": lambda: Quantity(ASCEND_950.ascend.mte2_outstanding_requests),
        "gather2_tokens_per_request": lambda: Quantity(GATHER2_TOKENS_PER_REQUEST),
        "mte2_tokens_in_flight": lambda: Quantity(tokens_in_flight(ASCEND_950)),
        "b_topk_per_vector_core": lambda: Quantity(SHIPPED_KERNEL.b_topk_per_vector_core),
        "mma_m": lambda: Quantity(SHIPPED_KERNEL.mma_m),
        "fixpipe_1c1v_bytes_per_cycle": lambda: Quantity(ASCEND_950.ascend.fixpipe_bytes_per_cycle_1c1v, "B/cycle"),
        "fixpipe_1c2v_speedup": lambda: Quantity(FIXPIPE_1C2V_SPEEDUP),
        "fixpipe_1c2v_bytes_per_cycle": lambda: Quantity(
            fixpipe_bytes_per_cycle(ASCEND_950, SHIPPED_KERNEL.vector_cores_per_cube), "B/cycle"
        ),
        "mma_cycles_per_b_topk": lambda: Quantity(_mma(1), "cycles"),
        "fixpipe_1c1v_o_cycles": lambda: Quantity(_fixpipe_1c1v(1) - _fixpipe_1c1v(1, o_leaves=False), "cycles"),
        "fixpipe_1c1v_cycles_per_b_topk": lambda: Quantity(_fixpipe_1c1v(1, o_leaves=False), "cycles"),
        "mma_minus_fixpipe_per_b_topk": lambda: Quantity(_mma(1) - _fixpipe_1c1v(1, o_leaves=False), "cycles"),
        "fixpipe_break_even_b_topk": lambda: Quantity(_break_even(), "tokens", 2),
        "fixpipe_break_even_below": lambda: Quantity(math.floor(_break_even())),
        "fixpipe_break_even_above": lambda: Quantity(math.ceil(_break_even())),
        "fixpipe_excess_below": lambda: Quantity(
            _fixpipe_1c1v(math.floor(_break_even())) - _mma(math.floor(_break_even())), "cycles"
        ),
        "mma_excess_above": lambda: Quantity(
            _mma(math.ceil(_break_even())) - _fixpipe_1c1v(math.ceil(_break_even())), "cycles"
        ),
        "fixpipe_margin_b_topk_low": lambda: Quantity(min(_published_margin())),
        "fixpipe_margin_b_topk_high": lambda: Quantity(max(_published_margin())),
        "o_block_kib": lambda: Quantity(
            fixpipe_bytes_per_block(SHIPPED_KERNEL, DSA_V41) / KiB
            - fixpipe_bytes_per_block(SHIPPED_KERNEL, DSA_V41, o_leaves=False) / KiB,
            "KiB",
        ),
        "p_block_kib": lambda: Quantity(fixpipe_bytes_per_block(SHIPPED_KERNEL, DSA_V41, o_leaves=False) / KiB, "KiB"),
        "fixpipe_1c1v_cycles_shipped": lambda: Quantity(_fixpipe_1c1v(SHIPPED_KERNEL.b_topk), "cycles"),
        "fixpipe_1c1v_p_only_cycles_shipped": lambda: Quantity(
            _fixpipe_1c1v(SHIPPED_KERNEL.b_topk, o_leaves=False), "cycles"
        ),
        # --- skip-scale (report (zh) lines 156-162, 244-252) -----------------------------------------------------
        "rescale_threshold": lambda: Quantity(SHIPPED_KERNEL.rescale_threshold),
        "ss_job_slots": lambda: Quantity(SS_JOB_SLOTS),
        "ss_block_slots": lambda: Quantity(SS_BLOCK_SLOTS),
        "ss_flag_bytes": lambda: Quantity(SS_FLAG_BYTES, "B"),
        "vector_cores_per_ai_core": lambda: Quantity(ASCEND_950.ascend.vector_cores_per_ai_core),
        "ss_buffer_bytes": lambda: Quantity(ss_buffer_bytes(SHIPPED_KERNEL), "B"),
        # --- design space (design/index) -------------------------------------------------------------------------
        "ub_kib": lambda: Quantity(ASCEND_950.staging_bytes_per_core / KiB, "KiB"),
        "ub_bytes": lambda: Quantity(ASCEND_950.staging_bytes_per_core, "B"),
        "l1_kib": lambda: Quantity(ASCEND_950.ascend.l1_bytes / KiB, "KiB"),
        "l1_banks": lambda: Quantity(ASCEND_950.ascend.l1_banks),
        "full_use": lambda: Quantity(FULL_UTILISATION, "%"),
        "design_topk": lambda: Quantity(SHIPPED_DESIGN.topk),
        "index_block_size": lambda: Quantity(SHIPPED_KERNEL.index_block_size),
        "mte2_requests_per_block": lambda: Quantity(requests_per_block(SHIPPED_KERNEL)),
        "ub_prefill_bytes": lambda: Quantity(_prefill_ub().total_bytes, "B"),
        "ub_prefill_headroom_bytes": lambda: Quantity(_prefill_ub().headroom_bytes(ASCEND_950), "B"),
        "ub_prefill_headroom_kib": lambda: Quantity(_prefill_ub().headroom_bytes(ASCEND_950) / KiB, "KiB", 1),
        "l2_headroom": lambda: Quantity(
            FULL_UTILISATION - evaluate(SHIPPED_DESIGN, ASCEND_950).check(Limit.L2_ROOFLINE).utilisation, "%"
        ),
        "alt_b_topk": lambda: Quantity(ALTERNATIVE_B_TOPK.b_topk),
        "alt_heads_low": lambda: Quantity(FEWER_HEADS.heads_per_core),
        "alt_heads_high": lambda: Quantity(MORE_HEADS.heads_per_core),
        "alt_index_block_size": lambda: Quantity(ALTERNATIVE_B_TOPK_DIVIDING.index_block_size),
        "map_step_first": lambda: Quantity(min(MAP_STEPS)),
        "map_step_last": lambda: Quantity(max(MAP_STEPS)),
        # --- the pipeline (report (zh) lines 166-208) -----------------------------------------------------------
        "mma_m_per_vector_core": lambda: Quantity(SHIPPED_KERNEL.mma_m_per_vector_core),
        "offset_index_read": lambda: Quantity(vector_stage("index-read").offset),
        "offset_nd2nz": lambda: Quantity(vector_stage("nd2nz-and-copy-to-l1").offset),
        "offset_softmax": lambda: Quantity(vector_stage("softmax").offset),
        "simulated_blocks": lambda: Quantity(SIMULATED_BLOCKS),
        "vector_bytes_per_cycle": lambda: Quantity(VECTOR_BYTES_PER_CYCLE, "B/cycle"),
        "qk_cycles": partial(_cost, Task.QK),
        "sv_cycles": partial(_cost, Task.SV),
        "p_out_cycles": partial(_cost, Task.P_OUT),
        "softmax_cycles": partial(_cost, Task.SOFTMAX),
        "s_to_l1_cycles": partial(_cost, Task.S_TO_L1),
        "nd2nz_cycles": partial(_cost, Task.ND2NZ),
        "process_index_cycles": partial(_cost, Task.PROCESS_INDEX),
        "vector_path_cycles": lambda: Quantity(_costs().vector_path_cycles, "cycles"),
        "pipeline_margin_cycles": lambda: Quantity(_bounds().margin_cycles, "cycles"),
        "vector_cycles_per_block": lambda: Quantity(_bounds().unit_cycles[Unit.VECTOR], "cycles"),
        "softmax_latency_limit_cycles": lambda: Quantity(_softmax_latency_limit(), "cycles"),
        "softmax_burst_limit_cycles": partial(_softmax_limit, with_burst=True),
        "softmax_average_limit_cycles": partial(_softmax_limit, with_burst=False),
        "softmax_first_wait_cycles": lambda: Quantity(first_waiting_cycles(_costs(), Task.SOFTMAX), "cycles"),
        # --- icache (report (zh) line 238) and the pipeline's depth ---------------------------------------------
        "icache_cube_kib": lambda: Quantity(ASCEND_950.ascend.icache_cube_bytes / KiB, "KiB"),
        "icache_vector_kib": lambda: Quantity(ASCEND_950.ascend.icache_vector_bytes / KiB, "KiB"),
        "icache_simd_vf_kib": lambda: Quantity(ASCEND_950.ascend.icache_simd_vf_bytes / KiB, "KiB"),
        "pipeline_depth": lambda: Quantity(pipeline_depth()),
        # --- the online softmax (algorithm/flow) ----------------------------------------------------------------
        "exp_threshold": lambda: Quantity(rescale_factor_bound(SHIPPED_KERNEL.rescale_threshold), "", 1),
        "trace_b_topk": lambda: Quantity(TRACE_B_TOPK),
        "trace_blocks": lambda: Quantity(len(TRACE_LOGITS[0])),
        "bf16_unit_roundoff": lambda: Quantity(_BF16_EPS / 2, "", 6),
        "b_topk_choice_low": lambda: Quantity(min(_published_pair("b-topk-choices"))),
        "b_topk_choice_high": lambda: Quantity(max(_published_pair("b-topk-choices"))),
        "report_mmad_m": lambda: Quantity(published_number("mmad-m-saturating-cube")),
        "running_sumexp_start": lambda: Quantity(ONLINE_SOFTMAX_START.running_sumexp),
        "index_blocks_per_group": lambda: Quantity(SHIPPED_KERNEL.index_block_size // SHIPPED_KERNEL.b_topk),
        "index_group_remainder_high": lambda: Quantity(
            SHIPPED_KERNEL.index_block_size % max(_published_pair("b-topk-choices"))
        ),
        "raw_logit_threshold": lambda: Quantity(
            raw_logit_threshold(SHIPPED_KERNEL.rescale_threshold, DEFAULT_SM_SCALE), "", 2
        ),
        # --- the reference's example (algorithm/model) ----------------------------------------------------------
        "example_s_kv": lambda: Quantity(EXAMPLE_S_KV),
        "example_dims": lambda: Quantity(len(EXAMPLE_QUERY)),
        "example_repeated_index": lambda: Quantity(next(i for i in EXAMPLE_INDICES if EXAMPLE_INDICES.count(i) > 1)),
        "shapes_topk": lambda: Quantity(SHIPPED_KERNEL.index_block_size),
        # --- accumulator (report (zh) lines 116-130) ----------------------------------------------------------
        "cube_fma_per_cycle_exact_fp32": lambda: Quantity(ASCEND_950.ascend.cube_fma_per_cycle_exact_fp32, "FMA/cycle"),
        "exact_fp32_slowdown": lambda: Quantity(
            ASCEND_950.matrix_fma_per_cycle_per_core // ASCEND_950.ascend.cube_fma_per_cycle_exact_fp32
        ),
        "identity_rescale_cycles": lambda: Quantity(_identity_rescale(exact_fp32=True), "cycles"),
        "identity_rescale_hf32_cycles": lambda: Quantity(_identity_rescale(exact_fp32=False), "cycles"),
        "identity_rescale_blocks": lambda: Quantity(_identity_rescale(exact_fp32=True) / _mma_block()),
        "l0c_free": lambda: Quantity(
            1 - Fraction(l0c_used_bytes(SHIPPED_KERNEL), ASCEND_950.accumulator_bytes_per_core), "%"
        ),
        # --- ND and NZ (report (zh) lines 150-152, 222-234) ------------------------------------------------------
        "fractal_rows": lambda: Quantity(SHIPPED_KERNEL.fractal_rows),
        "fractal_cols": lambda: Quantity(SHIPPED_KERNEL.fractal_cols),
        "nz_block_bytes": lambda: Quantity(nz_block_bytes(SHIPPED_KERNEL), "B"),
        "blocks_per_token": lambda: Quantity(blocks_per_token(SHIPPED_KERNEL)),
        "vector_bytes": lambda: Quantity(VECTOR_BYTES, "B"),
        "vector_bf16": lambda: Quantity(VECTOR_BYTES // DSA_V41.element_bytes),
        "ub_bank_groups": lambda: Quantity(UB_BANK_GROUPS),
        "ub_row_bytes": lambda: Quantity(UB_ROW_BYTES, "B"),
        "pieces_per_vector": lambda: Quantity(VECTOR_BYTES // nz_block_bytes(SHIPPED_KERNEL)),
        "ub_row_slots": lambda: Quantity(UB_ROW_BYTES // nz_block_bytes(SHIPPED_KERNEL)),
        "nz_stride_unpadded_bytes": lambda: Quantity(ub_nz_stride_bytes(SHIPPED_KERNEL, pad_rows=0), "B"),
        "nz_padded_column_tokens": lambda: Quantity(
            SHIPPED_KERNEL.b_topk_per_vector_core + min_conflict_free_padding(SHIPPED_KERNEL)
        ),
        "nz_stride_padded_bytes": lambda: Quantity(ub_nz_stride_bytes(SHIPPED_KERNEL), "B"),
        "nz_stride_padded_mod_row": lambda: Quantity(ub_nz_stride_bytes(SHIPPED_KERNEL) % UB_ROW_BYTES, "B"),
        "nd2nz_example_tokens": lambda: Quantity(ND2NZ_EXAMPLE_TOKENS),
        "nd2nz_example_dims": lambda: Quantity(ND2NZ_EXAMPLE_DIMS),
        # --- L1 banks (report (zh) line 242) ------------------------------------------------------------------
        "l1_bank_kib": lambda: Quantity(ASCEND_950.ascend.l1_bytes // ASCEND_950.ascend.l1_banks / KiB, "KiB"),
        "l1_q_buffers": lambda: Quantity(SHIPPED_KERNEL.l1_q_buffers),
        "l1_kv_buffers": lambda: Quantity(SHIPPED_KERNEL.l1_kv_buffers),
        "l1_used_per_bank_kib": lambda: Quantity(max(layout_bytes_per_bank(ASCEND_950)) / KiB, "KiB"),
        # --- the what-if notebook (design/what-if) --------------------------------------------------------------
        "what_if_ai_cores": lambda: Quantity(FEWER_AI_CORES),
        "what_if_half_l2_heads_min": lambda: Quantity(_heads_range(with_half_l2())[0]),
        "what_if_half_l2_heads_max": lambda: Quantity(_heads_range(with_half_l2())[1]),
        "what_if_fewer_cores_heads": lambda: Quantity(_heads_range(with_fewer_cores())[0]),
        "what_if_fewer_cores_mma_m": lambda: Quantity(
            SHIPPED_KERNEL.with_overrides(heads_per_core=_heads_range(with_fewer_cores())[0]).mma_m
        ),
        "mma_m_granule_rows": lambda: Quantity(MMA_M_GRANULE_ROWS),
        "what_if_fp8_heads": lambda: Quantity(_heads_range(ASCEND_950, KvCache.FP8)[0]),
        "one_v_mte2_requests_per_block": lambda: Quantity(
            requests_per_block(SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=ONE_VECTOR_CORE.vector_cores))
        ),
        # --- counts and step numbers the chapters write in passing (instantiations, report steps, trace blocks) ---
        "ub_decode_fp4_sink_bytes": lambda: Quantity(
            ub_plan(SHIPPED_KERNEL, Mode.DECODE, fp4_extra=True, sink=True).total_bytes, "B"
        ),
        "shipped_instantiations": lambda: Quantity(len(SHIPPED_UB_TOTALS)),
        "decode_instantiations": lambda: Quantity(sum(t.mode is Mode.DECODE for t in SHIPPED_UB_TOTALS)),
        "vector_stages": lambda: Quantity(len(VECTOR_STAGES)),
        "step_index_read": lambda: Quantity(vector_stage("index-read").report_step),
        "step_softmax": lambda: Quantity(vector_stage("softmax").report_step),
        "step_skip_scale_flag": lambda: Quantity(vector_stage("skip-scale-flag").report_step),
        "step_kv_gather": lambda: Quantity(vector_stage("kv-gather").report_step),
        "report_roofline_rows": lambda: Quantity(len(REPORT_HEADS) * len(REPORT_TOPK)),
        "nz_pad_tokens": lambda: Quantity(
            ub_nz_stride_bytes(SHIPPED_KERNEL) // nz_block_bytes(SHIPPED_KERNEL) - SHIPPED_KERNEL.b_topk_per_vector_core
        ),
        "trace_sm_scale": lambda: Quantity(trace_case().sm_scale),
        "trace_block_at_threshold": lambda: Quantity(_trace_blocks().at_threshold),
        "trace_block_first_rescale": lambda: Quantity(_trace_blocks().first_rescale),
        "trace_block_other_head": lambda: Quantity(_trace_blocks().other_head),
        # --- two chips, one ruler (FlashMLA's Hopper kernels; ascend_dsa.facts.hopper) ----------------------------
        "h800_sms": lambda: Quantity(H800.cores),
        "h800_matrix_flop_per_cycle": lambda: Quantity(H800.matrix_flop_per_cycle_per_core, "FLOP/cycle"),
        "ascend_matrix_flop_per_cycle": lambda: Quantity(ASCEND_950.matrix_flop_per_cycle_per_core),
        "hopper_heads_per_cta": lambda: Quantity(HOPPER_HEADS_PER_CTA),
        "hopper_mma_cycles_per_token": lambda: Quantity(mma_cycles_per_token(H800), "cycles"),
        "hopper_dequant_cycles_per_token": lambda: Quantity(dequant_cycles_per_token(), "cycles"),
        "hopper_crossover_dequant_cycles": lambda: Quantity(dequant_cycles_per_token(sharing_ctas=2), "cycles"),
        "crossover_gain_model": lambda: Quantity(crossover_gain(H800), "", 2),
        "crossover_tflops_ratio": lambda: Quantity(SPARSE_DECODE_ACHIEVED_FLOPS / NO_CROSSOVER_ACHIEVED_FLOPS, "", 2),
        # what the crossover's 1.64x is made of (measured TFLOPS, the throttled clock), and how far each kernel
        # stays below the model's bound
        "sparse_decode_tflops": lambda: Quantity(SPARSE_DECODE_ACHIEVED_FLOPS / TFLOPS, "TFLOPS"),
        "no_crossover_tflops": lambda: Quantity(NO_CROSSOVER_ACHIEVED_FLOPS / TFLOPS, "TFLOPS"),
        "h800_throttled_clock_ghz": lambda: Quantity(H800_THROTTLED_CLOCK_HZ / GHz, "GHz", 1),
        "no_crossover_bound_tflops": lambda: Quantity(_fp8_bound(sharing_ctas=1) / TFLOPS, "TFLOPS"),
        "crossover_bound_tflops": lambda: Quantity(_fp8_bound(sharing_ctas=2) / TFLOPS, "TFLOPS"),
        "no_crossover_share_of_bound": lambda: Quantity(NO_CROSSOVER_ACHIEVED_FLOPS / _fp8_bound(sharing_ctas=1), "%"),
        "crossover_share_of_bound": lambda: Quantity(SPARSE_DECODE_ACHIEVED_FLOPS / _fp8_bound(sharing_ctas=2), "%"),
        "dense_decode_tflops": lambda: Quantity(DENSE_DECODE_ACHIEVED_FLOPS / TFLOPS, "TFLOPS"),
        "h800_throttled_peak_tflops": lambda: Quantity(peak_flops(H800, H800_THROTTLED_CLOCK_HZ) / TFLOPS, "TFLOPS"),
        "dense_throttled_share": lambda: Quantity(
            DENSE_DECODE_ACHIEVED_FLOPS / peak_flops(H800, H800_THROTTLED_CLOCK_HZ), "%", 1
        ),
        "dense_blog_utilisation": lambda: Quantity(hopper_number("dense-tensor-core-utilisation") / 100, "%"),
        "dense_achieved_tb_per_s": lambda: Quantity(DENSE_DECODE_ACHIEVED_BYTES_PER_S / TB, "TB/s"),
        "h800_hbm_tb_per_s": lambda: Quantity(H800.bandwidth_bytes_per_s / TB, "TB/s", 2),
        "dense_achieved_share_of_hbm": lambda: Quantity(
            DENSE_DECODE_ACHIEVED_BYTES_PER_S / H800.bandwidth_bytes_per_s, "%"
        ),
        "hopper_claims": lambda: Quantity(len(HOPPER_CLAIMS)),
        "side_task_helpers": lambda: Quantity(SHIPPED_KERNEL.vector_cores_per_cube),
    }
)


@dataclass(frozen=True)
class _TraceBlocks:
    """Blocks of the step-by-step example worth pointing at, by index as its table numbers them."""

    at_threshold: int  # a head's max rises by exactly the threshold: no rescale
    first_rescale: int  # the first block that rescales
    other_head: int  # a later rescale triggered by the other head alone


def _trace_blocks() -> _TraceBlocks:
    """Where the example of [`TRACE_LOGITS`][] rises to the threshold and where each head triggers a rescale."""
    logits = np.array(TRACE_LOGITS, dtype=np.float32)  # [heads, blocks, b_topk]
    running = np.maximum.accumulate(logits.max(axis=2), axis=1)  # [heads, blocks]
    threshold = SHIPPED_KERNEL.rescale_threshold
    used = running[:, 0]
    at_threshold, rescales = None, []
    for block in range(1, running.shape[1]):
        rise = running[:, block] - used
        if at_threshold is None and (rise == threshold).any():
            at_threshold = block
        triggered, used = skip_scale_decision(running[:, block], used, threshold)
        if triggered.any():
            rescales.append((block, int(np.argmax(rise))))
    if at_threshold is None or len(rescales) < 2 or rescales[0][1] == rescales[-1][1]:  # noqa: PLR2004 - two events
        raise ValueError(f"the trace example must rise to the threshold and rescale for each head, got {rescales}")
    return _TraceBlocks(at_threshold, rescales[0][0], rescales[-1][0])


def _primer_values() -> dict[str, Callable[[], Quantity]]:
    """The primers' numbers: the double-buffering rings, the roofline's intensities and ridge, the ND/NZ tile."""
    values: dict[str, Callable[[], Quantity]] = {
        # --- double buffering (algorithm/double-buffering) ---------------------------------------------------------
        "gather_cycles": partial(_cost, Task.GATHER),
        "ring_one_buffer_cycles_per_block": lambda: Quantity(primer_ring(1).cycles_per_block, "cycles"),
        "ring_one_buffer_idle_cycles": lambda: Quantity(primer_ring(1).consumer_waits[-1], "cycles"),
        "ring_two_buffers_cycles_per_block": lambda: Quantity(primer_ring(2).cycles_per_block, "cycles"),
        "ring_two_buffers_loader_wait_cycles": lambda: Quantity(primer_ring(2).loader_waits[-1], "cycles"),
        "primer_ring_blocks": lambda: Quantity(PRIMER_RING_BLOCKS),
        "ub_kv_buffers": lambda: Quantity(SHIPPED_KERNEL.ub_kv_buffers),
        "index_buffers": lambda: Quantity(SHIPPED_KERNEL.index_buffers),
        "job_parity_buffers": lambda: Quantity(JOB_PARITY_BUFFERS),
        "offset_kv_gather": lambda: Quantity(vector_stage("kv-gather").offset),
        "step_nd2nz": lambda: Quantity(vector_stage("nd2nz-and-copy-to-l1").report_step),
        "offset_index_preprocess": lambda: Quantity(vector_stage("index-preprocess").offset),
        # --- the roofline (algorithm/roofline) ----------------------------------------------------------------
        "ridge_flop_per_byte": lambda: Quantity(ridge_flop_per_byte(ASCEND_950), "FLOP/B", 2),
        # --- ND and NZ cell by cell (algorithm/nd-nz) -----------------------------------------------------------
        "fractal_bytes": lambda: Quantity(SHIPPED_KERNEL.fractal_rows * nz_block_bytes(SHIPPED_KERNEL), "B"),
        "primer_tile_dims": lambda: Quantity(PRIMER_TILE_FRACTALS_ACROSS * SHIPPED_KERNEL.fractal_cols),
        "primer_tile_fractals": lambda: Quantity(PRIMER_TILE_FRACTALS_ACROSS),
        "primer_tile_row_bytes": lambda: Quantity(
            nd_offset_bytes(1, 0, dims=PRIMER_TILE_FRACTALS_ACROSS * SHIPPED_KERNEL.fractal_cols), "B"
        ),
    }
    for heads in REPORT_HEADS:
        for topk in REPORT_TOPK:
            values[f"roofline_intensity_{heads}_{topk}"] = partial(_intensity, heads, topk)
    return values


def _intensity(heads: int, topk: int) -> Quantity:
    """FLOP per byte through L2 at ``heads`` and ``topk`` (bf16 KV), to one decimal."""
    return Quantity(arithmetic_intensity(heads, topk), "FLOP/B", 1)


_VALUES.update(_primer_values())


#: Every value prose may show, by name.
PROSE_VALUES: Final[Mapping[str, Callable[[], Quantity]]] = MappingProxyType(_VALUES)
