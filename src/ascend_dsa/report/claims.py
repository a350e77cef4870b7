"""The claims ledger evaluated: every quantitative statement of the report, our value for it, and whether they agree.

[`CLAIMS`][] is the report's whole ledger in its order (the entries are in ``ledger_discussion`` and
``ledger_design``; what a claim is, in ``rules``; every ledger by name, in ``ledgers``). [`check_claims`][] raises
[`FigureMismatch`][] naming each failing claim, its report line, ours and theirs; renderers call it before drawing
anything, so a mismatch fails the strict site build.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import FigureMismatch, Mismatch
from ascend_dsa.facts.report_figures import published_figure
from ascend_dsa.facts.report_lines import REPORT_LINES, ReportLine
from ascend_dsa.report.ledgers import REPORT_LEDGER, Ledger, ledger_named
from ascend_dsa.report.rules import SHIPPED_CONTEXT, Claim, ClaimContext, RuleKind, leaves, plain
from ascend_dsa.validate import door, require_instance, require_items, shown

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.facts.report_figures import FigureValue, PublishedFigure

#: Every claim of the report, in its order.
CLAIMS: Final[tuple[Claim, ...]] = REPORT_LEDGER.claims


def ledger(source: str = REPORT_LEDGER.key) -> tuple[Claim, ...]:
    """The claims of the ledger ``source`` names (``report.ledgers.LEDGERS``): the report's by default."""
    return ledger_named(source).claims


def claim(claim_id: str, source: str = REPORT_LEDGER.key) -> Claim:
    """The claim named ``claim_id`` in the ledger ``source``."""
    for c in ledger(source):
        if c.claim_id == claim_id:
            return c
    raise ValueError(f"claim_id must name a ledger claim, got {shown(claim_id)}")


@dataclass(frozen=True)
class ClaimResult:
    """A claim evaluated: our value and whether it agrees with its ledger's figure under the claim's rule."""

    claim: Claim
    ours: FigureValue
    passed: bool
    ledger: Ledger = REPORT_LEDGER

    @property
    def figure(self) -> PublishedFigure:
        """The published figure the claim is compared with, from its ledger."""
        return self.ledger.figure(self.claim.figure_key)

    def ours_text(self) -> str:
        """Our value as the messages print it (a percentage for a percentage rule)."""
        if self.claim.rule.kind is RuleKind.PERCENT and not isinstance(self.ours, tuple):
            return f"{100 * self.ours:.2f}%"
        return plain(self.ours)

    def theirs_text(self) -> str:
        """The report's value as the messages print it, with how the report writes it when that differs."""
        figure = self.figure
        written = f" (written {figure.written!r})" if figure.written else ""
        return f"{plain(figure.value)}{written}"

    def describe(self) -> str:
        """One line naming the claim, its report line, ours, theirs and the rule."""
        return (
            f"claim {self.claim.claim_id} ({self.figure.citation.short}): ours {self.ours_text()}, "
            f"{self.ledger.theirs} {self.theirs_text()}; rule: {self.claim.rule.summary}"
        )

    def mismatch(self) -> Mismatch:
        """The claim as a [`Mismatch`][]: the fields `describe` joins into one line."""
        return Mismatch(
            subject=f"claim {self.claim.claim_id}",
            citation=self.figure.citation.short,
            ours=self.ours_text(),
            theirs=self.theirs_text(),
            rule=self.claim.rule.summary,
        )


def select_claims(
    chapter: str | None = None, ids: Iterable[str] | None = None, source: str = REPORT_LEDGER.key
) -> tuple[Claim, ...]:
    """The claims of one chapter, or the named ones, or all of them, in the ledger ``source``."""
    chosen_ledger = ledger_named(source)
    if chapter is not None and chapter not in chosen_ledger.chapters:
        raise ValueError(f"chapter must be one of {', '.join(chosen_ledger.chapters)}, got {shown(chapter)}")
    chosen = chosen_ledger.claims if ids is None else tuple(claim(i, source) for i in ids)
    return tuple(c for c in chosen if chapter is None or c.chapter == chapter)


