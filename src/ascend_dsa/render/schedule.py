"""The pipeline chapter's tables: the CUBE's order of GEMMs and the VECTOR Cores' seven steps."""

from __future__ import annotations

from fractions import Fraction

from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.schedule import (
    VECTOR_STAGES,
    blocks_per_index_group,
    pipeline_depth,
    qk_cycles_per_block,
    report_order_share,
    softmax_slack_cycles,
    sv_cycles_per_block,
    vector_stage,
)
from ascend_dsa.render.markdown import Header, citation, number, status_cell, table
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.validate import require_instance


def render_cube_order(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The CUBE's order of GEMMs around block i and the slack it leaves for softmax."""
    check_claims(design, ids=("softmax-slack-cycles",))
    spec, config, model = design.spec, design.config, design.model
    qk, sv = qk_cycles_per_block(spec, config, model), sv_cycles_per_block(spec, config, model)
    steps = (
        (
            "QK[i]",
            qk,
            pick(
                lang, "P[i] 就绪（FixPipe 搬到 UB，VECTOR 开始 softmax）", "P[i] ready (FixPipe to UB, softmax starts)"
            ),
        ),
        ("SV[i-1]", sv, pick(lang, "softmax 进行中", "softmax running")),
        (
            "QK[i+1]",
            qk,
            pick(lang, "softmax 进行中；S[i] 须在此之前到 L1", "softmax running; S[i] must reach L1 by the end"),
        ),
        ("SV[i]", sv, pick(lang, "用到 S[i]", "uses S[i]")),
    )
    rows: list[list[object]] = []
    start = Fraction(0)
    for name, cycles, note in steps:
        rows.append(
            [
                name,
                number(start, f"{float(start):.0f}", "cycles"),
                number(start + cycles, f"{float(start + cycles):.0f}", "cycles"),
                note,
            ]
        )
        start += cycles
    headers: list[str | Header] = [
        pick(lang, "CUBE 上的矩阵乘", "CUBE GEMM"),
        pick(lang, "开始", "start"),
        pick(lang, "结束", "end"),
        Header("", pick(lang, "说明", "note")),
    ]
    slack = softmax_slack_cycles(spec, config, model)
    caption = pick(
        lang,
        f"QK 与 SV 各为 {config.mma_m}×{config.b_topk}×{model.d_qk} 次乘加 ÷ {spec.matrix_fma_per_cycle_per_core}"
        f" = {float(qk):.0f} 周期；"
        f"P[i] 就绪到被用到之间隔着 SV[i-1] + QK[i+1] = {float(slack):.0f} 周期。",
        f"QK and SV are each {config.mma_m}x{config.b_topk}x{model.d_qk} MACs / {spec.matrix_fma_per_cycle_per_core} ="
        f" {float(qk):.0f} cycles; between P[i] ready and used lie SV[i-1] + QK[i+1] = {float(slack):.0f} cycles.",
    )
    return table(headers, rows, ("left", "right", "right", "left")) + "\n\n" + caption + "\n"


def render_vector_schedule(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The VECTOR Cores' seven steps: the report's block offset beside the code's ``ACTIVATE`` offset."""
    results = check_claims(design, ids=tuple(f"vector-step-{s.report_step}-offset" for s in VECTOR_STAGES))
    rows = []
    for stage, result in zip(VECTOR_STAGES, results, strict=True):
        rows.append(
            [
                stage.report_step,
                term(f"stage:{stage.key}", lang),
                pick(lang, f"第 {stage.report_line} 行", f"line {stage.report_line}"),
                f"`{result.figure.written}`",
                f"`ACTIVATE({stage.offset}, …)`",
                citation(stage.source, lang),
                status_cell(result.passed, lang),
            ]
        )
    headers = [
        term("column:step", lang),
        term("column:what", lang),
        term("column:report (zh)", lang),
        pick(lang, "报告的块", "report's block"),
        term("column:code", lang),
        pick(lang, "源码位置", "code line"),
        term("column:status", lang),
    ]
    caption = pick(
        lang,
        f"最大偏移 + 1 = {pipeline_depth()} 个块同时在流水线里，即源码的 `SYSTOLIC_ARR_DEPTH`。",
        f"Largest offset + 1 = {pipeline_depth()} blocks in flight at once: the code's `SYSTOLIC_ARR_DEPTH`.",
    )
    return table(headers, rows, ("right", "left", "left", "left", "left", "left", "left")) + "\n\n" + caption + "\n"


def render_schedule_order_share(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """How often the code runs steps 6 and 7 in the report's order."""
    design = require_instance("design", design, ClaimContext)
    config = design.config
    group = blocks_per_index_group(config)
    share = report_order_share(config)
    ahead = vector_stage("kv-gather").offset  # the block the gather fetches, ahead of block i
    return pick(
        lang,
        f"一组 index 有 {config.index_block_size} 个，按 B_TOPK = {config.b_topk} 切成 {group} 块；"
        f"只有第 i+{ahead} 块恰好开启新一组时（每 {share.denominator} 步 {share.numerator} 次，{float(share):.0%}），"
        "源码才按报告的顺序先写标志、再发 gather。\n",
        f"A group of indices holds {config.index_block_size}, cut by B_TOPK = {config.b_topk} into {group} blocks; only"
        f" when block i+{ahead} starts a new group ({share.numerator} step in {share.denominator}, {float(share):.0%})"
        " does the code write the flag before issuing the gather, as the report lists them.\n",
    )
