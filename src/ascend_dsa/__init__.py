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
from ascend_dsa.code_figures import SHIPPED_UB_TOTALS, check_ub_totals
from ascend_dsa.design_point import (
    LIMITS,
    SHIPPED_DESIGN,
    DesignEvaluation,
    DesignPoint,
    KvCache,
    Limit,
    LimitCheck,
    evaluate,
    fixpipe_bytes_per_cycle,
    fixpipe_cycles,
    smallest_compute_bound_heads,
)
from ascend_dsa.design_sweep import DesignGrid, SweepResult, sweep
from ascend_dsa.errors import AscendDsaError, FigureMismatch, ForbiddenDesign
from ascend_dsa.hardware import ASCEND_950, AscendSpec, l2_bytes_per_cycle_per_core, peak_flops
from ascend_dsa.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.kernel_rules import KernelRule, check_kernel_rules
from ascend_dsa.kv_formats import KvFormat, Mode, kv_bytes_per_token
from ascend_dsa.memory_budget import (
    L1Plan,
    UbField,
    UbPlan,
    l0c_output_bytes,
    l0c_scores_bytes,
    l0c_used_bytes,
    l1_plan,
    shipped_ub_plans,
    ub_plan,
)
from ascend_dsa.model import DSA_V41, ModelShape
from ascend_dsa.mte2 import GATHER2_TOKENS_PER_REQUEST, requests_per_block, tokens_in_flight
from ascend_dsa.pipeline import (
    VECTOR_SCHEDULE,
    StageCosts,
    Task,
    Timeline,
    Unit,
    implied_buffer_depths,
    simulate,
    stage_costs,
)
from ascend_dsa.provenance import Citation, Source
from ascend_dsa.render.design_space import (
    render_design_alternatives,
    render_design_limits,
    render_feasibility_map,
    render_mma_fixpipe_figure,
    render_roofline_figure,
    render_rule_list,
    render_what_if_table,
)
from ascend_dsa.render.memory_plan import (
    render_l1_bank_figure,
    render_l1_bank_table,
    render_ub_plan_bars,
    render_ub_plan_table,
)
from ascend_dsa.render.notebook import as_markdown, as_svg
from ascend_dsa.render.pipeline import (
    render_pipeline_costs,
    render_pipeline_gantt,
    render_pipeline_schedule,
    render_pipeline_sensitivity,
    render_pipeline_summary,
)
from ascend_dsa.render.roofline import render_head_roofline_table
from ascend_dsa.render.sources import render_spec_sources
from ascend_dsa.report_figures import (
    HEAD_ROOFLINE_CITATION,
    check_fixpipe_break_even,
    check_head_roofline,
    check_p_ready_to_used,
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
    "LIMITS",
    "REPORT_HEADS",
    "REPORT_TOPK",
    "SHIPPED_DESIGN",
    "SHIPPED_KERNEL",
    "SHIPPED_UB_TOTALS",
    "VECTOR_SCHEDULE",
    "AscendDsaError",
    "AscendSpec",
    "Citation",
    "DesignEvaluation",
    "DesignGrid",
    "DesignPoint",
    "FigureMismatch",
    "ForbiddenDesign",
    "KernelConfig",
    "KernelRule",
    "KvCache",
    "KvFormat",
    "L1Plan",
    "Limit",
    "LimitCheck",
    "Mode",
    "ModelShape",
    "RooflinePoint",
    "Source",
    "StageCosts",
    "SweepResult",
    "Task",
    "Timeline",
    "UbField",
    "UbPlan",
    "Unit",
    "Verdict",
    "as_markdown",
    "as_svg",
    "check_fixpipe_break_even",
    "check_head_roofline",
    "check_kernel_rules",
    "check_p_ready_to_used",
    "check_ub_totals",
    "cube_cycles",
    "cycles_per_block_at",
    "evaluate",
    "fixpipe_break_even_b_topk",
    "fixpipe_bytes_per_block",
    "fixpipe_bytes_per_cycle",
    "fixpipe_cycles",
    "fixpipe_cycles_per_block",
    "fraction_of_peak",
    "head_roofline",
    "head_roofline_differences",
    "head_roofline_sweep",
    "identity_rescale_cycles",
    "implied_buffer_depths",
    "kv_bytes_per_token",
    "l0c_output_bytes",
    "l0c_scores_bytes",
    "l0c_used_bytes",
    "l1_plan",
    "l2_bytes",
    "l2_bytes_per_cycle_per_core",
    "l2_cycles",
    "mma_cycles_per_block",
    "peak_flops",
    "published_head_roofline",
    "render_design_alternatives",
    "render_design_limits",
    "render_feasibility_map",
    "render_head_roofline_table",
    "render_l1_bank_figure",
    "render_l1_bank_table",
    "render_mma_fixpipe_figure",
    "render_pipeline_costs",
    "render_pipeline_gantt",
    "render_pipeline_schedule",
    "render_pipeline_sensitivity",
    "render_pipeline_summary",
    "render_roofline_figure",
    "render_rule_list",
    "render_spec_sources",
    "render_ub_plan_bars",
    "render_ub_plan_table",
    "render_what_if_table",
    "requests_per_block",
    "shipped_ub_plans",
    "simulate",
    "smallest_compute_bound_heads",
    "stage_costs",
    "sweep",
    "tokens_in_flight",
    "ub_plan",
]
