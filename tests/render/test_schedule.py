"""The schedule page's tables: the VECTOR steps, the CUBE order and its slack, the order's share."""

from __future__ import annotations

import pytest

import ascend_dsa as r
from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.report.rules import ClaimContext
from tests.helpers.tables import assert_both_languages


def test_schedule_tables() -> None:
    """The VECTOR schedule lists seven steps; the CUBE order shows the 1024-cycle slack."""
    assert r.render_vector_schedule(lang="en").count('ascend-status--agrees">agrees</span>') == 7
    assert "= 1024 cycles" in r.render_cube_order(lang="en")
    assert "1 step in 10" in r.render_schedule_order_share(lang="en")


def test_design_override_reaches_tables() -> None:
    """A what-if design that breaks a claim makes the table raise rather than show it."""
    with pytest.raises(FigureMismatch, match="softmax-slack-cycles"):
        r.render_cube_order(ClaimContext(config=SHIPPED_KERNEL.with_overrides(b_topk=128)))


def test_cube_order_in_both_languages() -> None:
    """The table renders in both languages with the same number of rows."""
    assert_both_languages(r.render_cube_order)
