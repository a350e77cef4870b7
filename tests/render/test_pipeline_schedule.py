"""The pipeline's schedule as the command line prints it: one row per block and unit, then the steady state."""

from __future__ import annotations

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.pipeline import Task, Unit, simulate, stage_costs
from ascend_dsa.render.pipeline_schedule import op_waits, pipeline_schedule_text, rows_line

COSTS = stage_costs(ASCEND_950)
TIMELINE = simulate(COSTS, blocks=10)


def test_a_wait_is_the_idle_time_before_an_op_on_its_unit() -> None:
    """Per unit, the waits and the busy cycles add up to the end of its last op."""
    waits = op_waits(TIMELINE)
    for unit in Unit:
        ops = [o for o in TIMELINE.ops if o.unit is unit]
        assert sum(waits[o] + o.end - o.start for o in ops) == pytest.approx(max(o.end for o in ops))
    assert waits[TIMELINE.op(Task.SV, 5)] == 0  # the CUBE goes straight from QK[6] to SV[5]


def test_one_row_per_block_and_unit() -> None:
    """Every (block, unit) with an op has one row listing its tasks; the rows follow the header."""
    lines = pipeline_schedule_text(TIMELINE, lang="en").splitlines()
    pairs = {(o.block, o.unit) for o in TIMELINE.ops}
    rows = [line for line in lines[2:] if line[:5].strip().isdigit()]
    assert len(rows) == len(pairs)
    assert rows[0].split()[:2] == ["0", "CUBE"]
    assert rows[0].endswith("qk, sv")


@pytest.mark.parametrize(
    ("costs", "words"),
    [
        (COSTS, "bounded by: CUBE (never idle in the steady state)"),
        (COSTS.with_cycles(softmax=COSTS.cycles[Task.SOFTMAX] * 8), "bounded by: VECTOR"),
        (COSTS.with_cycles(s_to_l1=900), "bounded by: no unit is busy all the time"),
    ],
)
def test_the_last_line_names_what_bounds_the_period(costs: object, words: str) -> None:
    """The unit that bounds the steady period is named, or the latency when no unit is busy all of it."""
    text = pipeline_schedule_text(simulate(costs, blocks=16), lang="en")  # type: ignore[arg-type]
    assert text.splitlines()[-1].startswith(words)
    assert "1,024 cycles per block, CUBE use 100.0%" in pipeline_schedule_text(TIMELINE, lang="en")


def test_both_languages_say_the_same_numbers() -> None:
    """The Chinese text has the same rows and numbers as the English, in Chinese words."""
    en, zh = (pipeline_schedule_text(TIMELINE, lang=lang) for lang in ("en", "zh"))
    assert "决定周期的单元" in zh
    assert [line.split()[2:5] for line in en.splitlines()[2:-3]] == [
        line.split()[2:5] for line in zh.splitlines()[2:-3]
    ]


@pytest.mark.parametrize(
    ("heads", "rows", "low", "useful"),
    [(16, 32, 1, "50.0%"), (32, 32, 1, "100.0%"), (48, 64, 33, "75.0%"), (64, 64, 33, "100.0%")],
)
def test_rows_line_names_the_padded_rows_and_the_useful_share(heads: int, rows: int, low: int, useful: str) -> None:
    """Heads pad to MMA_M (a multiple of 32): the line names the rows, the heads sharing them, the useful share."""
    config = SHIPPED_KERNEL.with_overrides(heads_per_core=heads)
    assert config.mma_m == rows
    line = rows_line(config, lang="en")
    assert f"{heads} heads per AI Core fill MMA_M = {rows} rows" in line
    assert f"{low} to {rows} heads take the same cycles" in line
    assert f"{useful} of the CUBE's work is useful" in line
    assert f"MMA_M = {rows} 行" in rows_line(config, lang="zh")


def test_heads_that_pad_alike_simulate_alike() -> None:
    """The model's costs follow MMA_M, not the heads: 16 and 32 heads give one timeline, 48 another."""
    timelines = [
        simulate(stage_costs(ASCEND_950, SHIPPED_KERNEL.with_overrides(heads_per_core=h)), blocks=10)
        for h in (16, 32, 48)
    ]
    assert timelines[0].ops == timelines[1].ops
    assert timelines[1].ops != timelines[2].ops
