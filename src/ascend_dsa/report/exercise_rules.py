"""What an exercise is, and the rule that checks a reader's answer: its parts, its units and its tolerance.

An [`Exercise`][] names its chapter, its kind, its inputs, the function that solves it (a model of the package, for
a `ClaimContext`), the unit and tolerance of its answer, the source it rests on and its question in both
languages; solving it gives a [`Solution`][]: the numbers the question quotes, the worked steps (each a number, its
unit and the line it rests on) and the answer. No text types a number: each ``{name}`` of a question is filled
from the solution's ``given``. The entries are in ``report.exercises``.

The answer check is written once here ([`check_answer`][]): a typed number, optionally followed by a unit the
answer's unit accepts ([`accepted_units`][]), is right when it lies within [`answer_bounds`][]. The page's script
compares the same bounds with the same unit table, both written by the build.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.chapters import CHAPTERS_BY_KEY
from ascend_dsa.facts.provenance import Source
from ascend_dsa.lang import COUNT_UNITS, Text, unit_name
from ascend_dsa.report.prose_values import Quantity
from ascend_dsa.units import KiB, MiB
from ascend_dsa.validate import Choice, shown

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ascend_dsa.report.rules import ClaimContext

#: The chapters that open with questions and end with exercises: every leaf chapter of the report (and the two chips'
#: comparison), every primer, the design space and its what-if notebook.
EXERCISE_CHAPTERS: Final = (
    "algorithm/model",
    "algorithm/flow",
    "algorithm/double-buffering",
    "algorithm/roofline",
    "algorithm/nd-nz",
    "discussion/heads-per-core",
    "discussion/accumulator",
    "discussion/one-vector-core",
    "discussion/nd2nz-when",
    "discussion/skip-scale-sync",
    "discussion/two-chips",
    "pipeline",
    "optimizations/gather2",
    "optimizations/kv-cache-layout",
    "optimizations/fast-nd2nz",
    "optimizations/icache",
    "optimizations/l1-banks",
    "optimizations/skip-scale",
    "design/index",
    "design/what-if",
)
#: Questions a chapter's opening lists: its first exercises, at most this many.
OPENING_QUESTIONS: Final = 3


class ExerciseKind(Choice):
    """What an exercise asks for: a published figure again, a verdict under a change, or a number to reason with."""

    RECOMPUTE = "recompute"
    WHAT_IF = "what-if"
    REASON = "reason"


#: A ratio of two like quantities (CUBE over L2 cycles): written after the number, no space.
RATIO_UNIT: Final = "×"
_BYTE_UNITS: Final = {"B": 1, "KiB": KiB, "MiB": MiB}
#: Units an answer or a step may carry; each is a key of [`accepted_units`][].
ANSWER_UNITS: Final = (
    *_BYTE_UNITS,
    *COUNT_UNITS,
    "%",
    RATIO_UNIT,
    "FMA",
    "FLOP",
    "FLOP/cycle",
    "SMs",
    "TFLOPS",
    "TB/s",
    "FLOP/B",
    "B/cycle",
)


def normal_unit(text: str) -> str:
    """A unit as typed, compared without case or spaces (``64 个 head`` and ``64个Head`` name the same unit)."""
    return re.sub(r"\s+", "", text).lower()


def _spellings(unit: str) -> set[str]:
    """The ways a reader may write ``unit``: as written, in both languages' words, singular, without 个."""
    words = {unit, unit_name(unit, "zh"), unit_name(unit, "en")}
    if unit in COUNT_UNITS:
        words.add(unit.removesuffix("s"))
    words |= {word.removeprefix("个 ") for word in words}
    return {normal_unit(word) for word in words}


def _unit_table(unit: str) -> dict[str, float]:
    """Every spelling the answer's ``unit`` accepts, with the factor that turns a number in it into ``unit``."""
    if unit in _BYTE_UNITS:
        base = _BYTE_UNITS[unit]
        table = {spelling: size / base for name, size in _BYTE_UNITS.items() for spelling in _spellings(name)}
        table |= {normal_unit(word): 1 / base for word in ("bytes", "byte", "字节")}
        return table
    table = dict.fromkeys(_spellings(unit), 1.0)
    if unit == RATIO_UNIT:
        table["x"] = 1.0
    return table


#: For each answer unit, the units a reader may type instead and their factors; the page's script reads this.
UNIT_TABLES: Final[Mapping[str, Mapping[str, float]]] = MappingProxyType(
    {unit: MappingProxyType(_unit_table(unit)) for unit in ANSWER_UNITS}
)


def accepted_units(unit: str) -> Mapping[str, float]:
    """The spellings an answer in ``unit`` accepts (normalised by [`normal_unit`][]), each with its factor."""
    if unit not in UNIT_TABLES:
        raise ValueError(f"unit must be one of {', '.join(ANSWER_UNITS)}, got {shown(unit)}")
    return UNIT_TABLES[unit]


def _check_unit(what: str, unit: object) -> str:
    if not isinstance(unit, str) or unit not in UNIT_TABLES:
        raise ValueError(f"{what} needs a unit, one of {', '.join(ANSWER_UNITS)}; got {shown(unit)}")
    return unit


@dataclass(frozen=True)
class Step:
    """One step of a worked solution: what it computes, the number with its unit, and the line it rests on."""

    text: Text
    value: Quantity
    source: Source

    def __post_init__(self) -> None:
        """Reject a step without both languages, a unit or a source (a one-line error naming the step)."""
        what = f"step {shown(getattr(self.text, 'en', self.text))}"
        if not isinstance(self.text, Text):
            raise TypeError(f"{what} needs its text in both languages (a Text)")
        if not isinstance(self.value, Quantity):
            raise TypeError(f"{what} needs its number as a Quantity, got {shown(self.value)}")
        _check_unit(what, self.value.unit)
        if not isinstance(self.source, Source):
            raise TypeError(f"{what} needs the source it rests on (a Source), got {shown(self.source)}")


