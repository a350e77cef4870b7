"""Each published figure, changed, makes the figure check of a page fail naming its claim, and the strict build too.

The guarantee is proved in three parts, instead of one strict build per figure:

1. Coverage: every page's markdown-exec blocks run in-process once, recording which claims each block checks;
   every claim is checked by a block of some page, in both languages.
2. Perturbation, in-process: every number of every published figure is moved, in turn, up and down by the smallest
   step the report's printed digits can show (an infinity to the largest finite float); ``check_claims`` then
   raises ``FigureMismatch`` naming a claim on that figure, whatever its rule. Each figure, changed once, also makes
   every page block that checks a claim using it raise.
3. Wiring: the strict build of a copy whose ``report_figures.py`` source has two figures changed (a
   ``PublishedFigure`` value and a head-roofline row) fails naming both claims, so a block that raises fails it.
"""

from __future__ import annotations

import math
import re
import sys
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts import report_figures
from ascend_dsa.facts.report_figures import (
    HEAD_ROOFLINE_CITATION,
    HEAD_ROOFLINE_PUBLISHED_TEXT,
    PUBLISHED_FIGURES,
    head_roofline_figures,
    published_head_roofline,
)
from ascend_dsa.report.claims import CLAIMS, check_claims
from ascend_dsa.report.rules import leaves
from tests.helpers.figures import (
    Step,
    claims_using,
    figure_steps,
    first_steps,
    moved,
    replace_everywhere,
    replace_figure,
    smallest_step,
)
from tests.helpers.pages import PageBlock, all_page_blocks, page_blocks
from tests.helpers.project import MUTATIONS, computed_once

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from ascend_dsa.facts.report_figures import HeadRooflineRow
    from ascend_dsa.report.claims import ClaimResult
    from tests.helpers.project import BuildResult

ROOFLINE_KEYS = [f.key for f in head_roofline_figures()]


@pytest.fixture(scope="session")
def checked_by(request: pytest.FixtureRequest) -> dict[str, list[PageBlock]]:
    """Claim id -> the page blocks that check it (`record_checked_by`), recorded once for the whole run.

    Once per run (`computed_once`): under xdist every worker may run some of this module's tests, and each would
    otherwise run every page block again.
    """
    found = computed_once(request.config, "checked-by", record_checked_by)
    return {claim: [PageBlock(*block) for block in blocks] for claim, blocks in found.items()}


def record_checked_by() -> dict[str, list[tuple[str, str, str]]]:
    """Claim id -> (page, block id, code) of each page block that checks it: every block run once with a spy.

    A module first imported while the spy was in place (or a facade name first resolved then) bound the spy
    itself; it gets the real function back, so that no later test calls the spy.
    """
    record: dict[str, list[PageBlock]] = {}
    current: list[PageBlock] = []

    def spy(*args: object, **kwargs: object) -> tuple[ClaimResult, ...]:
        results = check_claims(*args, **kwargs)  # type: ignore[arg-type]
        for result in results:
            blocks = record.setdefault(result.claim.claim_id, [])
            if current[-1] not in blocks:
                blocks.append(current[-1])
        return results

    with pytest.MonkeyPatch.context() as monkeypatch:
        replace_everywhere(monkeypatch, check_claims, spy)
        for block in all_page_blocks():
            current.append(block)
            block.run()
    for module in [
        m for name, m in list(sys.modules.items()) if name == "ascend_dsa" or name.startswith("ascend_dsa.")
    ]:
        for attribute in [a for a, value in vars(module).items() if value is spy]:
            setattr(module, attribute, check_claims)
    return {claim: [(b.page, b.block_id, b.code) for b in blocks] for claim, blocks in record.items()}


def test_page_blocks_reads_indented_blocks_and_ids(tmp_path: Path) -> None:
    """The block reader finds top-level and indented executed blocks with their ids, and skips shown code."""
    page = tmp_path / "chapter.md"
    page.write_text(
        '```python exec="true" id="a"\nprint(1)\n```\n\n```python\nshown()\n```\n\n'
        '!!! note\n    ```python exec="1" id="b"\n    x = 2\n    print(x)\n    ```\n',
        encoding="utf-8",
    )
    blocks = [(b.page, b.block_id, b.code) for b in page_blocks(page, tmp_path)]
    assert blocks == [("chapter.md", "a", "print(1)"), ("chapter.md", "b", "x = 2\nprint(x)")]


@pytest.mark.parametrize("claim_id", [c.claim_id for c in CLAIMS])
def test_every_claim_is_checked_by_a_page_in_both_languages(
    checked_by: dict[str, list[PageBlock]], claim_id: str
) -> None:
    """Running the pages' blocks checks the claim in a block of some Chinese page and of its English twin."""
    pages = {block.page for block in checked_by.get(claim_id, [])}
    twins = [p for p in pages if not p.endswith(".en.md") and p.removesuffix(".md") + ".en.md" in pages]
    assert twins, (claim_id, sorted(pages))


