"""A chapter's exercises as a page shows them: its opening questions, and at its end each exercise with a checker.

Each exercise is a ``div.exercise`` holding its question, an answer box that exercises.js checks in the reader's
browser (the accepted range, the accepted units and every message are ``data-*`` attributes written here, so the
script holds no number and no word), a "try it live" link for a what-if whose form is on the page, and the answer
with its worked steps in a ``<details>`` block, closed until asked. Before anything is written, the exercise's
sentences go through the typed-number scanner: a number typed into one fails the page's block, as in prose.
"""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING, Final
from urllib.parse import urlencode

from ascend_dsa.facts.chapters import chapter_named
from ascend_dsa.lang import Lang, Text, check_lang, unit_name
from ascend_dsa.render.format import format_quantity
from ascend_dsa.render.live import LIVE_FORMS, live_form_anchor
from ascend_dsa.render.typed_numbers import typed_in_text
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.exercise_rules import (
    OPENING_QUESTIONS,
    RATIO_UNIT,
    Exercise,
    ExerciseKind,
    Outcome,
    Solution,
    accepted_units,
    answer_bounds,
)
from ascend_dsa.report.exercises import chapter_exercises
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.validate import require_instance

if TYPE_CHECKING:
    from ascend_dsa.report.prose_values import Quantity

_KIND: Final = {
    ExerciseKind.RECOMPUTE: Text("重算报告的数", "recompute a published figure"),
    ExerciseKind.WHAT_IF: Text("假如", "what-if"),
    ExerciseKind.REASON: Text("用数推理", "reason with a number"),
}
#: The word before an exercise's number (a printed book keeps it; see ANSWER_LABEL).
EXERCISE_LABEL: Final = Text("练习", "Exercise")
#: The heading of a chapter's opening questions (the site's search weighs the questions under it as headings).
OPENING: Final = Text("读完本章，你能回答：", "After this chapter you can answer:")
_CHECK: Final = Text("检查", "Check")
#: The label of the answer box, which only the screen shows (reader.css hides it in print).
ANSWER_LABEL: Final = Text("你的答案", "Your answer")
_SHOW: Final = Text("答案与解法", "Answer and worked solution")
_ANSWER: Final = Text("答案", "Answer")
_LIVE: Final = Text("在本页的表单里试一试", "Try it live in this page's form")
_IN_UNIT: Final = Text("单位", "unit")
#: What the checker says, by outcome; exercises.js reads each from a ``data-msg-*`` attribute.
_MESSAGES: Final = {
    Outcome.RIGHT: Text("对了。", "Right."),
    Outcome.WRONG: Text(
        "还不对，再算一遍，或展开下面的解法。", "Not yet: try again, or open the worked solution below."
    ),
    Outcome.UNIT: Text("这个单位认不出，可用：", "Unit not recognised; use one of:"),
    Outcome.NUMBER: Text("请先写一个数，可以带单位。", "Type a number first, with a unit if you like."),
}


def _texts(exercise: Exercise, solution: Solution) -> list[tuple[str, Text]]:
    """Every sentence of ``exercise`` a reader sees, named for an error message."""
    named = [("question", exercise.question)]
    named += [(f"step {index}", step.text) for index, step in enumerate(solution.steps, 1)]
    return named


def check_exercise_texts(exercise: Exercise, solution: Solution) -> None:
    """Raise a ValueError if a sentence of ``exercise`` types a number (the page scanner's rule)."""
    for name, text in _texts(exercise, solution):
        for lang in ("zh", "en"):
            found = typed_in_text(text.in_(lang))
            if found:
                raise ValueError(
                    f"exercise {exercise.key!r}, {name} ({lang}) types the number {found[0].number!r}: "
                    "write it as {name} filled from the solution's given numbers"
                )


def quantity_text(quantity: Quantity, lang: Lang) -> str:
    """A number with its unit as a step or answer shows it: ``6,144 cycles``, ``84.5%``, ``0.93×``."""
    number = format_quantity(quantity, lang)
    if quantity.unit in ("%", RATIO_UNIT):
        return number + ("" if quantity.unit == "%" else RATIO_UNIT)
    if not quantity.unit:
        return number
    return f"{number} {unit_name(quantity.unit, lang)}"


def _question(exercise: Exercise, solution: Solution, lang: Lang) -> str:
    """The question with its ``{name}`` filled from the solution's given numbers, escaped for HTML."""
    given = {name: quantity_text(value, lang) for name, value in solution.given.items()}
    return escape(exercise.question.in_(lang).format_map(given))


def _anchor(exercise: Exercise) -> str:
    return f"exercise-{exercise.key}"


