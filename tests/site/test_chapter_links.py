"""A chapter that relies on another links to it, in both editions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.helpers.site_html import article, page_html

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.build

#: (chapter, chapter it relies on), as built URLs relative to the edition's root.
RELIES_ON = [
    ("pipeline/", "optimizations/gather2/"),
    ("pipeline/", "optimizations/skip-scale/"),
    ("algorithm/flow/", "optimizations/skip-scale/"),
]


@pytest.mark.parametrize("edition", ["", "en/"])
@pytest.mark.parametrize(("chapter", "target"), RELIES_ON)
def test_chapter_links_what_it_relies_on(built_site: Path, edition: str, chapter: str, target: str) -> None:
    """The chapter's article holds a relative link to the chapter it builds on."""
    up = "../" * chapter.count("/")
    assert f'href="{up}{target}"' in article(page_html(built_site, f"{edition}{chapter}"))
