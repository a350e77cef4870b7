"""The chapters' exercises: enough of them, of every kind, each answer what the model and the command line give."""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest

from ascend_dsa.facts.chapters import ledger_chapters, primer_chapters
from ascend_dsa.facts.hardware import ASCEND_950, ridge_flop_per_byte
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import kv_bytes_per_token
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.models.block_cycles import mma_cycles_per_block
from ascend_dsa.models.design_point import (
    SHIPPED_DESIGN,
    KvCache,
    Limit,
    evaluate,
    fixpipe_cycles,
    smallest_compute_bound_heads,
)
from ascend_dsa.models.memory_plans import Mode, ub_plan
from ascend_dsa.models.nz_layout import nd_to_nz
from ascend_dsa.models.roofline import REPORT_TOPK, arithmetic_intensity, cube_cycles, head_roofline, l2_cycles
from ascend_dsa.report.exercise_rules import (
    EXERCISE_CHAPTERS,
    Exercise,
    ExerciseKind,
    Outcome,
    answer_bounds,
    check_answer,
    shown_value,
)
from ascend_dsa.report.exercises import EXERCISES, NZ_EXAMPLE, WHAT_IF_HEADS, chapter_exercises
from ascend_dsa.report.prose_values import PROSE_VALUES
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.report.scenarios import PRIMER_TILE_FRACTALS_ACROSS
from ascend_dsa.report.what_if import with_fewer_cores, with_half_l2
from ascend_dsa.units import BF16_BYTES, KiB
from tests.helpers.cli import run_cli

BY_KEY = {exercise.key: exercise for exercise in EXERCISES}


def answer(key: str, context: ClaimContext = SHIPPED_CONTEXT) -> float:
    """The exercise's answer as the page shows it (a share in percent)."""
    return shown_value(BY_KEY[key].solution(context).answer)


def test_enough_exercises_of_every_kind_in_every_chapter() -> None:
    """At least 36 exercises, at least 2 per chapter, every kind used, keys unique."""
    assert len(EXERCISES) >= 36
    counts = Counter(exercise.chapter for exercise in EXERCISES)
    assert {chapter: counts[chapter] for chapter in EXERCISE_CHAPTERS if counts[chapter] < 2} == {}
    assert {exercise.kind for exercise in EXERCISES} == set(ExerciseKind)
    assert len(BY_KEY) == len(EXERCISES)


def test_every_leaf_chapter_and_every_primer_has_at_least_two() -> None:
    """The rule of issue 26: every chapter of the report's ledger, every primer, the design space and its what-if
    notebook end with two or more exercises (and so open with their questions)."""
    counts = Counter(exercise.chapter for exercise in EXERCISES)
    chapters = {*ledger_chapters("report"), *primer_chapters(), "design/index", "design/what-if"} - {"index"}
    assert chapters <= set(EXERCISE_CHAPTERS)
    assert {chapter: counts[chapter] for chapter in chapters if counts[chapter] < 2} == {}


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.key)
def test_the_checker_takes_each_answer_as_shown_and_not_just_outside(exercise: Exercise) -> None:
    """Each answer, typed as the page shows it with its unit, is right; a hair beyond its range is wrong."""
    solved = exercise.solution(SHIPPED_CONTEXT).answer
    shown = f"{shown_value(solved):.{solved.decimals}f}"
    assert check_answer(f"{shown} {solved.unit}", solved, exercise.relative_tolerance) is Outcome.RIGHT
    high = answer_bounds(solved, exercise.relative_tolerance)[1]
    assert check_answer(f"{high + 1e-6}", solved, exercise.relative_tolerance) is Outcome.WRONG


def test_every_exercise_solves_for_the_shipped_design() -> None:
    """Each solution has steps and a finite answer in the exercise's unit."""
    for exercise in EXERCISES:
        solution = exercise.solution(SHIPPED_CONTEXT)
        assert solution.answer.unit == exercise.unit, exercise.key
        assert solution.steps, exercise.key


def test_chapter_exercises_refuses_another_chapter() -> None:
    """Only the exercise chapters have exercises; another key is a one-line error."""
    with pytest.raises(ValueError, match="chapter must be one of"):
        chapter_exercises("reference/glossary")


def _cli_number(argv: list[str], pattern: str) -> float:
    status, out, err = run_cli(argv)
    assert status in (0, 1), err
    match = re.search(pattern, out)
    assert match is not None, out
    return float(match.group(1).replace(",", ""))


