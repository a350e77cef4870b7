"""The exercises on the page: questions filled, the checker's data, solutions closed, live links, typed numbers."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.lang import Text
from ascend_dsa.models.roofline import REPORT_TOPK, l2_cycles
from ascend_dsa.render.exercises import (
    check_exercise_texts,
    live_link,
    render_exercise_questions,
    render_exercises,
)
from ascend_dsa.render.live import LIVE_FORMS, live_form_anchor, render_live_form
from ascend_dsa.report.exercise_rules import EXERCISE_CHAPTERS, OPENING_QUESTIONS, accepted_units, answer_bounds
from ascend_dsa.report.exercises import EXERCISES, chapter_exercises
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from tests.helpers.project import DOCS

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("chapter", EXERCISE_CHAPTERS)
def test_each_exercise_carries_its_checker_and_a_closed_solution(chapter: str, lang: str) -> None:
    """Every exercise has its anchor, bounds, units and messages, and its steps inside a closed <details>."""
    page = render_exercises(chapter, lang=lang)  # type: ignore[arg-type]
    for exercise in chapter_exercises(chapter):
        solution = exercise.solution(SHIPPED_CONTEXT)
        block = page.split(f'id="exercise-{exercise.key}"', 1)[1].split('<div class="exercise"', 1)[0]
        low, high = answer_bounds(solution.answer, exercise.relative_tolerance)
        assert f'data-low="{low!r}" data-high="{high!r}"' in block
        units = json.loads(html.unescape(re.search(r'data-units="([^"]*)"', block).group(1)))  # type: ignore[union-attr]
        assert units == dict(accepted_units(exercise.unit))
        assert all(f"data-msg-{name}=" in block for name in ("right", "wrong", "unit", "number"))
        assert "<details><summary>" in block
        assert "<details open" not in block
        assert block.count("<li>") == len(solution.steps)
        assert "{" not in block.split("<form", 1)[0], "a {name} of the question was left unfilled"


@pytest.mark.parametrize("chapter", EXERCISE_CHAPTERS)
def test_opening_questions_link_to_the_chapters_exercises(chapter: str) -> None:
    """The opening lists the first exercises' questions, each a link to its exercise below."""
    opening = render_exercise_questions(chapter, lang="en")
    keys = re.findall(r'href="#exercise-([a-z0-9-]+)"', opening)
    assert keys == [e.key for e in chapter_exercises(chapter)][:OPENING_QUESTIONS]
    assert len(keys) >= 2


#: The exercise chapters written as Jupyter notebooks (the rest are Markdown pages).
NOTEBOOK_CHAPTERS = ("design/what-if",)
_EDITIONS = ((".md", ".ipynb", "zh", "## 练习 {#exercises}"), (".en.md", ".en.ipynb", "en", "## Exercises"))


