"""``ascend-dsa pipeline``: the modelled schedule, its options, its trace file and its exit statuses."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.cli.version import package_version
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.pipeline import simulate, stage_costs
from ascend_dsa.render.pipeline_schedule import pipeline_schedule_text, rows_line
from ascend_dsa.render.pipeline_timeline import pipeline_timeline_svg, render_pipeline_timeline
from ascend_dsa.render.trace import check_trace
from ascend_dsa.report.scenarios import SIMULATED_BLOCKS
from tests.helpers.cli import run_cli as run

if TYPE_CHECKING:
    from pathlib import Path


def test_prints_the_shipped_schedule() -> None:
    """With no options it prints the shipped kernel's job of the page's blocks, as the renderer does, and exits 0."""
    status, out, err = run(["pipeline"])
    assert (status, err) == (0, "")
    schedule = pipeline_schedule_text(simulate(stage_costs(ASCEND_950), blocks=SIMULATED_BLOCKS))
    assert out == rows_line(SHIPPED_KERNEL) + "\n" + schedule + "\n"
    assert out.splitlines()[-1] == "bounded by: CUBE (never idle in the steady state)"


def test_heads_that_pad_to_the_same_rows_give_the_same_schedule_and_say_so() -> None:
    """16 and 32 heads both fill 32 MMA rows (config.h:28): same schedule; the first line says what the heads change."""
    sixteen, thirty_two, forty_eight = (run(["pipeline", "--heads", h])[1] for h in ("16", "32", "48"))
    assert sixteen.splitlines()[1:] == thirty_two.splitlines()[1:]
    assert thirty_two.splitlines()[1:] != forty_eight.splitlines()[1:]
    assert sixteen.splitlines()[0].startswith("# 16 heads per AI Core fill MMA_M = 32 rows")
    assert "50.0% of the CUBE's work is useful" in sixteen.splitlines()[0]
    assert "100.0% of the CUBE's work is useful" in thirty_two.splitlines()[0]


def test_chinese_output() -> None:
    """--lang zh prints the same schedule in Chinese."""
    status, out, _ = run(["pipeline", "--lang", "zh", "--blocks", "10"])
    assert status == 0
    assert "决定周期的单元：CUBE" in out


def test_topk_sets_the_blocks() -> None:
    """--topk 512 with B_TOPK 64 simulates 8 blocks, the same as --blocks 8."""
    assert run(["pipeline", "--topk", "512"]) == run(["pipeline", "--blocks", "8"])
    assert "one job of 8 blocks" in run(["pipeline", "--topk", "512"])[1]


def test_one_vector_core_rescaling_every_block_is_bounded_by_the_vector_core() -> None:
    """1C1V with O leaving L0C every block: the VECTOR Core, not the CUBE, sets the period."""
    status, out, _ = run(["pipeline", "--vector-cores", "1", "--rescale-every-block"])
    assert status == 0
    assert out.splitlines()[-1].startswith("bounded by: VECTOR")


def test_decode_gathers_fp8_and_the_gather_gets_shorter() -> None:
    """Decode reads an FP8 cache by default: MTE2 is busy for a smaller share than in prefill."""
    prefill, decode = (run(["pipeline", "--mode", mode])[1] for mode in ("prefill", "decode"))
    assert prefill != decode
    assert decode == run(["pipeline", "--mode", "decode", "--main-cache", "fp8"])[1]


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (["--topk", "512", "--blocks", "8"], 2, "give --topk or --blocks, not both"),
        (["--blocks", "7"], 2, "--blocks: expected a number of blocks in the plausible range 8 to 4,096"),
        (["--topk", "500"], 3, "--topk 500 is not a whole number of blocks of B_TOPK 64 tokens"),
        (["--topk", "256"], 3, "blocks must be an integer of at least 8"),
    ],
)
def test_bad_inputs_end_with_one_line(argv: list[str], status: int, words: str) -> None:
    """Each bad combination ends with its documented status and one line naming it."""
    got, out, err = run(["pipeline", *argv])
    assert (got, out) == (status, "")
    assert len(err.strip().splitlines()) == 1
    assert words in err


def test_trace_file_passes_the_format_check(tmp_path: Path) -> None:
    """--trace writes a Chrome Trace Event file that passes the checker and records the inputs and the version."""
    path = tmp_path / "t.json"
    status, out, _ = run(["pipeline", "--blocks", "12", "--heads", "32", "--trace", str(path)])
    assert status == 0
    assert out.splitlines()[1].startswith("# pipeline model: one job of 12 blocks")
    trace = json.loads(path.read_text(encoding="utf-8"))
    check_trace(trace)
    assert trace["otherData"]["inputs"]["--heads"] == 32
    assert trace["otherData"]["inputs"]["--blocks"] == 12
    assert trace["otherData"]["version"] == package_version()


def test_a_trace_that_cannot_be_written_is_bad_usage(tmp_path: Path) -> None:
    """A --trace FILE in a missing directory ends with status 2 and one line naming the file, printing nothing."""
    path = tmp_path / "missing" / "t.json"
    status, out, err = run(["pipeline", "--trace", str(path)])
    assert (status, out) == (2, "")
    assert err.startswith(f"ascend-dsa pipeline: error: --trace {path}: cannot write it")
    assert len(err.strip().splitlines()) == 1


def test_compare_with_our_own_trace_is_zero_on_every_lane(tmp_path: Path) -> None:
    """--compare on the --trace file of the same inputs prints a 0 % residual on every lane and overlap, exit 0."""
    path = tmp_path / "t.json"
    argv = ["pipeline", "--blocks", "12", "--heads", "32", "--rescale-every-block"]
    assert run([*argv, "--trace", str(path)])[0] == 0
    status, out, err = run([*argv, "--compare", str(path)])
    assert (status, err) == (0, "")
    rows = [line for line in out.splitlines()[2:] if line.split()[1] in {"CUBE", "FIXP", "VECTOR", "MTE2", "MTE3"}]
    assert len(rows) == 7  # five lanes, CUBE & MTE2, CUBE & FIXP
    assert all(row.endswith("+0.0 %") for row in rows), out


def test_compare_at_other_inputs_shows_the_residual(tmp_path: Path) -> None:
    """The shipped job's trace against a model of 32 heads per core (half its CUBE work): the CUBE lane is +100 %."""
    path = tmp_path / "t.json"
    assert run(["pipeline", "--blocks", "12", "--trace", str(path)])[0] == 0
    out = run(["pipeline", "--blocks", "12", "--heads", "32", "--compare", str(path)])[1]
    cube = next(line for line in out.splitlines() if line.split()[:2] == ["cubecore", "CUBE"])
    assert cube.endswith("+100.0 %")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "No such file or directory"),
        (b"", "neither a JSON trace nor an op summary"),
        (b'{"traceEvents": [{"ts": NaN}]}', "spells NaN"),
        (b"[" * 100_000, "nests JSON"),
        (b"a,b\n1,2\n", "expected an msprof op-simulator trace.json"),
    ],
    ids=["missing", "empty", "nan", "deep", "csv"],
)
def test_a_bad_compare_file_is_bad_usage_in_one_line(tmp_path: Path, content: bytes | None, words: str) -> None:
    """An unreadable, hostile or foreign --compare file ends with status 2 and one line naming it, printing nothing."""
    path = tmp_path / "trace.json"
    if content is not None:
        path.write_bytes(content)
    status, out, err = run(["pipeline", "--compare", str(path)])
    assert (status, out) == (2, "")
    assert err.startswith(f"ascend-dsa pipeline: error: --compare {path}: ")
    assert words in err
    assert len(err.strip().splitlines()) == 1


