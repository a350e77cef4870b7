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
  the session-scoped ``mutated_build`` fixture applies them all to one copy and builds it once (both editions,
  notebooks executed, ``-q``); each test then asserts that the output names its own change (so one build proves
  every wiring).

Markers say what a test costs: ``site`` (it reads the shared build) and ``build`` (it runs a build of its own) are
added here from the fixtures a test uses (``mutated_build`` counts as ``build``); a test that calls
:func:`build_site` itself carries ``@pytest.mark.build``.
``pytest -m "not build"`` runs everything with the one shared build; ``-m "not build and not site"`` builds nothing.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
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
    from collections.abc import Callable, Iterator
    from types import ModuleType

    from playwright.sync_api import Browser, BrowserContext, Page

ROOT = Path(__file__).resolve().parents[1]
#: What a copy of the project needs in order to build the site.
SITE_INPUTS = ("mkdocs.yml", "docs", "src")
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


#: A number typed by hand in each form the prose scanner must catch: the text, and the number it must name.
TYPED_FORMS: dict[str, tuple[str, str]] = {
    "digits": ("The block takes 1080 cycles.", "1080"),
    "percentage": ("94.79%", "94.79%"),
    "table cell": ("| 16 | 0.35 |", "16"),
    "grouped": ("1,024", "1,024"),
    "chinese numeral run": ("每个 AI Core 负责六十四个 head", "六十四"),
    "chinese two": ("一个 CUBE 配两个 VECTOR Core", "两"),
    "chinese count": ("六个实例", "六"),
    "chinese steps": ("分七个步骤", "七"),
    "digits glued to chinese": ("共74个周期", "74"),
    "heading number": ("## 67. 标题", "67"),
    "footnote definition": ("正文[^n]\n\n[^n]: 这里写了 4096 个", "4096"),
    "seven digits": ("it is 1234567 B", "1234567"),
    "list marker as text": ("a paragraph that wraps\n83. onto a line", "83"),
    "numbered step": ("第 3 步", "3"),
    "numbered block": ("block 8", "8"),
    "numbered head": ("head 9", "9"),
    "line list without citation": ("line 5, 80 cycles", "80"),
    "math one": ("$1$", "1"),
    "math comparison": ("$x > 0$", "0"),
    "math product": ("$2 \\times 1.5$", "2"),
    "inline code": ("`B_TOPK = 64`", "64"),
    "html attribute": ('<span data-rows="64">x</span>', "64"),
    "shown block comment": ("```bash\nrun --mode prefill  # 259600 B\n```", "259600"),
    "shown block output": ("```console\n$ run\n244368\n```", "244368"),
    "index step other than one": ("$i+5$", "5"),
}

#: Changes that each break exactly one check of the build, and no other; ``mutated_build`` applies them all to one
#: copy and builds it once, both editions, notebooks executed, with ``-q``. Keyed by what they break; each is
#: asserted by the test named in its comment. An ``old`` of "" appends ``new`` to the file.
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
    # tests/site/test_prose_numbers_site.py: a number typed in each form the scanner knows, on one page
    "typed-forms": Mutation(
        "docs/discussion/heads-per-core.md", "", "\n\n" + "\n\n".join(text for text, _ in TYPED_FORMS.values()) + "\n"
    ),
    # tests/site/test_build_failures.py from here on: each kind of failure the build must name and fail on.
    "notebook-cell": Mutation(
        "docs/design/what-if.en.ipynb",
        '"as_html(render_live_form(\\"design-point\\", lang=\\"en\\"))"',
        '"total = 1\\n",\n    "total / 0\\n"',
    ),
    "time-limit": Mutation("mkdocs.yml", "block_time_limit_s: 60", "block_time_limit_s: 3"),
    # A block that sleeps forever: the same timer stops it as a busy loop (tests/site/test_limits.py), without
    # burning a core for the limit's seconds.
    "forever": Mutation(
        "docs/optimizations/gather2.md",
        "",
        '\n```python exec="true" id="forever"\nimport time\nwhile True:\n    time.sleep(1)\n```\n',
    ),
    "huge-output": Mutation(
        "docs/optimizations/gather2.en.md",
        "",
        '\n```python exec="true" html="true" id="huge"\nprint("<p>" + "x" * 2_000_000 + "</p>")\n```\n',
    ),
    "syntax-error": Mutation(
        "src/ascend_dsa/render/accumulator.py", "from __future__ import annotations\n", "def broken(:\n"
    ),
    "links": Mutation(
        "docs/optimizations/kv-cache-layout.md",
        "",
        "\n[gone](no-such-page.md), [moved](../pipeline.md#no-such-anchor)\n",
    ),
    "marker-and-numbers": Mutation(
        "docs/optimizations/fast-nd2nz.md", "", "\n{{ b_topk and {{}} and {{ clock_ghz }}}, about 1080 cycles.\n"
    ),
    "numbers-elsewhere": Mutation("docs/optimizations/l1-banks.en.md", "", "\nAbout 1234 cycles here.\n"),
    "external-script": Mutation("docs/index.md", "", '\n<script src="https://cdn.example.com/lib.js"></script>\n'),
    "external-font": Mutation(
        "docs/index.en.md", "", '\n<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Roboto">\n'
    ),
}
#: Page files the broken build deletes (tests/site/test_build_failures.py): a page the nav still lists.
DELETED: tuple[str, ...] = ("docs/optimizations/icache.md",)


