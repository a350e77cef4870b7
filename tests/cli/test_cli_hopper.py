"""The command line's two-chip options: head-roofline --chip, claims --source, and ub-plan staying Ascend-only."""

from __future__ import annotations

import dataclasses

import pytest

from ascend_dsa.facts.hopper_figures import HOPPER_FIGURES
from ascend_dsa.report import ledger_hopper
from ascend_dsa.report.ledger_hopper import DISAGREEMENTS, HOPPER_CLAIMS
from tests.helpers.cli import run_cli
from tests.helpers.figures import replace_everywhere


def test_head_roofline_on_the_h800() -> None:
    """--chip h800 prints the H800's table and verdicts, marked as a model; exit 0."""
    status, out, err = run_cli(["head-roofline", "--chip", "h800", "--heads", "64", "--topk", "64"])
    assert (status, err) == (0, "")
    assert " 64, topk=  64, cube_cycles=  2176," in out
    assert "H800 SXM5" in out
    assert "a model, not a measurement" in out


def test_head_roofline_h800_overrides_and_token_bytes() -> None:
    """--cube-fma counts FMA (two FLOP each) on the H800 too, and --kv-token-bytes sets the KV token's size."""
    status, out, _ = run_cli(["head-roofline", "--chip", "h800", "--cube-fma", "4096", "--heads", "64", "--topk", "64"])
    assert status == 0
    assert "cube_cycles=  1088," in out
    status, small, _ = run_cli(["head-roofline", "--chip", "h800", "--kv-token-bytes", "656", "--heads", "64"])
    assert status == 0
    assert small != out


def test_ascend_default_is_unchanged() -> None:
    """Without --chip the command is the report's: --assert-report still passes."""
    status, out, _ = run_cli(["head-roofline", "--assert-report"])
    assert status == 0
    assert "OK: every row equals" in out


def test_assert_report_refuses_the_h800() -> None:
    """--assert-report compares with the 950's table: with --chip h800 it is bad usage (exit 2)."""
    status, out, err = run_cli(["head-roofline", "--chip", "h800", "--assert-report"])
    assert (status, out) == (2, "")
    assert "does not apply to --chip h800" in err


def test_unknown_chip_is_bad_usage() -> None:
    """A chip that has no preset is refused by argparse (exit 2)."""
    status, _, err = run_cli(["head-roofline", "--chip", "b200"])
    assert status == 2
    assert "invalid choice" in err


def test_ub_plan_stays_ascend_only() -> None:
    """ub-plan --chip h800 says the UB plan is the Ascend 950 kernel's and exits 2; ascend-950 works as before."""
    status, out, err = run_cli(["ub-plan", "--mode", "prefill", "--chip", "h800"])
    assert (status, out) == (2, "")
    assert "UB plan is the Ascend 950 kernel's" in err
    assert run_cli(["ub-plan", "--mode", "prefill", "--chip", "ascend-950"])[0] == 0


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
