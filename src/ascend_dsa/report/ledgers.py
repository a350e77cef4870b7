"""The ledgers by name: each published source we check, with its claims, its figures, its pages and its words.

A [`Ledger`][] holds everything that differs from one ledger to the next, so that the code that evaluates, draws and
prints claims looks a ledger up in [`LEDGERS`][] and never asks which one it has. A new ledger is a module of
claims (like ``ledger_hopper``), its published figures in ``facts`` and one record here; ``claims --source`` and
``check_claims(source=...)`` then offer it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from ascend_dsa.facts.chapters import ledger_chapters
from ascend_dsa.facts.hopper import HOPPER_COMMIT, HOPPER_REPOSITORY
from ascend_dsa.facts.hopper_figures import hopper_figure
from ascend_dsa.facts.report_figures import PublishedFigure, published_figure
from ascend_dsa.lang import Text
from ascend_dsa.report.ledger_design import DESIGN_CLAIMS
from ascend_dsa.report.ledger_discussion import DISCUSSION_CLAIMS
from ascend_dsa.report.ledger_hopper import (
    HOPPER_CLAIMS,
    DisagreementResult,
    check_disagreements,
    evaluate_disagreements,
)
from ascend_dsa.report.rules import CHAPTERS, Claim
from ascend_dsa.validate import shown


def _no_findings() -> tuple[DisagreementResult, ...]:
    return ()


@dataclass(frozen=True)
class Ledger:
    """One published source's claims, the figures they are compared with, the pages they are on, and its words.

    ``figure`` finds one of its published figures by key; ``chapters`` are the site pages its claims may name.
    ``design_applies`` says whether its claims are computed for the
    [`ClaimContext`][ascend_dsa.report.rules.ClaimContext] (the Ascend hardware and kernel a command line or a
    what-if changes); if not, they are computed for ``preset``.
    ``findings`` evaluates its stated disagreements (none by default); ``check_findings`` raises when one moved. The
    other fields are the words the pages and the command line use for it.
    """

    key: str
    claims: tuple[Claim, ...]
    figure: Callable[[str], PublishedFigure] = field(repr=False, compare=False)
    chapters: tuple[str, ...]
    #: What it lists, in the command's help: "the report", "FlashMLA's Hopper documents".
    documents: Text
    #: Its figures in a check's message: "the report", "the published Hopper figures".
    figures_name: str
    #: Its value in a one-line message (``ours 1, report 2``).
    theirs: str
    #: The column of its values in a table.
    theirs_column: Text
    #: Whether a figure is cited by file and line (several documents), not by line of the one report; the table's
    #: first column then says "where", not "report (zh)".
    names_files: bool
    #: The mark of a claim that is a constant taken from its figures.
    stated_note: Text
    design_applies: bool = True
    preset: str = ""
    #: Its claims in the command line's summary ("claims", "Hopper claims") and what they agree with.
    noun: str = "claims"
    agree_with: str = ""
    #: The heading the command line prints above its claims (a ledger computed for a preset).
    heading: str = ""
    findings: Callable[[], tuple[DisagreementResult, ...]] = field(default=_no_findings, repr=False, compare=False)
    check_findings: Callable[[], object] = field(default=_no_findings, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Reject a claim on a chapter not of this ledger, or naming a figure it does not publish, or two ids alike."""
        for claim in self.claims:
            if claim.chapter not in self.chapters:
                raise ValueError(f"chapter must be one of {', '.join(self.chapters)}, got {shown(claim.chapter)}")
            for key in (claim.figure_key, *claim.inputs):
                self.figure(key)
        ids = [claim.claim_id for claim in self.claims]
        if len(set(ids)) != len(ids):
            raise ValueError(f"claim ids must be unique in a ledger, got {shown(ids)}")


#: DeepSeek's report: every claim of the discussion and the design chapters, in the report's order.
REPORT_LEDGER: Final = Ledger(
    key="report",
    claims=(*DISCUSSION_CLAIMS, *DESIGN_CLAIMS),
    figure=published_figure,
    chapters=CHAPTERS,
    documents=Text("报告", "the report"),
    figures_name="the report",
    theirs="report",
    theirs_column=Text("报告的", "report's"),
    names_files=False,
    stated_note=Text("（取自报告的常量）", " (constant taken from the report)"),
    agree_with="the report",
)
#: FlashMLA's Hopper documents and code, computed for the H800 preset, with the disagreements we state.
HOPPER_LEDGER: Final = Ledger(
    key="hopper",
    claims=HOPPER_CLAIMS,
    figure=hopper_figure,
    chapters=ledger_chapters("hopper"),
    documents=Text("FlashMLA Hopper 文档", "FlashMLA's Hopper documents"),
    figures_name="the published Hopper figures",
    theirs="published",
    theirs_column=Text("发表的", "published"),
    names_files=True,
    stated_note=Text("（取自已发表数字的常量）", " (constant taken from the published figure)"),
    design_applies=False,
    preset="H800",
    noun="Hopper claims",
    agree_with="the published figures",
    heading=f"FlashMLA's Hopper figures ({HOPPER_REPOSITORY} @ {HOPPER_COMMIT[:7]})",
    findings=evaluate_disagreements,
    check_findings=check_disagreements,
)

#: Every ledger by its name (``claims --source``); the first is the default.
LEDGERS: Final[Mapping[str, Ledger]] = MappingProxyType(
    {ledger.key: ledger for ledger in (REPORT_LEDGER, HOPPER_LEDGER)}
)

#: The ``--source`` value that lists every ledger, one after the other.
ALL_LEDGERS: Final = "all"


def ledger_named(source: str) -> Ledger:
    """The ledger ``source`` names, else a ValueError naming the ledgers there are."""
    if not isinstance(source, str) or source not in LEDGERS:
        raise ValueError(f"source must be one of {', '.join(LEDGERS)}, got {shown(source)}")
    return LEDGERS[source]
