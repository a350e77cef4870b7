"""The claims ledger as Markdown: the whole ledger, one chapter's claims, one claim, and the tables that back them.

Every renderer here runs [`ascend_dsa.report.claims.check_claims`][] on the claims it shows *before* it draws anything,
so a figure that no longer agrees with the report raises [`FigureMismatch`][] inside the page's block and the
strict build fails, naming the claim.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ascend_dsa.facts.chapters import chapter_named
from ascend_dsa.facts.hopper import HOPPER_FILE_LABELS
from ascend_dsa.facts.provenance import report_lines
from ascend_dsa.lang import Lang, check_lang, pick, term
from ascend_dsa.render.format import format_figure, percent, published_cell, stated_number, with_unit
from ascend_dsa.render.markdown import (
    Align,
    Cell,
    data_marker,
    label,
    number,
    plain_text,
    status_cell,
    status_text,
    table,
)
from ascend_dsa.report.claims import ClaimResult, check_claims, check_report_lines, evaluate_claims
from ascend_dsa.report.ledgers import HOPPER_LEDGER, REPORT_LEDGER, Ledger
from ascend_dsa.report.rules import CHAPTERS, SHIPPED_CONTEXT, ClaimContext, Rule, RuleKind

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ascend_dsa.facts.provenance import Citation


def chapter_title(chapter: str, lang: Lang) -> str:
    """The chapter's title in the page's language."""
    return chapter_named(chapter).name.in_(lang)


def rule_text(rule: Rule, lang: Lang) -> str:
    """The comparison rule in words; negative decimals read as the nearest ten, thousand (``Rule.precision``)."""
    if rule.kind is RuleKind.EXACT:
        return pick(lang, "完全相等", "exact")
    if rule.decimals < 0:
        step = 10**-rule.decimals
        if rule.kind is RuleKind.PERCENT:
            return pick(lang, f"我们的比例四舍五入到 {step} 的整数倍百分比", f"ours as a percent to the nearest {step}")
        return pick(lang, f"我们的值四舍五入到 {step} 的整数倍", f"ours rounded to the nearest {step}")
    if rule.kind is RuleKind.PERCENT and rule.decimals:
        return pick(
            lang,
            f"我们的比例四舍五入到 {rule.decimals} 位小数的百分比",
            f"ours as a percent to {rule.decimals} decimals",
        )
    if rule.kind is RuleKind.PERCENT:
        return pick(lang, "我们的比例四舍五入到整数百分比", "ours rounded to a whole percent")
    return pick(lang, f"我们的值四舍五入到 {rule.decimals} 位小数", f"ours rounded to {rule.decimals} decimals")


def ours_cell(result: ClaimResult, lang: Lang) -> str:
    """Our value with its unit, as the ledger shows it."""
    rule, unit = result.claim.rule, result.figure.unit
    ours = result.ours
    if rule.kind is RuleKind.PERCENT and not isinstance(ours, tuple):
        return percent(ours)
    return with_unit(format_figure(ours, 4), ours, unit, lang)


def _percent_rule(result: ClaimResult) -> bool:
    return result.claim.rule.kind is RuleKind.PERCENT


def ours_data(result: ClaimResult, lang: Lang) -> Cell:
    """Our value as a table cell: the number (a percent rule's fraction in %) and unit, or a tuple as its text."""
    ours, text = result.ours, ours_cell(result, lang)
    if isinstance(ours, tuple):
        return Cell(plain_text(text), text, result.figure.unit)
    if _percent_rule(result):
        return number(100 * ours, text, "%")
    return number(ours, text, result.figure.unit)


def published_data(result: ClaimResult, lang: Lang) -> Cell:
    """The report's value as a table cell: the number and its unit (a tuple as its text), shown as the ledger does."""
    value, text = result.figure.value, published_cell(result, lang)
    unit = "%" if _percent_rule(result) else result.figure.unit
    return Cell(plain_text(text), text, unit) if isinstance(value, tuple) else number(value, text, unit)


def line_cell(result: ClaimResult, lang: Lang) -> str:
    """The report line (or lines) the claim's figure stands on; a file and its lines for a ledger of several files."""
    citation = result.figure.citation
    if result.ledger.names_files:
        return hopper_where(citation, lang)
    return pick(lang, f"第 {citation.lines} 行", f"line {citation.lines}")


def hopper_where(citation: Citation, lang: Lang) -> str:
    """A FlashMLA file line as a page cites it: ``FP8 blog line 17``, ``FP8 博客第 17 行``."""
    label = HOPPER_FILE_LABELS.get(citation.path)
    name = label.in_(lang) if label is not None else citation.path.rsplit("/", 1)[-1]
    plural = "" if citation.first_line == citation.last_line else "s"
    return pick(lang, f"{name} 第 {citation.lines} 行", f"{name} line{plural} {citation.lines}")


def statement_text(result: ClaimResult, lang: Lang) -> str:
    """The claim in our words, marked when it is a constant taken from the report."""
    text = pick(lang, result.claim.zh, result.claim.en)
    if not result.claim.stated:
        return text
    return text + result.ledger.stated_note.in_(lang)


def _claims_table(results: Sequence[ClaimResult], lang: Lang, ledger: Ledger = REPORT_LEDGER) -> str:
    headers = [
        term("column:where", lang) if ledger.names_files else term("column:report (zh)", lang),
        term("column:id", lang),
        pick(lang, "说法（我们的话）", "claim (our words)"),
        pick(lang, "我们算的", "ours"),
        ledger.theirs_column.in_(lang),
        pick(lang, "比较规则", "rule"),
        term("column:status", lang),
    ]
    rows = [
        [
            line_cell(r, lang).replace("/", "/<wbr>"),  # a path may break after a slash, so the column stays narrow
            f"`{r.claim.claim_id}`",
            statement_text(r, lang),
            ours_data(r, lang),
            published_data(r, lang),
            rule_text(r.claim.rule, lang),
            status_cell(r.passed, lang),
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
    return "\n\n".join([summary, data_marker("json", claims_json(results, lang)), *parts]) + "\n"


def claims_json(results: Sequence[ClaimResult], lang: Lang) -> str:
    """The claims as JSON records, one per claim, with the same texts the ledger's tables show."""
    records = [
        {
            "id": r.claim.claim_id,
            "chapter": r.claim.chapter,
            "report_zh_line": plain_text(line_cell(r, lang)),
            "claim": plain_text(statement_text(r, lang)),
            "ours": plain_text(ours_cell(r, lang)),
            "report": plain_text(published_cell(r, lang)),
            "rule": plain_text(rule_text(r.claim.rule, lang)),
            "agrees": r.passed,
        }
        for r in results
    ]
    return json.dumps(records, ensure_ascii=False, indent=1) + "\n"


def render_hopper_claims(*, lang: Lang = "zh") -> str:
    """The Hopper ledger as a table (FlashMLA's published Hopper figures, ours beside each), after checking it."""
    check_lang(lang)
    results = check_claims(source=HOPPER_LEDGER.key)
    passed = sum(r.passed for r in results)
    inputs = sum(r.claim.stated for r in results)
    summary = pick(
        lang,
        f"共 {len(results)} 条，{passed} 条一致；其中 {inputs} 条是取作输入的常量（实测值或配置）。",
        f"{len(results)} claims, {passed} agree; {inputs} of them are constants taken as inputs "
        "(measured or configured).",
    )
    return f"{summary}\n\n{_claims_table(results, lang, HOPPER_LEDGER)}\n"


def render_chapter_claims(chapter: str, design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The claims of one chapter as a table, after checking them."""
    check_lang(lang)
    return _claims_table(check_claims(design, chapter=chapter), lang) + "\n"


def render_claim(claim_id: str, design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """One claim in a sentence: ours, the report's, the rule and the status, after checking it.

    The sentence is left out of the site's search (a status line is no answer to a query), like the claims tables.
    """
    (result,) = check_claims(design, ids=(claim_id,))
    citation = result.figure.citation
    where = report_lines(citation.first_line).in_(lang)
    theirs = published_cell(result, lang)
    return pick(
        lang,
        f"{status_text(result.passed, lang)}：我们算得 **{ours_cell(result, lang)}**，{where}为 **{theirs}**"
        f"（{rule_text(result.claim.rule, lang)}；`{claim_id}`）。\n{{ data-search-exclude }}\n",
        f"{status_text(result.passed, lang)}: we compute **{ours_cell(result, lang)}**, {where} has "
        f"**{theirs}** ({rule_text(result.claim.rule, lang)}; `{claim_id}`).\n{{ data-search-exclude }}\n",
    )


def render_report_lines(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """Every report line that states numbers, its numbers as written, and the claims that check them.

    Raises [`FigureMismatch`][] first when any claim fails, then when a listed number has no claim or differs from
    its figure, or a claim cites no listed line.
    """
    check_lang(lang)
    results = {r.claim.claim_id: r for r in check_claims(design)}
    lines = check_report_lines()
    headers = [
        term("column:report (zh)", lang),
        pick(lang, "这一行写的数", "numbers on the line"),
        pick(lang, "核对它们的说法", "claims checking them"),
        term("column:status", lang),
    ]
    rows = [
        [
            pick(lang, f"第 {entry.line.line} 行", f"line {entry.line.line}"),
            label(pick(lang, "、", ", ").join(stated_number(n, lang) for n in entry.line.numbers)),
            ", ".join(f"`{c.claim_id}`" for c in entry.claims),
            status_cell(all(results[c.claim_id].passed for c in entry.claims), lang),
        ]
        for entry in lines
    ]
    summary = pick(
        lang,
        f"报告里写了数的共 {len(lines)} 行，每个数都有核对它的说法。",
        f"{len(lines)} report lines state numbers; each number has a claim that checks it.",
    )
    return f"{summary}\n\n{table(headers, rows, ('left', 'left', 'left', 'left'))}\n"
