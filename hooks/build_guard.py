"""MkDocs hook: a failing block or notebook cell fails ``mkdocs build`` at any verbosity and shows in the page.

markdown-exec turns a block's exception into a WARNING, which ``--strict`` counts only when the log level lets it
through (not under ``-q``); mkdocs-jupyter stopped the build with a kernel's coloured traceback. This hook takes
both over:

- each failure (a markdown-exec block, or a notebook cell, which this hook runs in-process with
  hooks/notebook_cells.py instead of a Jupyter kernel) is one ERROR line naming the page file, the block id or the
  cell, the error's one-line message, the project file and line that raised it, and a file holding the full
  traceback (no ``-v`` needed); the traceback is also logged at DEBUG and folded into the page's box;
- the failing block's output (or the failing cell's) is an error box: the error, and for a ``FigureMismatch`` a
  table of what differs, its report line, ours and the report's;
- at the end of the build, after mkdocs-static-i18n has built every language, ``mkdocs build`` stops with one
  Abort counting the failures of all languages; ``mkdocs serve`` logs the count and keeps serving the pages with
  their boxes (rebuilds included: whether the process serves is kept in hooks/serve_state.py).

Under ``mkdocs serve`` only, a block that succeeded keeps its output for the next rebuilds, keyed by its code,
options and language and by a digest of ``src/``; the files it read outside ``src/`` (say, the pages an assumption
table links to) are digested too and must be unchanged. A block whose output has headings (markdown-exec adds them
to the page's table of contents) is not kept. ``mkdocs build`` keeps nothing and runs every block.
"""

from __future__ import annotations

import html
import logging
import re
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
from markdown_exec import ExecutionError, validator
from mkdocs.exceptions import Abort
from mkdocs.plugins import event_priority
from mkdocs.utils import CountHandler
from mkdocs_jupyter import convert
from mkdocs_jupyter.plugin import NotebookFile, get_nb_toc
from notebook_cells import run_cells
from package_imports import depends
from serve_state import STATE, begin_build, files_digest, recording_reads, watch_reads

from ascend_dsa.site.pages import error_box_words

#: The logger markdown-exec reports failed blocks on (its MkDocs plugin prefixes its loggers' names with this).
MARKDOWN_EXEC_LOGGER = "mkdocs.plugins.markdown_exec"
#: Our one-line failure reports. Outside the "mkdocs" logger, so --strict's counter does not abort the build of
#: one language before the others are built; the final Abort counts every language.
REPORT_LOGGER = "ascend_dsa.build_guard"
HANDLER_NAME = "ascend-dsa-build-guard"
#: Marks a superfences format function this hook has wrapped (the i18n plugin runs on_config once per language).
WRAPPED = "_build_guard_wrapped"
#: Output markdown-exec would add headings from to the page's table of contents: never taken from the cache.
HEADING = re.compile(r"<h[1-6][\s>]")
#: A failure's line quotes at most this much of the error's message (a FigureMismatch naming every row fits).
MESSAGE_CHARS = 2000

log = logging.getLogger("mkdocs.hooks.build_guard")
report = logging.getLogger(REPORT_LOGGER)
# jieba (the Chinese search index) prints its progress on a handler of its own, from the search plugin's on_config,
# before any hook's: under -q (MkDocs' level set before the hooks load), only errors show.
logging.getLogger("jieba").disabled = logging.getLogger("mkdocs").getEffectiveLevel() > logging.INFO


@dataclass(frozen=True)
class Failure:
    """One failure: the page file (relative to the project), where in it, and the error raised."""

    page: str
    where: str
    error: BaseException

    def message(self) -> str:
        """The error's type and its message on one line (at most ``MESSAGE_CHARS`` characters)."""
        text = " ".join(line.strip() for line in str(self.error).splitlines() if line.strip())
        if len(text) > MESSAGE_CHARS:
            text = text[: MESSAGE_CHARS - 3] + "..."
        return f"{type(self.error).__name__}: {text}" if text else type(self.error).__name__

    def raised_at(self) -> str:
        """``file:line`` of the innermost project file (not hooks/, not a library) the error passed through, or ""."""
        root = _STATE.root
        for frame in reversed(traceback.extract_tb(self.error.__traceback__)):
            path = Path(frame.filename)
            if not path.is_absolute() or root is None:
                continue
            try:
                relative = path.resolve().relative_to(root)
            except ValueError:
                continue
            if relative.parts and relative.parts[0] not in {"hooks", ".venv"} and "site-packages" not in relative.parts:
                return f"{relative.as_posix()}:{frame.lineno}"
        return ""

    def traceback_text(self) -> str:
        """The error's full traceback, as Python prints it."""
        return "".join(traceback.format_exception(self.error))

    def line(self, traceback_file: str = "") -> str:
        """One line naming the page file, the block or cell, the error, where it was raised, and its traceback file."""
        where = f"; raised at {self.raised_at()}" if self.raised_at() else ""
        full = f"; traceback in {traceback_file}" if traceback_file else ""
        return f"{self.page}: {self.where} failed: {self.message()}{where}{full}"