ALL_STEPS = [step for figure in (*PUBLISHED_FIGURES, *head_roofline_figures()) for step in figure_steps(figure)]


def perturbed_roofline_text(step: Step) -> tuple[str, ...]:
    """The published head-roofline text with one number of the row ``step.key`` changed, its width kept."""
    row = ROOFLINE_KEYS.index(step.key)
    text = HEAD_ROOFLINE_PUBLISHED_TEXT[row]
    match = list(re.finditer(r"\d+", text))[step.index]
    new = text[: match.start()] + str(int(step.value)).rjust(len(match[0])) + text[match.end() :]
    assert new != text
    return (*HEAD_ROOFLINE_PUBLISHED_TEXT[:row], new, *HEAD_ROOFLINE_PUBLISHED_TEXT[row + 1 :])


def perturb_in_process(monkeypatch: pytest.MonkeyPatch, step: Step) -> None:
    """Give the loaded package one changed published number, as a changed report_figures.py would."""
    if step.key in ROOFLINE_KEYS:
        text = perturbed_roofline_text(step)

        def rows(
            text: Iterable[str] = text, citation: report_figures.Citation = HEAD_ROOFLINE_CITATION
        ) -> tuple[HeadRooflineRow, ...]:
            return published_head_roofline(text, citation)

        replace_everywhere(monkeypatch, HEAD_ROOFLINE_PUBLISHED_TEXT, text)
        replace_everywhere(monkeypatch, published_head_roofline, rows)
        return
    replace_figure(monkeypatch, PUBLISHED_FIGURES, step)


def names_a_claim(message: str, key: str) -> bool:
    """Whether a FigureMismatch message names, with its report line, a claim that uses the figure ``key``."""
    return any(f"claim {claim_id} (report (zh) line" in message for claim_id in claims_using(key))


def test_steps_reach_every_number_of_every_figure() -> None:
    """Each number of each published figure is moved both ways (an infinity one way), by its printed step."""
    for figure in (*PUBLISHED_FIGURES, *head_roofline_figures()):
        numbers = leaves(figure.value)
        expected = sum(1 if math.isinf(v) else 2 for v in numbers)
        assert len(figure_steps(figure)) == expected, figure.key
    assert smallest_step(73.14, "") == pytest.approx(0.01)
    assert smallest_step(5e12, "l2_total_bw = 5e12") == 1e12
    assert smallest_step(1650e6, "freq = 1650e6") == 1e6
    assert moved(403.43, 0.01, 1) == 403.44


@pytest.mark.parametrize("step", ALL_STEPS, ids=[s.label for s in ALL_STEPS])
def test_every_smallest_change_fails_the_claims_check(monkeypatch: pytest.MonkeyPatch, step: Step) -> None:
    """One published number moved by the smallest step its digits show, up or down: check_claims raises naming it."""
    perturb_in_process(monkeypatch, step)
    with pytest.raises(FigureMismatch) as raised:
        check_claims()
    assert names_a_claim(str(raised.value), step.key), str(raised.value)


FIRST_STEPS = first_steps(ALL_STEPS)


@pytest.mark.parametrize("step", FIRST_STEPS, ids=[s.key for s in FIRST_STEPS])
def test_perturbed_figure_fails_every_block_that_checks_it(
    checked_by: dict[str, list[PageBlock]], monkeypatch: pytest.MonkeyPatch, step: Step
) -> None:
    """Change one published figure in-process: each page block checking a claim that uses it raises, naming one."""
    blocks = [b for claim_id in claims_using(step.key) for b in checked_by.get(claim_id, [])]
    assert blocks, step.key
    perturb_in_process(monkeypatch, step)
    for block in dict.fromkeys(blocks):
        with pytest.raises(FigureMismatch) as raised:
            block.run()
        assert names_a_claim(str(raised.value), step.key), (block.page, block.block_id, str(raised.value))


def test_in_process_perturbation_is_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a test the changed figure is seen everywhere; afterwards the package is as shipped."""
    with monkeypatch.context() as inner:
        perturb_in_process(inner, Step("prefill-tflops", 0, 411))
        assert report_figures.published_number("prefill-tflops") != 410
    assert report_figures.published_number("prefill-tflops") == 410  # report (zh) line 5
    check_claims()


@pytest.mark.build
def test_perturbed_figure_source_breaks_strict_build(mutated_build: BuildResult) -> None:
    """Change two figures in report_figures.py of a copy: the strict build fails with FigureMismatch naming each.

    The copy (the helpers' ``MUTATIONS``) changes a PublishedFigure value that a claim takes as input and a
    head-roofline row kept as text; their claims are independent, so each name in the output comes from its change.
    """
    assert mutated_build.returncode != 0
    assert "FigureMismatch" in mutated_build.output
    for key in ("prefill-tflops", "head-roofline-line-108"):
        assert key in MUTATIONS
        assert names_a_claim(mutated_build.output, key), (key, mutated_build.output[-3000:])
