import dataclasses

import pytest

from ascend_dsa.cli.claims import SOURCES
from ascend_dsa.errors import FigureMismatch
from ascend_dsa.report.claims import CLAIMS, check_claims, evaluate_claims, ledger, select_claims
from ascend_dsa.report.ledger_hopper import HOPPER_CLAIMS
from ascend_dsa.report.ledgers import ALL_LEDGERS, HOPPER_LEDGER, LEDGERS, REPORT_LEDGER, ledger_named
from ascend_dsa.report.rules import Claim, Rule, RuleKind


def test_the_registry_holds_each_ledger_by_its_key() -> None:
    """LEDGERS maps each ledger's key to it, the report's first (the default), and `claims --source` offers them all."""
    assert list(LEDGERS) == ["report", "hopper"]
    assert all(LEDGERS[key].key == key for key in LEDGERS)
    assert ledger() == CLAIMS == REPORT_LEDGER.claims
    assert ledger("hopper") == HOPPER_CLAIMS == HOPPER_LEDGER.claims
    assert (*LEDGERS, ALL_LEDGERS) == SOURCES


@pytest.mark.parametrize("source", ["", "Report", "all", "ascend", None])
def test_an_unknown_ledger_is_named_with_the_ones_there_are(source: object) -> None:
    """A name no ledger has is one ValueError naming the ledgers."""
    with pytest.raises(ValueError, match=r"^source must be one of report, hopper, got "):
        ledger_named(source)  # type: ignore[arg-type]


def test_a_ledger_rejects_a_figure_it_does_not_publish() -> None:
    """A claim must name a figure of its own ledger: a report key is no Hopper figure, and the reverse."""
    made_up = Claim("made-up", "index", Rule(RuleKind.EXACT), "zh", "en", lambda _d: 1)
    with pytest.raises(ValueError, match="published figure"):
        dataclasses.replace(REPORT_LEDGER, claims=(made_up,))
    with pytest.raises(ValueError, match="published Hopper figure"):
        dataclasses.replace(HOPPER_LEDGER, claims=(dataclasses.replace(CLAIMS[0], chapter="discussion/two-chips"),))


def test_a_ledger_rejects_a_chapter_not_its_own_and_a_repeated_id() -> None:
    """A Hopper claim on a report chapter is refused, naming the ledger's chapters; so is an id listed twice."""
    with pytest.raises(ValueError, match=r"^chapter must be one of discussion/two-chips, got 'index'$"):
        dataclasses.replace(HOPPER_LEDGER, claims=(dataclasses.replace(HOPPER_CLAIMS[0], chapter="index"),))
    with pytest.raises(ValueError, match="claim ids must be unique"):
        dataclasses.replace(REPORT_LEDGER, claims=(CLAIMS[0], CLAIMS[0]))


def test_each_result_carries_its_ledger_and_figure() -> None:
    """A result knows its ledger, so its figure and its words come from the ledger, not from a name compared."""
    (report,) = evaluate_claims(ids=(CLAIMS[0].claim_id,))
    (hopper,) = evaluate_claims(ids=(HOPPER_CLAIMS[0].claim_id,), source="hopper")
    assert report.ledger is REPORT_LEDGER
    assert hopper.ledger is HOPPER_LEDGER
    assert report.figure == REPORT_LEDGER.figure(CLAIMS[0].claim_id)
    assert " report " in report.describe()
    assert " published " in hopper.describe()


def test_chapters_are_the_ledgers_own() -> None:
    """--chapter selects within the chosen ledger: the Hopper page is a chapter of the Hopper ledger only."""
    assert select_claims("discussion/two-chips", source="hopper") == HOPPER_CLAIMS
    with pytest.raises(ValueError, match="chapter must be one of"):
        select_claims("discussion/two-chips")


def test_a_ledger_checks_its_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_claims runs the ledger's own check of its stated disagreements (the Hopper ledger's), and only its own."""
    calls: list[str] = []

    def moved() -> None:
        calls.append("checked")
        raise FigureMismatch("moved")

    swapped = {**LEDGERS, "hopper": dataclasses.replace(HOPPER_LEDGER, check_findings=moved)}
    monkeypatch.setattr("ascend_dsa.report.claims.ledger_named", swapped.__getitem__)
    check_claims()
    assert calls == []
    with pytest.raises(FigureMismatch, match="moved"):
        check_claims(source="hopper")
    assert calls == ["checked"]
