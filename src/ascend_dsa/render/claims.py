"""The claims ledger as Markdown: the whole ledger, one chapter's claims, one claim, and the tables that back them.

Every renderer here runs [`ascend_dsa.report.claims.check_claims`][] on the claims it shows *before* it draws anything,
so a figure that no longer agrees with the report raises [`FigureMismatch`][] inside the page's block and the
strict build fails, naming the claim.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import peak_flops
from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST
from ascend_dsa.facts.kv_formats import KvFormat
from ascend_dsa.facts.kv_formats import kv_bytes_per_token as kv_bytes_per_token_of
from ascend_dsa.facts.report_figures import FigureValue, published_number
from ascend_dsa.models.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_bytes_per_block,
    fixpipe_cycles_per_block,
    hf32_fma_per_cycle,
    identity_rescale_cycles,
    mma_cycles_per_block,
)
from ascend_dsa.models.design_point import fixpipe_bytes_per_cycle
from ascend_dsa.models.memory_plans import l0c_output_bytes, l0c_scores_bytes, vector_cores_for_accumulator
from ascend_dsa.models.mte2 import requests_per_block, tokens_in_flight
from ascend_dsa.models.nd2nz_stride import (
    UB_VECTOR_BYTES,
    bank_slots,
    blocks_per_token,
    l1_nz_stride_bytes,
    nz_block_bytes,
    token_bytes,
    ub_nz_stride_bytes,
    worst_slot_conflict,
)
from ascend_dsa.models.peak_clock import clock_range_for_percent, intersect
from ascend_dsa.models.rescale_bound import illustrative_sm_scale, raw_logit_threshold, rescale_factor_bound
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK, head_roofline
from ascend_dsa.models.schedule import (
    VECTOR_STAGES,
    blocks_per_index_group,
    index_group_remainder,
    pipeline_depth,
    qk_cycles_per_block,
    report_order_share,
    softmax_slack_cycles,
    sv_cycles_per_block,
)
from ascend_dsa.models.throughput import cycles_per_block_at, fraction_of_peak
from ascend_dsa.render.markdown import UNITS_ZH, Align, Lang, check_lang, group_digits, pick, table, unit_name
from ascend_dsa.render.sources import citation
from ascend_dsa.report.claims import (
    CHAPTERS,
    SHIPPED_CONTEXT,
    ClaimContext,
    ClaimResult,
    Rule,
    RuleKind,
    check_claims,
    evaluate_claims,
)
from ascend_dsa.units import TFLOPS, GHz, KiB

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

#: Chapter titles as in the navigation (zh) and its English translation.
CHAPTER_TITLES: Final = {
    "index": ("前言", "Preface"),
    "algorithm/flow": ("计算流程", "The computation"),
    "discussion/heads-per-core": ("每个 AI Core 负责多少个 q head", "How many q heads per AI Core"),
    "discussion/accumulator": ("FA 的 output accumulator 在哪里做", "Where the FA output accumulator lives"),
    "discussion/one-vector-core": ("能不能用 1C1V", "Can one VECTOR Core do (1C1V)?"),
    "discussion/nd2nz-when": ("KV 的 ND2NZ Layout 转换何时进行", "When the KV's ND2NZ conversion happens"),
    "pipeline": ("流水线", "The pipeline"),
    "optimizations/gather2": ("gather2", "gather2"),
    "optimizations/kv-cache-layout": ("Decoding KV Cache Layout 优化", "Decoding KV cache layout"),
    "optimizations/fast-nd2nz": ("高速 ND2NZ", "Fast ND2NZ"),
    "optimizations/icache": ("icache miss 问题", "icache misses"),
    "optimizations/l1-banks": ("L1 bank 配平", "Balancing the L1 banks"),
}

#: Names of the VECTOR stages (schedule.VECTOR_STAGES keys).
_STAGE_NAMES: Final = {
    "index-read": ("读取 index（GM → UB）", "read indices (GM -> UB)"),
    "nd2nz-and-copy-to-l1": ("ND2NZ 并经 MTE3 拷到 L1", "ND2NZ, then MTE3 copy to L1"),
    "softmax": ("softmax，结果 S 拷到 L1", "softmax, S copied to L1"),
    "index-preprocess": ("预处理 index（gather2 参数）", "preprocess indices (gather2 parameters)"),
    "scale-o": ("O scale（未 skip 时）", "scale O (unless skipped)"),
    "skip-scale-flag": ("写 skip-scale 标志到 SS buffer", "write skip-scale flag to the SS buffer"),
    "kv-gather": ("发起 MTE2 gather（GM → UB）", "issue MTE2 gather (GM -> UB)"),
}


def chapter_title(chapter: str, lang: Lang) -> str:
    """The chapter's title in the page's language."""
    zh, en = CHAPTER_TITLES[chapter]
    return pick(lang, zh, en)


def rule_text(rule: Rule, lang: Lang) -> str:
    """The comparison rule in words."""
    texts = {
        RuleKind.EXACT: ("完全相等", "exact"),
        RuleKind.ROUNDED: (f"我们的值四舍五入到 {rule.decimals} 位小数", f"ours rounded to {rule.decimals} decimals"),
        RuleKind.PERCENT: ("我们的比例四舍五入到整数百分比", "ours rounded to a whole percent"),
        RuleKind.RELATIVE: (f"与报告值相差不超过 {rule.tolerance:.0%}", f"within {rule.tolerance:.0%} of the report"),
        RuleKind.MEMBER: ("我们的值是报告所列之一", "ours is one of the report's values"),
        RuleKind.AT_MOST: ("我们的值不超过报告值", "ours at most the report's"),
    }
    zh, en = texts[rule.kind]
    if rule.kind is RuleKind.PERCENT and rule.decimals:
        zh, en = (
            f"我们的比例四舍五入到 {rule.decimals} 位小数的百分比",
            f"ours as a percent to {rule.decimals} decimals",
        )
    return pick(lang, zh, en)


def _number(value: float, decimals: int) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return group_digits(value)
    return group_digits(value, decimals)


def format_figure(value: FigureValue, decimals: int = 4) -> str:
    """A figure for a table cell: whole numbers grouped, others to ``decimals``, tuples in parentheses."""
    if isinstance(value, tuple):
        return "(" + ", ".join(format_figure(v, decimals) for v in value) + ")"
    return _number(value, decimals)


#: Count units as a Chinese page writes them after a number (5 块, 64 个 head).
#: The singular of each plural count unit, for a value of exactly one (1 row, not 1 rows).
_SINGULAR: Final = {unit: unit.removesuffix("s") for unit in UNITS_ZH if unit.endswith("s") and "/" not in unit}


def with_unit(text: str, value: FigureValue, unit: str, lang: Lang) -> str:
    """``text`` (a formatted value) followed by ``unit`` in the page's language, singular for exactly one."""
    if not unit:
        return text
    if lang == "zh":
        return f"{text} {unit_name(unit, lang)}"
    if not isinstance(value, tuple) and value == 1:
        return f"{text} {_SINGULAR.get(unit, unit)}"
    return f"{text} {unit}"


