"""The report checks at their tolerance: line 184's "about 1024 cycles" holds within 1 %, and not a hair beyond.

1 % of 1024 is 10.24, which binary floating point cannot hold exactly, so the edges are pinned 0.001 cycle inside
and outside it.
"""

from __future__ import annotations

import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.report.checks import check_p_ready_to_used

#: Report (zh) line 184: P[i] is ready about 1024 cycles before it is used; "about" is 1 % (10.24 cycles).
PUBLISHED_CYCLES = 1024.0


@pytest.mark.parametrize("cycles", [1013.761, 1024.0, 1034.239])
def test_p_ready_to_used_holds_up_to_one_percent_either_side(cycles: float) -> None:
    """At the report's figure and just inside 1 % either side the check passes."""
    assert check_p_ready_to_used(cycles) is None


@pytest.mark.parametrize("cycles", [1013.759, 1034.241, 0.0])
def test_p_ready_to_used_fails_one_step_beyond(cycles: float) -> None:
    """Just beyond 1 % either side fails, naming our cycles and the report's 1024."""
    with pytest.raises(
        FigureMismatch, match=rf"^claim softmax-slack-cycles .*: ours {cycles:.1f} cycles .*about 1024 "
    ):
        check_p_ready_to_used(cycles)
