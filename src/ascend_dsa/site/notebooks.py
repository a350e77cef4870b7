"""The what-if notebooks: their cells run in this process, their pages render as mkdocs-jupyter renders them.

- `run_cells` runs a notebook's code cells as a Jupyter kernel would and keeps their outputs: no kernel starts per
  notebook and edition, and the package is imported once for the whole build. A cell's outputs are what it prints
  (stdout, then stderr) and the display of its last expression, formatted by IPython's formatter (``_repr_markdown_``,
  ``_repr_svg_``, ... and ``text/plain``); a cell ending in ``;`` displays nothing. The first failing cell stops the
  run, as "Run all" does. Every cell runs under the build's limits (`ascend_dsa.site.limits`).
- `notebook_render` is the page's render: run the cells, show a failing cell's box under it, convert the result
  with mkdocs-jupyter's own converter and options.
- `rewrapped_notebooks` lets mkdocs-jupyter render the notebooks mkdocs-static-i18n placed per edition (it turns
  them back into plain files, which would be copied as raw JSON).
- `with_heading_ids` gives a notebook's headings the anchors its table of contents links to: nbconvert slugs
  headings to ASCII, so a Chinese heading got ``id=""``. A heading may end with an explicit anchor,
  ``## 起点 {#the-starting-point}`` (attr_list's syntax, which notebooks' Markdown lacks): it is taken off the
  heading, the table of contents and the title, and used as the id, so a Chinese heading's anchor is its English
  twin's.
"""

from __future__ import annotations

import ast
import html as html_lib
import io
import re
import tempfile
import traceback
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ascend_dsa.site.limits import Limits, TimeLimitExceeded, time_limit

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    import nbformat

#: A cell's first line is quoted in its failure's place up to this many characters.
FIRST_LINE_CHARS: Final = 60


@dataclass(frozen=True)
class CellFailure:
    """The cell that raised: its position (from 1, counting every cell), first line, the line that raised, the error."""

    index: int
    first_line: str
    line: int
    error: BaseException

    def describe(self) -> str:
        """Where it failed in a few words: ``cell 7, line 2 (`half_l2 = ...`)``."""
        at_line = f", line {self.line}" if self.line else ""
        return f"cell {self.index}{at_line} (`{self.first_line}`)"


def _first_line(source: str) -> str:
    """The cell's first non-blank line, shortened to `FIRST_LINE_CHARS` characters."""
    line = next((text.strip() for text in source.splitlines() if text.strip()), "")
    return line if len(line) <= FIRST_LINE_CHARS else line[: FIRST_LINE_CHARS - 3] + "..."


def _failing_line(error: BaseException, filename: str) -> int:
    """The line of the cell (from 1) where ``error`` was raised, or 0 if no frame is in the cell."""
    if isinstance(error, SyntaxError) and error.filename == filename:
        return error.lineno or 0
    lines = [frame.lineno or 0 for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename]
    return lines[-1] if lines else 0


def _streams(stdout: str, stderr: str) -> list[Any]:
    """Stream outputs for what the cell printed, stdout first."""
    import nbformat  # noqa: PLC0415 - loaded with the notebooks, not with the site

    return [
        nbformat.v4.new_output("stream", name=name, text=text)
        for name, text in (("stdout", stdout), ("stderr", stderr))
        if text
    ]


def _run_cell(source: str, filename: str, namespace: dict[str, Any]) -> tuple[Any, str, str]:
    """Execute ``source`` in ``namespace``; the last expression's value (None if there is none) and what it printed."""
    tree = ast.parse(source, filename)
    last = tree.body[-1] if tree.body else None
    shown = isinstance(last, ast.Expr) and not source.rstrip().endswith(";")
    if shown:
        tree.body.pop()
    stdout, stderr = io.StringIO(), io.StringIO()
    value = None
    with redirect_stdout(stdout), redirect_stderr(stderr):
        exec(compile(tree, filename, "exec"), namespace)  # noqa: S102 - running the notebook is the point
        if shown and isinstance(last, ast.Expr):
            expression = compile(ast.Expression(last.value), filename, "eval")
            value = eval(expression, namespace)  # noqa: S307 - the cell's last expression, as Jupyter shows it
    return value, stdout.getvalue(), stderr.getvalue()