def test_a_compare_directory_is_bad_usage(tmp_path: Path) -> None:
    """A directory is not a trace: status 2, one line."""
    status, out, err = run(["pipeline", "--compare", str(tmp_path)])
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    """A named pipe nobody writes to is refused at once (status 2), not read until it closes."""
    fifo = tmp_path / "trace.json"
    os.mkfifo(fifo)
    status, _, err = run(["pipeline", "--compare", str(fifo)])
    assert status == 2
    assert "not a regular file" in err


def test_a_file_over_the_cap_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command reads at most one byte over the cap, and the reader refuses it (the cap lowered for the test)."""
    path = tmp_path / "trace.json"
    path.write_bytes(b"{}" + b" " * 200)
    monkeypatch.setattr("ascend_dsa.cli.pipeline.MAX_TRACE_BYTES", 100)
    status, _, err = run(["pipeline", "--compare", str(path)])
    assert status == 2
    assert "larger than" in err


def test_compare_with_an_op_summary(tmp_path: Path) -> None:
    """An op summary CSV: one row per op name with the model's job and the median Task Duration, exit 0."""
    path = tmp_path / "op_summary.csv"
    path.write_text("Op Name,Task Type,Task Duration(us)\nSparseFlashAttention,AI_CORE,20\n", encoding="utf-8")
    status, out, err = run(["pipeline", "--compare", str(path)])
    assert (status, err) == (0, "")
    assert out.splitlines()[-1].startswith("SparseFlashAttention")
    assert out.splitlines()[-1].split()[1] == "1"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_svg_to_stdout_prints_only_the_pages_figure(lang: str) -> None:
    """--svg - prints the SVG alone, the very element the page's build-time figure holds for the same options."""
    status, out, err = run(["pipeline", "--lang", lang, "--svg", "-"])
    assert (status, err) == (0, "")
    assert out.startswith("<svg ")
    assert out.endswith("</svg>\n")
    assert f'data-live-figure="pipeline">{out.removesuffix(chr(10))}</div>' in render_pipeline_timeline(lang=lang)  # type: ignore[arg-type]


