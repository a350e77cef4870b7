"""Each published figure, changed, makes the figure check of a page fail naming its claim, and the strict build too.

The guarantee is proved in three parts, instead of one strict build per figure:

1. Coverage: every page's markdown-exec blocks run in-process once, recording which claims each block checks;
   every claim is checked by a block of some page, in both languages.
2. Perturbation, in-process: for each published figure, the loaded package is given a changed value (no build);
   ``check_claims`` and every block that checks a claim using the figure then raise ``FigureMismatch`` naming it.
3. Wiring: the strict build of a copy whose ``report_figures.py`` source has two figures changed (a
   ``PublishedFigure`` value and a head-roofline row) fails naming both claims, so a block that raises fails it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts import report_figures
from ascend_dsa.facts.report_figures import (
    HEAD_ROOFLINE_CITATION,
    HEAD_ROOFLINE_PUBLISHED_TEXT,
    PUBLISHED_FIGURES,
    FigureValue,
    head_roofline_figures,
    published_head_roofline,
)
from ascend_dsa.report.claims import CLAIMS, check_claims
from ascend_dsa.report.rules import RuleKind
from ascend_dsa.site.fences import fences
from tests.conftest import MUTATIONS, ROOT

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from ascend_dsa.facts.report_figures import HeadRooflineRow
    from ascend_dsa.report.claims import ClaimResult
    from tests.conftest import BuildResult

ROOFLINE_KEYS = [f.key for f in head_roofline_figures()]
ALL_KEYS = [f.key for f in PUBLISHED_FIGURES] + ROOFLINE_KEYS
DOCS = ROOT / "docs"


@dataclass(frozen=True)
class PageBlock:
    """One executed block of a page: the page (relative to docs/), the block's id and its code, dedented."""

    page: str
    block_id: str
    code: str

    def run(self) -> str:
        """Execute the block as markdown-exec does, in fresh globals; return what it printed."""
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(self.code, f"docs/{self.page}#{self.block_id}", "exec"), {"__name__": "__main__"})  # noqa: S102 - the page's own block, as the build runs it
        return printed.getvalue()


def page_blocks(page: Path, docs: Path = DOCS) -> list[PageBlock]:
    """The executed Python blocks of one markdown page below ``docs``, in order."""
    relative = page.relative_to(docs).as_posix()
    return [
        PageBlock(relative, fence.block_id, fence.code)
        for fence in fences(page.read_text(encoding="utf-8"))
        if fence.language == "python" and fence.executed
    ]


def all_page_blocks() -> list[PageBlock]:
    """Every executed block of every page of both languages."""
    pages = sorted(p for p in DOCS.rglob("*.md") if "vendor" not in p.parts)
    return [block for page in pages for block in page_blocks(page)]


def replace_everywhere(monkeypatch: pytest.MonkeyPatch, original: object, replacement: object) -> None:
    """Rebind every ``ascend_dsa`` module attribute that is ``original`` to ``replacement`` for this test.

    Modules import names from each other (``from ascend_dsa.report.claims import check_claims``), so rebinding the
    defining module alone would miss the copies the renderers hold.
    """
    for name, module in list(sys.modules.items()):
        if name == "ascend_dsa" or name.startswith("ascend_dsa."):
            for attribute, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, attribute, replacement)


@pytest.fixture(scope="module")
def checked_by() -> dict[str, list[PageBlock]]:
    """Claim id -> the page blocks that check it, recorded by running every block once with a spy on check_claims."""
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
    return record


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


def claims_using(key: str) -> list[str]:
    """Ids of the claims that compare, or take as input, the figure ``key``."""
    return [c.claim_id for c in CLAIMS if key == c.claim_id or key in c.inputs]


