"""head-roofline on either chip: --chip h800 and its overrides, the report's table by default, --assert-report
refused for the H800, an unknown chip refused."""

from __future__ import annotations

from tests.helpers.cli import run_cli


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
