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
from ascend_dsa.hardware import ASCEND_950, AscendSpec, l2_bytes_per_cycle_per_core, peak_flops
from ascend_dsa.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.memory_budget import l0c_output_bytes, l0c_scores_bytes, l0c_used_bytes
from ascend_dsa.model import DSA_V41, ModelShape
from ascend_dsa.mte2 import GATHER2_TOKENS_PER_REQUEST, requests_per_block, tokens_in_flight
from ascend_dsa.provenance import Citation, Source
from ascend_dsa.reference import (
    BlockedStats,
    blocked_sparse_attn_fwd,
    output_tolerance,
    skip_scale_decision,
    sparse_attn_fwd,
    sparse_attn_fwd_float64,
)
from ascend_dsa.render.roofline import render_head_roofline_table
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
from ascend_dsa.throughput import cycles_per_block_at, fraction_of_peak

__all__ = [
    "ASCEND_950",
    "DSA_V41",
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
    "KernelConfig",
    "ModelShape",
    "RooflinePoint",
    "Source",
    "Verdict",
    "blocked_sparse_attn_fwd",
    "check_head_roofline",
    "cube_cycles",
    "cycles_per_block_at",
    "fixpipe_break_even_b_topk",
    "fixpipe_bytes_per_block",
    "fixpipe_cycles_per_block",
    "fraction_of_peak",
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
    "mma_cycles_per_block",
    "output_tolerance",
    "peak_flops",
    "published_head_roofline",
    "render_head_roofline_table",
    "render_spec_sources",
    "requests_per_block",
    "skip_scale_decision",
    "sparse_attn_fwd",
    "sparse_attn_fwd_float64",
    "tokens_in_flight",
]