def perturbed(value: FigureValue, *, shrink: bool) -> FigureValue:
    """The value with its first number moved far enough to break any rule: doubled plus one, or halved for bounds."""
    if isinstance(value, tuple):
        return (perturbed(value[0], shrink=shrink), *value[1:])
    if shrink:
        return type(value)(value // 2 - 1)
    return type(value)(2 * value + 1)


def is_upper_bound(key: str) -> bool:
    """Whether the figure ``key`` is compared as an upper bound (so a larger value would still hold)."""
    return any(c.rule.kind is RuleKind.AT_MOST for c in CLAIMS if c.claim_id == key)


def perturbed_roofline_text(key: str) -> tuple[str, ...]:
    """The published head-roofline text with the L2 cycles of the row ``key`` changed."""
    index = ROOFLINE_KEYS.index(key)
    row, text = published_head_roofline()[index], HEAD_ROOFLINE_PUBLISHED_TEXT[index]
    new = text.replace(f"mem_cycles={row.mem_cycles:6d}", f"mem_cycles={2 * row.mem_cycles + 1:6d}")
    assert new != text
    return (*HEAD_ROOFLINE_PUBLISHED_TEXT[:index], new, *HEAD_ROOFLINE_PUBLISHED_TEXT[index + 1 :])


def perturb_in_process(monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    """Give the loaded package a changed published figure ``key``, as a changed report_figures.py would."""
    if key in ROOFLINE_KEYS:
        text = perturbed_roofline_text(key)

        def rows(
            text: Iterable[str] = text, citation: report_figures.Citation = HEAD_ROOFLINE_CITATION
        ) -> tuple[HeadRooflineRow, ...]:
            return published_head_roofline(text, citation)

        replace_everywhere(monkeypatch, published_head_roofline, rows)
        return
    figures = tuple(
        dataclasses.replace(f, value=perturbed(f.value, shrink=is_upper_bound(key))) if f.key == key else f
        for f in PUBLISHED_FIGURES
    )
    replace_everywhere(monkeypatch, PUBLISHED_FIGURES, figures)


def names_a_claim(message: str, key: str) -> bool:
    """Whether a FigureMismatch message names, with its report line, a claim that uses the figure ``key``."""
    return any(f"claim {claim_id} (report (zh) line" in message for claim_id in claims_using(key))


@pytest.mark.parametrize("key", ALL_KEYS)
def test_perturbed_figure_fails_its_claim_check(monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    """Change one published figure in-process: check_claims raises FigureMismatch naming a claim that uses it."""
    check_claims()
    perturb_in_process(monkeypatch, key)
    with pytest.raises(FigureMismatch) as raised:
        check_claims()
    assert names_a_claim(str(raised.value), key), str(raised.value)


@pytest.mark.parametrize("key", ALL_KEYS)
def test_perturbed_figure_fails_every_block_that_checks_it(
    checked_by: dict[str, list[PageBlock]], monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    """Change one published figure in-process: each page block checking a claim that uses it raises, naming one."""
    blocks = [b for claim_id in claims_using(key) for b in checked_by.get(claim_id, [])]
    assert blocks, key
    perturb_in_process(monkeypatch, key)
    for block in dict.fromkeys(blocks):
        with pytest.raises(FigureMismatch) as raised:
            block.run()
        assert names_a_claim(str(raised.value), key), (block.page, block.block_id, str(raised.value))


def test_in_process_perturbation_is_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a test the changed figure is seen everywhere; afterwards the package is as shipped."""
    with monkeypatch.context() as inner:
        perturb_in_process(inner, "prefill-tflops")
        assert report_figures.published_number("prefill-tflops") != 410
    assert report_figures.published_number("prefill-tflops") == 410  # report (zh) line 5
    check_claims()


@pytest.mark.build
def test_perturbed_figure_source_breaks_strict_build(mutated_build: BuildResult) -> None:
    """Change two figures in report_figures.py of a copy: the strict build fails with FigureMismatch naming each.

    The copy (tests/conftest.py's ``MUTATIONS``) changes a PublishedFigure value that a claim takes as input and a
    head-roofline row kept as text; their claims are independent, so each name in the output comes from its change.
    """
    assert mutated_build.returncode != 0
    assert "FigureMismatch" in mutated_build.output
    for key in ("prefill-tflops", "head-roofline-line-108"):
        assert key in MUTATIONS
        assert names_a_claim(mutated_build.output, key), (key, mutated_build.output[-3000:])
