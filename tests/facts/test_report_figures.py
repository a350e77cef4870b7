import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.report_figures import (
    HEAD_ROOFLINE_PUBLISHED_TEXT,
    parse_head_roofline_row,
    published_figure,
    published_head_roofline,
)
from ascend_dsa.models.roofline import head_roofline_sweep
from ascend_dsa.report.checks import check_head_roofline, head_roofline_differences


def test_published_rows_parse_with_lines() -> None:
    """Eight rows, numbered 104-111, despite the first row's missing leading blank."""
    rows = published_head_roofline()
    assert [r.line for r in rows] == list(range(104, 112))
    assert rows[0].values() == (16, 512, 2048, 5883)
    assert not HEAD_ROOFLINE_PUBLISHED_TEXT[0].startswith(" ")


def test_parse_rejects_garbage() -> None:
    """Text that is not a table row is an error that quotes it."""
    with pytest.raises(ValueError, match="got 'hello'"):
        parse_head_roofline_row("hello")


def test_preset_reproduces_report() -> None:
    """The Ascend 950 preset reproduces every published row."""
    check_head_roofline(head_roofline_sweep(ASCEND_950))


def test_mismatch_lists_every_differing_row() -> None:
    """A slower clock changes every L2 figure; the error names each row with ours and theirs."""
    points = head_roofline_sweep(ASCEND_950.with_overrides(clock_hz=1.6e9))
    with pytest.raises(FigureMismatch) as caught:
        check_head_roofline(points)
    message = str(caught.value)
    for line in range(104, 112):
        assert f"report (zh) line {line}: ours" in message
    assert "mem_cycles=5883" in message
    rows = caught.value.mismatches
    assert [m.citation for m in rows] == [f"report (zh) line {line}" for line in range(104, 112)]
    assert rows[0].theirs == "h_q=16, topk=512, cube_cycles=2048, mem_cycles=5883"
    assert rows[0].ours.startswith("h_q=16, topk=512")
    assert rows[0].ours != rows[0].theirs


def test_single_perturbed_published_row_is_named() -> None:
    """Changing one published number flags exactly that row."""
    text = list(HEAD_ROOFLINE_PUBLISHED_TEXT)
    text[4] = text[4].replace("6921", "6922")
    published = published_head_roofline(text)
    differences = head_roofline_differences(head_roofline_sweep(ASCEND_950), published)
    assert [d.published.line for d in differences] == [108]


def test_missing_rows_are_differences() -> None:
    """A grid that leaves out report rows does not pass the check."""
    differences = head_roofline_differences(head_roofline_sweep(ASCEND_950, heads=(64,)))
    assert len(differences) == 6
    assert all(d.ours is None for d in differences)


def test_a_long_key_is_echoed_cut() -> None:
    """Issue 31 (18): ``published_figure("x" * 10**6)`` raised a megabyte message; it is cut as the CLI cuts a value."""
    with pytest.raises(
        ValueError, match=r"^key must name a published figure, got 'x{80}'\.\.\. \(1000000 characters\)$"
    ):
        published_figure("x" * 10**6)
