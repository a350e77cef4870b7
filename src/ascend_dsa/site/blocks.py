"""The page's code blocks (markdown-exec's fences): each runs under the build's limits, and a failure shows in place.

markdown-exec turns a block's exception into a WARNING, which ``--strict`` counts only when the log level lets it
through (not under ``-q``), and leaves the traceback in the page. Here each executed fence's format function is
wrapped (`guard_fences`, on the fence table markdown-exec puts in the configuration):

- markdown-exec's warning about a failed block is taken off its logger while the block's exception is still being
  handled (`BlockErrors`), and the build's failure count gets it instead, with one line naming the page, the block
  and the project line that raised (`ascend_dsa.site.failures`);
- the block runs under the time limit and its output under the size limit (`ascend_dsa.site.limits`);
- the failing block's place shows the failure's box; the build goes on to the other blocks and pages.

Under ``mkdocs serve`` a block that succeeded keeps its output for the next builds while the files it depends on
keep their digests: the package modules its code imports (`ascend_dsa.site.sources`), and the page sources when it
reads them. A block whose output has headings (markdown-exec adds them to the page's table of contents) is run
every time.
"""

from __future__ import annotations

import html
import logging
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ascend_dsa.render.fences import fences
from ascend_dsa.site.limits import TimeLimitExceeded, time_limit
from ascend_dsa.site.prefetch import runs_alone
from ascend_dsa.site.sources import with_docs
from ascend_dsa.site.state import KeptBlock

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from ascend_dsa.site.state import Build

#: The logger markdown-exec reports failed blocks on (its MkDocs plugin prefixes its loggers' names with this).
MARKDOWN_EXEC_LOGGER: Final = "mkdocs.plugins.markdown_exec"
#: Marks a format function already wrapped (markdown-exec adds its fences again for the second edition's build).
WRAPPED: Final = "_ascend_dsa_guarded"
#: Output markdown-exec would add headings from to the page's table of contents: never taken from the cache.
HEADING: Final = re.compile(r"<h[1-6][\s>]")

Format = Callable[..., str]


class BlockErrors(logging.Handler):
    """Takes markdown-exec's warning about a failed block off the log, keeping the exception being handled.

    markdown-exec logs the warning inside its ``except ExecutionError`` clause, so the exception (and the block's
    own error, its cause) is still current. Any other record goes on to the "mkdocs" logger unchanged.
    """

    def __init__(self) -> None:
        """A handler that has caught nothing yet."""
        super().__init__(logging.DEBUG)
        self.caught: BaseException | None = None

    def emit(self, record: logging.LogRecord) -> None:
        """Keep a failed block's error; pass anything else on."""
        from markdown_exec import ExecutionError  # noqa: PLC0415 - markdown-exec is there whenever this runs

        error = sys.exc_info()[1]
        if isinstance(error, ExecutionError):
            self.caught = error.__cause__ or error
            return
        parent = logging.getLogger("mkdocs")
        if parent.isEnabledFor(record.levelno):
            parent.handle(record)


class catching_block_errors:  # noqa: N801 - used as a context manager, named like one
    """Route markdown-exec's log through a `BlockErrors` handler while the ``with`` block runs (one build)."""

    def __init__(self) -> None:
        """Not yet routed."""
        self.handler = BlockErrors()
        self._saved: tuple[bool, int] | None = None

    def __enter__(self) -> BlockErrors:
        """Install the handler; -q would drop the warning before any handler sees it, so lower the level too."""
        source = logging.getLogger(MARKDOWN_EXEC_LOGGER)
        self._saved = (source.propagate, source.level)
        source.addHandler(self.handler)
        source.propagate = False
        source.setLevel(min(logging.WARNING, logging.getLogger("mkdocs").getEffectiveLevel()))
        return self.handler

    def __exit__(self, *exc: object) -> None:
        """Put markdown-exec's logger back as it was."""
        source = logging.getLogger(MARKDOWN_EXEC_LOGGER)
        source.removeHandler(self.handler)
        if self._saved is not None:
            source.propagate, level = self._saved
            source.setLevel(level)


def guard_fences(mdx_configs: dict[str, Any], build: Build, errors: BlockErrors) -> int:
    """Wrap every markdown-exec fence of the configuration so that it runs guarded; how many were wrapped."""
    from markdown_exec import validator  # noqa: PLC0415 - markdown-exec is there whenever this runs

    wrapped = 0
    for fence in mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", []):
        if fence.get("validator") is validator and not getattr(fence["format"], WRAPPED, False):
            fence["format"] = guarded(fence["format"], build, errors)
            wrapped += 1
    return wrapped


def block_place(options: object, language: str) -> str:
    """How a failure names the block: ``block 'id'``, or the language of a block without an id."""
    block_id = options.get("id") if isinstance(options, dict) else ""
    return f"block '{block_id}'" if block_id else f"a {language} block without id"


