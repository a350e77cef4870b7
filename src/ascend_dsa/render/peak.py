"""The preface's tables: 410 and 360 TFLOPS against the derived peak, and the clocks the rounding allows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.facts.hardware import peak_flops
from ascend_dsa.facts.report_figures import published_number
from ascend_dsa.facts.report_inputs import DECODE_ACHIEVED_FLOPS, PREFILL_ACHIEVED_FLOPS
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.block_cycles import (
    mma_cycles_per_block,
)
from ascend_dsa.models.peak_clock import clock_range_for_percent, intersect
from ascend_dsa.models.throughput import cycles_per_block_at, fraction_of_peak
from ascend_dsa.render.claims import published_data
from ascend_dsa.render.format import count_word, percent
from ascend_dsa.render.markdown import number, status_cell, table
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.units import TFLOPS, GHz
from ascend_dsa.validate import require_iterable

if TYPE_CHECKING:
    from collections.abc import Iterable


def render_peak_table(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """410 and 360 TFLOPS against the derived peak, rounded as the report does, and cycles per block implied."""
    results = check_claims(
        design, ids=("prefill-tflops", "decode-tflops", "prefill-percent-of-peak", "decode-percent-of-peak")
    )[2:]
    spec, config = design.spec, design.config
    mma = mma_cycles_per_block(spec, config, design.model)
    rows = []
    for result, achieved, name in zip(
        results,
        (PREFILL_ACHIEVED_FLOPS / TFLOPS, DECODE_ACHIEVED_FLOPS / TFLOPS),
        (("prefill", "prefill"), ("decode", "decode")),
        strict=True,
    ):
        fraction = fraction_of_peak(achieved * TFLOPS, spec)
        implied = cycles_per_block_at(achieved * TFLOPS, spec, config, design.model)
        rows.append(
            [
                pick(lang, *name),
                number(achieved, f"{achieved:g}"),
                number(100 * fraction, percent(fraction), "%"),
                number(round(100 * fraction), f"{round(100 * fraction)} %", "%"),
                published_data(result, lang),
                number(mma, f"{float(mma):.0f}"),
                number(implied, f"{implied:.1f}"),
                status_cell(result.passed, lang),
            ]
        )
    headers = [
        pick(lang, "场景", "case"),
        pick(lang, "报告 (TFLOPS)", "report (TFLOPS)"),
        pick(lang, "占推导峰值", "of derived peak"),
        pick(lang, "取整", "rounded"),
        term("column:report", lang),
        term("column:MMA cycles per block", lang),
        pick(lang, "每块实际周期（推算）", "implied cycles per block"),
        term("column:status", lang),
    ]
    peak = peak_flops(spec) / TFLOPS
    caption = pick(
        lang,
        f"推导峰值 = {spec.matrix_fma_per_cycle_per_core} FMA × 2 FLOP × {spec.clock_hz / GHz:g} GHz × "
        f"{spec.cores} 个 AI Core"
        f" = {peak:.2f} TFLOPS（报告没有写出这个数）。每块为 {config.mma_m} 行 × {config.b_topk} 个 token。",
        f"Derived peak = {spec.matrix_fma_per_cycle_per_core} FMA x 2 FLOP x {spec.clock_hz / GHz:g} GHz x "
        f"{spec.cores}"
        f" AI Cores = {peak:.2f} TFLOPS (the report never prints it). A block is {config.mma_m} rows x"
        f" {config.b_topk} tokens.",
    )
    return table(headers, rows, ("left", *("right",) * 6, "left")) + "\n\n" + caption + "\n"


def render_peak_clock_table(
    clocks_hz: Iterable[float] = (1.5 * GHz, 1.6 * GHz, 1.65 * GHz, 1.7 * GHz, 1.8 * GHz),
    design: ClaimContext = SHIPPED_CONTEXT,
    *,
    lang: Lang = "zh",
) -> str:
    """The same 410 and 360 TFLOPS as a share of the peak at other clocks, and the clocks the rounding allows."""
    check_claims(design, ids=("prefill-tflops", "decode-tflops", "prefill-percent-of-peak", "decode-percent-of-peak"))
    prefill, decode = PREFILL_ACHIEVED_FLOPS / TFLOPS, DECODE_ACHIEVED_FLOPS / TFLOPS
    prefill_pct = round(published_number("prefill-percent-of-peak"))
    decode_pct = round(published_number("decode-percent-of-peak"))
    rows = []
    for clock in require_iterable("clocks_hz", clocks_hz):
        spec = design.spec.with_overrides(clock_hz=clock)
        rows.append(
            [
                number(clock / GHz, f"{clock / GHz:.2f}"),
                number(peak_flops(spec) / TFLOPS, f"{peak_flops(spec) / TFLOPS:.2f}"),
                number(
                    100 * fraction_of_peak(prefill * TFLOPS, spec),
                    percent(fraction_of_peak(prefill * TFLOPS, spec)),
                    "%",
                ),
                number(
                    100 * fraction_of_peak(decode * TFLOPS, spec), percent(fraction_of_peak(decode * TFLOPS, spec)), "%"
                ),
            ]
        )
    headers = [
        pick(lang, "主频 (GHz)", "clock (GHz)"),
        pick(lang, "峰值 (TFLOPS)", "peak (TFLOPS)"),
        f"{prefill:g} TFLOPS",
        f"{decode:g} TFLOPS",
    ]
    ranges = (
        clock_range_for_percent(prefill * TFLOPS, prefill_pct, design.spec),
        clock_range_for_percent(decode * TFLOPS, decode_pct, design.spec),
    )
    both = intersect(*ranges)
    if both is None:
        allowed = pick(
            lang,
            f"没有一个主频能同时满足{count_word(len(ranges), lang)}个百分比。",
            "No clock satisfies both percentages.",
        )
    else:
        allowed = pick(
            lang,
            f"{prefill:g} TFLOPS 取整为 {prefill_pct}% 要求主频在 "
            f"{ranges[0][0] / GHz:.4f}-{ranges[0][1] / GHz:.4f} GHz，"
            f"{decode:g} TFLOPS 取整为 {decode_pct}% 要求 {ranges[1][0] / GHz:.4f}-{ranges[1][1] / GHz:.4f} GHz；"
            f"两者同时成立只在 {both[0] / GHz:.4f}-{both[1] / GHz:.4f} GHz。",
            f"{prefill:g} TFLOPS rounds to {prefill_pct}% for clocks of {ranges[0][0] / GHz:.4f}-"
            f"{ranges[0][1] / GHz:.4f} GHz, {decode:g} TFLOPS to {decode_pct}% for {ranges[1][0] / GHz:.4f}-"
            f"{ranges[1][1] / GHz:.4f} GHz; both hold only for {both[0] / GHz:.4f}-{both[1] / GHz:.4f} GHz.",
        )
    return table(headers, rows, ("right",) * 4) + "\n\n" + allowed + "\n"