@dataclass(frozen=True)
class Solution:
    """What solving an exercise gives: the numbers its question quotes, its worked steps and its answer."""

    given: Mapping[str, Quantity]
    steps: tuple[Step, ...]
    answer: Quantity

    def __post_init__(self) -> None:
        """Reject a solution without steps, or with an answer that is not a finite number."""
        if not self.steps or not all(isinstance(step, Step) for step in self.steps):
            raise ValueError(f"a solution needs at least one Step, got {shown(self.steps)}")
        if not isinstance(self.answer, Quantity) or not math.isfinite(float(self.answer.value)):
            raise ValueError(f"a solution's answer must be a finite Quantity, got {shown(self.answer)}")
        object.__setattr__(self, "given", MappingProxyType(dict(self.given)))


@dataclass(frozen=True)
class Exercise:
    """One exercise of a chapter: its kind, question, inputs, solver, answer unit, tolerance and source.

    ``question`` names the numbers it quotes as ``{name}``, filled from the solution's ``given``. ``inputs`` are
    what a what-if changes, by the command-line option that changes them (``heads``, ``l2-bandwidth``); ``live``
    names the page's live form (``render.live.LIVE_FORMS``) they fill, or is empty. ``relative_tolerance`` widens
    the accepted range beyond the answer's shown digits by that share of the answer.
    """

    key: str
    chapter: str
    kind: ExerciseKind
    question: Text
    solve: Callable[[ClaimContext, Mapping[str, int | float]], Solution] = field(repr=False, compare=False)
    unit: str
    source: Source
    inputs: Mapping[str, int | float] = field(default_factory=dict)
    relative_tolerance: float = 0.0
    live: str = ""

    def __post_init__(self) -> None:
        """Reject a missing language, unit or source, an unknown chapter or kind, a what-if without inputs."""
        what = f"exercise {shown(self.key)}"
        if not isinstance(self.key, str) or not re.fullmatch(r"[a-z][a-z0-9-]*", self.key):
            raise ValueError(f"{what}: key must be lower-case words joined by '-'")
        if self.chapter not in EXERCISE_CHAPTERS or self.chapter not in CHAPTERS_BY_KEY:
            raise ValueError(
                f"{what}: chapter must be one of {', '.join(EXERCISE_CHAPTERS)}, got {shown(self.chapter)}"
            )
        if not isinstance(self.kind, ExerciseKind):
            raise TypeError(f"{what}: kind must be an ExerciseKind, got {shown(self.kind)}")
        if not isinstance(self.question, Text):
            raise TypeError(f"{what}: question must be a Text in both languages, got {shown(self.question)}")
        _check_unit(what, self.unit)
        if not isinstance(self.source, Source):
            raise TypeError(f"{what}: needs the source it rests on (a Source), got {shown(self.source)}")
        if not callable(self.solve):
            raise TypeError(f"{what}: solve must be callable, got {shown(self.solve)}")
        if self.kind is ExerciseKind.WHAT_IF and not self.inputs:
            raise ValueError(f"{what}: a what-if needs the inputs it changes")
        if self.live and not self.inputs:
            raise ValueError(f"{what}: a live link needs inputs to fill the form {shown(self.live)} with")
        if not math.isfinite(self.relative_tolerance) or not 0 <= self.relative_tolerance < 1:
            raise ValueError(f"{what}: relative_tolerance must lie in [0, 1), got {shown(self.relative_tolerance)}")
        object.__setattr__(self, "inputs", MappingProxyType(dict(self.inputs)))

    def solution(self, context: ClaimContext) -> Solution:
        """The solution for ``context``; raises naming the exercise if its answer is not in the exercise's unit."""
        solved = self.solve(context, self.inputs)
        if solved.answer.unit != self.unit:
            raise ValueError(f"exercise {shown(self.key)}: answer in {shown(solved.answer.unit)}, expected {self.unit}")
        return solved


def shown_value(quantity: Quantity) -> float:
    """A quantity's number as the page shows it: a fraction in ``%`` as a percentage, others as they are."""
    return float(quantity.value) * (100 if quantity.unit == "%" else 1)


def answer_bounds(answer: Quantity, relative_tolerance: float = 0.0) -> tuple[float, float]:
    """The range of typed values accepted, in the answer's shown unit: its rounding, widened by the tolerance."""
    value = shown_value(answer)
    slack = relative_tolerance * abs(value) + 0.5 * 10.0**-answer.decimals
    return value - slack, value + slack


class Outcome(Choice):
    """What checking a typed answer finds."""

    RIGHT = "right"
    WRONG = "wrong"
    UNIT = "unit"
    NUMBER = "number"


#: A typed answer: a number (sign, decimals, exponent), then anything as its unit. The page's script uses the same.
TYPED_ANSWER: Final = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(.*)$")


def check_answer(typed: str, answer: Quantity, relative_tolerance: float = 0.0) -> Outcome:
    """Whether ``typed`` (``48 KiB``, ``49152``, ``6,144 cycles``) is the answer: grouping commas are ignored."""
    match = TYPED_ANSWER.match(typed.replace(",", "").replace("，", "").strip())
    if match is None:
        return Outcome.NUMBER
    unit = normal_unit(match.group(2))
    table = accepted_units(answer.unit)
    if unit and unit not in table:
        return Outcome.UNIT
    low, high = answer_bounds(answer, relative_tolerance)
    value = float(match.group(1)) * (table[unit] if unit else 1.0)
    return Outcome.RIGHT if low <= value <= high else Outcome.WRONG
