"""Text and tables for the head roofline: the report's print format, and the page's checked table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kv_formats import KvFormat
from ascend_dsa.facts.kv_formats import kv_bytes_per_token as kv_bytes_per_token_of
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import report_lines
from ascend_dsa.facts.report_figures import published_head_roofline
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.roofline import (
    REPORT_HEADS,
    REPORT_TOPK,
    RooflinePoint,
    Verdict,
    head_roofline,
    head_roofline_sweep,
)
from ascend_dsa.render.markdown import NO_VALUE, Align, Header, number, table
from ascend_dsa.report.checks import check_head_roofline
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.facts.hardware import AscendSpec


def seed_row(point: RooflinePoint) -> str:
    """One row in the report's print format: ``{h_q:3d}, {topk=:4d}, {cube_cycles=:6d}, {mem_cycles=:6.0f}``."""
    h_q, topk, cube_cycles, mem_cycles = point.heads, point.topk, point.cube_cycles, point.l2_cycles
    return f"{h_q:3d}, {topk=:4d}, {cube_cycles=:6d}, {mem_cycles=:6.0f}"


def verdict_line(point: RooflinePoint, balanced_within: float = 0.0, lang: Lang = "en") -> str:
    """One line of the verdict listing: both cycle counts, their ratio and the bound, named in ``lang``."""
    return (
        f"h_q={point.heads:3d}, topk={point.topk:4d}: cube={point.cube_cycles:6d}, mem={point.l2_cycles:8.1f}, "
        f"ratio={point.ratio:5.2f} -> {verdict_text(point.verdict(balanced_within), lang)}"
    )


def verdict_text(verdict: Verdict, lang: Lang) -> str:
    """The verdict in the page's language."""
    return term(f"verdict:{verdict.value}", lang)


def render_head_roofline_table(
    spec: AscendSpec = ASCEND_950,
    heads: Iterable[int] = REPORT_HEADS,
    topk: Iterable[int] = REPORT_TOPK,
    model: ModelShape = DSA_V41,
    *,
    lang: Lang = "zh",
    check: bool = True,
) -> str:
    """The roofline table with the report's value beside ours; with ``check``, raise on any mismatch first.

    ``check`` requires the grid to contain the report's eight (heads, topk) pairs.
    """
    points = head_roofline_sweep(spec, heads, topk, model)
    if check:
        check_head_roofline(points)
    published = {(r.heads, r.topk): r for r in published_head_roofline()}
    headers: list[str | Header] = [
        "h_q",
        "topk",
        term("column:CUBE cycles", lang),
        Header(term("column:report", lang), pick(lang, "报告的 CUBE 周期", "report CUBE cycles")),
        pick(lang, "L2 周期", "L2 cycles"),
        Header(term("column:report", lang), pick(lang, "报告的 L2 周期", "report L2 cycles")),
        term("column:ratio", lang),
        term("column:verdict", lang),
        term("column:source", lang),
    ]
    rows = []
    for p in points:
        row = published.get((p.heads, p.topk))
        rows.append(
            [
                p.heads,
                p.topk,
                p.cube_cycles,
                NO_VALUE if row is None else row.cube_cycles,
                number(p.l2_cycles, f"{p.l2_cycles:.1f}"),
                NO_VALUE if row is None else row.mem_cycles,
                number(p.ratio, f"{p.ratio:.2f}"),
                verdict_text(p.verdict(), lang),
                "—" if row is None or row.line is None else report_lines(row.line).in_(lang),
            ]
        )
    aligns: tuple[Align, ...] = ("right",) * 8 + ("left",)
    caption = pick(
        lang,
        f"每核每周期 L2 字节数 = {spec.bandwidth_bytes_per_cycle_per_core:.3f} B/cycle（{spec.name}）",
        f"L2 bytes per AI Core per cycle = {spec.bandwidth_bytes_per_cycle_per_core:.3f} B/cycle ({spec.name})",
    )
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


def render_fp8_roofline(
    kv_bytes_per_token: int | None = None, design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """The head roofline at the shipped heads with bf16 KV (as the report) and FP8 KV.

    ``kv_bytes_per_token`` defaults to the FP8 ``V41`` token of [`ascend_dsa.facts.kv_formats`][]: 512 e4m3 values plus
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
                number(bf16.l2_cycles, f"{bf16.l2_cycles:.0f}"),
                number(bf16.ratio, f"{bf16.ratio:.2f}"),
                number(fp8.l2_cycles, f"{fp8.l2_cycles:.0f}"),
                number(fp8.ratio, f"{fp8.ratio:.2f}"),
            ]
        )
    headers: list[str | Header] = [
        pick(lang, f"topk（h_q = {heads}）", f"topk (h_q = {heads})"),
        term("column:CUBE cycles", lang),
        pick(lang, "L2 周期（bf16，报告）", "L2 cycles (bf16, report)"),
        Header(term("column:ratio", lang), pick(lang, "算存比（bf16）", "ratio (bf16)")),
        pick(lang, f"L2 周期（FP8，{kv_bytes_per_token} B/token）", f"L2 cycles (FP8, {kv_bytes_per_token} B/token)"),
        Header(term("column:ratio", lang), pick(lang, "算存比（FP8）", "ratio (FP8)")),
    ]
    return table(headers, rows, ("right",) * 6) + "\n"
