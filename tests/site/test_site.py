"""The site builds strictly, shows the checked table, and fails to build when a constant is perturbed."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

    from tests.conftest import ProjectCopy


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


@pytest.mark.parametrize(
    ("file", "old", "new", "named"),
    [
        pytest.param(
            "src/ascend_dsa/facts/hardware.py",
            "clock_hz=1650 * MHz",
            "clock_hz=1600 * MHz",
            [f"report (zh) line {n}" for n in range(104, 112)],
            id="hardware-constant",
        ),
    ],
)
def test_perturbation_breaks_strict_build(
    project_copy: ProjectCopy, file: str, old: str, new: str, named: list[str]
) -> None:
    """Change one constant the figures are computed from, in a copy: the strict build fails and names the rows.

    A changed published figure breaking the build is tests/report/test_claims_guard.py's subject.
    """
    result = project_copy.replace(file, old, new).lean().build()
    assert result.returncode != 0
    assert "FigureMismatch" in result.output
    for row in named:
        assert row in result.output
