"""The one-VECTOR-core page's tables: FixPipe against MMA, gather2's requests, MTE2 in flight."""

from __future__ import annotations

import ascend_dsa as r
from tests.helpers.tables import assert_both_languages


def test_fixpipe_table_rows() -> None:
    """The FixPipe table: 64 is FixPipe-bound with O every block (1024 vs 1152) and MMA-bound with P only (128)."""
    text = r.render_fixpipe_table(lang="en")
    assert "| 64 | 1024 | 1152 | FixPipe-bound | 128 | MMA-bound |" in text
    assert "| 73 | 1168 | 1170 | FixPipe-bound |" in text
    assert "| 74 | 1184 | 1172 | MMA-bound |" in text
    assert "73.1429" in text


def test_gather2_halves_the_requests() -> None:
    """32 tokens per VECTOR Core: 32 single-token requests (two queues' worth) or 16 gather2 requests (one)."""
    text = r.render_gather2_requests(lang="en")
    assert "| 1 token per request | 1 | 32 | 32 | 16 | 16 | 2 × |" in text
    assert "| gather2 | 2 | 32 | 16 | 16 | 32 | 1 × |" in text


def test_mte2_in_flight_in_both_languages() -> None:
    """The table renders in both languages with the same number of rows."""
    assert_both_languages(r.render_mte2_in_flight)