def _ours_cell(result: ClaimResult, lang: Lang) -> str:
    rule, unit = result.claim.rule, result.claim.figure.unit
    ours = result.ours
    if rule.kind is RuleKind.PERCENT and not isinstance(ours, tuple):
        return f"{100 * ours:.2f} %"
    decimals = 2 if rule.kind is RuleKind.RELATIVE else 4
    return with_unit(format_figure(ours, decimals), ours, unit, lang)


def _published_text(value: FigureValue) -> str:
    """A published figure exactly as stored: whole numbers grouped, decimals as written."""
    if isinstance(value, tuple):
        return "(" + ", ".join(_published_text(v) for v in value) + ")"
    return group_digits(value) if float(value).is_integer() else repr(value)


def _theirs_cell(result: ClaimResult, lang: Lang) -> str:
    figure = result.claim.figure
    unit = "%" if result.claim.rule.kind is RuleKind.PERCENT else figure.unit
    text = with_unit(_published_text(figure.value), figure.value, unit, lang)
    if not figure.written:
        return text
    return pick(lang, f"{text}（原文 `{figure.written}`）", f"{text} (written `{figure.written}`)")


def _line_cell(result: ClaimResult, lang: Lang) -> str:
    citation = result.claim.figure.citation
    lines = (
        str(citation.first_line)
        if citation.first_line == citation.last_line
        else f"{citation.first_line}-{citation.last_line}"
    )
    return pick(lang, f"第 {lines} 行", f"line {lines}")


def status_text(passed: bool, lang: Lang) -> str:  # noqa: FBT001 - a status is a plain boolean
    """✅ or ❌ with a word."""
    return pick(lang, "✅ 一致", "✅ agrees") if passed else pick(lang, "❌ 不一致", "❌ differs")


def _statement(result: ClaimResult, lang: Lang) -> str:
    text = pick(lang, result.claim.zh, result.claim.en)
    return text + pick(lang, "（取自报告的常量）", " (constant taken from the report)") if result.claim.stated else text


