"""Fixtures and hooks: the project root, the one shared strict site build, mutated copies, a web server, Chromium.

Plain helpers live in tests/helpers (`tests.helpers.project` for copies, builds and ``MUTATIONS``); a test module
imports from there, never from this file or from another test module.

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
  the session-scoped ``mutated_build`` fixture applies them all to one copy and builds it once (both editions,
  notebooks executed, ``-q``); each test then asserts that the output names its own change (so one build proves
  every wiring).

Markers say what a test costs: ``site`` (it reads the shared build) and ``build`` (it runs a build of its own) are
added here from the fixtures a test uses (``mutated_build`` counts as ``build``); a test that calls
:func:`~tests.helpers.project.build_site` itself carries ``@pytest.mark.build``.
``pytest -m "not build"`` runs everything with the one shared build; ``-m "not build and not site"`` builds nothing.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

from tests.helpers.browser import CHROMIUM, CHROMIUM_FLAGS, Traffic, require_chromium
from tests.helpers.project import (
    ROOT,
    BuildResult,
    ProjectCopy,
    SiteBuild,
    build_site,
    copy_project,
    floor_copy,
    mkdocs_env,
    mutated_copy,
)
from tests.helpers.serving import serving

#: Property tests draw the same examples on every run, so CI and a developer see the same result; run
#: ``pytest --hypothesis-profile=explore`` to search with fresh random examples.
settings.register_profile("repeatable", derandomize=True, deadline=None)
settings.register_profile("explore", max_examples=500, deadline=None)
settings.load_profile("repeatable")

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from playwright.sync_api import Browser, BrowserContext, Page


@dataclass(frozen=True)
class SharedBuild:
    """A strict build the whole test run shares: made once, in the background, from the moment tests are collected.

    Under pytest-xdist the first worker to collect a test that needs it starts it (a file made with ``O_EXCL`` says
    who); every worker then waits for its exit status in the run's shared temporary folder. Without xdist the
    fixture builds it when first asked. The build overlaps with the tests that need no site.
    """

    name: str
    fixture: str
    extra_args: tuple[str, ...]
    #: Makes the project to build at the path given (a copy, changed); None builds the tree itself.
    project: Callable[[Path], Path] | None = None
    #: Variables the build's environment gets besides `mkdocs_env`'s.
    env: tuple[tuple[str, str], ...] = ()

    def folder(self, config: pytest.Config) -> Path | None:
        """Where this run keeps it (beside the workers' own temporary folders), or None without xdist."""
        basetemp = config.option.basetemp
        if basetemp is None or getattr(config, "workerinput", None) is None:
            return None
        return Path(basetemp).parent / f"shared-{self.name}"

    def start(self, folder: Path) -> None:
        """Start the build into ``folder`` unless another worker has; return at once."""
        folder.mkdir(parents=True, exist_ok=True)
        try:
            os.close(os.open(folder / "started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        project = ROOT if self.project is None else self.project(folder / "project")
        command = [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            *self.extra_args,
            "--site-dir",
            str(folder / "site"),
        ]
        script = (
            "import subprocess, sys, pathlib\n"
            "folder = pathlib.Path(sys.argv[1])\n"
            "with (folder / 'output.txt').open('wb') as out:\n"
            "    code = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT).returncode\n"
            "(folder / 'returncode.tmp').write_text(str(code))\n"
            "(folder / 'returncode.tmp').replace(folder / 'returncode')\n"
        )
        _BACKGROUND.append(
            subprocess.Popen(
                [sys.executable, "-c", script, str(folder), *command],
                cwd=project,
                env=mkdocs_env(project, dict(self.env)),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )

    def result(self, folder: Path, timeout_s: float = 900) -> tuple[BuildResult, Path]:
        """Wait for the build in ``folder``: its result and its site."""
        deadline = time.monotonic() + timeout_s
        done = folder / "returncode"
        while not done.is_file():
            if time.monotonic() > deadline:
                pytest.fail(f"the shared {self.name} build did not finish within {timeout_s} s")
            time.sleep(0.5)
        output = (folder / "output.txt").read_text(encoding="utf-8", errors="replace")
        return BuildResult(int(done.read_text()), output), folder / "site"


#: The shared builds this process started, reaped when the session ends.
_BACKGROUND: list[subprocess.Popen[bytes]] = []


def pytest_sessionfinish() -> None:
    """Wait for the shared builds this process started (they may still run if no test waited for them)."""
    for process in _BACKGROUND:
        process.wait()


#: The builds the run shares: the tree's own (``built_site``), the one with every mutation (``mutated_build``), and
#: the floor of the benchmark, both editions, with no speedup (``floor_build``).
SHARED_BUILDS: tuple[SharedBuild, ...] = (
    SharedBuild("site", "built_site", ()),
    SharedBuild("mutated", "mutated_build", ("-q",), mutated_copy),
    SharedBuild("floor", "floor_build", (), floor_copy, (("ASCEND_DSA_NO_EXEC", "1"),)),
)


@pytest.fixture(scope="session")
def floor_build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> SiteBuild:
    """The benchmark's floor (``ASCEND_DSA_NO_EXEC=1``) of a copy that shares no API objects, built once per run."""
    shared = SHARED_BUILDS[2]
    folder = shared.folder(request.config)
    if folder is not None:
        shared.start(folder)
        return SiteBuild(*shared.result(folder))
    project = ProjectCopy(floor_copy(tmp_path_factory.mktemp("floor") / "project"))
    return SiteBuild(project.build(dict(shared.env), shared.extra_args), project.site)


@pytest.fixture(scope="session")
def mutated_build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """One strict -q build of a copy with every change in ``MUTATIONS`` applied (see the module docstring)."""
    shared = SHARED_BUILDS[1]
    folder = shared.folder(request.config)
    if folder is not None:
        shared.start(folder)
        return shared.result(folder)[0]
    project = mutated_copy(tmp_path_factory.mktemp("mutated") / "project")
    return ProjectCopy(project).build(extra_args=shared.extra_args)


@pytest.fixture
def project_copy(tmp_path: Path) -> ProjectCopy:
    """A fresh copy of the project's site inputs in this test's tmp folder (see the module docstring)."""
    return ProjectCopy(copy_project(ROOT, tmp_path / "project"))


#: The markers of the slow tests (a build, a browser), run first: see `pytest_collection_modifyitems`.
SLOW_FIRST = ("build", "browser", "site")


def _run_order(item: pytest.Item) -> int:
    """Where a test runs: the first slow marker it carries (`SLOW_FIRST`) by its rank, everything else last."""
    return next((rank for rank, name in enumerate(SLOW_FIRST) if item.get_closest_marker(name)), len(SLOW_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``site`` the tests that read the shared build and ``build`` those that build a copy of their own.

    Under xdist, start in the background each shared build some collected test needs (`SharedBuild`). The slow
    tests run first, the many fast ones last (order otherwise kept), so that the two workers end together: a slow
    test left for the end keeps one worker busy while the other has nothing left to take.
    """
    needed: set[str] = set()
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        needed.update(fixtures)
        if "built_site" in fixtures:
            item.add_marker(pytest.mark.site)
        if {"project_copy", "mutated_build", "floor_build"} & set(fixtures):
            item.add_marker(pytest.mark.build)
    items.sort(key=_run_order)
    for shared in SHARED_BUILDS:
        folder = shared.folder(config)
        if folder is not None and shared.fixture in needed:
            shared.start(folder)


@pytest.fixture(scope="session")
def project_root() -> Path:
    """The checked-out project."""
    return ROOT


@pytest.fixture(scope="session")
def built_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once per session, strictly, from the working tree (both languages, notebooks executed).

    Every test that only reads the site shares this one build (under xdist, one for all workers: `SharedBuild`); it
    fails the requesting test if the build fails.
    """
    shared = SHARED_BUILDS[0]
    folder = shared.folder(request.config)
    if folder is not None:
        shared.start(folder)
        result, site = shared.result(folder)
    else:
        site = tmp_path_factory.mktemp("site")
        result = build_site(ROOT, site)
    if result.returncode != 0:
        pytest.fail(f"strict build failed:\n{result.output[-4000:]}")
    return site


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served over HTTP on 127.0.0.1 at an ephemeral port, for the browser tests."""
    with serving(built_site) as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium headless and quiet; skip (fail in CI) the browser tests if it is not installed."""
    require_chromium()
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": list(CHROMIUM_FLAGS)}


@pytest.fixture(scope="session")
def shared_context(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[BrowserContext]:
    """One browser context for all of a worker's browser tests, so that its HTTP cache and compiled scripts stay warm.

    A test's first page in a new context cost Chromium about 1.4 CPU seconds more than a page in a warm one (fonts,
    Material's scripts and styles, the search index, all loaded and compiled again).
    """
    context = browser.new_context(**browser_context_args)
    yield context
    context.close()


@pytest.fixture
def context(shared_context: BrowserContext) -> BrowserContext:
    """The worker's shared context (replaces pytest-playwright's context per test)."""
    return shared_context


@pytest.fixture(scope="session")
def shared_page(shared_context: BrowserContext) -> Iterator[list[Page]]:
    """The worker's one browser tab, in a list so that `page` can replace it if a test closed or crashed it.

    A new tab per test cost Chromium about one CPU second more per test than loading the next page in the same tab
    (a renderer process started, fonts and scripts set up again).
    """
    holder = [shared_context.new_page()]
    yield holder
    holder[0].close()


#: The window a test's page starts with (pytest-playwright's default).
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}


@pytest.fixture
def page(shared_page: list[Page]) -> Iterator[Page]:
    """The worker's tab, as a new one would be: blank, default window, no emulated colour scheme, no routes.

    After the test the site's local and session storage are cleared (Material keeps the reader's palette and search
    there), the tab leaves the site (stopping whatever ran, the live forms' runtime included) and every setting a
    test may change is put back. Listeners a test adds with ``page.on`` it removes itself (the ``traffic`` fixture).
    """
    if shared_page[0].is_closed():
        shared_page[0] = shared_page[0].context.new_page()
    page = shared_page[0]
    yield page
    if page.is_closed():
        return
    if page.url.startswith("http"):
        with contextlib.suppress(Exception):
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    page.unroute_all(behavior="ignoreErrors")
    page.goto("about:blank")
    page.set_viewport_size(DEFAULT_VIEWPORT)
    page.emulate_media(color_scheme="null")


@pytest.fixture
def traffic(page: Page, site_url: str) -> Iterator[Traffic]:
    """Record the page's traffic; after the test: nothing left localhost, nothing failed, no console error."""
    log = Traffic(site_url)
    listeners: list[tuple[Any, Any]] = [
        ("request", log.on_request),
        ("requestfailed", log.on_request_failed),
        ("response", log.on_response),
        ("console", log.on_console),
        ("pageerror", lambda error: log.errors.append(str(error))),
    ]
    for event, listener in listeners:
        page.on(event, listener)
    yield log
    for event, listener in listeners:  # the tab is the next test's too (the ``page`` fixture's)
        page.remove_listener(event, listener)
    assert log.external() == []
    assert log.failures == []
    assert log.errors == []
