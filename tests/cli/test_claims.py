"""claims: the report's ledger (filtered by chapter, changed by a what-if), the Hopper ledger (--source hopper, all),
bad values in one line, a changed figure or a moved disagreement exiting 1."""

from __future__ import annotations

import dataclasses

import pytest

from ascend_dsa.cli import main, run_captured
from ascend_dsa.facts.hopper_figures import HOPPER_FIGURES
from ascend_dsa.render.format import display_width
from ascend_dsa.report import ledger_hopper
from ascend_dsa.report.claims import CLAIMS
from ascend_dsa.report.ledger_hopper import DISAGREEMENTS, HOPPER_CLAIMS
from tests.helpers.cli import run_cli
from tests.helpers.figures import replace_everywhere


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
    assert "3 条中 3 条一致" in out


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


def test_claims_source_hopper() -> None:
    """claims --source hopper lists every Hopper claim, the inputs and the disagreements; exit 0."""
    status, out, err = run_cli(["claims", "--source", "hopper"])
    assert (status, err) == (0, "")
    for c in HOPPER_CLAIMS:
        assert f"PASS  {c.claim_id}:" in out
    for d in DISAGREEMENTS:
        assert f"HOLDS  {d.key} (" in out
    assert "Inputs (constants taken as published" in out
    assert f"{len(HOPPER_CLAIMS)} of {len(HOPPER_CLAIMS)} Hopper claims agree" in out
    assert "claims agree with the report" not in out


def test_claims_source_all_lists_both() -> None:
    """--source all prints both ledgers and exits 0."""
    status, out, _ = run_cli(["claims", "--source", "all"])
    assert status == 0
    assert "claims agree with the report (Ascend 950)" in out
    assert "Hopper claims agree" in out


def test_claims_source_hopper_refuses_ascend_overrides() -> None:
    """Ascend overrides with --source hopper would change nothing the Hopper ledger computes: bad usage (exit 2)."""
    status, out, err = run_cli(["claims", "--source", "hopper", "--clock", "1e9"])
    assert (status, out) == (2, "")
    assert "computed for the H800 preset" in err


def test_changed_hopper_figure_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """A published Hopper figure changed by one: exit 1 naming the claim and the disagreement that use it."""
    figures = tuple(dataclasses.replace(f, value=661) if f.key == "dense-decode-tflops" else f for f in HOPPER_FIGURES)
    replace_everywhere(monkeypatch, HOPPER_FIGURES, figures)
    status, _, err = run_cli(["claims", "--source", "hopper"])
    assert status == 1
    assert "claim dense-decode-tflops (20250422-new-kernel-deep-dive.md line 3)" in err


def test_a_moved_disagreement_is_named_by_its_describe_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stated pair that no longer holds: exit 1, the disagreement MOVED on stdout and its one line on stderr."""
    moved = dataclasses.replace(DISAGREEMENTS[0], found=(DISAGREEMENTS[0].found[0] + 1, DISAGREEMENTS[0].found[1]))
    monkeypatch.setattr(ledger_hopper, "DISAGREEMENTS", (moved, *DISAGREEMENTS[1:]))
    result = next(r for r in ledger_hopper.evaluate_disagreements() if not r.holds)
    status, out, err = run_cli(["claims", "--source", "hopper"])
    assert status == 1
    assert f"MOVED  {moved.key} (" in out
    assert f"  {result.describe()}\n" in err
    assert result.describe().startswith(f"disagreement {moved.key} (")
    assert ": now " in result.describe()


def test_chinese_claim_lines_line_up_and_say_the_status_in_chinese() -> None:
    """With --lang zh each claim's id starts at one display column, after 一致 (not PASS)."""
    status, out, _ = run_captured(["claims", "--lang", "zh"])
    assert status == 0
    heads = [line for line in out.splitlines() if line.startswith("第 ")]
    assert len(heads) >= 60
    assert all("  一致  " in line for line in heads)
    starts = {display_width(line[: line.index("  一致  ")]) for line in heads}
    assert len(starts) == 1
