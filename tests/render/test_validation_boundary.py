"""The validation boundary on the pipeline page: its tables, its steps, and our own trace compared at zero."""

from __future__ import annotations

import dataclasses

import pytest

from ascend_dsa.lang import Lang
from ascend_dsa.render import validation_boundary
from ascend_dsa.render.validation_boundary import (
    render_compare_example,
    render_trace_collection,
    render_validation_boundary,
    self_comparison,
)
from ascend_dsa.report.validation_boundary import COLLECTION_STEPS, VALIDATION_BOUNDARY

LANGS: tuple[Lang, ...] = ("zh", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_is_a_row_with_its_code_line(lang: Lang) -> None:
    """Each entry of the data is one table row, with its title, its direction when left out, and its file:line."""
    text = render_validation_boundary(lang=lang)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "`src/" in line]
    assert len(rows) == len(VALIDATION_BOUNDARY)
    for entry, row in zip(VALIDATION_BOUNDARY, rows, strict=True):
        assert row.startswith(f"| {entry.title.in_(lang)} |")
        assert f"`{entry.anchor.where()}`" in row
        assert (entry.why is None) or entry.why.in_(lang) in row


@pytest.mark.parametrize("lang", LANGS)
def test_steps_are_numbered_with_commands_and_documents(lang: Lang) -> None:
    """One numbered item per step; each command in a shell block; each document linked."""
    text = render_trace_collection(lang=lang)
    for number, step in enumerate(COLLECTION_STEPS, start=1):
        assert f"\n{number}. {step.what.in_(lang)}" in f"\n{text}"
        if step.command:
            assert f"    ```sh\n    {step.command}\n    ```" in text
        for document in step.documents:
            assert f"[{document.title}]({document.url})" in text


def test_our_own_trace_compares_at_zero_on_every_lane() -> None:
    """The shipped job's own trace, written and read back, has modelled = measured on every lane and overlap."""
    comparison = self_comparison()
    rows = (*comparison.lanes, *comparison.overlaps)
    assert rows
    assert all(row.measured_cycles == pytest.approx(row.modelled_cycles) for row in rows)
    assert comparison.unmodelled == ()


@pytest.mark.parametrize("lang", LANGS)
def test_the_example_prints_the_commands_and_a_zero_residual(lang: Lang) -> None:
    """The example shows both commands and the comparison table, every residual +0.0 %."""
    text = render_compare_example(lang=lang)
    assert "ascend-dsa pipeline --trace t.json\nascend-dsa pipeline --compare t.json" in text
    table = text.split("```text\n", 1)[1]
    residuals = [line.split()[-2:] for line in table.splitlines() if line.endswith("%")]
    assert residuals
    assert all(r == ["+0.0", "%"] for r in residuals)


def test_a_lane_off_zero_fails_the_example(monkeypatch: pytest.MonkeyPatch) -> None:
    """If our trace read back differed from the model on a lane, the page's block would raise naming the lane."""
    real = self_comparison()
    first = real.lanes[0]
    off = dataclasses.replace(first, measured_cycles=first.modelled_cycles * 1.5)
    monkeypatch.setattr(validation_boundary, "self_comparison", lambda: dataclasses.replace(real, lanes=(off,)))
    with pytest.raises(ValueError, match=f"lanes differ: {first.lane}"):
        render_compare_example(lang="en")