def live_link(exercise: Exercise) -> str:
    """``?live=FORM&option=value#live-FORM``: the page again, its form filled with the exercise's inputs, or empty.

    The query carries the inputs (exercises.js fills the form from it); the fragment is the form's own anchor.
    """
    if not exercise.live:
        return ""
    if exercise.live not in LIVE_FORMS:
        raise ValueError(
            f"exercise {exercise.key!r}: live must be one of {', '.join(LIVE_FORMS)}, got {exercise.live!r}"
        )
    options = {item.option for item in LIVE_FORMS[exercise.live]}
    unknown = sorted(set(exercise.inputs) - options)
    if unknown:
        raise ValueError(f"exercise {exercise.key!r}: the form {exercise.live!r} has no input {', '.join(unknown)}")
    values = {name: f"{value:g}" if isinstance(value, float) else str(value) for name, value in exercise.inputs.items()}
    return "?" + urlencode({"live": exercise.live, **values}) + "#" + live_form_anchor(exercise.live)


def _checker(exercise: Exercise, solution: Solution, lang: Lang) -> str:
    """The answer box: accepted range, units and messages as data attributes for exercises.js."""
    low, high = answer_bounds(solution.answer, exercise.relative_tolerance)
    units = accepted_units(solution.answer.unit)
    names = ", ".join(sorted({unit_name(solution.answer.unit, lang), solution.answer.unit}))
    messages = " ".join(
        f'data-msg-{outcome.value}="{escape(text.in_(lang) + (" " + names if outcome is Outcome.UNIT else ""))}"'
        for outcome, text in _MESSAGES.items()
    )
    return (
        f'<form class="exercise-check" data-low="{low!r}" data-high="{high!r}" '
        f'data-units="{escape(json.dumps(dict(units), sort_keys=True))}" {messages}>'
        f'<label>{escape(ANSWER_LABEL.in_(lang))} <input type="text" name="answer" autocomplete="off" '
        f'spellcheck="false" inputmode="decimal"></label> '
        f"<small>({escape(_IN_UNIT.in_(lang))}: {escape(unit_name(solution.answer.unit, lang))})</small> "
        f'<button type="submit" class="md-button">{escape(_CHECK.in_(lang))}</button> '
        '<output class="exercise-verdict" role="status"></output></form>'
    )


def _steps(solution: Solution, lang: Lang) -> str:
    items = "".join(
        f"<li>{escape(step.text.in_(lang))}: <strong>{escape(quantity_text(step.value, lang))}</strong> "
        f"<small>({escape(step.source.cite(lang))})</small></li>"
        for step in solution.steps
    )
    return f"<ol>{items}</ol>"


def _exercise_html(number: int, exercise: Exercise, solution: Solution, lang: Lang) -> str:
    heading = f"{EXERCISE_LABEL.in_(lang)} {number}"
    link = live_link(exercise)
    live = f'<p><a class="exercise-live" href="{escape(link)}">{escape(_LIVE.in_(lang))}</a></p>' if link else ""
    answer = escape(quantity_text(solution.answer, lang))
    return (
        f'<div class="exercise" id="{_anchor(exercise)}" data-kind="{exercise.kind.value}">\n'
        f"<p><strong>{escape(heading)}</strong> <small>({escape(_KIND[exercise.kind].in_(lang))}; "
        f"{escape(exercise.source.cite(lang))})</small> {_question(exercise, solution, lang)}</p>\n"
        f"{_checker(exercise, solution, lang)}\n{live}"
        f"<details><summary>{escape(_SHOW.in_(lang))}</summary>\n{_steps(solution, lang)}\n"
        f"<p>{escape(_ANSWER.in_(lang))}: <strong>{answer}</strong></p></details>\n</div>"
    )


def _solved(chapter: str, context: ClaimContext) -> list[tuple[Exercise, Solution]]:
    """The chapter's exercises with their solutions, every sentence checked for typed numbers.

    The chapter's claims are checked first (for the shipped design; ``context`` may be a what-if), as every other
    block of its page does: a published figure that moved fails the exercises too.
    """
    context = require_instance("context", context, ClaimContext)
    ledger = chapter_named(chapter).ledger
    if ledger:
        check_claims(chapter=chapter, source=ledger)
    solved = []
    for exercise in chapter_exercises(chapter):
        solution = exercise.solution(context)
        check_exercise_texts(exercise, solution)
        solved.append((exercise, solution))
    return solved


def render_exercises(chapter: str, *, lang: Lang = "zh", context: ClaimContext = SHIPPED_CONTEXT) -> str:
    """The chapter's exercises, numbered, each checkable in the page, its solution closed until asked."""
    check_lang(lang)
    blocks = [_exercise_html(n, e, s, lang) for n, (e, s) in enumerate(_solved(chapter, context), 1)]
    return '<div class="exercises" data-search-exclude>\n' + "\n".join(blocks) + "\n</div>"


def render_exercise_questions(chapter: str, *, lang: Lang = "zh", context: ClaimContext = SHIPPED_CONTEXT) -> str:
    """What a reader can answer after the chapter: its first exercises' questions, each linked to its exercise."""
    check_lang(lang)
    items = "".join(
        f'<li><a href="#{_anchor(e)}">{_question(e, s, lang)}</a></li>'
        for e, s in _solved(chapter, context)[:OPENING_QUESTIONS]
    )
    return (
        f'<div class="admonition question exercise-questions"><p class="admonition-title">'
        f"{escape(OPENING.in_(lang))}</p><ul>{items}</ul></div>"
    )
