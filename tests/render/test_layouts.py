"""The optimisation chapters' worked examples render in both languages and carry the checked numbers."""

from __future__ import annotations

import pytest

from ascend_dsa.render.layouts import (
    render_gather2_example,
    render_kv_block_layout,
    render_kv_roundtrip,
    render_kv_token_formats,
    render_nd2nz_bank_slots,
    render_nd2nz_example,
)


@pytest.mark.parametrize(
    "renderer",
    [
        render_gather2_example,
        render_kv_token_formats,
        render_kv_block_layout,
        render_kv_roundtrip,
        render_nd2nz_example,
        render_nd2nz_bank_slots,
    ],
)
def test_tables_in_both_languages(renderer: object) -> None:
    """Each renderer returns a Markdown table per language."""
    zh, en = renderer(lang="zh"), renderer(lang="en")  # type: ignore[operator]
    assert zh.startswith("| ")
    assert en.startswith("| ")
    assert zh != en


def test_gather2_example_has_16_requests_and_a_skipped_one() -> None:
    """VECTOR Core 0's table lists 16 requests, one of them skipped (burst_count 0)."""
    lines = [line for line in render_gather2_example(lang="en").splitlines() if line.startswith("| ") and "|" in line]
    rows = lines[2:]
    assert len(rows) == 16
    assert sum(row.endswith("| 0 |") for row in rows) == 1


def test_kv_formats_show_published_sizes() -> None:
    """The format table shows 528 and 288 twice each: computed and as kv_cache_format.h states."""
    text = render_kv_token_formats(lang="en")
    assert "| 528 | 528 | 544 |" in text
    assert "| 288 | 288 | 288 |" in text


def test_nd2nz_example_places_the_padding() -> None:
    """In the 3-token example every fourth 32 B piece of NZ is padding."""
    rows = [line for line in render_nd2nz_example(lang="en").splitlines() if line.startswith("| ")][2:]
    assert [i for i, row in enumerate(rows) if "(pad)" in row] == [3, 7, 11]


def test_bank_slots_table() -> None:
    """Unpadded: 8 passes; padded: 1056 B stride, slots 0-7, 1 pass."""
    text = render_nd2nz_bank_slots(lang="en")
    assert "| 0 | 32 × 32 = 1,024 | 0 | 0, 0, 0, 0, 0, 0, 0, 0 | 8 |" in text
    assert "| 1 | 33 × 32 = 1,056 | 32 | 0, 1, 2, 3, 4, 5, 6, 7 | 1 |" in text
