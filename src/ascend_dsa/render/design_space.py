"""The design space as tables: every limit of a design point, the report's alternatives, the tile rules, what-ifs.

The figures of the same page (feasibility map, roofline, MMA against FixPipe) are in ``render.design_figures``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.errors import ForbiddenDesign
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_rules import TILE_RULES
from ascend_dsa.lang import Lang, pick, term, unit_name
from ascend_dsa.models.design_point import (
    LIMIT_SOURCES,
    SHIPPED_DESIGN,
    DesignPoint,
    Limit,
    evaluate,
    smallest_compute_bound_heads,
)
from ascend_dsa.render.format import display_width, pad_to, whole_or
from ascend_dsa.render.markdown import NO_VALUE, Align, Cell, citation, kind_name, label, number, table
from ascend_dsa.report.scenarios import ALTERNATIVES
from ascend_dsa.validate import require_iterable

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.facts.hardware import AscendSpec
    from ascend_dsa.lang import Text
    from ascend_dsa.models.design_point import DesignEvaluation


def limit_name(limit: Limit, lang: Lang, *, short: bool = False) -> str:
    """A limit's name in the page's language."""
    return term(f"limit-short:{limit.value}" if short else f"limit:{limit.value}", lang)


def describe_point(point: DesignPoint, lang: Lang) -> str:
    """A design point in one line, in the page's language."""
    sink = pick(lang, "有 sink", "sink") if point.sink else pick(lang, "无 sink", "no sink")
    return pick(
        lang,
        f"{point.heads_per_core} 个 head，topk {point.topk}，B_TOPK {point.b_topk}，1C{point.vector_cores}V，"
        f"KV {point.kv_cache.value}，{sink}，INDEX_BLOCK_SIZE {point.index_block_size}",
        point.describe(),
    )


def render_design_limits(
    spec: AscendSpec = ASCEND_950,
    point: DesignPoint = SHIPPED_DESIGN,
    *,
    lang: Lang = "zh",
    with_sources: bool = True,
) -> str:
    """Every limit of ``point`` side by side: verdict, utilisation, demand, capacity, headroom, and the one that binds.

    ``with_sources=False`` leaves out the source column (narrower, for notebooks).
    """
    evaluation = evaluate(point, spec)
    rows = []
    for c in evaluation.checks:
        source = LIMIT_SOURCES[c.limit]
        kind = kind_name(source, lang)
        mark = " ◀" if c.limit is evaluation.binding else ""
        rows.append(
            [
                f"**{limit_name(c.limit, lang)}**{mark}" if mark else limit_name(c.limit, lang),
                pick(lang, "满足", "fits") if c.fits else pick(lang, "**超出**", "**exceeded**"),
                number(100 * c.utilisation, f"{c.utilisation:.1%}", "%"),
                number(c.demand, whole_or(c.demand, 1)),
                number(c.capacity, whole_or(c.capacity, 1)),
                number(c.headroom, whole_or(c.headroom, 1)),
                unit_name(c.unit, lang),
                citation(source, lang) + pick(lang, f"（{kind}）", f" ({kind})"),
            ]
        )
    headers = [
        pick(lang, "限制", "limit"),
        term("column:verdict", lang),
        term("column:use", lang),
        pick(lang, "需求", "demand"),
        term("column:capacity", lang),
        term("column:headroom", lang),
        pick(lang, "单位", "unit"),
        term("column:source", lang),
    ]
    caption = pick(
        lang,
        f"设计点：{describe_point(point, lang)}；硬件：{spec.name}。◀ 标出占用率最高、最先触顶的限制"
        f"（{limit_name(evaluation.binding, lang)}）。",
        f"Design point: {point.describe()}; hardware: {spec.name}. ◀ marks the limit with the highest use, the one "
        f"that binds first ({limit_name(evaluation.binding, lang)}).",
    )
    # The verdict and the use come first, so a narrow screen shows the conclusion before it has to scroll.
    aligns: tuple[Align, ...] = ("left", "left", "right", "right", "right", "right", "left", "left")
    if not with_sources:
        headers, aligns = headers[:-1], aligns[:-1]
        rows = [row[:-1] for row in rows]
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


def _verdict(evaluation: DesignEvaluation, lang: Lang) -> str:
    if evaluation.fits:
        return pick(lang, "全部满足", "all fit")
    over = [limit_name(c.limit, lang, short=True) for c in evaluation.checks if not c.fits]
    return pick(lang, "超出：", "exceeds: ") + ", ".join(over)


