# ruff: noqa: E501 - ERRORS holds whole error lines verbatim, as the program printed them
import subprocess
import sys

import pytest

from ascend_dsa.cli import main
from ascend_dsa.facts.report_figures import HEAD_ROOFLINE_PUBLISHED_TEXT
from ascend_dsa.lang import has_chinese
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


#: One command line per command and kind of error (argparse's own, an option type's, a value out of range, a repeated
#: option, the kernel's rules, the model's limits, a file), the value its line must name, its status, and the line
#: under --lang en, as the program printed it before the errors spoke Chinese (captured then, not recomputed).
ERRORS = [
    (
        ["ub-plan", "--mode", "x", "--heads", "abc"],
        "'x'",
        2,
        "ascend-dsa ub-plan: error: argument --mode: invalid choice: 'x' (choose from 'prefill', 'decode')",
    ),
    (["ub-plan"], "--mode", 2, "ascend-dsa ub-plan: error: the following arguments are required: --mode"),
    (
        ["ub-plan", "--mode", "decode", "--heads", "abc"],
        "'abc'",
        2,
        "ascend-dsa ub-plan: error: argument --heads: expected a whole number from 1 to 9007199254740992 in plain digits, got 'abc'",
    ),
    (
        ["ub-plan", "--mode", "decode", "--heads", "1000000"],
        "'1000000'",
        2,
        "ascend-dsa ub-plan: error: argument --heads: expected q heads per AI Core in the plausible range 1 to 4,096 heads, got '1000000'",
    ),
    (["ub-plan", "--mode", "decode", "--bogus"], "--bogus", 2, "ascend-dsa: error: unrecognized arguments: --bogus"),
    (["ub-plan", "--mode"], "--mode", 2, "ascend-dsa ub-plan: error: argument --mode: expected one argument"),
    (
        ["ub-plan", "--mode", "decode", "--sink", "--sink"],
        "--sink",
        2,
        "ascend-dsa ub-plan: error: argument --sink: given more than once",
    ),
    (
        ["ub-plan", "--mode", "decode", "--sink=1"],
        "'1'",
        2,
        "ascend-dsa ub-plan: error: argument --sink: ignored explicit argument '1'",
    ),
    (
        ["ub-plan", "--mode", "prefill", "--fp4-extra"],
        "mode=prefill",
        2,
        "ascend-dsa ub-plan: error: forbidden by rule fp4-extra-decode-only: the FP4 extra cache exists only in decode (config.h:35 (HAVE_FP4 = IS_DECODE && ...)); got mode=prefill, main cache=bf16, fp4 extra=yes, B_TOPK=64, VECTOR Cores=2, INDEX_BLOCK_SIZE=640",
    ),
    (
        ["ub-plan", "--mode", "decode", "--chip", "h800"],
        "--chip h800",
        2,
        "ascend-dsa ub-plan: error: the UB plan is the Ascend 950 kernel's (config.h:77-125); --chip h800 has no UB (only ascend-950)",
    ),
    (
        ["ub-plan", "--mode", "decode", "--vector-cores", "3"],
        "3",
        2,
        "ascend-dsa ub-plan: error: argument --vector-cores: invalid choice: 3 (choose from 1, 2)",
    ),
    (
        ["ub-plan", "--mode", "decode", "--svg", "/nonexistent/x.svg"],
        "/nonexistent/x.svg",
        2,
        "ascend-dsa ub-plan: error: --svg /nonexistent/x.svg: cannot write it (No such file or directory)",
    ),
    (
        ["head-roofline", "--l2-bandwidth", "1e30"],
        "'1e30'",
        2,
        "ascend-dsa head-roofline: error: argument --l2-bandwidth: expected a bandwidth in the plausible range 1e9 to 1e17 B/s, got '1e30'",
    ),
    (
        ["head-roofline", "--l2-bandwidth", "abc"],
        "'abc'",
        2,
        "ascend-dsa head-roofline: error: argument --l2-bandwidth: expected a bandwidth such as 5e12 (a positive finite number in the plausible range 1e9 to 1e17 B/s), got 'abc'",
    ),
    (
        ["head-roofline", "--heads", "16,16"],
        "'16,16'",
        2,
        "ascend-dsa head-roofline: error: argument --heads: expected a comma-separated list of at most 256 distinct positive integers, got '16,16' ('16' twice)",
    ),
    (
        ["head-roofline", "--topk", "512,,1024"],
        "'512,,1024'",
        2,
        "ascend-dsa head-roofline: error: argument --topk: expected a comma-separated list of at most 256 distinct positive integers, got '512,,1024' (an empty item)",
    ),
    (
        ["head-roofline", "--heads", "16,100000"],
        "100000",
        2,
        "ascend-dsa head-roofline: error: argument --heads: expected q heads per AI Core in the plausible range 1 to 4,096 heads, got '16,100000' (100000 is outside)",
    ),
    (
        ["head-roofline", "--balanced-within", "2"],
        "'2'",
        2,
        "ascend-dsa head-roofline: error: argument --balanced-within: expected a fraction in [0, 1), got '2'",
    ),
    (
        ["head-roofline", "--assert-report", "--chip", "h800"],
        "--chip h800",
        2,
        "ascend-dsa head-roofline: error: --assert-report compares with the report's Ascend 950 table; it does not apply to --chip h800",
    ),
    (
        ["head-roofline", "--svg", "-", "--topk", "512,1024,1536,2048,2560,3072,3584,4096,4608"],
        "9",
        2,
        "ascend-dsa head-roofline: error: --svg draws at most 4 topk values, one colour each; --topk gives 9",
    ),
    (
        ["pipeline", "--topk", "7"],
        "--topk 7",
        3,
        "ascend-dsa pipeline: error: the model cannot represent this what-if: --topk 7 is not a whole number of blocks of B_TOPK 64 tokens",
    ),
    (
        ["pipeline", "--compare", "/dev/null"],
        "/dev/null",
        2,
        "ascend-dsa pipeline: error: --compare /dev/null: not a regular file; expected an msprof op-simulator trace.json or op summary CSV",
    ),
    (
        ["pipeline", "--compare", "/nonexistent"],
        "/nonexistent",
        2,
        "ascend-dsa pipeline: error: --compare /nonexistent: No such file or directory",
    ),
    (
        ["pipeline", "--trace", "/nonexistent/x"],
        "/nonexistent/x",
        2,
        "ascend-dsa pipeline: error: --trace /nonexistent/x: cannot write it (No such file or directory)",
    ),
    (
        ["pipeline", "--compare"],
        "--compare",
        2,
        "ascend-dsa pipeline: error: argument --compare: expected one argument",
    ),
    (["design-point", "--bogus"], "--bogus", 2, "ascend-dsa: error: unrecognized arguments: --bogus"),
    (
        ["design-point", "--kv-cache", "x"],
        "'x'",
        2,
        "ascend-dsa design-point: error: argument --kv-cache: invalid choice: 'x' (choose from 'bf16', 'fp8', 'fp8+fp4')",
    ),
    (
        ["design-point", "--b-topk", "48"],
        "B_TOPK=48",
        2,
        "ascend-dsa design-point: error: forbidden by rule index-block-multiple-of-b-topk: INDEX_BLOCK_SIZE must be a multiple of B_TOPK (an index group holds whole KV blocks) (config.h:57); got mode=prefill, main cache=bf16, fp4 extra=no, B_TOPK=48, VECTOR Cores=2, INDEX_BLOCK_SIZE=640",
    ),
    (
        ["design-point", "--clock", "1"],
        "'1'",
        2,
        "ascend-dsa design-point: error: argument --clock: expected a clock in the plausible range 1e8 to 1e10 Hz, got '1'",
    ),
    (
        ["claims", "--fixpipe-rate", "1"],
        "fixpipe_bytes_per_cycle_1c1v = 1",
        3,
        "ascend-dsa claims: error: the model cannot represent this what-if: no B_TOPK lets MMA outlast FixPipe: per token MMA takes 16 cycles and FixPipe 256 (cube_fma_per_cycle = 4096, fixpipe_bytes_per_cycle_1c1v = 1); MMA must take longer",
    ),
    (
        ["claims", "--b-topk", "1"],
        "B_TOPK = 1",
        3,
        "ascend-dsa claims: error: the model cannot represent this what-if: B_TOPK = 1 leaves no token to each of 2 VECTOR Cores, so there is no ND2NZ write to pad",
    ),
    (
        ["claims", "--source", "hopper", "--chapter", "index"],
        "--source all",
        2,
        "ascend-dsa claims: error: --chapter and the hardware and kernel options change the report's Ascend ledger; the Hopper claims are computed for the H800 preset (use --source all)",
    ),
    (
        ["claims", "--lang", "fr"],
        "'fr'",
        2,
        "ascend-dsa claims: error: argument --lang: invalid choice: 'fr' (choose from 'zh', 'en')",
    ),
]


