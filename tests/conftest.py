"""Shared fixtures: the project root, the one shared strict site build, mutated copies, a web server, Chromium.

Two patterns keep the suite fast (one full strict build costs about 15 s of CPU, a lean one about 7 s):

* Tests that only *read* the built site take the session-scoped ``built_site`` fixture: one strict build of the
  working tree (both languages, notebooks executed), shared by every such test. Never build the tree again to read
  it.
* Tests that prove a *change* breaks (or survives) the strict build take the ``project_copy`` fixture: a
  :class:`ProjectCopy` of what the build reads, in the test's tmp folder. Change it with ``replace`` or ``append``,
  call ``lean()`` when the check does not need the English edition or the executed notebooks (about half the
  cost), then ``build()``::

      def test_wrong_constant_breaks_the_build(project_copy: ProjectCopy) -> None:
          project_copy.replace("src/ascend_dsa/facts/hardware.py", "clock_hz=1650 * MHz", "clock_hz=1600 * MHz")
          result = project_copy.lean().build()
          assert result.returncode != 0
          assert "report (zh) line 108" in result.output

  Each such build costs seconds: prefer an in-process check (call the checking function with the changed value)
  when it proves the same thing, and keep one build to prove the wiring.
* A change that breaks one check of the build, independently of every other, can instead join ``MUTATIONS``:
  the session-scoped ``mutated_build`` fixture applies them all to one lean copy and builds it once; each test
  then asserts that the output names its own change (so one build proves several wirings).

Markers say what a test costs: ``site`` (it reads the shared build) and ``build`` (it runs a build of its own) are
added here from the fixtures a test uses (``mutated_build`` counts as ``build``); a test that calls
:func:`build_site` itself carries ``@pytest.mark.build``.
``pytest -m "not build"`` runs everything with the one shared build; ``-m "not build and not site"`` builds nothing.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

#: Property tests draw the same examples on every run, so CI and a developer see the same result; run
#: ``pytest --hypothesis-profile=explore`` to search with fresh random examples.
settings.register_profile("repeatable", derandomize=True, deadline=None)
settings.register_profile("explore", max_examples=500, deadline=None)
settings.load_profile("repeatable")

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import ModuleType

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


def load_module(name: str, path: Path) -> ModuleType:
    """The Python file at ``path`` (a hook or script outside any package) imported as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def load_hook(name: str) -> ModuleType:
    """Import hooks/<name>.py as MkDocs does, by path, with hooks/ on the import path while it loads."""
    sys.path.insert(0, str(ROOT / "hooks"))
    try:
        return load_module(f"hook_{name}", ROOT / "hooks" / f"{name}.py")
    finally:
        sys.path.remove(str(ROOT / "hooks"))


@dataclass(frozen=True)
class BuildResult:
    """Exit status and combined output of one ``mkdocs build --strict``."""

    returncode: int
    output: str


