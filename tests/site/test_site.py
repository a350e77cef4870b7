"""The site builds strictly and shows the checked table; the floor build runs no page code.

That a changed constant or published figure fails the strict build is proven by the one shared mutated build
(the helpers' ``MUTATIONS``); which rows a changed constant names, in process (tests/render/test_roofline.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

    from tests.helpers.project import SiteBuild


def test_strict_build_passes(built_site: Path) -> None:
    """The working tree builds with --strict, in both languages."""
    assert (built_site / "index.html").is_file()
    assert (built_site / "en" / "index.html").is_file()


@pytest.mark.parametrize("page", ["discussion/heads-per-core/index.html", "en/discussion/heads-per-core/index.html"])
def test_roofline_page_shows_eight_report_rows(built_site: Path, page: str) -> None:
    """The chapter's table has eight rows and shows the report's 6921 next to our 6920.6."""
    html = (built_site / page).read_text(encoding="utf-8")
    rows = re.findall(r"<tr>\s*<td[^>]*>(16|32|64|128)</td>", html)
    assert len(rows) == 8
    assert "6920.6" in html
    assert "6921" in html
    assert "Traceback" not in html


def test_floor_build_runs_no_page_code(floor_build: SiteBuild) -> None:
    """The benchmark's floor: with ASCEND_DSA_NO_EXEC=1 the strict build passes and shows the call, not the table."""
    assert floor_build.result.returncode == 0, floor_build.result.output[-3000:]
    for page in ("discussion/heads-per-core/index.html", "en/discussion/heads-per-core/index.html"):
        html = (floor_build.site / page).read_text(encoding="utf-8")
        assert "render_head_roofline_table(lang=" in html
        assert "6920.6" not in html
