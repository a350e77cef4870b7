"""Executable companion to DeepSeek's report on the Ascend 950 sparse-attention forward kernel.

Pages and users import from here; the modules behind it each own one idea. Names resolve on first use (a
module-level ``__getattr__``), so ``import ascend_dsa`` loads none of them, and neither NumPy nor matplotlib: the
closed-form models run on the standard library alone, and a renderer's plotting libraries load when it runs.

The public names are written twice, on purpose: the ``TYPE_CHECKING`` imports below are the one table of which
module owns which name (type checkers and editors read them; ``__getattr__`` reads the same statements from this
file's source, once, with `ascend_dsa.imports.facade_homes`, to load a module on first use), and ``__all__`` is the
sorted public contract that mypy's strict re-export rule needs as a literal. tests/test_api.py checks the two agree.
"""

from __future__ import annotations

# isort: off
import os
import sys

# The command line (the `ascend-dsa` script, `python -m ascend_dsa`) turns Ctrl-C into one line and status 130 from
# here on, before anything else loads; ascend_dsa/interrupt.py decides exactly, and leaves any other process alone.
# (`__import__`, not importlib.import_module: loading importlib would be time during which Ctrl-C is not handled.)
if os.path.basename(sys.argv[0]) == "ascend-dsa" or "ascend_dsa" in sys.orig_argv:  # noqa: PTH119 - pathlib is not loaded yet
    __import__("ascend_dsa.interrupt")

import functools
import importlib
from typing import TYPE_CHECKING, Any

# isort: on

