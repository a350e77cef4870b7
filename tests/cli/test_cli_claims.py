import pytest

from ascend_dsa.cli import main
from ascend_dsa.report.claims import CLAIMS
from tests.helpers.cli import run_cli


def test_all_claims_pass(capsys: pytest.CaptureFixture[str]) -> None:
    """`claims` lists every claim with PASS and exits 0."""
    assert main(["claims"]) == 0
    out = capsys.readouterr().out
    for c in CLAIMS:
        assert f"PASS  {c.claim_id}:" in out
    assert f"{len(CLAIMS)} of {len(CLAIMS)} claims agree" in out


def test_chapter_filter_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    """--chapter and --lang zh narrow and translate the list."""
    assert main(["claims", "--chapter", "optimizations/icache", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "第 238 行" in out
    assert "3 of 3 claims agree" in out


def test_what_if_fails_naming_claims(capsys: pytest.CaptureFixture[str]) -> None:
    """A 256 B/cycle FixPipe changes the 1C1V argument; exit 1 naming each failing claim."""
    assert main(["claims", "--fixpipe-rate", "256"]) == 1
    err = capsys.readouterr().err
    assert "claim fixpipe-break-even-b-topk (report (zh) line 142): ours" in err
    assert "claim prefill-percent-of-peak" not in err


def test_b_topk_override(capsys: pytest.CaptureFixture[str]) -> None:
    """B_TOPK = 96 is not the code's 64 of line 43's '64 or 96', and the 1024-cycle slack no longer holds."""
    assert main(["claims", "--b-topk", "96"]) == 1
    err = capsys.readouterr().err
    assert "softmax-slack-cycles" in err
    assert "b-topk-choices" in err


@pytest.mark.parametrize("argv", [["--b-topk", "0"], ["--clock", "fast"], ["--chapter", "nowhere"]])
def test_bad_input_is_one_line_exit_2(argv: list[str]) -> None:
    """Bad values exit 2 with one line, never a traceback."""
    status, _, err = run_cli(["claims", *argv])
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("options", "spec_name"),
    [(["--fixpipe-rate", "256"], "Ascend 950 (what-if)"), (["--b-topk", "96"], "Ascend 950")],
)
def test_the_count_of_agreeing_claims_counts_the_pass_lines(
    options: list[str], spec_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """With some claims failing, "N of M claims agree" says as many as there are PASS lines, M as many as listed."""
    assert main(["claims", *options]) == 1
    out = capsys.readouterr().out
    passes = sum(1 for c in CLAIMS if f"PASS  {c.claim_id}:" in out)
    fails = sum(1 for c in CLAIMS if f"FAIL  {c.claim_id}:" in out)
    assert fails >= 1
    assert f"\n{passes} of {passes + fails} claims agree with the report ({spec_name})." in out
