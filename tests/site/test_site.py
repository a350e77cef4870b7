"""The site builds strictly, shows the checked table, and fails to build when a constant is perturbed."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

    from tests.conftest import ProjectCopy, SiteBuild


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


def test_perturbation_breaks_strict_build(project_copy: ProjectCopy) -> None:
    """Change constants in a copy, one build: the figures computed from them fail, and so does a number left typed.

    The clock (1650 to 1600 MHz) moves the head-roofline table: its rows are named. A faster 1C2V FixPipe leaves
    the old bytes per cycle typed on the design page: the page, the number and "typed by hand" are named. A changed
    published figure breaking the build is tests/report/test_claims_guard.py's subject.
    """
    project_copy.replace("src/ascend_dsa/facts/hardware.py", "clock_hz=1650 * MHz", "clock_hz=1600 * MHz")
    project_copy.replace(
        "src/ascend_dsa/facts/assumptions.py", "FIXPIPE_1C2V_SPEEDUP: Final = 2", "FIXPIPE_1C2V_SPEEDUP: Final = 3"
    )
    project_copy.replace(
        "docs/design/index.md", "每周期\n    {{ fixpipe_1c2v_bytes_per_cycle }} 字节", "每周期\n    256 字节"
    )
    result = project_copy.lean().build()
    assert result.returncode != 0
    assert "FigureMismatch" in result.output
    for row in [f"report (zh) line {n}" for n in range(104, 112)]:
        assert row in result.output
    assert "docs/design/index.md" in result.output
    assert "256" in result.output
    assert "typed by hand" in result.output


def test_floor_build_runs_no_page_code(floor_build: SiteBuild) -> None:
    """The benchmark's floor: with ASCEND_DSA_NO_EXEC=1 the strict build passes and shows the call, not the table."""
    assert floor_build.result.returncode == 0, floor_build.result.output[-3000:]
    for page in ("discussion/heads-per-core/index.html", "en/discussion/heads-per-core/index.html"):
        html = (floor_build.site / page).read_text(encoding="utf-8")
        assert "render_head_roofline_table(lang=" in html
        assert "6920.6" not in html
