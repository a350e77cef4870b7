"""Executable companion to DeepSeek's report on the Ascend 950 sparse-attention forward kernel.

Pages and users import from here; the modules behind it each own one idea.
"""

from __future__ import annotations

from ascend_dsa.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_bytes_per_block,
    fixpipe_cycles_per_block,
    identity_rescale_cycles,
    mma_cycles_per_block,
)
from ascend_dsa.errors import AscendDsaError, FigureMismatch
from ascend_dsa.forward_cases import ForwardCase, ForwardComparison, compare_forwards, forward_cases
from ascend_dsa.gather2 import Gather2Copy, Gather2Plan, check_gather2_fills_queue, gather2_copies, gather2_plan
from ascend_dsa.hardware import ASCEND_950, AscendSpec, l2_bytes_per_cycle_per_core, peak_flops
from ascend_dsa.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.kv_formats import (
    FP4_V41,
    FP8_V41,
    KvTokenFormat,
    check_token_bytes,
    dequantize_tokens,
    quantize_tokens,
    roundtrip_error_bound,
    token_byte_ranges,
)
from ascend_dsa.memory_budget import l0c_output_bytes, l0c_scores_bytes, l0c_used_bytes
from ascend_dsa.model import DSA_V41, ModelShape
from ascend_dsa.mte2 import GATHER2_TOKENS_PER_REQUEST, requests_per_block, tokens_in_flight
from ascend_dsa.nz_layout import StoreSlots, check_nz_padding, nd2nz_store_slots, nd_to_nz, nz_offset_bytes, nz_to_nd
from ascend_dsa.provenance import Citation, Source
from ascend_dsa.reference import (
    BlockedStats,
    blocked_sparse_attn_fwd,
    output_tolerance,
    skip_scale_decision,
    sparse_attn_fwd,
    sparse_attn_fwd_float64,
    sparse_attn_weights,
)
from ascend_dsa.render.layouts import (
    render_gather2_example,
    render_kv_block_layout,
    render_kv_roundtrip,
    render_kv_token_formats,
    render_nd2nz_bank_slots,
    render_nd2nz_example,
)
from ascend_dsa.render.reference import (
    render_forward_comparison,
    render_forward_shapes,
    render_index_example,
    render_online_softmax_trace,
)
from ascend_dsa.render.roofline import render_head_roofline_table
from ascend_dsa.render.skip_scale import render_fixpipe_with_skip_scale, render_rescale_plot, render_rescale_table
from ascend_dsa.render.sources import render_spec_sources
from ascend_dsa.report_figures import (
    HEAD_ROOFLINE_CITATION,
    check_head_roofline,
    head_roofline_differences,
    published_head_roofline,
)
from ascend_dsa.roofline import (
    REPORT_HEADS,
    REPORT_TOPK,
    RooflinePoint,
    Verdict,
    cube_cycles,
    head_roofline,
    head_roofline_sweep,
    l2_bytes,
    l2_cycles,
)
from ascend_dsa.skip_scale import RescaleMeasurement, measure_rescales, rescale_counts, rescale_sweep, synthetic_logits
from ascend_dsa.throughput import cycles_per_block_at, fraction_of_peak

__all__ = [
    "ASCEND_950",
    "DSA_V41",
    "FP4_V41",
    "FP8_V41",
    "GATHER2_TOKENS_PER_REQUEST",
    "HEAD_ROOFLINE_CITATION",
    "REPORT_HEADS",
    "REPORT_TOPK",
    "SHIPPED_KERNEL",
    "AscendDsaError",
    "AscendSpec",
    "BlockedStats",
    "Citation",
    "FigureMismatch",
    "ForwardCase",
    "ForwardComparison",
    "Gather2Copy",
    "Gather2Plan",
    "KernelConfig",
    "KvTokenFormat",
    "ModelShape",
    "RescaleMeasurement",
    "RooflinePoint",
    "Source",
    "StoreSlots",
    "Verdict",
    "blocked_sparse_attn_fwd",
    "check_gather2_fills_queue",
    "check_head_roofline",
    "check_nz_padding",
    "check_token_bytes",
    "compare_forwards",
    "cube_cycles",
    "cycles_per_block_at",
    "dequantize_tokens",
    "fixpipe_break_even_b_topk",
    "fixpipe_bytes_per_block",
    "fixpipe_cycles_per_block",
    "forward_cases",
    "fraction_of_peak",
    "gather2_copies",
    "gather2_plan",
    "head_roofline",
    "head_roofline_differences",
    "head_roofline_sweep",
    "identity_rescale_cycles",
    "l0c_output_bytes",
    "l0c_scores_bytes",
    "l0c_used_bytes",
    "l2_bytes",
    "l2_bytes_per_cycle_per_core",
    "l2_cycles",
    "measure_rescales",
    "mma_cycles_per_block",
    "nd2nz_store_slots",
    "nd_to_nz",
    "nz_offset_bytes",
    "nz_to_nd",
    "output_tolerance",
    "peak_flops",
    "published_head_roofline",
    "quantize_tokens",
    "render_fixpipe_with_skip_scale",
    "render_forward_comparison",
    "render_forward_shapes",
    "render_gather2_example",
    "render_head_roofline_table",
    "render_index_example",
    "render_kv_block_layout",
    "render_kv_roundtrip",
    "render_kv_token_formats",
    "render_nd2nz_bank_slots",
    "render_nd2nz_example",
    "render_online_softmax_trace",
    "render_rescale_plot",
    "render_rescale_table",
    "render_spec_sources",
    "requests_per_block",
    "rescale_counts",
    "rescale_sweep",
    "roundtrip_error_bound",
    "skip_scale_decision",
    "sparse_attn_fwd",
    "sparse_attn_fwd_float64",
    "sparse_attn_weights",
    "synthetic_logits",
    "token_byte_ranges",
    "tokens_in_flight",
]