def mkdocs_env(project: Path, extra_env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for running MkDocs on ``project``: its ``src`` first on the import path, no 2.0 notice."""
    return {**os.environ, "PYTHONPATH": str(project / "src"), "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}


def build_site(
    project: Path, site_dir: Path, extra_env: dict[str, str] | None = None, extra_args: tuple[str, ...] = ()
) -> BuildResult:
    """Build ``project`` strictly into ``site_dir`` (``extra_args``, e.g. ``-q``, go to ``mkdocs build``)."""
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", *extra_args, "--site-dir", str(site_dir)],
        cwd=project,
        env=mkdocs_env(project, extra_env),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    return BuildResult(completed.returncode, completed.stdout + completed.stderr)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def wait_for_text(url: str, text: str, timeout_s: float, *, absent: bool = False) -> str:
    """The body of ``url`` once it contains ``text`` (once it no longer does, if ``absent``).

    A request the server refuses, resets or lets time out while it (re)builds is tried again; the test fails after
    ``timeout_s`` seconds.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - our own server on 127.0.0.1
                body = response.read().decode("utf-8")
        except OSError:
            pass
        else:
            if (text in body) != absent:
                return body
        time.sleep(0.5)
    pytest.fail(f"{url} {'still showed' if absent else 'did not show'} {text!r} within {timeout_s} s")


@contextlib.contextmanager
def mkdocs_serve(project: Path, *extra_args: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run ``mkdocs serve`` on ``project`` at a free loopback port: yields (base URL, server); stops it after."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", *extra_args, "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=mkdocs_env(project),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}/", server
    finally:
        server.terminate()
        server.wait(timeout=30)


def copy_project(root: Path, destination: Path) -> Path:
    """A copy of what the site build reads (``SITE_INPUTS``) from ``root`` into ``destination``, without caches."""
    destination.mkdir(parents=True)
    for name in SITE_INPUTS:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, destination / name)
    return destination


def perturb(path: Path, old: str, new: str) -> None:
    """Replace exactly one occurrence of ``old`` in ``path`` (fails the test if it occurs zero or several times)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


#: mkdocs.yml's lines that ``ProjectCopy.lean`` turns off: the English edition and the notebooks' execution.
ENGLISH_ON = "          name: English\n          build: true"
NOTEBOOKS_EXECUTED = "      execute: true\n"


@dataclass(frozen=True)
class ProjectCopy:
    """A copy of the project's site inputs in a tmp folder, to change and build without touching the tree."""

    root: Path

    def replace(self, relative: str, old: str, new: str) -> ProjectCopy:
        """Replace the one occurrence of ``old`` in the file at ``relative`` (from the copy's root)."""
        perturb(self.root / relative, old, new)
        return self

    def append(self, relative: str, text: str) -> ProjectCopy:
        """Add ``text`` at the end of the file at ``relative``."""
        with (self.root / relative).open("a", encoding="utf-8") as handle:
            handle.write(text)
        return self

    def lean(self, *, english: bool = False) -> ProjectCopy:
        """Build without executing the notebooks and, unless ``english``, without the English edition.

        Every markdown-exec block of the built edition still runs, so each figure check still runs once; only the
        notebooks' execution and the second language's pages are skipped.
        """
        if not english:
            perturb(self.root / "mkdocs.yml", ENGLISH_ON, ENGLISH_ON.replace("build: true", "build: false"))
        perturb(self.root / "mkdocs.yml", NOTEBOOKS_EXECUTED, NOTEBOOKS_EXECUTED.replace("true", "false"))
        return self

    def build(self, extra_env: dict[str, str] | None = None, extra_args: tuple[str, ...] = ()) -> BuildResult:
        """Build the copy strictly into ``site`` next to it."""
        return build_site(self.root, self.site, extra_env, extra_args)

    @property
    def site(self) -> Path:
        """Where :meth:`build` writes the site."""
        return self.root.parent / "site"


@dataclass(frozen=True)
class Mutation:
    """One change to a copy of the project: replace the one occurrence of ``old`` in ``file`` with ``new``."""

    file: str
    old: str
    new: str


#: Changes that each break exactly one check the lean build runs, and no other; ``mutated_build`` applies them all
#: to one copy. Keyed by what they break; each is asserted by the test named in its comment.
MUTATIONS: dict[str, Mutation] = {
    # tests/report/test_hopper_guard.py: a published Hopper figure (FlashMLA dense blog line 3)
    "dense-decode-tflops": Mutation(
        "src/ascend_dsa/facts/hopper_figures.py",
        '_dense("dense-decode-tflops", 660,',
        '_dense("dense-decode-tflops", 661,',
    ),
    # tests/report/test_claims_guard.py: a PublishedFigure value that is a claim's input (report (zh) line 5)
    "prefill-tflops": Mutation(
        "src/ascend_dsa/facts/report_figures.py",
        'key="prefill-tflops", value=410,',
        'key="prefill-tflops", value=821,',
    ),
    # tests/report/test_claims_guard.py: one row of the head-roofline table kept as text (report (zh) line 108)
    "head-roofline-line-108": Mutation(
        "src/ascend_dsa/facts/report_figures.py",
        "cube_cycles=  8192, mem_cycles=  6921",
        "cube_cycles=  8192, mem_cycles= 13843",
    ),
    # tests/site/test_site_algorithm.py: the token size kv_cache_format.h:19 states
    "kv-token-bytes": Mutation(
        "src/ascend_dsa/facts/kv_formats.py", '{"FP8": 528, "FP4": 288}', '{"FP8": 529, "FP4": 288}'
    ),
    # tests/site/test_design_site.py: one shipped UB total (config.h)
    "ub-total": Mutation("src/ascend_dsa/facts/code_figures.py", "total_bytes=259600", "total_bytes=259601"),
}


@pytest.fixture(scope="session")
def mutated_build(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """One lean strict build of a copy with every change in ``MUTATIONS`` applied (see the module docstring)."""
    copy = ProjectCopy(copy_project(ROOT, tmp_path_factory.mktemp("mutated") / "project"))
    for mutation in MUTATIONS.values():
        copy.replace(mutation.file, mutation.old, mutation.new)
    return copy.lean().build()


@pytest.fixture
def project_copy(tmp_path: Path) -> ProjectCopy:
    """A fresh copy of the project's site inputs in this test's tmp folder (see the module docstring)."""
    return ProjectCopy(copy_project(ROOT, tmp_path / "project"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``site`` the tests that read the shared build and ``build`` those that build a copy of their own."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "built_site" in fixtures:
            item.add_marker(pytest.mark.site)
        if "project_copy" in fixtures or "mutated_build" in fixtures:
            item.add_marker(pytest.mark.build)


@pytest.fixture(scope="session")
def project_root() -> Path:
    """The checked-out project."""
    return ROOT


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once per session, strictly, from the working tree (both languages, notebooks executed).

    Every test that only reads the site shares this one build; it fails the requesting test if the build fails.
    """
    site = tmp_path_factory.mktemp("site")
    result = build_site(ROOT, site)
    if result.returncode != 0:
        pytest.fail(f"strict build failed:\n{result.output[-4000:]}")
    return site


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without logging each request to stderr."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's parameter name
        """Log nothing."""


@contextlib.contextmanager
def serving(directory: Path) -> Iterator[str]:
    """``directory`` served over HTTP on 127.0.0.1 at an ephemeral port while the ``with`` block runs: its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served over HTTP on 127.0.0.1 at an ephemeral port, for the browser tests."""
    with serving(built_site) as url:
        yield url


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