if TYPE_CHECKING:
    from ascend_dsa.cli.reference import render_cli_reference
    from ascend_dsa.errors import AscendDsaError, FigureMismatch, ForbiddenDesign, OutOfRange, OutsideModel
    from ascend_dsa.facts.code_figures import SHIPPED_UB_TOTALS
    from ascend_dsa.facts.hardware import (
        ASCEND_950,
        AscendUnits,
        ChipSpec,
        peak_flops,
    )
    from ascend_dsa.facts.hopper import H800, MLA_V32
    from ascend_dsa.facts.hopper_figures import HOPPER_FIGURES
    from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST, SHIPPED_KERNEL, KernelConfig
    from ascend_dsa.facts.kernel_rules import KernelRule, check_kernel_rules
    from ascend_dsa.facts.kv_formats import (
        FP4_V41,
        FP8_V41,
        MODEL1_FP8,
        KvFormat,
        KvTokenFormat,
        Mode,
        SplitTokenLayout,
        check_token_bytes,
        kv_bytes_per_token,
    )
    from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
    from ascend_dsa.facts.provenance import Citation, Source
    from ascend_dsa.facts.report_figures import (
        HEAD_ROOFLINE_CITATION,
        PUBLISHED_FIGURES,
        PublishedFigure,
        published_figure,
        published_head_roofline,
    )
    from ascend_dsa.facts.report_lines import REPORT_LINES, ReportLine, StatedNumber
    from ascend_dsa.models.block_cycles import (
        fixpipe_break_even_b_topk,
        fixpipe_bytes_per_block,
        fixpipe_cycles_per_block,
        identity_rescale_cycles,
        mma_cycles_per_block,
    )
    from ascend_dsa.models.blocked_forward import (
        BlockedStats,
        blocked_sparse_attn_fwd,
        skip_scale_decision,
        vector_core_heads,
    )
    from ascend_dsa.models.design_point import (
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
    from ascend_dsa.models.design_sweep import DesignGrid, SweepResult, sweep
    from ascend_dsa.models.gather2 import (
        Gather2Copy,
        Gather2Plan,
        check_gather2_fills_queue,
        gather2_copies,
        gather2_plan,
    )
    from ascend_dsa.models.kv_quant import dequantize_tokens, quantize_tokens, roundtrip_error_bound
    from ascend_dsa.models.l1_banks import l1_bank_of, l1_bank_ranges
    from ascend_dsa.models.memory_plans import (
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
    from ascend_dsa.models.mte2 import requests_per_block, token_byte_ranges, tokens_in_flight
    from ascend_dsa.models.nd2nz_stride import (
        bank_slots,
        min_conflict_free_padding,
        ub_nz_stride_bytes,
        worst_slot_conflict,
    )
    from ascend_dsa.models.nz_layout import (
        StoreSlots,
        check_nz_padding,
        nd2nz_store_slots,
        nd_to_nz,
        nz_offset_bytes,
        nz_to_nd,
    )
    from ascend_dsa.models.peak_clock import clock_range_for_percent
    from ascend_dsa.models.pipeline import (
        VECTOR_SCHEDULE,
        StageCosts,
        Task,
        Timeline,
        Unit,
        implied_buffer_depths,
        simulate,
        stage_costs,
    )
    from ascend_dsa.models.reference import (
        output_tolerance,
        sparse_attn_fwd,
        sparse_attn_fwd_float64,
        sparse_attn_weights,
    )
    from ascend_dsa.models.rescale_bound import raw_logit_threshold, rescale_factor_bound, rescale_triggered
    from ascend_dsa.models.roofline import (
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
    from ascend_dsa.models.schedule import VECTOR_STAGES, VectorStage, softmax_slack_cycles
    from ascend_dsa.models.skip_scale import (
        RescaleMeasurement,
        measure_rescales,
        rescale_counts,
        rescale_sweep,
        synthetic_logits,
    )
    from ascend_dsa.models.throughput import cycles_per_block_at, fraction_of_peak
    from ascend_dsa.render.accumulator import render_accumulator_ub_share, render_identity_rescale, render_l0c_budget
    from ascend_dsa.render.ai_core import render_ai_core_figure, render_ai_core_sketch
    from ascend_dsa.render.assumptions import render_assumptions
    from ascend_dsa.render.citation import render_citation, render_citation_cff
    from ascend_dsa.render.claims import (
        render_chapter_claims,
        render_claim,
        render_claim_ledger,
        render_hopper_claims,
        render_report_lines,
    )
    from ascend_dsa.render.design_figures import render_feasibility_map, render_mma_fixpipe_figure
    from ascend_dsa.render.design_space import (
        render_design_alternatives,
        render_design_limits,
        render_rule_list,
        render_what_if_table,
    )
    from ascend_dsa.render.double_buffering import render_buffer_counts, render_double_buffering_figure
    from ascend_dsa.render.exercises import render_exercise_questions, render_exercises
    from ascend_dsa.render.flow import render_b_topk_divisibility, render_rescale_threshold
    from ascend_dsa.render.fractal import render_fractal_cells
    from ascend_dsa.render.glossary import render_glossary, render_glossary_map
    from ascend_dsa.render.home import render_home_figure, render_reading_paths
    from ascend_dsa.render.intensity import render_intensity_figure, render_intensity_table
    from ascend_dsa.render.layouts import (
        render_gather2_example,
        render_kv_block_layout,
        render_kv_roundtrip,
        render_kv_token_formats,
        render_nd2nz_bank_slots,
        render_nd2nz_example,
    )
    from ascend_dsa.render.live import render_live_form
    from ascend_dsa.render.memory_plan import (
        render_l1_bank_figure,
        render_l1_bank_table,
        render_ub_plan_bars,
        render_ub_plan_table,
    )
    from ascend_dsa.render.nd2nz import render_nd2nz_banks, render_token_blocks
    from ascend_dsa.render.notebook import as_html, as_markdown, as_svg
    from ascend_dsa.render.one_vector_core import render_fixpipe_table, render_gather2_requests, render_mte2_in_flight
    from ascend_dsa.render.peak import render_peak_clock_table, render_peak_table
    from ascend_dsa.render.pipeline import (
        render_pipeline_costs,
        render_pipeline_gantt,
        render_pipeline_schedule,
        render_pipeline_sensitivity,
        render_pipeline_summary,
    )
    from ascend_dsa.render.pipeline_timeline import render_pipeline_timeline
    from ascend_dsa.render.reference import (
        render_forward_comparison,
        render_forward_shapes,
        render_index_example,
        render_online_softmax_trace,
    )
    from ascend_dsa.render.roofline import render_fp8_roofline, render_head_roofline_table, render_roofline_figure
    from ascend_dsa.render.schedule import render_cube_order, render_schedule_order_share, render_vector_schedule
    from ascend_dsa.render.skip_scale import (
        render_core_decisions,
        render_fixpipe_with_skip_scale,
        render_rescale_plot,
        render_rescale_table,
        render_skip_scale_savings,
    )
    from ascend_dsa.render.sources import render_spec_sources
    from ascend_dsa.render.ss_buffer import render_ss_flag_word, render_ss_handshake
    from ascend_dsa.render.two_chips import (
        render_two_chips_disagreements,
        render_two_chips_roofline_figure,
        render_two_chips_table,
        render_two_chips_what_if,
    )
    from ascend_dsa.render.validation_boundary import (
        render_compare_example,
        render_trace_collection,
        render_validation_boundary,
    )
    from ascend_dsa.report.checks import (
        check_fixpipe_break_even,
        check_head_roofline,
        check_p_ready_to_used,
        check_ub_totals,
        head_roofline_differences,
    )
    from ascend_dsa.report.claims import CLAIMS, ClaimResult, check_claims, check_report_lines, evaluate_claims
    from ascend_dsa.report.forward_cases import (
        ForwardCase,
        ForwardComparison,
        compare_forwards,
        forward_cases,
        two_core_case,
    )
    from ascend_dsa.report.ledger_hopper import HOPPER_CLAIMS, check_disagreements
    from ascend_dsa.report.rules import CHAPTERS, SHIPPED_CONTEXT, Claim, ClaimContext, Rule, RuleKind
    from ascend_dsa.report.what_if import WHAT_IF_TOPK, compute_bound_heads, with_fewer_cores, with_half_l2

__all__ = [
    "ASCEND_950",
    "CHAPTERS",
    "CLAIMS",
    "DSA_V41",
    "FP4_V41",
    "FP8_V41",
    "GATHER2_TOKENS_PER_REQUEST",
    "H800",
    "HEAD_ROOFLINE_CITATION",
    "HOPPER_CLAIMS",
    "HOPPER_FIGURES",
    "LIMITS",
    "MLA_V32",
    "MODEL1_FP8",
    "PUBLISHED_FIGURES",
    "REPORT_HEADS",
    "REPORT_LINES",
    "REPORT_TOPK",
    "SHIPPED_CONTEXT",
    "SHIPPED_DESIGN",
    "SHIPPED_KERNEL",
    "SHIPPED_UB_TOTALS",
    "VECTOR_SCHEDULE",
    "VECTOR_STAGES",
    "WHAT_IF_TOPK",
    "AscendDsaError",
    "AscendUnits",
    "BlockedStats",
    "ChipSpec",
    "Citation",
    "Claim",
    "ClaimContext",
    "ClaimResult",
    "DesignEvaluation",
    "DesignGrid",
    "DesignPoint",
    "FigureMismatch",
    "ForbiddenDesign",
    "ForwardCase",
    "ForwardComparison",
    "Gather2Copy",
    "Gather2Plan",
    "KernelConfig",
    "KernelRule",
    "KvCache",
    "KvFormat",
    "KvTokenFormat",
    "L1Plan",
    "Limit",
    "LimitCheck",
    "Mode",
    "ModelShape",
    "OutOfRange",
    "OutsideModel",
    "PublishedFigure",
    "ReportLine",
    "RescaleMeasurement",
    "RooflinePoint",
    "Rule",
    "RuleKind",
    "Source",
    "SplitTokenLayout",
    "StageCosts",
    "StatedNumber",
    "StoreSlots",
    "SweepResult",
    "Task",
    "Timeline",
    "UbField",
    "UbPlan",
    "Unit",
    "VectorStage",
    "Verdict",
    "as_html",
    "as_markdown",
    "as_svg",
    "bank_slots",
    "blocked_sparse_attn_fwd",
    "check_claims",
    "check_disagreements",
    "check_fixpipe_break_even",
    "check_gather2_fills_queue",
    "check_head_roofline",
    "check_kernel_rules",
    "check_nz_padding",
    "check_p_ready_to_used",
    "check_report_lines",
    "check_token_bytes",
    "check_ub_totals",
    "clock_range_for_percent",
    "compare_forwards",
    "compute_bound_heads",
    "cube_cycles",
    "cycles_per_block_at",
    "dequantize_tokens",
    "evaluate",
    "evaluate_claims",
    "fixpipe_break_even_b_topk",
    "fixpipe_bytes_per_block",
    "fixpipe_bytes_per_cycle",
    "fixpipe_cycles",
    "fixpipe_cycles_per_block",
    "forward_cases",
    "fraction_of_peak",
    "gather2_copies",
    "gather2_plan",
    "head_roofline",
    "head_roofline_differences",
    "head_roofline_sweep",
    "identity_rescale_cycles",
    "implied_buffer_depths",
    "kv_bytes_per_token",
    "l0c_output_bytes",
    "l0c_scores_bytes",
    "l0c_used_bytes",
    "l1_bank_of",
    "l1_bank_ranges",
    "l1_plan",
    "l2_bytes",
    "l2_cycles",
    "measure_rescales",
    "min_conflict_free_padding",
    "mma_cycles_per_block",
    "nd2nz_store_slots",
    "nd_to_nz",
    "nz_offset_bytes",
    "nz_to_nd",
    "output_tolerance",
    "peak_flops",
    "published_figure",
    "published_head_roofline",
    "quantize_tokens",
    "raw_logit_threshold",
    "render_accumulator_ub_share",
    "render_ai_core_figure",
    "render_ai_core_sketch",
    "render_assumptions",
    "render_b_topk_divisibility",
    "render_buffer_counts",
    "render_chapter_claims",
    "render_citation",
    "render_citation_cff",
    "render_claim",
    "render_claim_ledger",
    "render_cli_reference",
    "render_compare_example",
    "render_core_decisions",
    "render_cube_order",
    "render_design_alternatives",
    "render_design_limits",
    "render_double_buffering_figure",
    "render_exercise_questions",
    "render_exercises",
    "render_feasibility_map",
    "render_fixpipe_table",
    "render_fixpipe_with_skip_scale",
    "render_forward_comparison",
    "render_forward_shapes",
    "render_fp8_roofline",
    "render_fractal_cells",
    "render_gather2_example",
    "render_gather2_requests",
    "render_glossary",
    "render_glossary_map",
    "render_head_roofline_table",
    "render_home_figure",
    "render_hopper_claims",
    "render_identity_rescale",
    "render_index_example",
    "render_intensity_figure",
    "render_intensity_table",
    "render_kv_block_layout",
    "render_kv_roundtrip",
    "render_kv_token_formats",
    "render_l0c_budget",
    "render_l1_bank_figure",
    "render_l1_bank_table",
    "render_live_form",
    "render_mma_fixpipe_figure",
    "render_mte2_in_flight",
    "render_nd2nz_bank_slots",
    "render_nd2nz_banks",
    "render_nd2nz_example",
    "render_online_softmax_trace",
    "render_peak_clock_table",
    "render_peak_table",
    "render_pipeline_costs",
    "render_pipeline_gantt",
    "render_pipeline_schedule",
    "render_pipeline_sensitivity",
    "render_pipeline_summary",
    "render_pipeline_timeline",
    "render_reading_paths",
    "render_report_lines",
    "render_rescale_plot",
    "render_rescale_table",
    "render_rescale_threshold",
    "render_roofline_figure",
    "render_rule_list",
    "render_schedule_order_share",
    "render_skip_scale_savings",
    "render_spec_sources",
    "render_ss_flag_word",
    "render_ss_handshake",
    "render_token_blocks",
    "render_trace_collection",
    "render_two_chips_disagreements",
    "render_two_chips_roofline_figure",
    "render_two_chips_table",
    "render_two_chips_what_if",
    "render_ub_plan_bars",
    "render_ub_plan_table",
    "render_validation_boundary",
    "render_vector_schedule",
    "render_what_if_table",
    "requests_per_block",
    "rescale_counts",
    "rescale_factor_bound",
    "rescale_sweep",
    "rescale_triggered",
    "roundtrip_error_bound",
    "shipped_ub_plans",
    "simulate",
    "skip_scale_decision",
    "smallest_compute_bound_heads",
    "softmax_slack_cycles",
    "sparse_attn_fwd",
    "sparse_attn_fwd_float64",
    "sparse_attn_weights",
    "stage_costs",
    "sweep",
    "synthetic_logits",
    "token_byte_ranges",
    "tokens_in_flight",
    "two_core_case",
    "ub_nz_stride_bytes",
    "ub_plan",
    "vector_core_heads",
    "with_fewer_cores",
    "with_half_l2",
    "worst_slot_conflict",
]


@functools.cache
def _homes() -> dict[str, str]:
    """Each public name and the module that owns it, read from this file's ``TYPE_CHECKING`` imports."""
    source = __spec__.loader.get_source(__name__) if __spec__ and __spec__.loader else None  # type: ignore[attr-defined]
    if source is None:  # only a build that strips sources could get here
        raise ImportError(f"{__name__}: the facade needs its own source to find its names")
    from ascend_dsa.imports import facade_homes  # noqa: PLC0415 - read on first use, as every name is

    return facade_homes(source)


def __getattr__(name: str) -> Any:  # noqa: ANN401 - whatever the name is: a class, a function or a constant
    module = _homes().get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
