"""The number and text formats every renderer shares."""

from __future__ import annotations

import pytest

from ascend_dsa.render.format import count_word, display_width, is_wide, whole_or, with_unit


def test_wide_characters_are_the_cjk_ones() -> None:
    """Chinese characters and fullwidth punctuation are a full em wide; Latin letters, digits and ASCII are not."""
    assert all(is_wide(ch) for ch in "中文（，）")
    assert not any(is_wide(ch) for ch in "aZ9 ,()-×")
    assert display_width("L1 缓冲") == 7


def test_whole_or_prints_whole_numbers_as_such() -> None:
    assert whole_or(1024.0, 1) == "1,024"
    assert whole_or(73.142, 1) == "73.1"


@pytest.mark.parametrize(
    ("count", "zh", "en"), [(1, "一", "one"), (2, "两", "two"), (6, "六", "six"), (10, "十", "ten"), (11, "11", "11")]
)
def test_count_word_writes_small_counts_as_words(count: int, zh: str, en: str) -> None:
    """A count of one to ten is a word (两 before a measure word, not 二); beyond ten, digits."""
    assert (count_word(count, "zh"), count_word(count, "en")) == (zh, en)


def test_count_word_refuses_an_unknown_language() -> None:
    """The language is checked like every renderer's."""
    with pytest.raises(ValueError, match="fr"):
        count_word(2, "fr")  # type: ignore[arg-type]


def test_units_follow_the_language_and_the_count() -> None:
    """One row is "1 row" in English; Chinese pages count in Chinese (5 块)."""
    assert with_unit("1", 1, "rows", "en") == "1 row"
    assert with_unit("5", 5, "blocks", "en") == "5 blocks"
    assert with_unit("5", 5, "blocks", "zh") == "5 块"
    assert with_unit("64", 64, "heads", "zh") == "64 个 head"
    assert with_unit("8", 8, "", "zh") == "8"
