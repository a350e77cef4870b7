"""``ascend-dsa design-point``: the design page's limits as text, with the exit status saying whether they fit."""

from __future__ import annotations

import pytest

from ascend_dsa.cli import main, run_captured
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.design_point import SHIPPED_DESIGN, DesignPoint, Limit, evaluate
from ascend_dsa.render.design_space import design_limits_text, limit_name
from ascend_dsa.render.format import display_width, pad_to


def test_the_reports_point_fits_and_the_mte2_queue_binds() -> None:
    """With no option: the report's point, every limit fits, the MTE2 queue marked as the one that binds; exit 0."""
    status, out, err = run_captured(["design-point"])
    assert (status, err) == (0, "")
    assert out == design_limits_text(evaluate(SHIPPED_DESIGN, ASCEND_950)) + "\n"
    binding = next(line for line in out.splitlines() if line.endswith(" ◀"))
    assert binding.startswith(limit_name(Limit.MTE2_QUEUE, "en"))


def test_more_heads_exceed_l0c_and_exit_1() -> None:
    """128 heads: L0C, UB and L1 are exceeded (report (zh) line 116); exit 1."""
    status, out, _ = run_captured(["design-point", "--heads", "128"])
    assert status == 1
    assert out == design_limits_text(evaluate(DesignPoint(heads_per_core=128), ASCEND_950)) + "\n"
    assert "EXCEEDED" in out


def test_chinese_output_and_hardware_overrides() -> None:
    """``--lang zh`` writes the limits in Chinese; ``--cores`` changes the hardware the point is checked on."""
    status, out, _ = run_captured(["design-point", "--lang", "zh", "--cores", "16"])
    spec = ASCEND_950.with_overrides(cores=16)
    assert out == design_limits_text(evaluate(SHIPPED_DESIGN, spec), "zh") + "\n"
    assert status in {0, 1}
    assert "满足" in out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--b-topk", "96"], "forbidden by rule index-block-multiple-of-b-topk"),
        (["--vector-cores", "3"], "argument --vector-cores: invalid choice"),
        (["--kv-cache", "fp4"], "argument --kv-cache: invalid choice"),
    ],
)
def test_forbidden_or_bad_values_are_one_line_with_status_2(argv: list[str], expected: str) -> None:
    """A combination the kernel forbids, or a value outside the choices, is one line on stderr and status 2."""
    status, out, err = run_captured(["design-point", *argv])
    assert (status, out) == (2, "")
    assert err.startswith("ascend-dsa design-point: error: ")
    assert expected in err
    assert err.count("\n") == 1


def test_help_says_what_status_2_covers_here_and_names_no_chip() -> None:
    """``--help``: status 2 also covers a forbidden combination; design-point has no --chip, so none is named."""
    status, out, err = run_captured(["design-point", "--help"])
    assert (status, err) == (0, "")
    assert "a combination of options the kernel forbids (the line names the rule)" in " ".join(out.split())
    assert "--chip" not in out
    assert "ascend-950" not in out


def test_main_returns_the_same_status(capsys: pytest.CaptureFixture[str]) -> None:
    """``main`` and ``run_captured`` agree: the captured runner only keeps what main prints."""
    assert main(["design-point", "--heads", "128"]) == 1
    assert capsys.readouterr().out == run_captured(["design-point", "--heads", "128"])[1]


def test_chinese_columns_line_up_in_a_terminal() -> None:
    """Wide characters count twice: every limit's percentage ends at the same display column, in both languages."""
    for lang in ("zh", "en"):
        out = run_captured(["design-point", "--lang", lang])[1]
        rows = [line for line in out.splitlines()[1:] if "%" in line]
        ends = {display_width(line[: line.index("%") + 1]) for line in rows}
        assert len(rows) == len(Limit)
        assert len(ends) == 1, (lang, ends)


def test_pad_to_counts_wide_characters_twice() -> None:
    """``pad_to`` fills up to display columns: a Chinese character takes two, so it gets fewer spaces."""
    assert display_width("满足") == 4
    assert pad_to("满足", 6) == "满足  "
    assert pad_to("fits", 6) == "fits  "
    assert pad_to("longer than", 4) == "longer than"
