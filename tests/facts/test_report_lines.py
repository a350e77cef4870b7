"""The report's stated numbers: each valued by what it reads as, or by the value written beside it."""

from __future__ import annotations

import pytest

from ascend_dsa.facts.report_lines import REPORT_LINES, _n


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("4096", 4096),
        ("32B", 32),
        ("95%", 95),
        ("5e12", 5e12),
        ("73.14", 73.14),
        ("i", 0),
        ("i+5", 5),
        ("i-1", -1),
        ("两", 2),
        ("一", 1),
    ],
)
def test_a_written_number_is_valued_by_what_it_reads_as(written: str, value: float) -> None:
    assert _n(written, "figure").value == value


def test_a_given_value_wins_and_words_need_one() -> None:
    """``1C2V`` states two VECTOR Cores, not the 1 it starts with; a word needs a value, a numeral refuses one."""
    assert _n("1C2V", "figure", 2).value == 2
    with pytest.raises(ValueError, match="'大致均衡' reads as no number"):
        _n("大致均衡", "figure")
    with pytest.raises(ValueError, match="'64' already reads as 64, so give no value"):
        _n("64", "figure", 64)


def test_every_line_is_listed_once_in_the_reports_order() -> None:
    lines = [entry.line for entry in REPORT_LINES]
    assert lines == sorted(set(lines))
