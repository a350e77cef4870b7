"""Shared fixtures: the project root, a strict site build, a local web server for it, and Debian's Chromium."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[1]
#: What a copy of the project needs in order to build the site.
SITE_INPUTS = ("mkdocs.yml", "docs", "hooks", "src")
#: Debian's Chromium, installed by `.ci/run` (apt-get install chromium fonts-noto-cjk).
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: Where the browser tests leave screenshots of key pages (git-ignored).
SCREENSHOTS = ROOT / ".screenshots"


@dataclass(frozen=True)
class BuildResult:
    """Exit status and combined output of one ``mkdocs build --strict``."""

    returncode: int
    output: str


def build_site(project: Path, site_dir: Path, extra_env: dict[str, str] | None = None) -> BuildResult:
    """Build ``project`` strictly into ``site_dir`` with ``project/src`` first on the import path."""
    env = {**os.environ, "PYTHONPATH": str(project / "src"), "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}
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


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without logging each request to stderr."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's parameter name
        """Log nothing."""


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served over HTTP on 127.0.0.1 at an ephemeral port, for the browser tests."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(built_site)))
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def running_in_ci() -> bool:
    """Whether the CI environment variable says this run is CI (where skipping browser tests is not allowed)."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require_chromium(path: Path = CHROMIUM, *, ci: bool | None = None) -> None:
    """Skip the calling test when Chromium is not at ``path``, or fail it in CI, with a message naming the fix."""
    if path.is_file():
        return
    message = (
        f"browser tests need Chromium at {path}: install the Debian packages chromium and fonts-noto-cjk "
        "(sudo apt-get install -y chromium fonts-noto-cjk)"
    )
    if running_in_ci() if ci is None else ci:
        pytest.fail(f"{message}; CI requires them")
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium headless and quiet; skip (fail in CI) the browser tests if it is not installed."""
    require_chromium()
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": list(CHROMIUM_FLAGS)}