def _claims_table(results: Sequence[ClaimResult], lang: Lang) -> str:
    headers = [
        pick(lang, "报告 (zh)", "report (zh)"),
        pick(lang, "编号", "id"),
        pick(lang, "说法（我们的话）", "claim (our words)"),
        pick(lang, "我们算的", "ours"),
        pick(lang, "报告的", "report's"),
        pick(lang, "比较规则", "rule"),
        pick(lang, "状态", "status"),
    ]
    rows = [
        [
            _line_cell(r, lang),
            f"`{r.claim.claim_id}`",
            _statement(r, lang),
            _ours_cell(r, lang),
            _theirs_cell(r, lang),
            rule_text(r.claim.rule, lang),
            status_text(r.passed, lang),
        ]
        for r in results
    ]
    aligns: tuple[Align, ...] = ("left", "left", "left", "right", "right", "left", "left")
    return table(headers, rows, aligns)


def render_claim_ledger(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh", check: bool = True) -> str:
    """Every claim of the report, chapter by chapter; with ``check``, raise on any failing claim first."""
    check_lang(lang)
    results = check_claims(design) if check else evaluate_claims(design)
    parts = []
    for chapter in CHAPTERS:
        chosen = [r for r in results if r.claim.chapter == chapter]
        if chosen:
            parts.append(f"**{chapter_title(chapter, lang)}**\n\n{_claims_table(chosen, lang)}")
    passed = sum(r.passed for r in results)
    summary = pick(
        lang,
        f"共 {len(results)} 条，{passed} 条一致。",
        f"{len(results)} claims, {passed} agree.",
    )
    return "\n\n".join([summary, *parts]) + "\n"


def render_chapter_claims(chapter: str, design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The claims of one chapter as a table, after checking them."""
    check_lang(lang)
    return _claims_table(check_claims(design, chapter=chapter), lang) + "\n"


def render_claim(claim_id: str, design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """One claim in a sentence: ours, the report's, the rule and the status, after checking it."""
    (result,) = check_claims(design, ids=(claim_id,))
    citation = result.claim.figure.citation
    where = pick(lang, f"报告 (zh) 第 {citation.first_line} 行", f"report (zh) line {citation.first_line}")
    theirs = _theirs_cell(result, lang)
    return pick(
        lang,
        f"{status_text(result.passed, lang)}：我们算得 **{_ours_cell(result, lang)}**，{where}为 **{theirs}**"
        f"（{rule_text(result.claim.rule, lang)}；`{claim_id}`）。\n",
        f"{status_text(result.passed, lang)}: we compute **{_ours_cell(result, lang)}**, {where} has "
        f"**{theirs}** ({rule_text(result.claim.rule, lang)}; `{claim_id}`).\n",
    )


def claim_lines(results: Iterable[ClaimResult], lang: Lang = "en") -> list[str]:
    """Plain-text lines for the command line: line, id, claim, ours, theirs, rule, status."""
    return [
        f"{_line_cell(r, lang):<14} {'PASS' if r.passed else 'FAIL'}  {r.claim.claim_id}: {_statement(r, lang)}\n"
        f"{'':<20} ours {_ours_cell(r, lang)} | report {_theirs_cell(r, lang)} | {rule_text(r.claim.rule, lang)}"
        for r in results
    ]


# --- tables behind the chapters -------------------------------------------------------------------------------


def render_peak_table(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """410 and 360 TFLOPS against the derived peak, rounded as the report does, and cycles per block implied."""
    results = check_claims(design, ids=("prefill-percent-of-peak", "decode-percent-of-peak"))
    spec, config = design.spec, design.config
    mma = mma_cycles_per_block(spec, config, design.model)
    rows = []
    for result, key, name in zip(
        results, ("prefill-tflops", "decode-tflops"), (("prefill", "prefill"), ("decode", "decode")), strict=True
    ):
        achieved = published_number(key)
        fraction = fraction_of_peak(achieved * TFLOPS, spec)
        rows.append(
            [
                pick(lang, *name),
                f"{achieved:g}",
                f"{100 * fraction:.2f} %",
                f"{round(100 * fraction)} %",
                _theirs_cell(result, lang),
                f"{float(mma):.0f}",
                f"{cycles_per_block_at(achieved * TFLOPS, spec, config, design.model):.1f}",
                status_text(result.passed, lang),
            ]
        )
    headers = [
        pick(lang, "场景", "case"),
        pick(lang, "报告 TFLOPS", "report TFLOPS"),
        pick(lang, "占推导峰值", "of derived peak"),
        pick(lang, "取整", "rounded"),
        pick(lang, "报告", "report"),
        pick(lang, "每块 MMA 周期", "MMA cycles per block"),
        pick(lang, "每块实际周期（推算）", "implied cycles per block"),
        pick(lang, "状态", "status"),
    ]
    peak = peak_flops(spec) / TFLOPS
    caption = pick(
        lang,
        f"推导峰值 = {spec.cube_fma_per_cycle} FMA × 2 FLOP × {spec.clock_hz / GHz:g} GHz × {spec.ai_cores} 个 AI Core"
        f" = {peak:.2f} TFLOPS（报告没有写出这个数）。每块为 {config.mma_m} 行 × {config.b_topk} 个 token。",
        f"Derived peak = {spec.cube_fma_per_cycle} FMA x 2 FLOP x {spec.clock_hz / GHz:g} GHz x {spec.ai_cores}"
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
    check_claims(design, ids=("prefill-percent-of-peak", "decode-percent-of-peak"))
    prefill, decode = published_number("prefill-tflops"), published_number("decode-tflops")
    prefill_pct = round(published_number("prefill-percent-of-peak"))
    decode_pct = round(published_number("decode-percent-of-peak"))
    rows = []
    for clock in clocks_hz:
        spec = design.spec.with_overrides(clock_hz=clock)
        rows.append(
            [
                f"{clock / GHz:.2f}",
                f"{peak_flops(spec) / TFLOPS:.2f}",
                f"{100 * fraction_of_peak(prefill * TFLOPS, spec):.2f} %",
                f"{100 * fraction_of_peak(decode * TFLOPS, spec):.2f} %",
            ]
        )
    headers = [
        pick(lang, "主频 (GHz)", "clock (GHz)"),
        pick(lang, "峰值 TFLOPS", "peak TFLOPS"),
        f"{prefill:g} TFLOPS",
        f"{decode:g} TFLOPS",
    ]
    ranges = (
        clock_range_for_percent(prefill * TFLOPS, prefill_pct, design.spec),
        clock_range_for_percent(decode * TFLOPS, decode_pct, design.spec),
    )
    both = intersect(*ranges)
    if both is None:
        allowed = pick(lang, "没有一个主频能同时满足两个百分比。", "No clock satisfies both percentages.")
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


def render_l0c_budget(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """L0C use: O alone at 128 heads against the shipped 64 heads' O plus P."""
    check_claims(design, ids=("l0c-o-at-128-heads", "l0c-capacity"))
    spec, config, model = design.spec, design.config, design.model
    rows = []
    for name, heads, with_p in (
        (("128 个 head，只放 O", "128 heads, O alone"), 128, False),
        ((f"{config.mma_m} 个 head，O + P（源码）", f"{config.mma_m} heads, O + P (code)"), config.mma_m, True),
    ):
        o_bytes = l0c_output_bytes(heads, model)
        p_bytes = l0c_scores_bytes(config) if with_p else 0
        total = o_bytes + p_bytes
        rows.append(
            [
                pick(lang, *name),
                f"{o_bytes // KiB} KiB",
                f"{p_bytes // KiB} KiB" if p_bytes else "—",
                f"{total // KiB} KiB",
                f"{100 * total / spec.l0c_bytes:.1f} %",
            ]
        )
    headers = [
        pick(lang, "情形", "case"),
        "O (fp32)",
        "P (fp32)",
        pick(lang, "合计", "total"),
        pick(lang, f"占 L0C（{spec.l0c_bytes // KiB} KiB）", f"of L0C ({spec.l0c_bytes // KiB} KiB)"),
    ]
    return table(headers, rows, ("left", "right", "right", "right", "right")) + "\n"


def render_accumulator_ub_share(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The fp32 accumulator in UB, split over one or two VECTOR Cores, at the shipped and at 128 heads."""
    check_claims(design, ids=("accumulator-vector-cores-at-128-heads",))
    spec, model = design.spec, design.model
    ub = spec.ub_bytes_per_vector_core
    rows = []
    for heads in (design.config.mma_m, max(REPORT_HEADS)):
        for cores in range(1, spec.vector_cores_per_ai_core + 1):
            share = -(-l0c_output_bytes(heads, model) // cores)
            rows.append(
                [
                    str(heads),
                    str(cores),
                    f"{share // KiB} KiB",
                    f"{100 * share / ub:.0f} %",
                    pick(lang, "有", "yes") if share < ub else pick(lang, "没有", "none"),
                ]
            )
    headers = [
        pick(lang, "head 数", "heads"),
        pick(lang, "分担的 VECTOR Core", "VECTOR Cores sharing it"),
        pick(lang, "每个 VECTOR Core 的累加器", "accumulator per VECTOR Core"),
        pick(lang, f"占一个 UB（{ub // KiB} KiB）", f"of one UB ({ub // KiB} KiB)"),
        pick(lang, "给 KV、P 等留的空间", "room left for KV, P and the rest"),
    ]
    heads = max(REPORT_HEADS)
    cores = vector_cores_for_accumulator(spec, heads, model)
    caption = pick(
        lang,
        f"{heads} 个 head 时，至少要 {cores} 个 VECTOR Core 分担累加器，每个 UB 才还有空间放别的数据。",
        f"At {heads} heads it takes at least {cores} VECTOR Cores sharing the accumulator before each UB has room "
        "for anything else.",
    )
    return table(headers, rows, ("right", "right", "right", "right", "left")) + "\n\n" + caption + "\n"


def render_identity_rescale(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The identity-matmul rescale at the exact-fp32 and full rates, against one block's MMA."""
    check_claims(design, ids=("identity-rescale-cycles", "hf32-off-fma-per-cycle"))
    spec, config, model = design.spec, design.config, design.model
    m, k, n = config.mma_m, config.mma_m, model.d_v
    block = mma_cycles_per_block(spec, config, model)
    rows = []
    for name, exact, rate in (
        (("关闭 HF32（精确 fp32）", "HF32 off (exact fp32)"), True, spec.cube_fma_per_cycle_exact_fp32),
        (
            ("开启 HF32（损失精度；速率是我们的假设）", "HF32 on (loses precision; the rate is our assumption)"),
            False,
            hf32_fma_per_cycle(spec),
        ),
    ):
        cycles = identity_rescale_cycles(spec, m, k, n, exact_fp32=exact)
        rows.append([pick(lang, *name), f"{rate}", f"{float(cycles):.0f}", f"{float(cycles / block):.2f} ×"])
    headers = [
        pick(lang, f"{m}×{k}×{n} 单位矩阵乘", f"{m}x{k}x{n} identity matmul"),
        pick(lang, "FMA/周期", "FMA/cycle"),
        pick(lang, "周期", "cycles"),
        pick(
            lang, f"相当于一块 MMA（{float(block):.0f} 周期）的", f"times one block's MMA ({float(block):.0f} cycles)"
        ),
    ]
    return table(headers, rows, ("left", "right", "right", "right")) + "\n"


def render_mte2_in_flight(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """Tokens the MTE2 queue keeps in flight against the tokens a block needs, under 1C2V and 1C1V."""
    check_claims(design, ids=("mte2-outstanding-requests", "mte2-tokens-in-flight", "gather2-burst-count"))
    spec, config = design.spec, design.config
    rows = []
    for vector_cores in (config.vector_cores_per_cube, 1):
        variant = config.with_overrides(vector_cores_per_cube=vector_cores)
        requests = requests_per_block(variant)
        rows.append(
            [
                f"1C{vector_cores}V",
                variant.b_topk_per_vector_core,
                GATHER2_TOKENS_PER_REQUEST,
                requests,
                spec.mte2_outstanding_requests,
                tokens_in_flight(spec),
                f"{requests / spec.mte2_outstanding_requests:.0f} ×",
            ]
        )
    headers = [
        pick(lang, "配置", "setup"),
        pick(lang, "每个 VECTOR Core 每块的 token", "tokens per VECTOR Core per block"),
        pick(lang, "每请求 token（gather2）", "tokens per request (gather2)"),
        pick(lang, "每块请求数", "requests per block"),
        pick(lang, "队列深度", "queue depth"),
        pick(lang, "同时在途 token", "tokens in flight"),
        pick(lang, "每块需要几轮队列", "queue refills per block"),
    ]
    return table(headers, rows, ("left", *("right",) * 6)) + "\n"


def render_gather2_requests(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """MTE2 requests per VECTOR Core per block with one token per request and with gather2's two."""
    check_claims(design, ids=("mte2-queue-depth", "gather2-burst-count"))
    spec, config = design.spec, design.config
    rows = []
    for name, per_request in ((("每请求 1 个 token", "1 token per request"), 1), (("gather2", "gather2"), None)):
        tokens = GATHER2_TOKENS_PER_REQUEST if per_request is None else per_request
        requests = requests_per_block(config, tokens)
        rows.append(
            [
                pick(lang, *name),
                tokens,
                config.b_topk_per_vector_core,
                requests,
                spec.mte2_outstanding_requests,
                tokens_in_flight(spec, tokens),
                f"{requests / spec.mte2_outstanding_requests:.0f} ×",
            ]
        )
    headers = [
        pick(lang, "方式", "how"),
        pick(lang, "每请求 token", "tokens per request"),
        pick(lang, "每个 VECTOR Core 每块的 token", "tokens per VECTOR Core per block"),
        pick(lang, "每块请求数", "requests per block"),
        pick(lang, "队列深度", "queue depth"),
        pick(lang, "同时在途 token", "tokens in flight"),
        pick(lang, "每块需要几轮队列", "queue refills per block"),
    ]
    return table(headers, rows, ("left", *("right",) * 6)) + "\n"


def render_fixpipe_table(
    b_topks: Iterable[int] = (32, 64, 73, 74, 96, 128), design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """Under 1C1V: MMA against FixPipe cycles per block, with O leaving every block and with only P leaving."""
    check_claims(
        design,
        ids=(
            "mma-cycles-per-token",
            "fixpipe-cycles-formula",
            "fixpipe-break-even-b-topk",
            "fixpipe-margin-b-topk",
            "fixpipe-bytes-per-cycle-1c1v",
        ),
    )
    spec, model = design.spec, design.model
    rows = []
    for b_topk in b_topks:
        config = design.config.with_overrides(b_topk=b_topk)
        mma = mma_cycles_per_block(spec, config, model)
        both = fixpipe_cycles_per_block(spec, config, model)
        p_only = fixpipe_cycles_per_block(spec, config, model, o_leaves=False)
        rows.append(
            [
                b_topk,
                f"{float(mma):.0f}",
                f"{float(both):.0f}",
                _bound(mma, both, lang),
                f"{float(p_only):.0f}",
                _bound(mma, p_only, lang),
            ]
        )
    headers = [
        "B_TOPK",
        pick(lang, "MMA 周期", "MMA cycles"),
        pick(lang, "FixPipe：O + P 每块都搬", "FixPipe: O + P every block"),
        pick(lang, "瓶颈", "bound"),
        pick(lang, "FixPipe：只搬 P", "FixPipe: P only"),
        pick(lang, "瓶颈", "bound"),
    ]
    break_even = fixpipe_break_even_b_topk(spec, design.config, model)
    caption = pick(
        lang,
        f"FixPipe 速率 {spec.fixpipe_bytes_per_cycle_1c1v} B/周期；两条直线交于 B_TOPK = {float(break_even):.4f}。"
        f"“只搬 P”即 O 留在 L0C、只在 rescale 或最后一块时才搬出的情形。",
        f"FixPipe at {spec.fixpipe_bytes_per_cycle_1c1v} B/cycle; the two lines cross at B_TOPK ="
        f" {float(break_even):.4f}. 'P only' is the case where O stays in L0C and leaves only on a rescale or"
        f" after the last block.",
    )
    return table(headers, rows, ("right", "right", "right", "left", "right", "left")) + "\n\n" + caption + "\n"


def _bound(mma: Fraction, fixpipe: Fraction, lang: Lang) -> str:
    if fixpipe > mma:
        return pick(lang, "FixPipe bound", "FixPipe-bound")
    if fixpipe == mma:
        return pick(lang, "持平", "tie")
    return pick(lang, "MMA bound", "MMA-bound")


def render_skip_scale_savings(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """What leaves L0C per block with and without a rescale, and the FixPipe cycles at the 1C1V and 1C2V rates.

    The 1C1V rate is the report's (line 142); the 1C2V rate is `ascend_dsa.facts.assumptions.FIXPIPE_1C2V`.
    """
    check_claims(design, ids=("fixpipe-bytes-per-cycle-1c1v", "fixpipe-cycles-formula"))
    spec, config, model = design.spec, design.config, design.model
    mma = mma_cycles_per_block(spec, config, model)
    one_v, two_v = fixpipe_bytes_per_cycle(spec, 1), fixpipe_bytes_per_cycle(spec, 2)
    rows = []
    for name, o_leaves in (
        (("触发 rescale：O 与 P", "rescale: O and P"), True),
        (("skip：只有 P", "skip: P only"), False),
    ):
        moved = fixpipe_bytes_per_block(config, model, o_leaves=o_leaves)
        row: list[object] = [pick(lang, *name), f"{moved // KiB} KiB"]
        for rate in (one_v, two_v):
            cycles = Fraction(moved, rate)
            row += [f"{float(cycles):.0f}", f"{float(cycles / mma):.3f}"]
        rows.append(row)
    headers = [
        pick(lang, "本块", "this block"),
        pick(lang, "FixPipe 搬出", "FixPipe moves"),
        pick(lang, f"1C1V 周期（{one_v} B/周期）", f"1C1V cycles ({one_v} B/cycle)"),
        pick(lang, f"与一块 MMA（{float(mma):.0f}）之比", f"over one block's MMA ({float(mma):.0f})"),
        pick(lang, f"1C2V 周期（{two_v} B/周期，假设）", f"1C2V cycles ({two_v} B/cycle, assumed)"),
        pick(lang, "与一块 MMA 之比", "over one block's MMA"),
    ]
    return table(headers, rows, ("left", "right", "right", "right", "right", "right")) + "\n"


def render_token_blocks(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """One token as 32 B blocks, and the L1 stride the rejected on-the-way conversion would have needed."""
    check_claims(design, ids=("token-as-blocks",))
    config, model = design.config, design.model
    rows = [
        [pick(lang, "一个 token", "one token"), f"{model.d_qk} × {model.element_bytes} B = {token_bytes(model)} B"],
        [
            pick(lang, "NZ 数据块", "NZ block"),
            f"{config.fractal_cols} × {model.element_bytes} B = {nz_block_bytes(config, model)} B",
        ],
        [pick(lang, "每 token 的块数", "blocks per token"), f"{blocks_per_token(config, model)}"],
        [
            pick(lang, "L1 中相邻两块的间距（B_TOPK × 32 B）", "L1 distance between a token's blocks (B_TOPK x 32 B)"),
            f"{config.b_topk} × {nz_block_bytes(config, model)} B = {l1_nz_stride_bytes(config, model)} B",
        ],
    ]
    return table([pick(lang, "量", "quantity"), pick(lang, "值", "value")], rows, ("left", "right")) + "\n"


def render_nd2nz_banks(
    pad_rows: Iterable[int] = (0, 1), design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """Where the eight 32 B blocks of one 256 B vector land in UB, without and with the padded row."""
    check_claims(design, ids=("nz-padding-rows", "nd2nz-vector-pair"))
    config, model = design.config, design.model
    block = nz_block_bytes(config, model)
    rows = []
    for pad in pad_rows:
        stride = ub_nz_stride_bytes(config, model, pad)
        rows.append(
            [
                pad,
                f"({config.b_topk_per_vector_core} + {pad}) × {block} = {stride} B",
                f"{stride % UB_VECTOR_BYTES} B",
                " ".join(str(s) for s in bank_slots(stride, block)),
                f"{worst_slot_conflict(stride, block)}",
            ]
        )
    headers = [
        pick(lang, "pad 行数", "padded rows"),
        pick(lang, "间距", "stride"),
        pick(lang, f"间距 mod {UB_VECTOR_BYTES}", f"stride mod {UB_VECTOR_BYTES}"),
        pick(lang, "8 个块落在的槽（0-7）", "slot of each of the 8 blocks (0-7)"),
        pick(lang, "最多几块挤同一槽", "most blocks in one slot"),
    ]
    return table(headers, rows, ("right", "right", "right", "left", "right")) + "\n"


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
        rows.append([name, f"{float(start):.0f}", f"{float(start + cycles):.0f}", note])
        start += cycles
    headers = [pick(lang, "CUBE 上的矩阵乘", "CUBE GEMM"), pick(lang, "开始", "start"), pick(lang, "结束", "end"), ""]
    slack = softmax_slack_cycles(spec, config, model)
    caption = pick(
        lang,
        f"QK 与 SV 各为 {config.mma_m}×{config.b_topk}×{model.d_qk} 次乘加 ÷ {spec.cube_fma_per_cycle}"
        f" = {float(qk):.0f} 周期；"
        f"P[i] 就绪到被用到之间隔着 SV[i-1] + QK[i+1] = {float(slack):.0f} 周期。",
        f"QK and SV are each {config.mma_m}x{config.b_topk}x{model.d_qk} MACs / {spec.cube_fma_per_cycle} ="
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
                pick(lang, *_STAGE_NAMES[stage.key]),
                pick(lang, f"第 {stage.report_line} 行", f"line {stage.report_line}"),
                f"`{result.claim.figure.written}`",
                f"`ACTIVATE({stage.offset}, …)`",
                citation(stage.source, lang),
                status_text(result.passed, lang),
            ]
        )
    headers = [
        pick(lang, "步", "step"),
        pick(lang, "做什么", "what"),
        pick(lang, "报告 (zh)", "report (zh)"),
        pick(lang, "报告的块", "report's block"),
        pick(lang, "源码", "code"),
        pick(lang, "源码位置", "code line"),
        pick(lang, "状态", "status"),
    ]
    caption = pick(
        lang,
        f"最大偏移 + 1 = {pipeline_depth()} 个块同时在流水线里，即源码的 `SYSTOLIC_ARR_DEPTH`。",
        f"Largest offset + 1 = {pipeline_depth()} blocks in flight at once: the code's `SYSTOLIC_ARR_DEPTH`.",
    )
    return table(headers, rows, ("right", "left", "left", "left", "left", "left", "left")) + "\n\n" + caption + "\n"


def render_schedule_order_share(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """How often the code runs steps 6 and 7 in the report's order."""
    config = design.config
    group = blocks_per_index_group(config)
    share = report_order_share(config)
    return pick(
        lang,
        f"一组 index 有 {config.index_block_size} 个，按 B_TOPK = {config.b_topk} 切成 {group} 块；"
        f"只有第 i+5 块恰好开启新一组时（每 {group} 步 1 次，{float(share):.0%}），"
        "源码才按报告的顺序先写标志、再发 gather。\n",
        f"A group of indices holds {config.index_block_size}, cut by B_TOPK = {config.b_topk} into {group} blocks; only"
        f" when block i+5 starts a new group (1 step in {group}, {float(share):.0%}) does the code write the flag"
        " before issuing the gather, as the report lists them.\n",
    )


def render_b_topk_divisibility(
    b_topks: Iterable[int] = (64, 96), design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """Whether each B_TOPK cuts a group of indices into whole blocks (config.h:57 requires it)."""
    check_claims(design, ids=("b-topk-choices",))
    rows = []
    for b_topk in b_topks:
        config = design.config.with_overrides(b_topk=b_topk)
        remainder = index_group_remainder(config)
        rows.append(
            [
                b_topk,
                f"{config.index_block_size} mod {b_topk} = {remainder}",
                f"{config.index_block_size / b_topk:.3g}",
                pick(lang, "能编译", "compiles")
                if remainder == 0
                else pick(lang, "static_assert 失败", "static_assert fails"),
                "✅" if b_topk == design.config.b_topk else "—",
            ]
        )
    headers = [
        "B_TOPK",
        "INDEX_BLOCK_SIZE mod B_TOPK",
        pick(lang, "每组块数", "blocks per group"),
        "config.h:57",
        pick(lang, "源码所用", "shipped"),
    ]
    return table(headers, rows, ("right", "left", "right", "left", "left")) + "\n"


def render_rescale_threshold(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The threshold, its exp bound, and the same threshold on raw logits for an illustrative sm_scale."""
    check_claims(design, ids=("rescale-threshold", "rescale-factor-bound"))
    threshold = design.config.rescale_threshold
    sm_scale = illustrative_sm_scale(design.model)
    rows = [
        [
            pick(lang, "阈值（作用在乘过 sm_scale 的 logit 上）", "threshold (on logits times sm_scale)"),
            f"{threshold:g}",
        ],
        [
            pick(lang, "不 rescale 时因子的上界 exp(阈值)", "bound on the factor without a rescale, exp(threshold)"),
            f"{rescale_factor_bound(threshold):.4f}",
        ],
        [
            pick(
                lang,
                f"示例 sm_scale = 1/√{design.model.d_qk}（假设）",
                f"illustrative sm_scale = 1/sqrt({design.model.d_qk}) (assumed)",
            ),
            f"{sm_scale:.5f}",
        ],
        [
            pick(
                lang, "同一阈值换算到原始 logit：阈值 / sm_scale", "same threshold on raw logits: threshold / sm_scale"
            ),
            f"{raw_logit_threshold(threshold, sm_scale):.2f}",
        ],
    ]
    return table([pick(lang, "量", "quantity"), pick(lang, "值", "value")], rows, ("left", "right")) + "\n"


def render_fp8_roofline(
    kv_bytes_per_token: int | None = None, design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """The head roofline at the shipped heads with bf16 KV (as the report) and FP8 KV.

    ``kv_bytes_per_token`` defaults to the FP8 "V41" token of [`ascend_dsa.facts.kv_formats`][]: 512 e4m3 values plus
    16 ue8m0 scales, one per 32 dims, 528 B (kv_cache_format.h).
    """
    check_claims(design, ids=("head-roofline-line-108", "head-roofline-line-109"))
    spec, model, heads = design.spec, design.model, design.config.heads_per_core
    if kv_bytes_per_token is None:
        kv_bytes_per_token = kv_bytes_per_token_of(KvFormat.FP8, model)
    rows = []
    for topk in REPORT_TOPK:
        bf16 = head_roofline(spec, heads, topk, model)
        fp8 = head_roofline(spec, heads, topk, model, kv_bytes_per_token)
        rows.append(
            [
                topk,
                bf16.cube_cycles,
                f"{bf16.l2_cycles:.0f}",
                f"{bf16.ratio:.2f}",
                f"{fp8.l2_cycles:.0f}",
                f"{fp8.ratio:.2f}",
            ]
        )
    headers = [
        pick(lang, f"topk（h_q = {heads}）", f"topk (h_q = {heads})"),
        pick(lang, "CUBE 周期", "CUBE cycles"),
        pick(lang, "L2 周期（bf16，报告）", "L2 cycles (bf16, report)"),
        pick(lang, "算存比", "ratio"),
        pick(lang, f"L2 周期（FP8，{kv_bytes_per_token} B/token）", f"L2 cycles (FP8, {kv_bytes_per_token} B/token)"),
        pick(lang, "算存比", "ratio"),
    ]
    return table(headers, rows, ("right",) * 6) + "\n"