def test_roofline_answers_equal_the_model_and_the_command_line() -> None:
    """The head-roofline exercises give what the roofline model and ``ascend-dsa head-roofline`` give."""
    heads, small, large = SHIPPED_KERNEL.heads_per_core, REPORT_TOPK[0], REPORT_TOPK[-1]
    assert answer("heads-cube-cycles") == cube_cycles(ASCEND_950, heads, small)
    assert answer("heads-cube-cycles") == _cli_number(
        ["head-roofline", "--heads", str(heads), "--topk", str(small)], r"cube_cycles=\s*(\d+)"
    )
    assert answer("heads-l2-cycles") == pytest.approx(l2_cycles(ASCEND_950, heads, large))
    assert answer("heads-l2-cycles") == pytest.approx(
        _cli_number(["head-roofline", "--heads", str(heads), "--topk", str(large)], r"mem=\s*([\d.]+)"), abs=0.05
    )
    ratio = head_roofline(ASCEND_950, WHAT_IF_HEADS, small).ratio
    assert answer("heads-what-if-between") == ratio
    assert round(ratio, 2) == _cli_number(
        ["head-roofline", "--heads", str(WHAT_IF_HEADS), "--topk", str(small)], r"ratio=\s*([\d.]+)"
    )


@pytest.mark.parametrize("key", ["heads-what-if-half-l2", "kv-fp8-ratio"])
def test_what_if_ratios_equal_the_command_line_with_the_same_inputs(key: str) -> None:
    """A what-if's inputs, given to ``ascend-dsa head-roofline`` as options, print the exercise's answer."""
    inputs = BY_KEY[key].inputs
    argv = ["head-roofline"]
    for option, value in inputs.items():
        argv += [f"--{option}", f"{value:g}" if isinstance(value, float) else str(value)]
    assert round(answer(key), 2) == _cli_number(argv, r"ratio=\s*([\d.]+)")


def test_design_point_answers_equal_the_model_and_the_command_line() -> None:
    """FixPipe, MTE2 and L0C answers are the design-point command's rows (shipped, and with one VECTOR Core)."""
    shipped = run_cli(["design-point"])[1]
    one_v = run_cli(["design-point", "--vector-cores", "1"])[1]

    def row(out: str, label: str) -> tuple[float, float]:
        match = re.search(rf"^{re.escape(label)}.*?([\d,.]+) / ([\d,.]+)", out, flags=re.MULTILINE)
        assert match is not None, out
        return float(match.group(1).replace(",", "")), float(match.group(2).replace(",", ""))

    with_o, p_only = row(shipped, "FixPipe (O leaves every block)")[0], row(shipped, "FixPipe (P only")[0]
    assert answer("skip-fixpipe-saved") == with_o - p_only
    assert answer("skip-fixpipe-saved") == fixpipe_cycles(ASCEND_950, SHIPPED_KERNEL, o_leaves=True) - fixpipe_cycles(
        ASCEND_950, SHIPPED_KERNEL, o_leaves=False
    )
    assert answer("gather2-requests") == row(shipped, "MTE2 queue")[0]
    assert answer("one-v-requests") == row(one_v, "MTE2 queue")[0]
    fixpipe_one_v, cube = row(one_v, "FixPipe (O leaves every block)")
    assert answer("skip-one-v") == fixpipe_one_v - cube
    assert cube == mma_cycles_per_block(ASCEND_950, SHIPPED_KERNEL)
    used, capacity = row(shipped, "L0C capacity")
    assert answer("acc-l0c-free") == pytest.approx(100 * (1 - used / capacity))


def test_a_changed_constant_changes_the_answers() -> None:
    """Halving the L2 bandwidth in the context doubles the L2 cycles an exercise asks for; CUBE cycles stay."""
    slower = ClaimContext(ASCEND_950.with_overrides(bandwidth_bytes_per_s=ASCEND_950.bandwidth_bytes_per_s / 2))
    assert answer("heads-l2-cycles", slower) == pytest.approx(2 * answer("heads-l2-cycles"))
    assert answer("heads-cube-cycles", slower) == answer("heads-cube-cycles")
    fewer = ClaimContext(config=SHIPPED_KERNEL.with_overrides(b_topk=2 * SHIPPED_KERNEL.b_topk))
    assert answer("gather2-requests", fewer) == 2 * answer("gather2-requests")


def test_double_buffering_answers_equal_the_primer_and_the_kernel() -> None:
    """The idle share is the primer's one-buffer ring; the UB ring's depth and bytes are the kernel's constant and
    the UB plan's ``gathered_kv`` field."""
    idle, period = PROSE_VALUES["ring_one_buffer_idle_cycles"](), PROSE_VALUES["ring_one_buffer_cycles_per_block"]()
    assert answer("db-one-buffer-idle") == pytest.approx(100 * float(idle.value) / float(period.value))
    assert answer("db-ub-ring-depth") == SHIPPED_KERNEL.ub_kv_buffers
    plan = ub_plan(SHIPPED_KERNEL, Mode.PREFILL)
    gathered = next(field for field in plan.fields if field.name == "gathered_kv")
    assert answer("db-ub-kv-bytes") == gathered.bytes / KiB


