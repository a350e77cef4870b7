"""The number and text formats every renderer shares."""

from __future__ import annotations

from ascend_dsa.render.format import display_width, is_wide, whole_or


def test_wide_characters_are_the_cjk_ones() -> None:
    """Chinese characters and fullwidth punctuation are a full em wide; Latin letters, digits and ASCII are not."""
    assert all(is_wide(ch) for ch in "中文（，）")
    assert not any(is_wide(ch) for ch in "aZ9 ,()-×")
    assert display_width("L1 缓冲") == 7


def test_whole_or_prints_whole_numbers_as_such() -> None:
    assert whole_or(1024.0, 1) == "1,024"
    assert whole_or(73.142, 1) == "73.1"