def run_cells(notebook: nbformat.NotebookNode, filename: str, limits: Limits | None = None) -> CellFailure | None:
    """Run every code cell of ``notebook`` in order, filling its outputs; the first failing cell, or None.

    ``filename`` names the notebook in tracebacks. Outputs and execution counts already there are replaced. Each
    cell runs under ``limits`` (the defaults when None).
    """
    import nbformat  # noqa: PLC0415 - loaded with the notebooks, not with the site
    from IPython.core.formatters import DisplayFormatter  # noqa: PLC0415 - same

    limits = Limits() if limits is None else limits
    namespace: dict[str, Any] = {"__name__": "__main__"}
    formatter = DisplayFormatter()
    count = 0
    for index, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type != "code":
            continue
        count += 1
        cell.execution_count = count
        cell.outputs = []
        name = f"<{filename} cell {index}>"
        try:
            with time_limit(limits.time_s, f"{filename}: cell {index}"):
                value, stdout, stderr = _run_cell(cell.source, name, namespace)
            outputs = _streams(stdout, stderr)
            if value is not None:
                data, metadata = formatter.format(value)
                outputs.append(
                    nbformat.v4.new_output("execute_result", data=data, metadata=metadata, execution_count=count)
                )
            limits.check_output(repr(outputs), f"{filename}: cell {index}")
        except (Exception, TimeLimitExceeded) as error:  # noqa: BLE001 - any error of a cell is reported, naming it
            return CellFailure(index, _first_line(cell.source), _failing_line(error, name), error)
        cell.outputs = outputs
    return None


@dataclass(frozen=True)
class NotebookPage:
    """What rendering a notebook produced: its HTML, its table-of-contents tokens' source and its title."""

    content: str
    toc: Any
    title: str | None


def render_notebook(
    source: Path,
    name: str,
    options: dict[str, Any],
    limits: Limits,
    *,
    execute: bool,
    failed: Callable[[CellFailure], str],
) -> NotebookPage:
    """Run the notebook at ``source`` (``name`` in messages) if ``execute``, then convert it as mkdocs-jupyter does.

    ``options`` is mkdocs-jupyter's configuration; ``failed`` reports a failing cell and returns its box, which is
    shown as that cell's output.
    """
    import nbformat  # noqa: PLC0415 - loaded with the notebooks, not with the site
    from mkdocs_jupyter import convert  # type: ignore[import-untyped]  # noqa: PLC0415 - same
    from mkdocs_jupyter.plugin import get_nb_toc  # type: ignore[import-untyped]  # noqa: PLC0415 - same

    notebook = nbformat.read(source, as_version=4)
    if execute:
        failure = run_cells(notebook, name, limits)
        if failure is not None:
            notebook.cells[failure.index - 1].outputs.append(
                nbformat.v4.new_output("display_data", data={"text/html": failed(failure)})
            )
    with tempfile.TemporaryDirectory(prefix="ascend-dsa-notebook-") as directory:
        executed = Path(directory) / source.name
        nbformat.write(notebook, executed)
        content = convert.nb2html(
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
    toc, title = get_nb_toc(str(source), options["toc_depth"])
    return NotebookPage(str(content), toc, None if options["ignore_h1_titles"] else title)


def code_of(source: Path) -> str:
    """The code cells of the notebook at ``source``, joined (what its outputs depend on)."""
    import nbformat  # noqa: PLC0415 - loaded with the notebooks, not with the site

    notebook = nbformat.read(source, as_version=4)
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")


_HEADING: Final = re.compile(r'<h([1-6])([^>]*?)\sid="[^"]*"([^>]*)>(.*?)</h\1>', re.DOTALL)
_TAG: Final = re.compile(r"<[^>]+>")
#: An explicit anchor at the end of a heading's text: `` {#the-starting-point}``.
EXPLICIT_ID: Final = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")
#: The same inside a heading's HTML, before nbconvert's permalink.
_EXPLICIT_ID_IN_HTML: Final = re.compile(r"\s*\{#[A-Za-z][\w-]*\}(?=\s*(?:<a\s|$))")


def _toc_items(items: Iterable[Any]) -> list[Any]:
    flat = []
    for item in items:
        flat.append(item)
        flat.extend(_toc_items(item.children))
    return flat


def _text(inner: str) -> str:
    return html_lib.unescape(_TAG.sub("", inner)).replace("\u00b6", "").strip()


def without_explicit_id(title: str) -> str:
    """A heading's text without the explicit anchor it may end with."""
    return EXPLICIT_ID.sub("", title)


def with_heading_ids(html: str, toc: Iterable[Any]) -> str:
    """``html`` of a notebook page with each heading's id (and ¶ link) the anchor ``toc`` (changed in place) uses."""
    pending = _toc_items(toc)
    explicit = set()
    for item in pending:
        found = EXPLICIT_ID.search(item.title)
        if found:
            explicit.add(item.title.strip())
            item.id, item.title = found.group(1), without_explicit_id(item.title)

    def rename(match: re.Match[str]) -> str:
        level, before, after, inner = match.groups()
        if _text(inner) in explicit:
            inner = _EXPLICIT_ID_IN_HTML.sub("", inner)
        if not pending or pending[0].title.strip() != _text(inner):
            return match.group(0)
        anchor = pending.pop(0).id
        inner = re.sub(r'class="anchor-link" href="#[^"]*"', f'class="anchor-link" href="#{anchor}"', inner)
        return f'<h{level}{before} id="{anchor}"{after}>{inner}</h{level}>'

    return _HEADING.sub(rename, html)
