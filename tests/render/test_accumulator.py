"""The accumulator page's tables: the L0C budget, the identity rescale, the accumulator's share of UB."""

from __future__ import annotations

import re

import pytest

import ascend_dsa as r
from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.report.rules import ClaimContext


def test_l0c_and_identity_tables() -> None:
    """L0C: 256 KiB fills it at 128 heads, 144 KiB at 64; the identity rescale costs 8192 cycles, 8 blocks' MMA."""
    assert "| 144 KiB | 56.2 % |" in r.render_l0c_budget(lang="en")
    identity = r.render_identity_rescale(lang="en")
    assert "| 256 | 8192 | 8.00 × |" in identity
    assert "| 4096 | 512 | 0.50 × |" in identity


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_accumulator_ub_share_rows(lang: str) -> None:
    """Four rows (64 and 128 heads over one and two cores); only 128 heads on one core leaves no room."""
    text = r.render_accumulator_ub_share(lang=lang)  # type: ignore[arg-type]
    assert len(re.findall(r"^\| (64|128) \|", text, flags=re.MULTILINE)) == 4
    assert re.search(r"^\| 128 \| 1 \| 256 KiB \| 100 % \|", text, flags=re.MULTILINE)


def test_accumulator_ub_share_checks_first() -> None:
    """A UB twice as large breaks the line 116 claim, and the table raises instead of printing."""
    with pytest.raises(FigureMismatch, match="accumulator-vector-cores-at-128-heads"):
        r.render_accumulator_ub_share(ClaimContext(spec=ASCEND_950.with_overrides(staging_bytes_per_core=2**19)))
