"""The pipeline model's validation boundary as data: anchors that resolve, directions that are given, steps cited."""

from __future__ import annotations

import inspect
import shlex
from pathlib import Path

import pytest

from ascend_dsa import cli
from ascend_dsa.lang import Text
from ascend_dsa.models import pipeline
from ascend_dsa.render.typed_numbers import typed_in_text
from ascend_dsa.report.validation_boundary import (
    COLLECTION_STEPS,
    VALIDATION_BOUNDARY,
    BoundaryEntry,
    CodeAnchor,
    CollectionStep,
    Document,
    ErrorDirection,
)

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = {entry.key: entry for entry in VALIDATION_BOUNDARY}


def test_keys_are_unique() -> None:
    """One entry per key."""
    assert len(ENTRIES) == len(VALIDATION_BOUNDARY)


@pytest.mark.parametrize(
    "key", ["l2-caches", "hbm-behind-l2", "bank-conflicts", "scalar-and-sync", "launch-and-ends", "icache"]
)
def test_the_issues_omissions_are_listed_with_a_direction(key: str) -> None:
    """Caches, HBM behind L2, bank conflicts, scalar and sync costs, launch overhead and icache are each left out."""
    entry = ENTRIES[key]
    assert not entry.included
    assert entry.direction is ErrorDirection.OPTIMISTIC
    assert entry.why is not None


def test_inclusions_and_omissions_are_both_there() -> None:
    """The boundary says what the model has as well as what it lacks, and one rate can err either way."""
    assert any(e.included for e in VALIDATION_BOUNDARY)
    assert {e.direction for e in VALIDATION_BOUNDARY if not e.included} >= {
        ErrorDirection.OPTIMISTIC,
        ErrorDirection.EITHER,
    }


@pytest.mark.parametrize("entry", VALIDATION_BOUNDARY, ids=lambda e: e.key)
def test_each_anchor_points_at_a_line_that_holds_it(entry: BoundaryEntry) -> None:
    """The cited file exists and its cited line holds the needle, or defines the name when there is none."""
    anchor = entry.anchor
    path, line = anchor.where().rsplit(":", 1)
    text = (ROOT / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert anchor.needle in text if anchor.needle else anchor.name.rsplit(".", 1)[-1] in text


def test_a_function_anchor_is_the_line_inspect_gives() -> None:
    """Without a needle, a function's anchor is its def line, the same line inspect reads (so it moves with it)."""
    _, line = inspect.getsourcelines(pipeline.stage_costs)
    assert CodeAnchor("ascend_dsa.models.pipeline", "stage_costs").line() == line


@pytest.mark.parametrize(
    ("anchor", "words"),
    [
        (CodeAnchor("ascend_dsa.models.pipeline", "no_such_name"), "defines no 'no_such_name'"),
        (CodeAnchor("ascend_dsa.models.pipeline", "stage_costs", "no such text"), "has no line with 'no such text'"),
        (CodeAnchor("ascend_dsa.models.no_such_module", "x"), "cannot be found"),
        (CodeAnchor("ascend_dsa.models.pipeline", "simulate.inner"), "defines no 'simulate.inner'"),
    ],
)
def test_a_stale_anchor_fails_naming_what_is_gone(anchor: CodeAnchor, words: str) -> None:
    """An anchor whose name or text has gone raises naming it, so the page's build fails instead of citing wrong."""
    with pytest.raises(ValueError, match=words):
        anchor.line()


def test_an_anchor_outside_the_package_is_refused() -> None:
    """Only the package's own modules can be cited."""
    with pytest.raises(ValueError, match="must name a module of ascend_dsa"):
        CodeAnchor("json", "dumps")


def test_an_omission_needs_a_direction_and_a_reason() -> None:
    """A direction without a reason, or a reason without a direction, is refused."""
    anchor = CodeAnchor("ascend_dsa.models.pipeline", "simulate")
    with pytest.raises(ValueError, match="direction of error and why together"):
        BoundaryEntry("x", Text.same("x"), Text.same("x"), anchor, ErrorDirection.OPTIMISTIC)
    with pytest.raises(ValueError, match="direction of error and why together"):
        BoundaryEntry("x", Text.same("x"), Text.same("x"), anchor, why=Text.same("x"))


def _texts() -> list[Text]:
    texts = [t for e in VALIDATION_BOUNDARY for t in (e.title, e.model, e.why) if t is not None]
    return texts + [s.what for s in COLLECTION_STEPS]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_text_types_a_number(lang: str) -> None:
    """The boundary and the steps type no number (citations aside): the scanner finds none."""
    found = [n for text in _texts() for n in typed_in_text(text.in_(lang))]
    assert found == []


#: The options of msprof the steps use, each as the cited documents write it.
MSPROF_OPTIONS = {"--soc-version", "--output"}


@pytest.mark.parametrize("step", [s for s in COLLECTION_STEPS if s.command], ids=lambda s: s.command)
def test_each_command_uses_documented_options_or_our_own(step: CollectionStep) -> None:
    """msprof commands use only the options the cited documents show; our commands parse with our own parser."""
    words = shlex.split(step.command)
    if words[0] == "msprof":
        assert {w.split("=", 1)[0] for w in words if w.startswith("--")} <= MSPROF_OPTIONS
    elif words[0] == "ascend-dsa":
        args = cli.build_parser().parse_args(words[1:])
        assert args.compare
    else:
        assert words[0] == "ls"


def test_steps_cover_the_simulator_and_the_chip() -> None:
    """The steps compare a simulator trace.json and an on-chip op summary, each citing https documents."""
    commands = " ".join(s.command for s in COLLECTION_STEPS)
    assert "msprof op simulator" in commands
    assert "--compare ./sim/OPPROF_*/simulator/trace.json" in commands
    assert "op_summary_*.csv" in commands
    assert all(d.url.startswith("https://") for s in COLLECTION_STEPS for d in s.documents)


def test_a_step_must_cite_a_document() -> None:
    """A step without a document, or a document without an https address, is refused."""
    with pytest.raises(ValueError, match="must cite"):
        CollectionStep(Text.same("x"), "", ())
    with pytest.raises(ValueError, match="https address"):
        Document("title", "http://example.invalid")