def fence_line(page_text: str, source: str, options: object) -> int:
    """The line (from 1) of ``page_text`` where the fence of the block ``source`` opens; 0 if it cannot be told.

    The block is found by its id, or without one by its code; a block found twice is not told.
    """
    block_id = options.get("id") if isinstance(options, dict) else None
    found = [f for f in fences(page_text) if (f.block_id == block_id if block_id else f.code.strip() == source.strip())]
    return page_text.count("\n", 0, found[0].start) + 1 if len(found) == 1 else 0


def _failed(build: Build, where: str, error: BaseException, source: str, options: object) -> str:
    """Record the failure of the block ``source`` at its fence's line in the page being built; its box."""
    try:
        line = fence_line((build.root / build.page).read_text(encoding="utf-8"), source, options)
    except (OSError, UnicodeDecodeError):  # a page whose file went away while it was rendered
        line = 0
    return build.record(build.page, where, error, in_place=True, fence_line=line)


def guarded(format_function: Format, build: Build, errors: BlockErrors) -> Format:
    """A superfences format function that runs the block under the build's limits and shows a failure in place."""

    def guarded_format(source: str, language: str, css_class: str, options: Any, md: Any, **kwargs: Any) -> str:  # noqa: ANN401 - superfences' signature
        key = (build.edition, language, css_class, repr(options), source)
        kept = _kept(build, key)
        if kept is not None:
            build.blocks_kept += 1
            return kept
        build.blocks_run += 1
        where = block_place(options, language)
        printed = _ahead(build, language, options, source)
        # Computed ahead: markdown-exec runs a line printing that text instead, and shows it as it would have.
        code = source if printed is None else f"print({printed!r}, end='')"
        errors.caught = None
        try:
            with time_limit(build.limits.time_s, f"{build.page}: {where}"):
                output = str(format_function(code, language, css_class, options, md, **kwargs))
            build.limits.check_output(output, f"{build.page}: {where}")
        except (Exception, TimeLimitExceeded) as error:  # noqa: BLE001 - any failure of a block shows in its place
            errors.caught = None
            return _failed(build, where, error, source, options)
        caught, errors.caught = errors.caught, None
        if caught is not None:
            return _failed(build, where, caught, source, options)
        _keep(build, key, output, source, options)
        return output

    setattr(guarded_format, WRAPPED, True)
    return guarded_format


def _ahead(build: Build, language: str, options: object, source: str) -> str | None:
    """What the block printed when the child computing the English edition ahead ran it, if it did (build only)."""
    if build.prefetch is None or build.edition != "en" or not isinstance(options, dict):
        return None
    if not runs_alone(language, options):
        return None
    return build.prefetch.ahead().blocks.get((build.page, source))


def _kept(build: Build, key: tuple[str, ...]) -> str | None:
    """Under serve, the output kept for ``key`` if the files the block depends on are unchanged."""
    if build.session is None:
        return None
    entry = build.session.blocks.get(key)
    if entry is None or build.digests.of(entry.depends) != entry.digest:
        return None
    if build.page_depends is not None:
        build.page_depends.update(entry.depends)
    return entry.output


def code_depends(build: Build, code: str) -> tuple[Path, ...]:
    """The files output from ``code`` depends on: the package files it reaches (and the pages, if it reads them)."""
    return with_docs(build.sources.depends(code), build.docs_dir, build.digests)


def _keep(build: Build, key: tuple[str, ...], output: str, source: str, options: object) -> None:
    """Under serve, keep a block's output with the files it depends on."""
    if build.session is None:
        return
    # Blocks of one markdown-exec session share their names: any of them may use what another imported.
    code = "import ascend_dsa" if isinstance(options, dict) and options.get("session") else source
    depends = code_depends(build, code)
    if build.page_depends is not None:
        build.page_depends.update(depends)
    if not HEADING.search(output):
        build.session.blocks[key] = KeptBlock(output, depends, build.digests.of(depends))


def iter_fences(mdx_configs: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The custom fences of the configuration."""
    yield from mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", [])


def show_source(source: str, language: str, *args: Any, **kwargs: Any) -> str:  # noqa: ANN401 - superfences' signature
    """A block shown as its escaped source, not run: the format function of the build's floor (no page code runs)."""
    del args, kwargs
    return f'<pre><code class="language-{html.escape(language)}">{html.escape(source)}</code></pre>'


def run_nothing(mdx_configs: dict[str, Any]) -> None:
    """Make every markdown-exec fence show its source instead of running it."""
    from markdown_exec import validator  # noqa: PLC0415 - markdown-exec is there whenever this runs

    for fence in iter_fences(mdx_configs):
        if fence.get("validator") is validator:
            fence["format"] = show_source