@dataclass
class _State:
    """What the hook keeps between the events of one build: the page being built, the failures of this build."""

    root: Path | None = None
    tracebacks: Path | None = None
    blocks_cached: int = 0
    blocks_run: int = 0
    run_notebooks: bool = False
    depth: int = 0
    page: str = ""
    caught: BaseException | None = None
    failures: list[Failure] = field(default_factory=list)


#: One build at a time per process (MkDocs builds pages one after another, languages one inside the other).
_STATE = _State()


def error_box(failure: Failure) -> str:
    """HTML for an admonition showing the failure; a ``FigureMismatch`` gets a row per differing figure."""
    title, *headings = error_box_words(failure.page)
    escape = html.escape
    parts = [
        '<div class="admonition failure build-guard-error">',
        f'<p class="admonition-title">{escape(title)}: {escape(type(failure.error).__name__)}</p>',
        f"<p><code>{escape(failure.page)}</code>, {escape(failure.where)}</p>",
    ]
    mismatches = getattr(failure.error, "mismatches", ())
    if mismatches:
        has_rule = any(m.rule for m in mismatches)
        shown = headings if has_rule else headings[:-1]
        parts.append("<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in shown) + "</tr></thead><tbody>")
        for m in mismatches:
            cells = (m.subject, m.citation, m.ours, m.theirs, m.rule)[: len(shown)]
            parts.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        parts.append("</tbody></table>")
    else:
        parts.append(f"<pre><code>{escape(str(failure.error).strip())}</code></pre>")
    if failure.error.__traceback__ is not None:
        parts.append(f"<details><summary>Traceback</summary><pre><code>{escape(failure.traceback_text())}</code></pre>")
        parts.append("</details>")
    parts.append("</div>")
    return "\n".join(parts)


def _write_traceback(failure: Failure) -> str:
    """Write the failure's traceback to a file of this process's traceback folder; the file's path ("" if none)."""
    if failure.error.__traceback__ is None:
        return ""
    if _STATE.tracebacks is None:
        _STATE.tracebacks = Path(tempfile.mkdtemp(prefix="ascend-dsa-tracebacks-"))
    name = re.sub(r"[^A-Za-z0-9.]+", "-", f"{failure.page} {failure.where}").strip("-")
    path = _STATE.tracebacks / f"{len(_STATE.failures)}-{name}.txt"
    path.write_text(f"{failure.line()}\n\n{failure.traceback_text()}", encoding="utf-8")
    return str(path)


def record(failure: Failure) -> str:
    """Count the failure, report it in one line, and return the error box that replaces the output."""
    _STATE.failures.append(failure)
    STATE.failures += 1
    log.debug("%s", failure.traceback_text())
    report.error(failure.line(_write_traceback(failure)))
    return error_box(failure)


class _BlockErrors(logging.Handler):
    """Takes markdown-exec's warning about a failed block off the log, keeping the exception being handled.

    markdown-exec logs the warning inside its ``except ExecutionError`` clause, so the exception (and the block's
    original error, its cause) is still current. Any other record goes on to MkDocs' handlers unchanged.
    """

    def emit(self, record: logging.LogRecord) -> None:
        """Keep a failed block's error for the block's wrapper; pass anything else on to the "mkdocs" logger."""
        error = sys.exc_info()[1]
        if isinstance(error, ExecutionError):
            _STATE.caught = error.__cause__ or error
            log.debug(record.getMessage())
            return
        parent = logging.getLogger("mkdocs")
        if parent.isEnabledFor(record.levelno):
            parent.handle(record)


def _install_handlers() -> None:
    """Route markdown-exec's log through ``_BlockErrors`` and our reports to MkDocs' console, once per process."""
    mkdocs_logger = logging.getLogger("mkdocs")
    source = logging.getLogger(MARKDOWN_EXEC_LOGGER)
    for handler in [h for h in source.handlers if h.get_name() == HANDLER_NAME]:
        source.removeHandler(handler)
    handler = _BlockErrors()
    handler.set_name(HANDLER_NAME)
    source.addHandler(handler)
    source.propagate = False
    # -q raises MkDocs' level to ERROR, which would drop the warning before any handler sees it.
    source.setLevel(min(logging.WARNING, mkdocs_logger.getEffectiveLevel()))
    report.handlers = [h for h in mkdocs_logger.handlers if not isinstance(h, CountHandler)]
    report.propagate = not report.handlers
    report.setLevel(logging.INFO)


def _outside_src(paths: list[Path]) -> list[Path]:
    """The project's files among ``paths`` that ``src/`` does not hold (its files are followed by their imports)."""
    root = _STATE.root
    if root is None:
        return []
    kept = set()
    for path in paths:
        resolved = (root / path).resolve()
        if resolved.is_file() and resolved.is_relative_to(root) and not resolved.is_relative_to(root / "src"):
            kept.add(resolved)
    return sorted(kept)


def _cached(key: tuple[str, ...]) -> str | None:
    """The output kept for ``key`` if the files the block depends on are unchanged, else None."""
    entry = STATE.blocks.get(key)
    if entry is None:
        return None
    output, paths, digest = entry
    if files_digest(list(paths)) != digest:
        return None
    if STATE.page_depends is not None:
        STATE.page_depends.update(paths)
    return output


def _depends_on(code: str, reads: list[Path], root: Path) -> tuple[Path, ...]:
    """What output from ``code`` depends on: the package modules it imports, and the other files it read."""
    return (*depends(code, root / "src"), *_outside_src(reads))


def _keep(key: tuple[str, ...], output: str, reads: list[Path], options: Any) -> None:  # noqa: ANN401
    """Keep a block's output with the files it depends on (the modules it imports, the files it read)."""
    root = _STATE.root
    if root is None:
        return
    # Blocks of one markdown-exec session share their names: any of them may use what another imported.
    code = "import ascend_dsa" if isinstance(options, dict) and options.get("session") else key[-1]
    paths = _depends_on(code, reads, root)
    if STATE.page_depends is not None:
        STATE.page_depends.update(paths)
    if not HEADING.search(output):
        STATE.blocks[key] = (output, paths, files_digest(list(paths)))


def guarded(format_function: Callable[..., str]) -> Callable[..., str]:
    """A superfences format function that returns an error box, and records the failure, when the block fails."""

    def guarded_format(source: str, language: str, css_class: str, options: Any, md: Any, **kwargs: Any) -> str:  # noqa: ANN401
        key = (language, css_class, repr(options), source) if STATE.serving else None
        if key is not None:
            cached = _cached(key)
            if cached is not None:
                _STATE.blocks_cached += 1
                return cached
            _STATE.blocks_run += 1
        _STATE.caught = None
        with recording_reads(active=key is not None) as reads:
            output = format_function(source, language, css_class, options, md, **kwargs)
        error, _STATE.caught = _STATE.caught, None
        if error is None:
            if key is not None:
                _keep(key, str(output), reads, options)
            return output
        block_id = options.get("id") if isinstance(options, dict) else ""
        where = f"block '{block_id}'" if block_id else f"a {language} block without id"
        return record(Failure(_STATE.page, where, error))

    setattr(guarded_format, WRAPPED, True)
    return guarded_format


def on_startup(command: str, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Remember whether this process serves the site (failures then show in the pages and do not stop it)."""
    STATE.serving = command == "serve"
    if STATE.serving:
        watch_reads()


def on_config(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Wrap markdown-exec's fences, catch its failure warnings, and take notebook execution from mkdocs-jupyter."""
    _install_handlers()
    _STATE.root = Path(config.get("config_file_path") or "mkdocs.yml").resolve().parent
    fences = config["mdx_configs"].get("pymdownx.superfences", {}).get("custom_fences", [])
    for fence in fences:
        if fence.get("validator") is validator and not getattr(fence["format"], WRAPPED, False):
            fence["format"] = guarded(fence["format"])
    jupyter = config["plugins"].get("mkdocs-jupyter")
    if jupyter is not None and _STATE.depth == 0:  # the outermost build decides; the others inherit
        _STATE.run_notebooks = bool(jupyter.config["execute"])
        jupyter.config["execute"] = False


def on_pre_build(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Start counting afresh for an outermost build (the other languages' builds run inside it)."""
    if _STATE.depth == 0:
        _STATE.failures.clear()
        begin_build()  # under serve, files may have changed since the digests were taken
    _STATE.depth += 1


def _project_path(path: str, config: Any) -> str:  # noqa: ANN401 - MkDocs' config
    """``path`` relative to the directory of mkdocs.yml, with forward slashes."""
    root = Path(config["config_file_path"] or ".").resolve().parent
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _render_notebook(page: Any, jupyter: Any) -> Callable[[Any, Any], None]:  # noqa: ANN401 - MkDocs' objects
    """A ``page.render`` that runs the notebook's cells in-process, then converts it as mkdocs-jupyter does."""
    options = jupyter.config
    source = page.file.abs_src_path
    name = _STATE.page

    def render(config: Any, files: Any) -> None:  # noqa: ANN401, ARG001 - Page.render's signature
        notebook = nbformat.read(source, as_version=4)
        with recording_reads(active=STATE.page_depends is not None) as reads:
            failure = run_cells(notebook, name)
        if STATE.page_depends is not None and _STATE.root is not None:
            code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
            STATE.page_depends.update(_depends_on(code, reads, _STATE.root))
        if failure is not None:
            box = record(Failure(name, failure.describe(), failure.error))
            notebook.cells[failure.index - 1].outputs.append(
                nbformat.v4.new_output("display_data", data={"text/html": box})
            )
        with tempfile.TemporaryDirectory(prefix="build-guard-") as directory:
            executed = Path(directory) / Path(source).name
            nbformat.write(notebook, executed)
            page.content = convert.nb2html(
                str(executed),
                execute=False,
                kernel_name=options["kernel_name"],
                theme=options["theme"],
                allow_errors=True,
                show_input=options["show_input"],
                no_input=options["no_input"],
                no_prompt=options["no_prompt"],
                remove_tag_config=options["remove_tag_config"],
                highlight_extra_classes=options["highlight_extra_classes"],
                include_requirejs=options["include_requirejs"],
                custom_mathjax_url=options["custom_mathjax_url"],
            )
        page.toc, title = get_nb_toc(source, options["toc_depth"])
        if title is not None and not options["ignore_h1_titles"]:
            page.title = title

    return render


@event_priority(-50)  # after mkdocs-jupyter has set the notebook's page up
def on_pre_page(page: Any, config: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Note the page being built; for a notebook to execute, render it by running its cells in-process."""
    _STATE.page = _project_path(page.file.abs_src_path, config)
    jupyter = config["plugins"].get("mkdocs-jupyter")
    if _STATE.run_notebooks and jupyter is not None and isinstance(page.file, NotebookFile):
        ignored = any(Path(page.file.abs_src_path).match(p) for p in jupyter.config["execute_ignore"])
        if not ignored:
            page.render = _render_notebook(page, jupyter)
    return page


def summary(failures: list[Failure]) -> str:
    """One line counting the failures and the page files they are in."""
    pages = sorted({f.page for f in failures})
    return f"{len(failures)} failing block(s) or notebook cell(s) in {len(pages)} page file(s): {', '.join(pages)}"


@event_priority(-150)  # after mkdocs-static-i18n has built the other languages (its on_post_build, at -100)
def on_post_build(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """After the outermost build: stop ``mkdocs build`` if anything failed; under ``serve`` only report it."""
    _STATE.depth = max(_STATE.depth - 1, 0)
    if _STATE.depth == 0 and STATE.serving:
        log.info("Blocks: %d run, %d from the cache of earlier builds", _STATE.blocks_run, _STATE.blocks_cached)
        _STATE.blocks_run = _STATE.blocks_cached = 0
    if _STATE.depth or not _STATE.failures:
        return
    failures = list(_STATE.failures)
    _STATE.failures.clear()
    if STATE.serving:
        report.error("%s; the pages show them in error boxes", summary(failures))
        return
    raise Abort(f"Aborted: {summary(failures)}")


def on_build_error(error: Exception, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Forget the failed build's state, so that the next build (``serve`` rebuilds) starts clean."""
    _STATE.depth = 0
    _STATE.failures.clear()