def _cells(path: Path) -> list[tuple[str, str, list[str]]]:
    """A notebook's cells as (type, source, tags)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [
        (cell["cell_type"], "".join(cell["source"]), cell["metadata"].get("tags", [])) for cell in notebook["cells"]
    ]


def _page_text(chapter: str) -> str:
    """The zh edition's source as text: a Markdown page, or a notebook's cells joined."""
    if chapter in NOTEBOOK_CHAPTERS:
        return "\n".join(source for _, source, _ in _cells(DOCS / f"{chapter}.ipynb"))
    return (DOCS / f"{chapter}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("chapter", sorted(set(EXERCISE_CHAPTERS) - set(NOTEBOOK_CHAPTERS)))
def test_every_exercise_page_opens_with_questions_and_ends_with_exercises(chapter: str) -> None:
    """Every leaf chapter, primer and the design space: both editions call the questions near the top and the
    exercises last, under an Exercises heading."""
    for suffix, _, lang, heading in _EDITIONS:
        text = (DOCS / f"{chapter}{suffix}").read_text(encoding="utf-8")
        first_section = text.find("\n## ")
        assert -1 < text.find(f'render_exercise_questions("{chapter}"') < first_section
        assert text.rstrip().endswith(f'print(render_exercises("{chapter}", lang="{lang}"))\n```')
        assert heading in text


@pytest.mark.parametrize("chapter", NOTEBOOK_CHAPTERS)
def test_every_exercise_notebook_opens_with_questions_and_ends_with_exercises(chapter: str) -> None:
    """The what-if notebook, both editions: the questions cell comes after the title and before the first section's
    heading cell, the exercises cell is last under an Exercises heading cell, and both hide their Python as the
    live form's cell does (remove-input)."""
    assert chapter in EXERCISE_CHAPTERS
    for _, suffix, lang, heading in _EDITIONS:
        cells = _cells(DOCS / f"{chapter}{suffix}")
        first_section = next(
            i for i, (kind, source, _) in enumerate(cells) if kind == "markdown" and "\n## " in f"\n{source}"
        )
        asks = [i for i, (_, source, _) in enumerate(cells) if f'render_exercise_questions("{chapter}"' in source]
        assert len(asks) == 1, suffix
        assert cells[0][1].startswith("# "), suffix
        assert 0 < asks[0] < first_section, suffix
        assert cells[asks[0]][0] == "code", suffix
        assert f'lang="{lang}"' in cells[asks[0]][1], suffix
        *_, (before_kind, before, _), (kind, source, _) = cells
        assert (before_kind, before.strip()) == ("markdown", heading), suffix
        assert kind == "code", suffix
        assert source.rstrip().endswith(f'render_exercises("{chapter}", lang="{lang}"))'), suffix
        for index in (asks[0], len(cells) - 1):
            assert "remove-input" in cells[index][2], (suffix, index)


def test_live_links_fill_a_form_on_the_exercises_own_page() -> None:
    """A what-if's live link names a form its chapter's page (or notebook) shows, and only that form's inputs."""
    linked = [exercise for exercise in EXERCISES if exercise.live]
    assert linked
    assert any(exercise.chapter in NOTEBOOK_CHAPTERS for exercise in linked)
    for exercise in linked:
        page = _page_text(exercise.chapter)
        assert f'render_live_form("{exercise.live}"' in page, exercise.key
        link = live_link(exercise)
        query, _, anchor = link.partition("#")
        assert query.startswith(f"?live={exercise.live}&")
        assert anchor == live_form_anchor(exercise.live)
        assert f'id="{anchor}"' in render_live_form(exercise.live, lang="zh")
        options = {item.option for item in LIVE_FORMS[exercise.live]}
        assert {part.split("=")[0] for part in query[1:].split("&")[1:]} <= options


def test_a_live_link_to_an_unknown_form_or_input_fails() -> None:
    """A form that does not exist, or an input it does not have, is a one-line error."""
    exercise = next(e for e in EXERCISES if e.live)
    with pytest.raises(ValueError, match="live must be one of"):
        live_link(replace(exercise, live="no-such-form"))
    with pytest.raises(ValueError, match="has no input bogus"):
        live_link(replace(exercise, inputs={"bogus": 1}))


def test_a_number_typed_into_an_exercise_fails_the_render() -> None:
    """A question that types a number (in either language) is refused, as a typed number in prose is."""
    exercise = EXERCISES[0]
    solution = exercise.solution(SHIPPED_CONTEXT)
    check_exercise_texts(exercise, solution)
    for question in (Text("有 64 个 head", "{topk} heads"), Text("{topk} 个", "with 64 heads"), Text("两个 head", "x")):
        with pytest.raises(ValueError, match="types the number"):
            check_exercise_texts(replace(exercise, question=question), solution)


def test_a_changed_constant_changes_the_rendered_answer() -> None:
    """Rendered for a chip with half the L2 bandwidth, the roofline exercises print other answers."""
    slower = ClaimContext(ASCEND_950.with_overrides(bandwidth_bytes_per_s=ASCEND_950.bandwidth_bytes_per_s / 2))
    shipped = render_exercises("discussion/heads-per-core", lang="en")
    changed = render_exercises("discussion/heads-per-core", lang="en", context=slower)
    assert shipped != changed
    slower_l2 = l2_cycles(slower.spec, SHIPPED_KERNEL.heads_per_core, REPORT_TOPK[-1])
    assert f"<strong>{slower_l2:,.1f} cycles</strong>" in changed
    assert f"<strong>{slower_l2:,.1f} cycles</strong>" not in shipped