def _outcome_headers(lang: Lang) -> list[str]:
    """The headers of the three columns `_outcome` fills: the binding limit, its use and the verdict."""
    return [pick(lang, "最紧的限制", "binding limit"), term("column:use", lang), term("column:verdict", lang)]


def _outcome(spec: AscendSpec, point: DesignPoint, lang: Lang) -> tuple[list[str | Cell], bool]:
    """The binding limit, its use and the verdict, and whether the kernel allows ``point`` at all.

    A point a kernel rule forbids gets dashes and the rule's code instead.
    """
    try:
        evaluation = evaluate(point, spec)
    except ForbiddenDesign as error:
        rule = str(error).split("forbidden by rule ", 1)[1].split(":", 1)[0]
        return [NO_VALUE, NO_VALUE, pick(lang, f"内核禁止（`{rule}`）", f"forbidden (`{rule}`)")], False
    binding = evaluation.check(evaluation.binding)
    use = number(100 * binding.utilisation, f"{binding.utilisation:.0%}", "%")
    return [limit_name(binding.limit, lang, short=True), use, _verdict(evaluation, lang)], True


def render_design_alternatives(
    spec: AscendSpec = ASCEND_950,
    alternatives: Iterable[tuple[Text, DesignPoint]] = ALTERNATIVES,
    *,
    lang: Lang = "zh",
) -> str:
    """The report's design next to its alternatives: which limit binds for each, and what each exceeds."""
    rows = [[label(name.in_(lang)), *_outcome(spec, point, lang)[0]] for name, point in alternatives]
    headers = [pick(lang, "设计点", "design point"), *_outcome_headers(lang)]
    return table(headers, rows, ("left", "left", "right", "left"))


def render_rule_list(*, lang: Lang = "zh") -> str:
    """The kernel's tile-size rules the map greys out, with their sources, in the page's language."""
    rows = [
        [
            f"`{t.rule.code}`",
            t.rule.statement.in_(lang),
            citation(t.rule.source, lang),
        ]
        for t in TILE_RULES
    ]
    return table([pick(lang, "规则", "rule"), pick(lang, "内容", "statement"), term("column:source", lang)], rows)


def render_what_if_table(
    scenarios: Iterable[tuple[str, AscendSpec, DesignPoint]], topk: int = 512, *, lang: Lang = "zh"
) -> str:
    """One row per (name, hardware, design point): the binding limit, the verdict and the fewest heads.

    The last column is the fewest heads per AI Core at which the CUBE outlasts L2 on that hardware with that KV
    cache, at ``topk``.
    """
    rows = []
    for name, spec, point in require_iterable("scenarios", scenarios):
        cells, allowed = _outcome(spec, point, lang)
        fewest = smallest_compute_bound_heads(spec, topk, point.kv_cache)
        rows.append([name, *cells, NO_VALUE if fewest is None or not allowed else fewest])
    headers = [
        term("column:scenario", lang),
        *_outcome_headers(lang),
        pick(lang, f"算力 bound 所需最少 head（topk {topk}）", f"fewest heads for compute-bound (topk {topk})"),
    ]
    return table(headers, rows, ("left", "left", "right", "left", "right"))


def design_limits_text(evaluation: DesignEvaluation, lang: Lang = "en") -> str:
    """Every limit of an evaluated point as plain text for the command line: verdict, use, demand and capacity."""
    names = [limit_name(c.limit, lang) for c in evaluation.checks]
    width = max(display_width(name) for name in names)
    lines = [
        pick(
            lang,
            f"# 设计点：{describe_point(evaluation.point, lang)}；硬件：{evaluation.spec_name}",
            f"# design point: {evaluation.point.describe()}; hardware: {evaluation.spec_name}",
        )
    ]
    for name, c in zip(names, evaluation.checks, strict=True):
        verdict = pick(lang, "满足", "fits") if c.fits else pick(lang, "超出", "EXCEEDED")
        mark = " ◀" if c.limit is evaluation.binding else ""
        lines.append(
            f"{pad_to(name, width)}  {pad_to(verdict, 8)}  {c.utilisation:>7.1%}  {whole_or(c.demand, 1):>10} / "
            f"{whole_or(c.capacity, 1):<10} {unit_name(c.unit, lang)}{mark}"
        )
    lines.append(
        pick(
            lang,
            f"◀ 占用率最高、最先触顶的限制：{limit_name(evaluation.binding, lang)}；{_verdict(evaluation, lang)}",
            f"◀ the limit with the highest use binds first: {limit_name(evaluation.binding, lang)}; "
            f"{_verdict(evaluation, lang)}",
        )
    )
    return "\n".join(lines)
