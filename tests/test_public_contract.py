"""Every public callable of ``ascend_dsa.__all__``, by example: a call that succeeds and a call that fails.

A succeeding call checks the value the report or the kernel gives (cited per row) or, for a page renderer, a piece
of the text it must contain; a failing call asserts the exact error class and words of its one-line message (the
argument and the value given). tests/helpers/contract.py holds the closed-form models' rows; the two
tables together cover ``__all__``, and ``test_every_public_callable_has_both_kinds`` fails when a new public name
has no example of each kind. Record types the package builds itself (results, rows) take their fields unchecked:
their failing call is a missing field, which Python names. The exception classes take any message, as
``ValueError`` does, so they have no failing call (``NO_FAILING_CALL`` says so, name by name).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import ascend_dsa as A  # noqa: N812 - one letter keeps the table's rows on one line
from ascend_dsa.errors import FigureMismatch, ForbiddenDesign, OutOfRange, OutsideModel
from tests.helpers.contract import MODEL_EXAMPLES
from tests.helpers.contract import Fails as ModelFails
from tests.helpers.contract import Ok as ModelOk

if TYPE_CHECKING:
    from collections.abc import Callable

S, K, M = A.ASCEND_950, A.SHIPPED_KERNEL, A.DSA_V41
C = A.SHIPPED_CONTEXT
#: The exception classes: like ValueError they take any message, so no call of theirs fails.
NO_FAILING_CALL = {
    "AscendDsaError": "an exception class: any message is accepted, as ValueError accepts any",
    "ForbiddenDesign": "an exception class: any message is accepted, as ValueError accepts any",
    "OutOfRange": "an exception class: any message is accepted, as ValueError accepts any",
    "OutsideModel": "an exception class: any message is accepted, as ValueError accepts any",
    "check_disagreements": "takes no argument: it checks the Hopper ledger's stated disagreements as they stand",
}


def Ok(name: str, call: Callable[[], Any], expected: object) -> ModelOk:  # noqa: N802 - reads as the models' rows
    """A call of public ``name`` that returns ``expected`` (or for which ``expected(result)`` holds)."""
    return ModelOk(getattr(A, name), call, expected)


def Fails(name: str, call: Callable[[], Any], error: type[Exception], words: str) -> ModelFails:  # noqa: N802
    """A call of public ``name`` that raises exactly ``error`` with a one-line message matching ``words``."""
    return ModelFails(getattr(A, name), call, error, words)


def _has(*pieces: str) -> Callable[[str], bool]:
    """A predicate: the rendered text contains every piece."""
    return lambda text: all(p in text for p in pieces)


_LANG = r"^lang must be one of zh, en, got 'fr'$"
_SPEC = r"^spec must be a AscendSpec, got None \(NoneType\)$"
_CHIP = r"^spec must be a ChipSpec, got None \(NoneType\)$"
_DESIGN = r"^design must be a ClaimContext, got None \(NoneType\)$"
_CONFIG = r"^config must be a KernelConfig, got None \(NoneType\)$"

EXAMPLES: tuple[ModelOk | ModelFails, ...] = (
    # --- errors: our exceptions are ValueErrors that carry their message ------------------------------------------
    Ok("AscendDsaError", lambda: str(A.AscendDsaError("x = 1")), "x = 1"),
    Ok("ForbiddenDesign", lambda: isinstance(ForbiddenDesign("r"), A.AscendDsaError), expected=True),
    Ok("OutOfRange", lambda: isinstance(OutOfRange("r"), ValueError), expected=True),
    Ok("OutsideModel", lambda: isinstance(OutsideModel("r"), ValueError), expected=True),
    Ok("FigureMismatch", lambda: str(FigureMismatch("figures differ")), "figures differ"),
    Fails("FigureMismatch", lambda: FigureMismatch(None), TypeError, r"^message must be a str, got NoneType$"),
    # --- facts: hardware (report (zh) lines 23-24, 85-111) ---------------------------------------------------------
    Ok("AscendUnits", lambda: S.with_overrides(l1_banks=4).ascend.l1_banks, 4),
    Fails("AscendUnits", lambda: S.with_overrides(l1_banks=0), ValueError, r"l1_banks.*0"),
    Ok("peak_flops", lambda: A.peak_flops(S), 2 * 4096 * 32 * 1.65e9),  # 432.5 TFLOPS, report (zh) line 23
    Fails("peak_flops", lambda: A.peak_flops(None), TypeError, _CHIP),
    # --- facts: kernel config, model shape, kv formats (kv_cache_format.h, config.h) -------------------------------
    Ok("KernelConfig", lambda: K.with_overrides(b_topk=32).b_topk, 32),
    Fails("KernelConfig", lambda: K.with_overrides(b_topk=0), ValueError, r"b_topk.*0"),
    Ok("ModelShape", lambda: (M.d_qk, M.d_v, M.element_bytes), (512, 512, 2)),
    Fails("ModelShape", lambda: A.ModelShape(0, 512, 2, M.sources), ValueError, r"d_qk.*0"),
    Ok("kv_bytes_per_token", lambda: A.kv_bytes_per_token("fp8"), 528),  # 512 e4m3 + 16 ue8m0 scales
    Fails("kv_bytes_per_token", lambda: A.kv_bytes_per_token("fp16"), ValueError, r"'fp16'"),
    Ok("KvFormat", lambda: A.KvFormat("fp8"), A.KvFormat.FP8),
    Fails("KvFormat", lambda: A.KvFormat("fp16"), ValueError, r"^'fp16' is not a valid KvFormat$"),
    Ok("Mode", lambda: A.Mode("decode"), A.Mode.DECODE),
    Fails("Mode", lambda: A.Mode("train"), ValueError, r"^'train' is not a valid Mode$"),
    Ok("KvTokenFormat", lambda: A.FP8_V41.dims, 512),
    Fails("KvTokenFormat", lambda: A.KvTokenFormat("x", 0, "e4m3", 32, "ue8m0", {}), ValueError, r"dims.*0"),
    Ok("SplitTokenLayout", lambda: A.MODEL1_FP8.rope_dims, 64),
    Fails("SplitTokenLayout", lambda: A.SplitTokenLayout("x"), TypeError, r"missing 6 required .*'nope_dims'"),
    Ok("check_token_bytes", A.check_token_bytes, None),
    Fails("check_token_bytes", lambda: A.check_token_bytes(None), TypeError, r"^formats must be a tuple .*got None$"),
    Ok("check_kernel_rules", lambda: A.check_kernel_rules(K, A.Mode.PREFILL), None),
    Fails(
        "check_kernel_rules",
        lambda: A.check_kernel_rules(K.with_overrides(b_topk=96), A.Mode.PREFILL),
        ForbiddenDesign,
        r"index-block-multiple-of-b-topk",
    ),
    Ok("KernelRule", lambda: A.KernelRule.__name__, "KernelRule"),
    Fails("KernelRule", lambda: A.KernelRule("x"), TypeError, r"missing 2 required .*'statement' and 'source'"),
    # --- facts: provenance, report figures and lines ----------------------------------------------------------------
    Ok("Citation", lambda: A.Citation("a.h", "0" * 40, 3, 4).first_line, 3),
    Fails("Citation", lambda: A.Citation("a.h"), TypeError, r"missing 3 required .*'commit'"),
    Ok("Source", lambda: A.HEAD_ROOFLINE_CITATION.first_line > 0, expected=True),
    Fails("Source", lambda: A.Source(None, "report"), TypeError, r"None"),
    Ok("published_figure", lambda: A.published_figure("prefill-tflops").value, 410),  # report (zh) line 5
    Fails("published_figure", lambda: A.published_figure("nope"), ValueError, r"^key must name a published figure"),
    Ok("PublishedFigure", lambda: A.published_figure("prefill-tflops").unit, "TFLOPS"),
    Fails("PublishedFigure", lambda: A.PublishedFigure("k"), TypeError, r"missing 3 required .*'value'"),
    Ok(
        "published_head_roofline", lambda: (r := A.published_head_roofline()[0]).cube_cycles + r.mem_cycles, 2048 + 5883
    ),  # line 104
    Fails(
        "published_head_roofline",
        lambda: A.published_head_roofline(None),
        TypeError,
        r"^text must be an iterable of values, got NoneType None$",
    ),
    Ok("ReportLine", lambda: A.REPORT_LINES[0].line, 5),
    Fails("ReportLine", lambda: A.ReportLine(5), TypeError, r"missing 1 required .*'numbers'"),
    Ok("StatedNumber", lambda: A.REPORT_LINES[0].numbers[0].written, "410"),
    Fails("StatedNumber", lambda: A.StatedNumber("410"), TypeError, r"missing 2 required .*'value' and 'figure'"),
    # --- models: results and enums ----------------------------------------------------------------------------------
    Ok("Verdict", lambda: A.head_roofline(S, 64, 512).verdict(), A.Verdict("compute-bound")),
    Fails("Verdict", lambda: A.Verdict("fast"), ValueError, r"^'fast' is not a valid Verdict$"),
    Ok("RooflinePoint", lambda: A.head_roofline(S, 16, 512).cube_cycles, 2048),  # report (zh) line 104
    Fails("RooflinePoint", lambda: A.RooflinePoint(16), TypeError, r"missing 3 required .*'topk'"),
    Ok("KvCache", lambda: A.KvCache("fp8"), A.KvCache.FP8),
    Fails("KvCache", lambda: A.KvCache("fp16"), ValueError, r"^'fp16' is not a valid KvCache$"),
    Ok("Limit", lambda: len(A.LIMITS) == len(A.Limit), expected=True),
    Fails("Limit", lambda: A.Limit("nope"), ValueError, r"^'nope' is not a valid Limit$"),
    Ok("DesignPoint", lambda: (A.DesignPoint().heads_per_core, A.DesignPoint().topk), (64, 512)),
    Fails("DesignPoint", lambda: A.DesignPoint(heads_per_core=None), TypeError, r"^heads_per_core must be a whole"),
    Ok("DesignEvaluation", lambda: A.evaluate(A.DesignPoint(), S).spec_name, "Ascend 950"),
    Fails("DesignEvaluation", lambda: A.DesignEvaluation(None), TypeError, r"missing 2 required .*'spec_name'"),
    Ok("LimitCheck", lambda: all(c.demand <= c.capacity for c in A.evaluate(A.DesignPoint(), S).checks), expected=True),
    Fails("LimitCheck", lambda: A.LimitCheck(None), TypeError, r"missing 3 required .*'demand'"),
    Ok("compute_bound_heads", lambda: A.compute_bound_heads(S, A.KvCache.FP8), dict.fromkeys(A.WHAT_IF_TOPK, 32)),
    Fails("compute_bound_heads", lambda: A.compute_bound_heads(None), TypeError, _SPEC),
    Ok("with_fewer_cores", lambda: A.with_fewer_cores().cores < S.cores, expected=True),
    Fails("with_fewer_cores", lambda: A.with_fewer_cores(None), TypeError, _SPEC),
    Ok("with_half_l2", lambda: A.with_half_l2().bandwidth_bytes_per_s, S.bandwidth_bytes_per_s / 2),
    Fails("with_half_l2", lambda: A.with_half_l2(None), TypeError, _SPEC),
    Ok("DesignGrid", lambda: A.DesignGrid(heads=(32, 64)).heads, (32, 64)),
    Fails("DesignGrid", lambda: A.DesignGrid(heads=()), ValueError, r"heads"),
    Ok("sweep", lambda: bool(A.sweep(S, A.DesignGrid()).fits.all()), expected=True),
    Fails("sweep", lambda: A.sweep(None, A.DesignGrid()), TypeError, _SPEC),
    Ok("SweepResult", lambda: A.sweep(S, A.DesignGrid()).grid, A.DesignGrid()),
    Fails("SweepResult", lambda: A.SweepResult(None), TypeError, r"missing 6 required .*'demand'"),
    # --- models: gather2, mte2, L1, UB (report (zh) lines 116, 150-160, 242) ---------------------------------------
    Ok("check_gather2_fills_queue", A.check_gather2_fills_queue, 16),
    Fails("check_gather2_fills_queue", lambda: A.check_gather2_fills_queue(None), TypeError, _SPEC),
    Ok("gather2_copies", lambda: len(A.gather2_copies([0, 1, 2, 3], 8)), 2),
    Fails(
        "gather2_copies", lambda: A.gather2_copies([0, 1], 0), ValueError, r"^s_kv must be a positive integer, got 0$"
    ),
    Ok("Gather2Copy", lambda: A.gather2_copies([0, 1], 8)[0].burst_count >= 1, expected=True),
    Fails("Gather2Copy", lambda: A.Gather2Copy(0), TypeError, r"missing 6 required .*'second'"),
    Ok("gather2_plan", lambda: len(A.gather2_plan(list(range(64)), 64).per_vector_core), 2),
    Fails("gather2_plan", lambda: A.gather2_plan(list(range(64)), 0), ValueError, r"s_kv.*0"),
    Ok("Gather2Plan", lambda: A.Gather2Plan(()).per_vector_core, ()),
    Fails("Gather2Plan", A.Gather2Plan, TypeError, r"missing 1 required .*'per_vector_core'"),
    Ok("requests_per_block", lambda: A.requests_per_block(K), 16),
    Fails("requests_per_block", lambda: A.requests_per_block(None), TypeError, _CONFIG),
    Ok("tokens_in_flight", lambda: A.tokens_in_flight(S), 32),
    Fails("tokens_in_flight", lambda: A.tokens_in_flight(None), TypeError, _SPEC),
    Ok("token_byte_ranges", lambda: len(A.token_byte_ranges(A.FP8_V41, 0, 64)) >= 1, expected=True),
    Fails("token_byte_ranges", lambda: A.token_byte_ranges(A.FP8_V41, 64, 64), ValueError, r"token.*64"),
    Ok("L1Plan", lambda: A.l1_plan(S, K).banks, 2),
    Fails("L1Plan", lambda: A.L1Plan(()), TypeError, r"missing 1 required .*'banks'"),
    Ok("UbPlan", lambda: A.ub_plan(K, A.Mode.PREFILL).total_bytes, 259600),  # ub_plan.h's prefill total
    Fails("UbPlan", lambda: A.UbPlan(A.Mode.PREFILL), TypeError, r"missing 5 required .*'main_cache'"),
    Ok("UbField", lambda: all(f.element_bytes > 0 for f in A.ub_plan(K, A.Mode.PREFILL).fields), expected=True),
    Fails("UbField", lambda: A.UbField("x"), TypeError, r"missing 3 required .*'shape'"),
    # --- models: NZ layout, KV quantisation, rescale bound --------------------------------------------------------
    Ok("check_nz_padding", lambda: A.check_nz_padding().pad_rows, 1),  # config.h: one padding row
    Fails("check_nz_padding", lambda: A.check_nz_padding(None), TypeError, _CONFIG),
    Ok("StoreSlots", lambda: A.check_nz_padding().stride_bytes, 1056),  # (32 + 1) rows x 32 B
    Fails("StoreSlots", lambda: A.StoreSlots(32), TypeError, r"missing 3 required .*'pad_rows'"),
    Ok("nd2nz_store_slots", lambda: A.nd2nz_store_slots(32, 1).slots, (0, 1, 2, 3, 4, 5, 6, 7)),
    Fails("nd2nz_store_slots", lambda: A.nd2nz_store_slots(32, -1), ValueError, r"pad_rows.*-1"),
    Ok("nz_offset_bytes", lambda: A.nz_offset_bytes(1, 0, 4), 32),
    Fails("nz_offset_bytes", lambda: A.nz_offset_bytes(4, 0, 4), ValueError, r"token must lie in \[0, tokens = 4\)"),
    Ok("nd_to_nz", lambda: A.nd_to_nz(np.zeros((2, 512), np.float16)).size, 2 * 512),
    Fails("nd_to_nz", lambda: A.nd_to_nz(None), TypeError, r"^tile must be a NumPy array, got NoneType$"),
    Ok("nz_to_nd", lambda: A.nz_to_nd(A.nd_to_nz(np.ones((2, 512), np.float16)), 2).shape, (2, 512)),
    Fails("nz_to_nd", lambda: A.nz_to_nd(None, 2), TypeError, r"nz must be a NumPy array, got NoneType"),
    Ok("quantize_tokens", lambda: A.quantize_tokens(np.zeros((1, 512), np.float32), "fp8").shape, (1, 528)),
    Fails("quantize_tokens", lambda: A.quantize_tokens(np.zeros((1, 512)), "fp16"), ValueError, r"'fp16'"),
    Ok(
        "dequantize_tokens",
        lambda: float(
            np.abs(A.dequantize_tokens(A.quantize_tokens(np.ones((1, 512), np.float32), "fp8"), "fp8")).max()
        ),
        1.0,
    ),
    Fails("dequantize_tokens", lambda: A.dequantize_tokens(np.zeros((1, 5), np.uint8), "fp8"), ValueError, r"5"),
    Ok("roundtrip_error_bound", lambda: float(A.roundtrip_error_bound(np.zeros((1, 512)), "fp8").max()), 0.0),
    Fails("roundtrip_error_bound", lambda: A.roundtrip_error_bound(np.zeros((1, 512)), "x"), ValueError, r"'x'"),
    Ok("rescale_factor_bound", lambda: round(A.rescale_factor_bound(6), 2), 403.43),  # e^6, report (zh) line 199
    Fails("rescale_factor_bound", lambda: A.rescale_factor_bound(None), TypeError, r"^threshold must be a real"),
    Ok("raw_logit_threshold", lambda: A.raw_logit_threshold(6, 0.5), 12.0),
    Fails("raw_logit_threshold", lambda: A.raw_logit_threshold(6, 0), ValueError, r"sm_scale.*0"),
    Ok(
        "rescale_triggered",
        lambda: (A.rescale_triggered(6.0, 0.0, 6.0), A.rescale_triggered(6.5, 0.0, 6.0)),
        (False, True),
    ),
    Fails("rescale_triggered", lambda: A.rescale_triggered(math.nan, 0.0, 6.0), ValueError, r"running_max.*nan"),
    # --- models: the schedule and the pipeline (report (zh) lines 166-208) -----------------------------------------
    Ok("VectorStage", lambda: A.VECTOR_STAGES[0].offset >= 0, expected=True),
    Fails("VectorStage", lambda: A.VectorStage("x"), TypeError, r"missing 4 required .*'report_step'"),
    Ok("Task", lambda: A.Task("gather"), A.Task.GATHER),
    Fails("Task", lambda: A.Task("nap"), ValueError, r"^'nap' is not a valid Task$"),
    Ok("Unit", lambda: len(A.Unit) > 1, expected=True),
    Fails("Unit", lambda: A.Unit("gpu"), ValueError, r"^'gpu' is not a valid Unit$"),
    Ok("stage_costs", lambda: A.stage_costs(S).cycles[A.Task.GATHER] > 0, expected=True),
    Fails("stage_costs", lambda: A.stage_costs(None), TypeError, _SPEC),
    Ok("StageCosts", lambda: set(A.stage_costs(S).cycles) == set(A.stage_costs(S).sources), expected=True),
    Fails("StageCosts", lambda: A.StageCosts({}), TypeError, r"missing 1 required .*'sources'"),
    Ok("simulate", lambda: A.simulate(A.stage_costs(S)).cube_utilisation, 1.0),
    Fails("simulate", lambda: A.simulate(None), TypeError, r"^costs must be a StageCosts, got None \(NoneType\)$"),
    Ok("Timeline", lambda: A.simulate(A.stage_costs(S)).blocks > 0, expected=True),
    Fails("Timeline", lambda: A.Timeline(()), TypeError, r"missing 9 required .*'blocks'"),
    Ok("implied_buffer_depths", lambda: len(A.implied_buffer_depths()) > 0, expected=True),
    Fails(
        "implied_buffer_depths",
        lambda: A.implied_buffer_depths(None),
        TypeError,
        r"^schedule must be an iterable of Activation, got NoneType None$",
    ),
    # --- models: skip-scale and the forwards --------------------------------------------------------------------------
    Ok("vector_core_heads", lambda: A.vector_core_heads(128), 64),  # two VECTOR cores share 128 heads
    Fails("vector_core_heads", lambda: A.vector_core_heads(None), TypeError, r"^h_q must be a whole number, got None"),
    Ok(
        "skip_scale_decision",
        lambda: bool(A.skip_scale_decision(np.array([6.5]), np.array([0.0]), 6.0)[0].all()),
        expected=True,
    ),
    Fails(
        "skip_scale_decision",
        lambda: A.skip_scale_decision(np.array([0.0]), np.array([0.0]), math.nan),
        ValueError,
        r"threshold.*nan",
    ),
    Ok("synthetic_logits", lambda: A.synthetic_logits(1, 2, 64, sm_scale=0.1, order="random").shape[-1], 64),
    Fails(
        "synthetic_logits",
        lambda: A.synthetic_logits(1, 2, 64, sm_scale=0.1, order="sideways"),
        ValueError,
        r"sideways",
    ),
    Ok(
        "rescale_counts",
        lambda: A.rescale_counts(np.zeros((1, 64, 128), np.float32), sm_scale=1.0, b_topk=64, threshold=6.0)[0],
        2,  # 128 keys in blocks of B_TOPK = 64
    ),
    Fails(
        "rescale_counts",
        lambda: A.rescale_counts(np.zeros((1, 64, 128), np.float32), sm_scale=1.0, b_topk=0, threshold=6.0),
        ValueError,
        r"b_topk.*0",
    ),
    Ok("measure_rescales", lambda: A.measure_rescales("ascending", 0.1, 512).topk, 512),
    Fails("measure_rescales", lambda: A.measure_rescales("ascending", 0.1, 0), ValueError, r"topk.*0"),
    Ok("RescaleMeasurement", lambda: A.measure_rescales("ascending", 0.1, 512).order, "ascending"),
    Fails("RescaleMeasurement", lambda: A.RescaleMeasurement("random"), TypeError, r"missing 9 required .*'sm_scale'"),
    Ok("rescale_sweep", lambda: len(A.rescale_sweep(orders=("random",), sm_scale_factors=(1.0,), topks=(512,))), 1),
    Fails("rescale_sweep", lambda: A.rescale_sweep(orders=("sideways",)), ValueError, r"sideways"),
    Ok("two_core_case", lambda: A.two_core_case().name, "two-cores"),
    Fails("two_core_case", lambda: A.two_core_case(None), TypeError, r"^config must be a KernelConfig, got NoneType$"),
    Ok("forward_cases", lambda: A.forward_cases()[0].name, "random"),
    Fails("forward_cases", lambda: A.forward_cases(None), TypeError, r"^config must be a KernelConfig, got NoneType$"),
    Ok("ForwardCase", lambda: A.two_core_case().d_v > 0, expected=True),
    Fails("ForwardCase", lambda: A.ForwardCase("x"), TypeError, r"missing 5 required .*'q'"),
    Ok("compare_forwards", lambda: A.compare_forwards(A.two_core_case()).name, "two-cores"),
    Fails(
        "compare_forwards", lambda: A.compare_forwards(None), TypeError, r"^case must be a ForwardCase, got NoneType$"
    ),
    Ok(
        "ForwardComparison",
        lambda: (c := A.compare_forwards(A.two_core_case())).out_difference <= c.out_tolerance,
        expected=True,
    ),
    Fails("ForwardComparison", lambda: A.ForwardComparison("x"), TypeError, r"missing 8 required .*'tokens'"),
    Ok("BlockedStats", lambda: A.blocked_sparse_attn_fwd(*_forward_args())[3].b_topk, 64),
    Fails("BlockedStats", lambda: A.BlockedStats(64), TypeError, r"missing 8 required .*'rescale_threshold'"),
    Ok("blocked_sparse_attn_fwd", lambda: A.blocked_sparse_attn_fwd(*_forward_args())[0].shape, (1, 64, 512)),
    Fails(
        "blocked_sparse_attn_fwd",
        lambda: A.blocked_sparse_attn_fwd(*_forward_args(sm_scale=math.nan)),
        ValueError,
        "nan",
    ),
    Ok("sparse_attn_fwd", lambda: A.sparse_attn_fwd(*_forward_args())[0].shape, (1, 64, 512)),
    Fails("sparse_attn_fwd", lambda: A.sparse_attn_fwd(*_forward_args(sm_scale=math.nan)), ValueError, "nan"),
    Ok("sparse_attn_fwd_float64", lambda: A.sparse_attn_fwd_float64(*_forward_args())[0].dtype, np.float64),
    Fails("sparse_attn_fwd_float64", lambda: A.sparse_attn_fwd_float64(*_forward_args(sm_scale=0.0)), ValueError, "0"),
    Ok("sparse_attn_weights", lambda: round(float(A.sparse_attn_weights(*_forward_args())[1].sum(-1).max()), 6), 1.0),
    Fails("sparse_attn_weights", lambda: A.sparse_attn_weights(*_forward_args(sm_scale=math.inf)), ValueError, "inf"),
    Ok("output_tolerance", lambda: A.output_tolerance(np.zeros((8, 1, 576)), 512, 64) >= 0, expected=True),
    Fails(
        "output_tolerance", lambda: A.output_tolerance(np.zeros((8, 1, 576)), 512, -1), ValueError, r"topk .*got -1$"
    ),
    # --- report: checks, claims, rules ------------------------------------------------------------------------------
    Ok("check_fixpipe_break_even", lambda: A.check_fixpipe_break_even(512 / 7), None),  # B_TOPK = 73.14
    Fails("check_fixpipe_break_even", lambda: A.check_fixpipe_break_even(80.0), FigureMismatch, r"80"),
    Ok("check_p_ready_to_used", lambda: A.check_p_ready_to_used(1024.0), None),  # report (zh) line 184: about 1024
    Fails("check_p_ready_to_used", lambda: A.check_p_ready_to_used(1100.0), FigureMismatch, r"ours 1100\.0 cycles"),
    Fails("check_p_ready_to_used", lambda: A.check_p_ready_to_used(None), TypeError, r"^cycles must be a real number"),
    Ok("check_head_roofline", lambda: A.check_head_roofline(A.head_roofline_sweep(S)), None),
    Fails(
        "check_head_roofline",
        lambda: A.check_head_roofline(None),
        TypeError,
        r"^points must be an iterable of RooflinePoint, got NoneType None$",
    ),
    Ok("head_roofline_differences", lambda: A.head_roofline_differences(A.head_roofline_sweep(S)), ()),
    Fails(
        "head_roofline_differences",
        lambda: A.head_roofline_differences(None),
        TypeError,
        r"^points must be an iterable of RooflinePoint, got NoneType None$",
    ),
    Ok("check_ub_totals", lambda: A.check_ub_totals(A.shipped_ub_plans()), None),
    Fails(
        "check_ub_totals",
        lambda: A.check_ub_totals(None),
        TypeError,
        r"^plans must be an iterable of UbPlan, got NoneType",
    ),
    Ok("evaluate_claims", lambda: all(r.passed for r in A.evaluate_claims()), expected=True),
    Fails("evaluate_claims", lambda: A.evaluate_claims(None), TypeError, _DESIGN),
    Ok("check_claims", lambda: len(A.check_claims()) == len(A.CLAIMS), expected=True),
    Fails("check_claims", lambda: A.check_claims(None), TypeError, _DESIGN),
    Ok("check_report_lines", lambda: A.check_report_lines()[0].line.line, 5),
    Fails(
        "check_report_lines",
        lambda: A.check_report_lines(None),
        TypeError,
        r"^lines must be an iterable of ReportLine, got NoneType None$",
    ),
    Ok("ClaimResult", lambda: A.evaluate_claims()[0].claim.claim_id, "prefill-tflops"),
    Fails("ClaimResult", lambda: A.ClaimResult(None), TypeError, r"missing 2 required .*'ours' and 'passed'"),
    Ok("Claim", lambda: A.CLAIMS[0].chapter, "index"),
    Fails("Claim", lambda: A.Claim("x"), TypeError, r"missing 5 required .*'chapter'"),
    Ok("ClaimContext", lambda: A.ClaimContext().spec, S),
    Fails("ClaimContext", lambda: A.ClaimContext(spec=None), TypeError, _SPEC),
    Ok("Rule", lambda: A.Rule(A.RuleKind("exact")).decimals, 0),
    Fails("Rule", lambda: A.Rule(None), TypeError, r"^kind must be a RuleKind and decimals an int, got None, 0$"),
    Ok("RuleKind", lambda: A.RuleKind("exact").value, "exact"),
    Fails("RuleKind", lambda: A.RuleKind("close"), ValueError, r"^'close' is not a valid RuleKind$"),
    # --- render: the notebook wrappers and the page renderers -------------------------------------------------------
    Ok("as_markdown", lambda: A.as_markdown("**a**")._repr_markdown_(), "**a**"),
    Fails("as_markdown", lambda: A.as_markdown(3), TypeError, r"^text must be a str of Markdown, got int 3$"),
    Ok("as_svg", lambda: A.as_svg("<svg></svg>")._repr_svg_(), "<svg></svg>"),
    Fails("as_svg", lambda: A.as_svg(None), TypeError, r"^svg must be a str holding an <svg> element, got NoneType$"),
    Ok("render_citation_cff", lambda: A.render_citation_cff(version="1.0"), _has("cff-version: 1.2.0")),
    Fails("render_citation_cff", lambda: A.render_citation_cff(version=""), ValueError, "version must be a one-line"),
    Ok("render_cli_reference", lambda: A.render_cli_reference(lang="en"), _has("--help")),
    Fails("render_cli_reference", lambda: A.render_cli_reference(lang="fr"), ValueError, _LANG),
    Ok("render_claim", lambda: A.render_claim("prefill-tflops", lang="en"), _has("410")),
    Fails(
        "render_claim", lambda: A.render_claim("nope"), ValueError, r"^claim_id must name a ledger claim, got 'nope'$"
    ),
    Ok("render_chapter_claims", lambda: A.render_chapter_claims("index", lang="en"), _has("410")),
    Fails("render_chapter_claims", lambda: A.render_chapter_claims("nope"), ValueError, r"'nope'"),
    # --- arguments that must be iterables: a None is refused naming the argument, not "object is not iterable" ---
    Fails(
        "DesignGrid", lambda: A.DesignGrid(heads=None), TypeError, r"^heads must be an iterable of values, got NoneType"
    ),
    Fails(
        "rescale_sweep", lambda: A.rescale_sweep(topks=None), TypeError, r"^topks must be an iterable of values, got"
    ),
    Fails("check_fixpipe_break_even", lambda: A.check_fixpipe_break_even(None), TypeError, r"^b_topk must be a real"),
    Fails("render_b_topk_divisibility", lambda: A.render_b_topk_divisibility(None), TypeError, r"^b_topks must be an"),
    Fails("render_fixpipe_table", lambda: A.render_fixpipe_table(None), TypeError, r"^b_topks must be an iterable"),
    Fails("render_nd2nz_banks", lambda: A.render_nd2nz_banks(None), TypeError, r"^pad_rows must be an iterable"),
    Fails("render_peak_clock_table", lambda: A.render_peak_clock_table(None), TypeError, r"^clocks_hz must be an"),
    Fails("render_what_if_table", lambda: A.render_what_if_table(None), TypeError, r"^scenarios must be an iterable"),
    Ok("render_what_if_table", lambda: A.render_what_if_table((("x", S, A.DesignPoint()),), lang="en"), _has("| x |")),
    Fails("render_what_if_table", lambda: A.render_what_if_table((), lang="fr"), ValueError, _LANG),
    # --- the H800 beside the Ascend 950 (FlashMLA's FP8 blog line 17: 4096 FLOP/cycle, 1830 MHz, 132 SMs) ---------
    Ok("ChipSpec", lambda: A.H800.with_overrides(cores=66).cores, 66),
    Fails("ChipSpec", lambda: A.H800.with_overrides(cores=0), ValueError, r"^cores must be a positive integer, got 0$"),
    Ok("peak_flops", lambda: round(A.peak_flops(A.H800) / 1e12), 989),
    Ok("check_disagreements", lambda: all(r.holds for r in A.check_disagreements()), expected=True),
    # --- notebook HTML and the live forms ----------------------------------------------------------------------
    Ok("as_html", lambda: A.as_html("<b>x</b>")._repr_html_(), "<b>x</b>"),
    Fails("as_html", lambda: A.as_html("x"), ValueError, r"^html must be markup starting with a tag, got 'x'$"),
    Ok("render_live_form", lambda: A.render_live_form("ub-plan", lang="en"), _has('data-live="ub-plan"', "--sink")),
    Fails("render_live_form", lambda: A.render_live_form("nope"), ValueError, r"^command must be one of .*got 'nope'$"),
)


def _forward_args(sm_scale: float = 0.1) -> tuple[Any, ...]:
    """A one-token forward: 64 heads, 64 keys of 576 dims, every index valid (the kernel's B_TOPK of 64)."""
    rng = np.random.default_rng(20)
    q = rng.standard_normal((1, 64, 576)).astype(np.float32)
    kv = rng.standard_normal((64, 1, 576)).astype(np.float32)
    indices = np.arange(64, dtype=np.int32).reshape(1, 1, 64)
    return (q, kv, indices, sm_scale)


#: Renderers that take ``lang`` and a piece of their English text (a header the page shows); each also fails on
#: ``lang="fr"`` naming the value.
RENDERERS = {
    "render_accumulator_ub_share": "heads",
    "render_assumptions": "|",
    "render_b_topk_divisibility": "B_TOPK",
    "render_claim_ledger": "410",
    "render_core_decisions": "|",
    "render_cube_order": "QK[i]",
    "render_design_alternatives": "|",
    "render_design_limits": "|",
    "render_feasibility_map": "<svg",
    "render_fixpipe_table": "B_TOPK",
    "render_fixpipe_with_skip_scale": "|",
    "render_forward_comparison": "|",
    "render_forward_shapes": "`q`",
    "render_fp8_roofline": "528",
    "render_gather2_example": "|",
    "render_gather2_requests": "|",
    "render_head_roofline_table": "2048",
    "render_identity_rescale": "1024",
    "render_index_example": "|",
    "render_kv_block_layout": "584",
    "render_kv_roundtrip": "FP8",
    "render_kv_token_formats": "FP8",
    "render_l0c_budget": "256 KiB",
    "render_l1_bank_figure": "<svg",
    "render_l1_bank_table": "|",
    "render_mma_fixpipe_figure": "<svg",
    "render_mte2_in_flight": "|",
    "render_nd2nz_bank_slots": "|",
    "render_nd2nz_banks": "|",
    "render_nd2nz_example": "|",
    "render_online_softmax_trace": "running_max",
    "render_peak_clock_table": "410",
    "render_peak_table": "410",
    "render_pipeline_costs": "|",
    "render_pipeline_gantt": "<svg",
    "render_pipeline_schedule": "|",
    "render_pipeline_sensitivity": "|",
    "render_pipeline_summary": "|",
    "render_pipeline_timeline": "data-live-figure",
    "render_report_lines": "52",
    "render_rescale_plot": "<svg",
    "render_rescale_table": "sm_scale",
    "render_rescale_threshold": "403",
    "render_roofline_figure": "<svg",
    "render_rule_list": "index-block-multiple-of-b-topk",
    "render_schedule_order_share": "640",
    "render_skip_scale_savings": "1024",
    "render_spec_sources": "1,650 MHz",
    "render_ss_flag_word": "|",
    "render_ss_handshake": "|",
    "render_token_blocks": "1024 B",
    "render_ub_plan_bars": "<svg",
    "render_ub_plan_table": "|",
    "render_vector_schedule": "|",
    "render_ai_core_figure": "<svg",
    "render_buffer_counts": "config.h:68",
    "render_double_buffering_figure": "<svg",
    "render_fractal_cells": "<svg",
    "render_intensity_figure": "<svg",
    "render_intensity_table": "86.51 FLOP/B",
    "render_glossary": "MTE2",
    "render_glossary_map": "no counterpart",
    "render_ai_core_sketch": "<svg",
    "render_citation": "@software",
    "render_reading_paths": "CUDA/Hopper",
    "render_home_figure": "home-figure",
    "render_hopper_claims": "656",
    "render_two_chips_disagreements": "640",
    "render_two_chips_roofline_figure": "<svg",
    "render_two_chips_table": "H800",
    "render_two_chips_what_if": "FixPipe",
    "render_validation_boundary": "src/ascend_dsa/models/pipeline.py:",
    "render_trace_collection": "msprof op simulator",
    "render_compare_example": "+0.0 %",
}
RENDER_EXAMPLES: tuple[ModelOk | ModelFails, ...] = tuple(
    example
    for name, piece in RENDERERS.items()
    for example in (
        Ok(name, lambda name=name: getattr(A, name)(lang="en"), _has(piece)),
        Fails(name, lambda name=name: getattr(A, name)(lang="fr"), ValueError, _LANG),
    )
)
#: Renderers of a chapter's exercises: they take the chapter first.
EXERCISE_EXAMPLES: tuple[ModelOk | ModelFails, ...] = tuple(
    example
    for name in ("render_exercises", "render_exercise_questions")
    for example in (
        Ok(name, lambda name=name: getattr(A, name)("pipeline", lang="en"), _has("exercise")),
        Fails(
            name,
            lambda name=name: getattr(A, name)("nope", lang="en"),
            ValueError,
            "chapter must be a page of the site",
        ),
    )
)
ALL_EXAMPLES = EXAMPLES + RENDER_EXAMPLES + EXERCISE_EXAMPLES


#: Public name of each public callable (the rows hold the callable itself).
NAMES = {getattr(A, name): name for name in A.__all__ if callable(getattr(A, name))}


def _id(example: ModelOk | ModelFails) -> str:
    return f"{NAMES[example.function]}-{'ok' if isinstance(example, ModelOk) else 'fails'}"


@pytest.mark.parametrize("example", ALL_EXAMPLES, ids=[_id(e) for e in ALL_EXAMPLES])
def test_example(example: ModelOk | ModelFails) -> None:
    """The call gives the value the report or the kernel gives, or fails with the error and words named."""
    example.run()


def test_every_public_callable_has_both_kinds() -> None:
    """Each callable of ``ascend_dsa.__all__`` has a succeeding and a failing example here or in the models table."""
    rows = ALL_EXAMPLES + MODEL_EXAMPLES
    succeeding = {NAMES[e.function] for e in rows if isinstance(e, ModelOk) and e.function in NAMES}
    failing = {NAMES[e.function] for e in rows if isinstance(e, ModelFails) and e.function in NAMES}
    assert sorted(set(NAMES.values()) - succeeding) == []
    assert sorted(set(NAMES.values()) - failing - set(NO_FAILING_CALL)) == []
    assert sorted(set(NO_FAILING_CALL) - set(NAMES.values())) == []
