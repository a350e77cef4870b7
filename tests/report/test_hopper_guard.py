"""Each published Hopper figure, changed by the smallest step its printed digits show, fails the Hopper check.

As for the report's figures (tests/report/test_claims_guard.py): every number of every figure in
``facts.hopper_figures.HOPPER_FIGURES`` is moved up and down in-process; ``check_claims(source="hopper")`` (which
also checks the stated disagreements) then raises naming a claim or disagreement that uses it, and so does every
block of the two-chips page in both languages. The strict build's wiring is proved by ``MUTATIONS`` in
tests/helpers/project.py (``dense-decode-tflops``), built once with the other mutations.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hopper_figures import HOPPER_FIGURES, hopper_figure
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.ledger_hopper import DISAGREEMENTS, HOPPER_CLAIMS, Disagreement, evaluate_disagreements
from ascend_dsa.report.ledgers import HOPPER_LEDGER
from ascend_dsa.report.rules import plain
from tests.helpers.figures import Step, claims_using, figure_steps, first_steps, replace_figure
from tests.helpers.pages import page_blocks
from tests.helpers.project import DOCS, MUTATIONS

if TYPE_CHECKING:
    from tests.helpers.project import BuildResult

ALL_STEPS = [step for figure in HOPPER_FIGURES for step in figure_steps(figure)]
PAGES = [DOCS / f"{chapter}.md" for chapter in HOPPER_LEDGER.chapters] + [
    DOCS / f"{c}.en.md" for c in HOPPER_LEDGER.chapters
]


def users(key: str) -> list[str]:
    """The claims and disagreements that compare, or take as input, the Hopper figure ``key``."""
    return claims_using(key, HOPPER_CLAIMS) + [d.key for d in DISAGREEMENTS if key in d.figures]


def names_a_user(message: str, key: str) -> bool:
    """Whether a FigureMismatch message names a claim or disagreement that uses ``key``."""
    return any(f"claim {name} (" in message or f"disagreement {name} (" in message for name in users(key))


def test_every_hopper_figure_is_used() -> None:
    """Each published Hopper figure is compared by a claim or named by a stated disagreement (at least 15 claims)."""
    assert [f.key for f in HOPPER_FIGURES if not users(f.key)] == []
    assert len([c for c in HOPPER_CLAIMS if not c.stated]) >= 15
    assert len({f.key for f in HOPPER_FIGURES}) == len(HOPPER_FIGURES)


def test_the_two_findings_are_stated() -> None:
    """640 against 660 TFLOPS and the 1.47x model against 1.64x measured are disagreements that hold."""
    found = {r.disagreement.key: r.disagreement.found for r in evaluate_disagreements() if r.holds}
    assert found["dense-decoding-peak"] == (660, 640)
    assert found["crossover-gain"] == (1.47, 1.64)
    assert hopper_figure("readme-sparse-prefill-tflops").value == 640


def test_shipped_hopper_ledger_passes() -> None:
    """Every Hopper claim agrees and every stated disagreement holds."""
    assert all(r.passed for r in check_claims(source="hopper"))


@pytest.mark.parametrize("step", ALL_STEPS, ids=[s.label for s in ALL_STEPS])
def test_every_smallest_change_fails_the_hopper_check(monkeypatch: pytest.MonkeyPatch, step: Step) -> None:
    """One published Hopper number moved by its smallest printed step: the check raises naming a user of it."""
    replace_figure(monkeypatch, HOPPER_FIGURES, step)
    with pytest.raises(FigureMismatch) as raised:
        check_claims(source="hopper")
    assert names_a_user(str(raised.value), step.key), str(raised.value)


FIRST_STEPS = first_steps(ALL_STEPS)


@pytest.mark.parametrize("step", FIRST_STEPS, ids=[s.key for s in FIRST_STEPS])
def test_perturbed_figure_fails_every_page_block(monkeypatch: pytest.MonkeyPatch, step: Step) -> None:
    """Every block of the two-chips page, in both languages, raises on a changed Hopper figure."""
    blocks = [block for page in PAGES for block in page_blocks(page)]
    assert len(blocks) >= 10
    replace_figure(monkeypatch, HOPPER_FIGURES, step)
    for block in blocks:
        with pytest.raises(FigureMismatch) as raised:
            block.run()
        assert names_a_user(str(raised.value), step.key), (block.page, block.block_id, str(raised.value))


@pytest.mark.build
def test_perturbed_hopper_figure_source_breaks_strict_build(mutated_build: BuildResult) -> None:
    """A copy whose hopper_figures.py has the dense decoding peak changed fails the strict build naming it."""
    assert "dense-decode-tflops" in MUTATIONS
    assert mutated_build.returncode != 0
    assert names_a_user(mutated_build.output, "dense-decode-tflops"), mutated_build.output[-3000:]


@pytest.mark.parametrize("disagreement", DISAGREEMENTS, ids=[d.key for d in DISAGREEMENTS])
def test_disagreement_sentences_type_no_number(disagreement: Disagreement) -> None:
    """Each sentence takes its numbers from the stated pair: no digit stands outside ``{ours}`` and ``{theirs}``."""
    for text in (disagreement.zh, disagreement.en):
        assert "{ours}" in text
        assert "{theirs}" in text
        assert re.findall(r"(?<![A-Za-z_0-9])\d+(?:\.\d+)?(?![A-Za-z_0-9])", text) == [], text
    assert plain(disagreement.found[0]) in disagreement.statement("en")
