"""The accumulator chapter's tables: L0C use, the accumulator's share of UB, and the identity-matmul rescale."""

from __future__ import annotations

from ascend_dsa.lang import Lang, pick
from ascend_dsa.models.block_cycles import (
    hf32_fma_per_cycle,
    identity_rescale_cycles,
    mma_cycles_per_block,
)
from ascend_dsa.models.memory_plans import l0c_output_bytes, l0c_scores_bytes, vector_cores_for_accumulator
from ascend_dsa.models.roofline import REPORT_HEADS
from ascend_dsa.render.format import kib, percent
from ascend_dsa.render.markdown import NO_VALUE, number, table
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.units import KiB


def render_l0c_budget(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """L0C use: O alone at 128 heads against the shipped 64 heads' O plus P."""
    check_claims(design, ids=("l0c-o-at-128-heads", "l0c-capacity"))
    spec, config, model = design.spec, design.config, design.model
    rows = []
    most = max(REPORT_HEADS)
    for name, heads, with_p in (
        ((f"{most} 个 head，只放 O", f"{most} heads, O alone"), most, False),
        ((f"{config.mma_m} 个 head，O + P（源码）", f"{config.mma_m} heads, O + P (code)"), config.mma_m, True),
    ):
        o_bytes = l0c_output_bytes(heads, model)
        p_bytes = l0c_scores_bytes(config) if with_p else 0
        total = o_bytes + p_bytes
        rows.append(
            [
                pick(lang, *name),
                number(o_bytes // KiB, kib(o_bytes), "KiB"),
                number(p_bytes // KiB, kib(p_bytes), "KiB") if p_bytes else NO_VALUE,
                number(total // KiB, kib(total), "KiB"),
                number(
                    100 * total / spec.accumulator_bytes_per_core,
                    percent(total / spec.accumulator_bytes_per_core, 1),
                    "%",
                ),
            ]
        )
    headers = [
        pick(lang, "情形", "case"),
        "O (fp32)",
        "P (fp32)",
        pick(lang, "合计", "total"),
        pick(
            lang,
            f"占 L0C（{kib(spec.accumulator_bytes_per_core)}）",
            f"of L0C ({kib(spec.accumulator_bytes_per_core)})",
        ),
    ]
    return table(headers, rows, ("left", "right", "right", "right", "right")) + "\n"


def render_accumulator_ub_share(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The fp32 accumulator in UB, split over one or two VECTOR Cores, at the shipped and at 128 heads."""
    check_claims(design, ids=("accumulator-vector-cores-at-128-heads",))
    spec, model = design.spec, design.model
    ub = spec.staging_bytes_per_core
    rows = []
    for heads in (design.config.mma_m, max(REPORT_HEADS)):
        for cores in range(1, spec.ascend.vector_cores_per_ai_core + 1):
            share = -(-l0c_output_bytes(heads, model) // cores)
            rows.append(
                [
                    heads,
                    cores,
                    number(share // KiB, kib(share), "KiB"),
                    number(100 * share / ub, percent(share / ub, 0), "%"),
                    pick(lang, "有", "yes") if share < ub else pick(lang, "没有", "none"),
                ]
            )
    headers = [
        pick(lang, "head 数", "heads"),
        pick(lang, "分担的 VECTOR Core", "VECTOR Cores sharing it"),
        pick(lang, "每个 VECTOR Core 的累加器", "accumulator per VECTOR Core"),
        pick(lang, f"占一个 UB（{kib(ub)}）", f"of one UB ({kib(ub)})"),
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
        (("关闭 HF32（精确 fp32）", "HF32 off (exact fp32)"), True, spec.ascend.cube_fma_per_cycle_exact_fp32),
        (
            ("开启 HF32（损失精度；速率是我们的假设）", "HF32 on (loses precision; the rate is our assumption)"),
            False,
            hf32_fma_per_cycle(spec),
        ),
    ):
        cycles = identity_rescale_cycles(spec, m, k, n, exact_fp32=exact)
        rows.append(
            [
                pick(lang, *name),
                rate,
                number(cycles, f"{float(cycles):.0f}", "cycles"),
                number(cycles / block, f"{float(cycles / block):.2f} ×", "×"),
            ]
        )
    headers = [
        pick(lang, f"{m}×{k}×{n} 单位矩阵乘", f"{m}x{k}x{n} identity matmul"),
        pick(lang, "FMA/周期", "FMA/cycle"),
        pick(lang, "周期", "cycles"),
        pick(
            lang, f"相当于一块 MMA（{float(block):.0f} 周期）的", f"times one block's MMA ({float(block):.0f} cycles)"
        ),
    ]
    return table(headers, rows, ("left", "right", "right", "right")) + "\n"
