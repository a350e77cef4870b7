"""The site builds strictly, shows the checked table, and fails to build when a figure or constant is perturbed."""

from __future__ import annotations

import re
import shutil
from typing import TYPE_CHECKING

import pytest

from tests.conftest import SITE_INPUTS, build_site

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.build


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


def copy_project(root: Path, destination: Path) -> Path:
    """A copy of what the site build reads, without caches."""
    destination.mkdir(parents=True)
    for name in SITE_INPUTS:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, destination / name)
    return destination


def perturb(path: Path, old: str, new: str) -> None:
    """Replace exactly one occurrence of ``old`` in ``path``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize(
    ("file", "old", "new", "named"),
    [
        pytest.param(
            "src/ascend_dsa/report_figures.py",
            "cube_cycles=  8192, mem_cycles=  6921",
            "cube_cycles=  8192, mem_cycles=  6922",
            ["report (zh) line 108"],
            id="published-figure",
        ),
        pytest.param(
            "src/ascend_dsa/hardware.py",
            "clock_hz=1650 * MHz",
            "clock_hz=1600 * MHz",
            [f"report (zh) line {n}" for n in range(104, 112)],
            id="hardware-constant",
        ),
    ],
)
def test_perturbation_breaks_strict_build(
    project_root: Path, tmp_path: Path, file: str, old: str, new: str, named: list[str]
) -> None:
    """Change one published figure, or one constant, in a copy: the strict build fails and names the rows."""
    project = copy_project(project_root, tmp_path / "project")
    perturb(project / file, old, new)
    result = build_site(project, tmp_path / "site")
    assert result.returncode != 0
    assert "FigureMismatch" in result.output
    for row in named:
        assert row in result.output