def test_roofline_answers_equal_the_chips_ridge_and_the_intensity_model() -> None:
    """The ridge is the chip's; at the crossover's heads rounded down the intensity is below it, rounded up above."""
    assert answer("roofline-ridge") == pytest.approx(ridge_flop_per_byte(ASCEND_950))
    heads, topk = answer("roofline-crossover-heads"), int(BY_KEY["roofline-crossover-heads"].inputs["topk"])
    ridge = ridge_flop_per_byte(ASCEND_950)
    assert arithmetic_intensity(math.floor(heads), topk) < ridge < arithmetic_intensity(math.ceil(heads), topk)
    halved = ClaimContext(ASCEND_950.with_overrides(bandwidth_bytes_per_s=ASCEND_950.bandwidth_bytes_per_s / 2))
    assert answer("roofline-ridge", halved) == pytest.approx(2 * answer("roofline-ridge"))
    assert answer("roofline-crossover-heads", halved) > answer("roofline-crossover-heads")


def test_nz_answers_equal_where_nd_to_nz_moves_the_element() -> None:
    """The NZ offset is where ``nd_to_nz`` puts the element in the primer's tile; the fractals are its NZ blocks."""
    rows, cols = SHIPPED_KERNEL.fractal_rows, SHIPPED_KERNEL.fractal_cols
    tile = np.arange(rows * PRIMER_TILE_FRACTALS_ACROSS * cols, dtype=np.int32).reshape(rows, -1)
    token, dim = NZ_EXAMPLE["token"], NZ_EXAMPLE["dim"]
    nz = nd_to_nz(tile).reshape(-1)
    assert answer("nz-offset") == int(np.flatnonzero(nz == tile[token, dim])[0]) * BF16_BYTES
    tokens = SHIPPED_KERNEL.b_topk_per_vector_core
    blocks = nd_to_nz(np.zeros((tokens, DSA_V41.d_qk), dtype=np.int32))
    assert answer("nz-fractals-per-block") == blocks.shape[0] * math.ceil(tokens / rows)


def _design_point_row(argv: list[str], label: str) -> tuple[float, float, float]:
    """The use (%), demand and capacity ``ascend-dsa design-point ARGV`` prints on the row ``label``."""
    out = run_cli(["design-point", *argv])[1]
    match = re.search(
        rf"^{re.escape(label)}.*?\s(?:fits|EXCEEDED)\s+([\d.]+)%\s+([\d,.]+) / ([\d,.]+)", out, re.MULTILINE
    )
    assert match is not None, out
    return tuple(float(group.replace(",", "")) for group in match.groups())  # type: ignore[return-value]


def _options(key: str) -> list[str]:
    """The exercise's inputs as the command-line options its live link fills the form with."""
    return [
        f"--{option}={value:g}" if isinstance(value, float) else f"--{option}={value}"
        for option, value in BY_KEY[key].inputs.items()
    ]


def test_design_answers_equal_the_design_point_command() -> None:
    """UB headroom, UB use at a larger B_TOPK and the L2 use at fewer heads are the ``design-point`` rows."""
    _, used, capacity = _design_point_row([], "UB per VECTOR Core")
    assert answer("design-ub-headroom") == pytest.approx((capacity - used) / KiB)
    for key, label in (("design-ub-bigger-block", "UB per VECTOR Core"), ("design-l2-fewer-heads", "L2 roofline")):
        assert round(answer(key), 1) == _design_point_row(_options(key), label)[0], key


def test_what_if_notebook_answers_equal_the_design_point_command_and_the_roofline() -> None:
    """Half the L2 bandwidth and fewer AI Cores: the L2 row ``design-point`` prints for the live link's options (and
    the notebook's variants). FP8: below the balance point ``head-roofline`` calls decode memory-bound, above it
    compute-bound, and the notebook's fewest compute-bound heads lie above it."""
    for key, variant in (("what-if-half-l2", with_half_l2()), ("what-if-fewer-cores", with_fewer_cores())):
        use, demand, capacity = _design_point_row(_options(key), "L2 roofline")
        assert round(answer(key), 1) == use, key
        check = evaluate(SHIPPED_DESIGN, variant).check(Limit.L2_ROOFLINE)
        assert answer(key) == pytest.approx(100 * check.utilisation), key
        assert (round(check.demand, 1), check.capacity) == (demand, capacity), key
    assert answer("what-if-half-l2") > 100 > answer("what-if-fewer-cores")
    heads = answer("what-if-fp8-balance")
    fp8 = kv_bytes_per_token(KvCache.FP8.main_cache)
    argv = ["head-roofline", "--heads", f"{math.floor(heads)},{math.ceil(heads)}", "--topk", str(SHIPPED_DESIGN.topk)]
    out = run_cli([*argv, "--kv-token-bytes", str(fp8)])[1]
    verdicts = re.findall(r"->\s*([a-z-]+)", out)
    assert verdicts == ["memory-bound", "compute-bound"], out
    assert math.ceil(heads) <= smallest_compute_bound_heads(ASCEND_950, SHIPPED_DESIGN.topk, KvCache.FP8)  # type: ignore[operator]
    halved = ClaimContext(ASCEND_950.with_overrides(bandwidth_bytes_per_s=ASCEND_950.bandwidth_bytes_per_s / 2))
    assert answer("what-if-fp8-balance", halved) > heads