def mutated_copy(destination: Path) -> Path:
    """A copy of the project in ``destination`` with every change in ``MUTATIONS`` and ``DELETED`` made."""
    copy = ProjectCopy(copy_project(ROOT, destination))
    for mutation in MUTATIONS.values():
        if mutation.old:
            copy.replace(mutation.file, mutation.old, mutation.new)
        else:
            copy.append(mutation.file, mutation.new)
    for page in DELETED:
        (copy.root / page).unlink()
    return copy.root


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


def computed_once(config: pytest.Config, name: str, compute: Callable[[], Any], timeout_s: float = 600) -> Any:  # noqa: ANN401 - whatever ``compute`` returns, as JSON
    """``compute()``'s JSON value, computed once per test run however many workers ask for it.

    Under pytest-xdist the first worker to ask (a file made with ``O_EXCL`` says who) computes it and leaves it in
    the run's shared temporary folder, or the error it raised; the others wait for that file. Without xdist it is
    simply computed. For a session fixture that every worker would otherwise compute again.
    """
    basetemp = config.option.basetemp
    if basetemp is None or getattr(config, "workerinput", None) is None:
        return compute()
    folder = Path(basetemp).parent / f"shared-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    done = folder / "value.json"
    try:
        os.close(os.open(folder / "started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        deadline = time.monotonic() + timeout_s
        while not done.is_file():
            if time.monotonic() > deadline:
                pytest.fail(f"the shared {name} was not computed within {timeout_s} s")
            time.sleep(0.2)
    else:
        try:
            found = {"value": compute()}
        except Exception as error:
            found = {"error": f"{type(error).__name__}: {error}"}
            raise
        finally:
            (folder / "value.tmp").write_text(json.dumps(found), encoding="utf-8")
            (folder / "value.tmp").replace(done)
    found = json.loads(done.read_text(encoding="utf-8"))
    if "error" in found:
        pytest.fail(f"computing the shared {name} failed in another worker: {found['error']}")
    return found["value"]


#: The shared builds this process started, reaped when the session ends.
_BACKGROUND: list[subprocess.Popen[bytes]] = []


def pytest_sessionfinish() -> None:
    """Wait for the shared builds this process started (they may still run if no test waited for them)."""
    for process in _BACKGROUND:
        process.wait()


def floor_copy(destination: Path) -> Path:
    """A copy of the project whose build renders each edition's API objects itself and runs no notebook."""
    copy = ProjectCopy(copy_project(ROOT, destination)).lean(english=True)
    limit = "block_output_limit_bytes: 1000000\n"
    copy.replace("mkdocs.yml", limit, f"{limit}      share_api_objects: false\n")
    return copy.root


#: The builds the run shares: the tree's own (``built_site``), the one with every mutation (``mutated_build``), and
#: the floor of the benchmark, both editions, with no speedup (``floor_build``).
SHARED_BUILDS: tuple[SharedBuild, ...] = (
    SharedBuild("site", "built_site", ()),
    SharedBuild("mutated", "mutated_build", ("-q",), mutated_copy),
    SharedBuild("floor", "floor_build", (), floor_copy, (("ASCEND_DSA_NO_EXEC", "1"),)),
)


@dataclass(frozen=True)
class SiteBuild:
    """A finished build: its result, and the site it wrote."""

    result: BuildResult
    site: Path


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
