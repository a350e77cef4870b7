"""The project, copies of it to change, and its strict builds; the changes one shared build makes at once.

Plain helpers (no fixtures: tests/conftest.py holds those, ``project_copy`` and ``mutated_build`` among them).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
#: The project's pages.
DOCS = ROOT / "docs"
#: What a copy of the project needs in order to build the site.
SITE_INPUTS = ("mkdocs.yml", "docs", "src")


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


@dataclass(frozen=True)
class SiteBuild:
    """A finished build: its result, and the site it wrote."""

    result: BuildResult
    site: Path


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


def floor_copy(destination: Path) -> Path:
    """A copy of the project whose build renders each edition's API objects itself and runs no notebook."""
    copy = ProjectCopy(copy_project(ROOT, destination)).lean(english=True)
    limit = "block_output_limit_bytes: 1000000\n"
    copy.replace("mkdocs.yml", limit, f"{limit}      share_api_objects: false\n")
    return copy.root


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
