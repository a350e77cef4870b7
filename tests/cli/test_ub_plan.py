import subprocess
import sys

import pytest

from ascend_dsa.cli import main
from ascend_dsa.facts.code_figures import SHIPPED_UB_TOTALS
from tests.helpers.cli import run_cli


def _flags(mode: str, fp4_extra: bool, sink: bool) -> list[str]:  # noqa: FBT001
    return ["ub-plan", "--mode", mode, *(["--fp4-extra"] if fp4_extra else []), *(["--sink"] if sink else [])]


@pytest.mark.parametrize("shipped", SHIPPED_UB_TOTALS, ids=lambda t: t.instantiation)
def test_six_shipped_totals_exit_0(shipped: object, capsys: pytest.CaptureFixture[str]) -> None:
    """ub-plan prints each shipped instantiation's total against 262144 B and exits 0."""
    argv = _flags(shipped.mode.value, shipped.fp4_extra, shipped.sink)  # type: ignore[attr-defined]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "total" in out
    assert f"{shipped.total_bytes} B / 262144 B" in out  # type: ignore[attr-defined]
    assert "gathered_kv" in out
    assert "row_max_max_delta" in out


def test_plan_that_does_not_fit_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    """B_TOPK 128 in prefill needs more than 256 KiB of UB: exit 1."""
    assert main(["ub-plan", "--mode", "prefill", "--b-topk", "128"]) == 1
    assert "DOES NOT FIT" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "rule"),
    [
        (["--mode", "prefill", "--b-topk", "96"], "index-block-multiple-of-b-topk"),
        (["--mode", "prefill", "--b-topk", "10"], "even-b-topk-per-vector-core"),
        (["--mode", "prefill", "--b-topk", "5", "--vector-cores", "1"], "even-b-topk-per-vector-core"),
        (["--mode", "decode", "--main-cache", "fp4"], "fp4-not-main-cache"),
        (["--mode", "prefill", "--fp4-extra"], "fp4-extra-decode-only"),
        (["--mode", "prefill", "--index-block-size", "96", "--b-topk", "32"], "index-block-whole-vector-pairs"),
    ],
)
def test_forbidden_combinations_exit_2_with_the_rule(argv: list[str], rule: str) -> None:
    """A combination the kernel forbids exits 2 with one line naming the rule, and no traceback."""
    status, out, err = run_cli(["ub-plan", *argv])
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert f"forbidden by rule {rule}" in lines[0]
    assert "Traceback" not in err
    assert out == ""


def test_forbidden_combination_in_a_real_process_is_one_line_exit_2() -> None:
    """End to end, as a user runs it: a forbidden combination exits 2, one line on stderr, nothing on stdout."""
    completed = subprocess.run(
        [sys.executable, "-m", "ascend_dsa", "ub-plan", "--mode", "prefill", "--fp4-extra"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert len(completed.stderr.strip().splitlines()) == 1, completed.stderr
    assert "forbidden by rule fp4-extra-decode-only" in completed.stderr
    assert "Traceback" not in completed.stderr
    assert completed.stdout == ""


@pytest.mark.parametrize(
    "argv",
    [["--mode", "train"], ["--mode", "prefill", "--vector-cores", "3"], ["--mode", "prefill", "--b-topk", "0"], []],
)
def test_bad_options_exit_2_in_one_line(argv: list[str]) -> None:
    """Unknown modes, 3 VECTOR Cores, a zero B_TOPK or a missing --mode exit 2 with one line."""
    status, _, err = run_cli(["ub-plan", *argv])
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_two_vector_cores_is_a_choice() -> None:
    """--vector-cores 2 (1C2V, the shipped kernel) is accepted and prints the shipped prefill plan's 259600 B."""
    status, out, _ = run_cli(["ub-plan", "--mode", "prefill", "--vector-cores", "2"])
    assert status == 0
    assert "259600" in out or "259,600" in out


def test_ub_plan_stays_ascend_only() -> None:
    """ub-plan --chip h800 says the UB plan is the Ascend 950 kernel's and exits 2; ascend-950 works as before."""
    status, out, err = run_cli(["ub-plan", "--mode", "prefill", "--chip", "h800"])
    assert (status, out) == (2, "")
    assert "UB plan is the Ascend 950 kernel's" in err
    assert run_cli(["ub-plan", "--mode", "prefill", "--chip", "ascend-950"])[0] == 0
