"""The ND2NZ page's tables: the L1 banks a block's rows land in, and the token blocks."""

from __future__ import annotations

import ascend_dsa as r
from tests.helpers.tables import assert_both_languages


def test_nd2nz_banks_table() -> None:
    """No padding: one slot for all 8 blocks; one padded row: slots 0..7."""
    text = r.render_nd2nz_banks(lang="en")
    assert "| 0 0 0 0 0 0 0 0 | 8 |" in text
    assert "| 0 1 2 3 4 5 6 7 | 1 |" in text


def test_token_blocks_in_both_languages() -> None:
    """The table renders in both languages with the same number of rows."""
    assert_both_languages(r.render_token_blocks)
