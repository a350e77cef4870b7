"""The exercise record and the answer check: what construction refuses, and what the checker accepts."""

from __future__ import annotations

import pytest

from ascend_dsa.facts.provenance import report_line
from ascend_dsa.lang import Text
from ascend_dsa.report.exercise_rules import (
    Exercise,
    ExerciseKind,
    Outcome,
    Solution,
    Step,
    accepted_units,
    answer_bounds,
    check_answer,
)
from ascend_dsa.report.prose_values import Quantity
from ascend_dsa.report.rules import SHIPPED_CONTEXT
from ascend_dsa.units import KiB


def _solve(_d: object, _x: object) -> Solution:
    value = Quantity(48, "KiB")
    return Solution({}, (Step(Text("甲", "a"), value, report_line(1)),), value)


def _exercise(**changes: object) -> Exercise:
    fields: dict[str, object] = {
        "key": "sample",
        "chapter": "pipeline",
        "kind": ExerciseKind.REASON,
        "question": Text("多大？", "How large?"),
        "solve": _solve,
        "unit": "KiB",
        "source": report_line(1),
    } | changes
    return Exercise(**fields)  # type: ignore[arg-type]


def test_a_complete_exercise_solves() -> None:
    """An exercise with every part builds and solves to its solver's answer."""
    assert _exercise().solution(SHIPPED_CONTEXT).answer == Quantity(48, "KiB")


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"question": "只有中文"}, "question must be a Text"),
        ({"unit": ""}, "needs a unit"),
        ({"unit": "furlongs"}, "needs a unit"),
        ({"source": None}, "needs the source"),
        ({"chapter": "reference/glossary"}, "chapter must be one of"),
        ({"kind": ExerciseKind.WHAT_IF}, "a what-if needs the inputs"),
        ({"live": "head-roofline"}, "a live link needs inputs"),
    ],
)
def test_construction_refuses_a_missing_part(changes: dict[str, object], words: str) -> None:
    """A missing language, unit or source (and an unknown chapter, a what-if without inputs) fails in one line."""
    with pytest.raises((TypeError, ValueError), match=words) as caught:
        _exercise(**changes)
    assert "exercise 'sample'" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_text_missing_a_language_fails() -> None:
    """A question cannot even be written without both languages."""
    with pytest.raises(ValueError, match="both languages"):
        _exercise(question=Text("多大？", ""))


def test_a_step_needs_a_unit_and_a_source() -> None:
    """A step without a unit, or without a source, fails at construction naming the step."""
    with pytest.raises(ValueError, match="step 'a' needs a unit"):
        Step(Text("甲", "a"), Quantity(1), report_line(1))
    with pytest.raises(TypeError, match="step 'a' needs the source"):
        Step(Text("甲", "a"), Quantity(1, "B"), None)  # type: ignore[arg-type]


def test_an_answer_in_another_unit_than_declared_fails() -> None:
    """The solver's answer must come in the exercise's unit."""
    with pytest.raises(ValueError, match="answer in 'KiB', expected B"):
        _exercise(unit="B").solution(SHIPPED_CONTEXT)


def test_the_checker_accepts_the_answer_in_any_written_unit() -> None:
    """48 KiB is right as 48, 48 KiB, 49152 B, 49,152 bytes and 0.046875 MiB."""
    answer = Quantity(48, "KiB")
    for typed in ("48", "48 KiB", "48kib", "49152 B", "49,152 bytes", "49152 字节", "0.046875 MiB"):
        assert check_answer(typed, answer) is Outcome.RIGHT, typed
    assert accepted_units("KiB")["b"] == 1 / KiB


def test_the_checker_rejects_just_outside_the_tolerance() -> None:
    """A value a hair beyond the accepted range is wrong; the bounds themselves are right."""
    answer = Quantity(0.9345, "×", 2)
    low, high = answer_bounds(answer, 0.002)
    assert check_answer(f"{low}", answer, 0.002) is Outcome.RIGHT
    assert check_answer(f"{high}", answer, 0.002) is Outcome.RIGHT
    assert check_answer(f"{high + 1e-6}", answer, 0.002) is Outcome.WRONG
    assert check_answer(f"{low - 1e-6}", answer, 0.002) is Outcome.WRONG


def test_a_percentage_is_checked_as_shown() -> None:
    """A share shown as 43.8% is typed as 43.8 or 43.8%."""
    answer = Quantity(0.4375, "%", 1)
    assert check_answer("43.8%", answer) is Outcome.RIGHT
    assert check_answer("43.75", answer) is Outcome.RIGHT
    assert check_answer("44", answer) is Outcome.WRONG


def test_the_checker_says_what_is_missing() -> None:
    """No number, and a unit the answer does not accept, have their own outcomes."""
    answer = Quantity(8192, "cycles")
    assert check_answer("", answer) is Outcome.NUMBER
    assert check_answer("many", answer) is Outcome.NUMBER
    assert check_answer("8192 B", answer) is Outcome.UNIT
    assert check_answer("8192 周期", answer) is Outcome.RIGHT
    assert check_answer("8,192 cycle", answer) is Outcome.RIGHT
