import subprocess
import sys

import pytest

from ascend_dsa.cli import main
from ascend_dsa.facts.report_figures import HEAD_ROOFLINE_PUBLISHED_TEXT
from tests.helpers.cli import run_cli


def test_first_eight_lines_equal_report(capsys: pytest.CaptureFixture[str]) -> None:
    """The first eight lines equal report (zh) lines 104-111 after stripping leading blanks."""
    assert main(["head-roofline"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [x.strip() for x in lines[:8]] == [x.strip() for x in HEAD_ROOFLINE_PUBLISHED_TEXT]


def test_assert_report_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """--assert-report exits 0 on the preset."""
    assert main(["head-roofline", "--assert-report"]) == 0
    assert "OK" in capsys.readouterr().out


def test_assert_report_fails_with_row_diff(capsys: pytest.CaptureFixture[str]) -> None:
    """With half the L2 bandwidth the table differs; exit 1 and a diff naming the rows."""
    assert main(["head-roofline", "--assert-report", "--l2-bandwidth", "2.5e12"]) == 1
    err = capsys.readouterr().err
    assert "report (zh) line 104: ours" in err
    assert "report (zh) line 111: ours" in err


def test_what_if_grid(capsys: pytest.CaptureFixture[str]) -> None:
    """The grid and the hardware can be overridden for what-if questions."""
    argv = ["head-roofline", "--l2-bandwidth", "4e12", "--cores", "24", "--heads", "16,32,64", "--topk", "512,2048"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == " 16, topk= 512, cube_cycles=  2048, mem_cycles=  5515"
    assert sum("topk=" in x and "cube_cycles" in x for x in lines) == 6
    assert "(what-if)" in "\n".join(lines)


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--cores", "0"], "--cores"),
        (["--cores", "-3"], "--cores"),
        (["--cores", "many"], "--cores"),
        (["--l2-bandwidth", "0"], "--l2-bandwidth"),
        (["--l2-bandwidth", "inf"], "--l2-bandwidth"),
        (["--clock", "fast"], "--clock"),
        (["--heads", ""], "--heads"),
        (["--heads", "16,x"], "--heads"),
        (["--topk", ","], "--topk"),
        (["--balanced-within", "2"], "--balanced-within"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv: list[str], option: str) -> None:
    """Bad values exit 2 with a single line naming the option: never a traceback."""
    status, out, err = run_cli(["head-roofline", *argv])
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert option in lines[0]
    assert "Traceback" not in err
    assert out == ""


def test_bad_input_in_a_real_process_is_one_line_exit_2() -> None:
    """End to end, as a user runs it: a bad value exits 2 with one line on stderr and no traceback."""
    completed = subprocess.run(
        [sys.executable, "-m", "ascend_dsa", "head-roofline", "--cores", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert len(completed.stderr.strip().splitlines()) == 1, completed.stderr
    assert "--cores" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_console_script_module_entry() -> None:
    """`python -m ascend_dsa head-roofline --assert-report` exits 0."""
    completed = subprocess.run(
        [sys.executable, "-m", "ascend_dsa", "head-roofline", "--assert-report"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr


def test_head_roofline_takes_a_grid_of_exactly_4096_pairs() -> None:
    """64 x 64 = 4096 (heads, topk) pairs is the most allowed; 65 x 64 = 4160 is a usage error (status 2)."""
    topk = ",".join(str(512 + 16 * i) for i in range(64))
    status, out, _ = run_cli(["head-roofline", "--heads", ",".join(str(h) for h in range(1, 65)), "--topk", topk])
    assert status == 0
    assert out.count("compute-bound") + out.count("memory-bound") + out.count("balanced") >= 4096
    status, _, err = run_cli(["head-roofline", "--heads", ",".join(str(h) for h in range(1, 66)), "--topk", topk])
    assert status == 2
    assert "--heads and --topk make a grid of 65 x 64 = 4160 pairs; at most 4096" in err
