"""The flow page's tables: B_TOPK's divisibility and the rescale threshold."""

from __future__ import annotations

import ascend_dsa as r
from tests.helpers.tables import assert_both_languages


def test_b_topk_divisibility() -> None:
    """96 leaves 64 of 640 indices over."""
    assert "640 mod 96 = 64" in r.render_b_topk_divisibility(lang="en")


def test_rescale_threshold_in_both_languages() -> None:
    """The table renders in both languages with the same number of rows."""
    assert_both_languages(r.render_rescale_threshold)
