"""Shared fixtures: the project root and a helper that builds the site strictly."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What a copy of the project needs in order to build the site.
SITE_INPUTS = ("mkdocs.yml", "docs", "hooks", "src")


@dataclass(frozen=True)
class BuildResult:
    """Exit status and combined output of one ``mkdocs build --strict``."""

    returncode: int
    output: str


def build_site(project: Path, site_dir: Path) -> BuildResult:
    """Build ``project`` strictly into ``site_dir`` with ``project/src`` first on the import path."""
    env = {**os.environ, "PYTHONPATH": str(project / "src"), "NO_MKDOCS_2_WARNING": "1"}
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    return BuildResult(completed.returncode, completed.stdout + completed.stderr)


@pytest.fixture(scope="session")
def project_root() -> Path:
    """The checked-out project."""
    return ROOT


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once, strictly, from the working tree; fails the requesting test if the build fails."""
    site = tmp_path_factory.mktemp("site")
    result = build_site(ROOT, site)
    if result.returncode != 0:
        pytest.fail(f"strict build failed:\n{result.output[-4000:]}")
    return site
