"""Checks every page table of the renderers shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable


def assert_both_languages(render: Callable[..., str]) -> None:
    """``render`` gives a table in both languages with the same number of rows, and the two differ."""
    zh, en = render(lang="zh"), render(lang="en")
    assert zh.count("\n|") == en.count("\n|")
    assert zh != en
