"""The report's words the site quotes, verbatim, each with its edition and line (its figures live elsewhere).

The pages and the package's text put the report's words between quotation marks only where they are exactly
these (tests/facts/test_report_quotes.py finds each quotation attributed to the report and requires one of them).
A Chinese quotation is the Chinese report's words, an English one the English report's, whatever the page's
language: an English page quoting the Chinese report quotes the Chinese. [`misquoted`][] compares every entry with
copies of the two editions at the pinned commit (``REPORT_COMMIT``), whose lines 1-252 match line for line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ascend_dsa.facts.provenance import REPORT_COMMIT, REPORT_EN_PATH, REPORT_ZH_PATH, Citation
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.validate import require_instance, require_int


@dataclass(frozen=True)
class ReportQuote:
    """Words of the report as one line of one edition writes them, character for character."""

    edition: Lang
    line: int
    words: str

    def __post_init__(self) -> None:
        """Reject an edition the report does not have, a line before the first, or words with nothing to quote."""
        check_lang(self.edition)
        require_int("line", self.line, minimum=1)
        words = require_instance("words", self.words, str)
        if not words.strip() or words != words.strip() or "\n" in words:
            raise ValueError(f"words must be non-empty text on one line, without outer spaces, got {words!r}")

    @property
    def citation(self) -> Citation:
        """Where the words stand: the line of the edition they are quoted from."""
        return Citation(pick(self.edition, REPORT_ZH_PATH, REPORT_EN_PATH), REPORT_COMMIT, self.line, self.line)


def _zh(line: int, words: str) -> ReportQuote:
    return ReportQuote("zh", line, words)


def _en(line: int, words: str) -> ReportQuote:
    return ReportQuote("en", line, words)


#: Every quotation of the report on the site, Chinese edition first, each in line order.
REPORT_QUOTES: Final = (
    _zh(5, "硬件理论性能上限"),
    _zh(5, "95%"),
    _zh(41, "迄今为止"),
    _zh(43, "一般取 64 或 96"),
    _zh(85, "算存比"),
    _zh(114, "compute 和 memory 大致均衡"),
    _zh(116, "必须用两个 AIV"),
    _zh(138, "已发出但还未完成"),
    _zh(142, "UB 空间更加紧张"),
    _zh(192, "发起第 `i+1` 个 KV 块的 softmax 计算，并将结果"),
    _zh(194, "index 预处理"),
    _zh(224, "空窗期"),
    _en(5, "95%"),
    _en(5, "theoretical peak performance"),
    _en(43, "usually 64 or 96"),
    _en(114, "roughly balanced"),
    _en(116, "requires two AIVs"),
    _en(138, "issued but not yet completed"),
    _en(142, "UB space even tighter"),
    _en(184, "about 1024 cycles"),
    _en(194, "index preprocessing"),
)


def misquoted(report_zh: str, report_en: str) -> tuple[ReportQuote, ...]:
    """The entries of [`REPORT_QUOTES`][] whose words are not on their line of the given edition's text."""
    texts = {"zh": require_instance("report_zh", report_zh, str), "en": require_instance("report_en", report_en, str)}
    lines = {edition: text.split("\n") for edition, text in texts.items()}
    return tuple(
        quote
        for quote in REPORT_QUOTES
        if quote.line > len(lines[quote.edition]) or quote.words not in lines[quote.edition][quote.line - 1]
    )