def evaluate_claims(
    design: ClaimContext = SHIPPED_CONTEXT,
    *,
    chapter: str | None = None,
    ids: Iterable[str] | None = None,
    source: str = REPORT_LEDGER.key,
) -> tuple[ClaimResult, ...]:
    """Every selected claim of the ledger ``source`` with our value and its status."""
    design = require_instance("design", design, ClaimContext)
    chosen = ledger_named(source)
    results = []
    for c in select_claims(chapter, ids, source):
        ours = c.ours(design)
        results.append(ClaimResult(c, ours, c.rule.holds(ours, chosen.figure(c.figure_key).value), chosen))
    return tuple(results)


def check_claims(
    design: ClaimContext = SHIPPED_CONTEXT,
    *,
    chapter: str | None = None,
    ids: Iterable[str] | None = None,
    source: str = REPORT_LEDGER.key,
) -> tuple[ClaimResult, ...]:
    """Evaluate the selected claims; raise [`FigureMismatch`][] naming every one that fails.

    The ledger's stated disagreements are checked too (the Hopper ledger's, ``ledger_hopper.check_disagreements``).
    """
    results = evaluate_claims(design, chapter=chapter, ids=ids, source=source)
    chosen = ledger_named(source)
    failing = [r for r in results if not r.passed]
    if failing:
        raise FigureMismatch(
            f"{len(failing)} claim(s) differ from {chosen.figures_name}: " + "; ".join(r.describe() for r in failing),
            [r.mismatch() for r in failing],
        )
    chosen.check_findings()
    return results


@dataclass(frozen=True)
class LineClaims:
    """One report line that states numbers, and the claims that compare them."""

    line: ReportLine
    claims: tuple[Claim, ...]


def _claims_comparing(key: str) -> tuple[Claim, ...]:
    return tuple(c for c in CLAIMS if key in (c.figure_key, *c.inputs))


def _report_line_gaps(chosen: tuple[ReportLine, ...]) -> tuple[str, ...]:
    gaps = []
    for entry in chosen:
        for number in entry.numbers:
            where = f"report (zh) line {entry.line} states {number.written!r}"
            try:
                figure = published_figure(number.figure)
            except ValueError:
                gaps.append(f"{where} but names no published figure ({number.figure!r})")
                continue
            if number.value not in leaves(figure.value):
                gaps.append(f"{where} = {plain(number.value)}, but figure {figure.key} is {plain(figure.value)}")
            if not _claims_comparing(figure.key):
                gaps.append(f"{where} but no claim compares figure {figure.key}")
    stated = {(entry.line, n.figure) for entry in chosen for n in entry.numbers}
    for c in CLAIMS:
        citation = REPORT_LEDGER.figure(c.figure_key).citation
        if not any((line, c.figure_key) in stated for line in range(citation.first_line, citation.last_line + 1)):
            gaps.append(f"claim {c.claim_id} cites {citation.short}, which lists no number of its figure")
    return tuple(gaps)


@door(_report_line_gaps)
def report_line_gaps(lines: Iterable[ReportLine] = REPORT_LINES) -> tuple[str, ...]:
    """Each way the ledger misses the report's numbers: a listed number no claim compares, or a claim on no line."""
    return _report_line_gaps(require_items("lines", lines, ReportLine))


def check_report_lines(lines: Iterable[ReportLine] = REPORT_LINES) -> tuple[LineClaims, ...]:
    """Every listed report line with the claims that check it; raise [`FigureMismatch`][] naming each gap."""
    chosen = require_items("lines", lines, ReportLine)
    gaps = _report_line_gaps(chosen)
    if gaps:
        raise FigureMismatch(f"{len(gaps)} report number(s) not checked: " + "; ".join(gaps))
    return tuple(
        LineClaims(entry, tuple(dict.fromkeys(c for n in entry.numbers for c in _claims_comparing(n.figure))))
        for entry in chosen
    )