def test_svg_follows_the_options() -> None:
    """--svg - for other options is the figure of that job: pipeline_timeline_svg of the same simulation."""
    config = SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=1, heads_per_core=32)
    timeline = simulate(stage_costs(ASCEND_950, config), config, 10)
    expected = pipeline_timeline_svg(timeline, vector_cores=1, clock_hz=ASCEND_950.clock_hz, lang="en")
    assert run(["pipeline", "--blocks", "10", "--vector-cores", "1", "--heads", "32", "--svg", "-"]) == (
        0,
        expected + "\n",
        "",
    )


def test_svg_file_is_written_beside_the_schedule(tmp_path: Path) -> None:
    """--svg FILE writes the SVG (and a newline) and the schedule is printed as without it."""
    path = tmp_path / "t.svg"
    status, out, err = run(["pipeline", "--blocks", "12", "--svg", str(path)])
    assert (status, err) == (0, "")
    assert out == run(["pipeline", "--blocks", "12"])[1]
    assert path.read_text(encoding="utf-8") == run(["pipeline", "--blocks", "12", "--svg", "-"])[1]


def test_an_svg_that_cannot_be_written_is_bad_usage(tmp_path: Path) -> None:
    """An --svg FILE in a missing directory ends with status 2 and one line naming it, printing nothing."""
    path = tmp_path / "missing" / "t.svg"
    status, out, err = run(["pipeline", "--svg", str(path)])
    assert (status, out) == (2, "")
    assert err.startswith(f"ascend-dsa pipeline: error: --svg {path}: cannot write it")
    assert len(err.strip().splitlines()) == 1


def test_svg_with_compare_draws_the_measured_lanes(tmp_path: Path) -> None:
    """--compare TRACE --svg - draws our own trace's lanes under the model's; a bad TRACE prints nothing, status 2."""
    path = tmp_path / "t.json"
    assert run(["pipeline", "--blocks", "12", "--trace", str(path)])[0] == 0
    status, out, err = run(["pipeline", "--blocks", "12", "--compare", str(path), "--svg", "-"])
    assert (status, err) == (0, "")
    assert "measured (trace.json):" in out
    assert out.count("\n") == 1
    path.write_text("{", encoding="utf-8")
    status, out, err = run(["pipeline", "--compare", str(path), "--svg", "-"])
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
