"""The state of one build, and what outlives it under ``mkdocs serve``: two objects, passed, never global.

`Build` is made when a build starts (both editions of one ``mkdocs build`` share it) and handed to every step that
needs it. `ServeSession` lives as long as one ``mkdocs serve`` process: the site's plugin keeps it (MkDocs keeps a
plugin that has ``on_startup`` across rebuilds) and gives it to each new `Build`. Under ``mkdocs build`` there is no
session: nothing is kept, every block runs and every page is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ascend_dsa.site.failures import Failure, Reporter
from ascend_dsa.site.files import Digests
from ascend_dsa.site.limits import Limits
from ascend_dsa.site.sources import Parsed, SourceTree
from ascend_dsa.site.step_cache import StepCache

if TYPE_CHECKING:
    from ascend_dsa.lang import Lang
    from ascend_dsa.site.prefetch import Prefetch


@dataclass(frozen=True)
class Speedups:
    """Two ways a build saves time; the site is the same, byte for byte, without them (the plugin's options)."""

    #: Compute the English edition's blocks and notebooks on the other core (`ascend_dsa.site.prefetch`).
    compute_ahead: bool = True
    #: Render the API reference's objects once for both editions (`ascend_dsa.site.api_pages`).
    share_api_objects: bool = True


@dataclass(frozen=True)
class KeptBlock:
    """A block's output under serve, with the files it depends on and their digest when it ran."""

    output: str
    depends: tuple[Path, ...]
    digest: str


@dataclass(frozen=True)
class KeptPage:
    """What rendering a page produced under serve (see `ascend_dsa.site.page_cache`), keyed as it was rendered."""

    key: tuple[str, ...]
    depends: tuple[Path, ...]
    digest: str
    rendering: Any


@dataclass
class ServeSession:
    """What one ``mkdocs serve`` process keeps from build to build."""

    #: The digest of every watched input (docs, mkdocs.yml, ``watch:``) after the last build, or None before it.
    inputs_digest: str | None = None
    #: Each file of ``src/`` and its digest when the last build ended (what the modules in memory were read from).
    sources: dict[Path, str] = field(default_factory=dict)
    #: Each module's imports, by file, with the digest they were read at.
    parsed: dict[Path, Parsed] = field(default_factory=dict)
    #: Block outputs by the block's language, class, options and code.
    blocks: dict[tuple[str, ...], KeptBlock] = field(default_factory=dict)
    #: Page renderings by edition, source and destination.
    pages: dict[tuple[str, ...], KeptPage] = field(default_factory=dict)
    #: The page steps' results the last build used, by the digest of their inputs (`ascend_dsa.site.step_cache`).
    step_results: dict[str, object] = field(default_factory=dict)
    #: Whatever else a step keeps between builds, by the step's own key (each step owns its keys).
    kept: dict[str, Any] = field(default_factory=dict)


@dataclass
class Build:
    """One build of the site (both editions): its folders, limits, failures, the page at hand, and the session."""

    root: Path
    docs_dir: Path
    limits: Limits
    session: ServeSession | None
    execute: bool = True
    speedups: Speedups = field(default_factory=Speedups)
    digests: Digests = field(default_factory=Digests)
    failures: list[Failure] = field(default_factory=list)
    #: The edition being built.
    edition: Lang = "zh"
    #: The page being built, relative to the project ("docs/x.md"), or "" between pages.
    page: str = ""
    #: Under serve: the files the page being rendered depends on beyond its own source, or None.
    page_depends: set[Path] | None = None
    #: How many editions' builds are running (the second runs inside the first).
    depth: int = 0
    blocks_run: int = 0
    blocks_kept: int = 0
    pages_rendered: int = 0
    pages_kept: int = 0
    #: Whatever a step computes once for the whole build (both editions), by the step's own key.
    once: dict[object, Any] = field(default_factory=dict)
    #: Under ``mkdocs build``: the child computing the English edition's blocks and notebooks ahead, or None.
    prefetch: Prefetch | None = None
    _sources: SourceTree | None = None
    _steps: StepCache | None = None
    _reporter: Reporter | None = None

    @property
    def serving(self) -> bool:
        """Whether this build runs under ``mkdocs serve`` (failures then show in the pages, and it goes on)."""
        return self.session is not None

    @property
    def src(self) -> Path:
        """The package's source folder."""
        return self.root / "src"

    @property
    def sources(self) -> SourceTree:
        """The package's sources as this build sees them (read once)."""
        if self._sources is None:
            parsed = None if self.session is None else self.session.parsed
            self._sources = SourceTree(self.src, self.digests, parsed)
        return self._sources

    @property
    def steps(self) -> StepCache:
        """The page steps' results this build may reuse (under serve) and those it keeps for the next."""
        if self._steps is None:
            self._steps = StepCache(None if self.session is None else self.session.step_results)
        return self._steps

    @property
    def reporter(self) -> Reporter:
        """The reporter that counts and logs this build's failures."""
        if self._reporter is None:
            self._reporter = Reporter(self.root, self.failures)
        return self._reporter

    def record(
        self, page: str, where: str, error: BaseException, *, in_place: bool = False, fence_line: int = 0
    ) -> str:
        """Count and report a failure of ``page`` ("" for the site) at ``where``; the box that shows it.

        ``in_place``: the caller puts the box where the failure is (a block's output); else the page's article opens
        with it once the page is written. ``fence_line``: the page's line where the failing block's fence opens.
        """
        return self.reporter.record(Failure(page, where, error, self.edition, in_place, fence_line))

    def project_path(self, path: str | Path) -> str:
        """``path`` relative to the project's root, with forward slashes (as given if outside it)."""
        try:
            return Path(path).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return Path(path).as_posix()
