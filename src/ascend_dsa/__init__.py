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
from ascend_dsa.claims import (
    CHAPTERS,
    CLAIMS,
    SHIPPED_DESIGN,
    Claim,
    ClaimResult,
    Design,
    Rule,
    RuleKind,
    check_claims,
    evaluate_claims,
)
from ascend_dsa.errors import AscendDsaError, FigureMismatch
from ascend_dsa.hardware import ASCEND_950, AscendSpec, l2_bytes_per_cycle_per_core, peak_flops
from ascend_dsa.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.l1_banks import l1_bank_of, l1_bank_ranges
from ascend_dsa.memory_budget import l0c_output_bytes, l0c_scores_bytes, l0c_used_bytes
from ascend_dsa.model import DSA_V41, ModelShape
from ascend_dsa.mte2 import GATHER2_TOKENS_PER_REQUEST, requests_per_block, tokens_in_flight
from ascend_dsa.nd2nz_stride import bank_slots, min_conflict_free_padding, ub_nz_stride_bytes, worst_slot_conflict
from ascend_dsa.peak_clock import clock_range_for_percent
from ascend_dsa.provenance import Citation, Source
from ascend_dsa.render.claims import (
    render_b_topk_divisibility,
    render_chapter_claims,
    render_claim,
    render_claim_ledger,
    render_cube_order,
    render_fixpipe_table,
    render_fp8_roofline,
    render_gather2_requests,
    render_identity_rescale,
    render_l0c_budget,
    render_mte2_in_flight,
    render_nd2nz_banks,
    render_peak_clock_table,
    render_peak_table,
    render_rescale_threshold,
    render_schedule_order_share,
    render_skip_scale_savings,
    render_token_blocks,
    render_vector_schedule,
)
from ascend_dsa.render.roofline import render_head_roofline_table
from ascend_dsa.render.sources import render_spec_sources
from ascend_dsa.report_figures import (
    HEAD_ROOFLINE_CITATION,
    PUBLISHED_FIGURES,
    PublishedFigure,
    check_head_roofline,
    head_roofline_differences,
    published_figure,
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
from ascend_dsa.schedule import VECTOR_STAGES, VectorStage, softmax_slack_cycles
from ascend_dsa.skip_scale import raw_logit_threshold, rescale_factor_bound, rescale_triggered
from ascend_dsa.throughput import cycles_per_block_at, fraction_of_peak

__all__ = [
    "ASCEND_950",
    "CHAPTERS",
    "CLAIMS",
    "DSA_V41",
    "GATHER2_TOKENS_PER_REQUEST",
    "HEAD_ROOFLINE_CITATION",
    "PUBLISHED_FIGURES",
    "REPORT_HEADS",
    "REPORT_TOPK",
    "SHIPPED_DESIGN",
    "SHIPPED_KERNEL",
    "VECTOR_STAGES",
    "AscendDsaError",
    "AscendSpec",
    "Citation",
    "Claim",
    "ClaimResult",
    "Design",
    "FigureMismatch",
    "KernelConfig",
    "ModelShape",
    "PublishedFigure",
    "RooflinePoint",
    "Rule",
    "RuleKind",
    "Source",
    "VectorStage",
    "Verdict",
    "bank_slots",
    "check_claims",
    "check_head_roofline",
    "clock_range_for_percent",
    "cube_cycles",
    "cycles_per_block_at",
    "evaluate_claims",
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
    "l1_bank_of",
    "l1_bank_ranges",
    "l2_bytes",
    "l2_bytes_per_cycle_per_core",
    "l2_cycles",
    "min_conflict_free_padding",
    "mma_cycles_per_block",
    "peak_flops",
    "published_figure",
    "published_head_roofline",
    "raw_logit_threshold",
    "render_b_topk_divisibility",
    "render_chapter_claims",
    "render_claim",
    "render_claim_ledger",
    "render_cube_order",
    "render_fixpipe_table",
    "render_fp8_roofline",
    "render_gather2_requests",
    "render_head_roofline_table",
    "render_identity_rescale",
    "render_l0c_budget",
    "render_mte2_in_flight",
    "render_nd2nz_banks",
    "render_peak_clock_table",
    "render_peak_table",
    "render_rescale_threshold",
    "render_schedule_order_share",
    "render_skip_scale_savings",
    "render_spec_sources",
    "render_token_blocks",
    "render_vector_schedule",
    "requests_per_block",
    "rescale_factor_bound",
    "rescale_triggered",
    "softmax_slack_cycles",
    "tokens_in_flight",
    "ub_nz_stride_bytes",
    "worst_slot_conflict",
]