@pytest.mark.parametrize(("argv", "value", "status", "english"), ERRORS, ids=[" ".join(e[0])[:60] for e in ERRORS])
def test_each_error_speaks_the_command_language(argv: list[str], value: str, status: int, english: str) -> None:
    """Under --lang en the line is the one it always was; under --lang zh it is Chinese, one line, naming the value."""
    assert run_cli([*argv, "--lang", "en"]) == (status, "", english + "\n")
    got, out, err = run_cli([*argv, "--lang", "zh"])
    assert (got, out) == (status, "")
    assert err.count("\n") == 1, err
    assert err.startswith(f"ascend-dsa{' ' + argv[0] if english.startswith('ascend-dsa ' + argv[0]) else ''}：错误：")
    assert has_chinese(err.removeprefix("ascend-dsa").split("：错误：", 1)[1]), err
    assert value in err, err


def test_the_locale_chooses_the_language_of_an_error_without_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --lang, a Chinese locale makes even argparse's first error Chinese (the language is known before it)."""
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert run_cli(["ub-plan"]) == (2, "", "ascend-dsa ub-plan：错误：缺少必需的参数：--mode\n")
    monkeypatch.setenv("LC_ALL", "C")
    assert run_cli(["ub-plan"]) == (2, "", "ascend-dsa ub-plan: error: the following arguments are required: --mode\n")
