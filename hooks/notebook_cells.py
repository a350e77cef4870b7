"""Run a notebook's code cells in this process, as a Jupyter kernel would, and keep their outputs.

The site build runs the what-if notebooks here rather than in a kernel: no kernel starts per notebook and language,
and the package is imported once for the whole build. A cell's outputs are what it prints (stdout, then stderr) and
the display of its last expression, formatted by IPython's formatter as the kernel formats it (``_repr_markdown_``,
``_repr_svg_``, ..., and ``text/plain``); a cell ending in ``;`` displays nothing. The first failing cell stops the
run, as "Run all" does. Cells share one namespace per notebook; nothing else is shared with the build.

Not a hook itself: hooks/build_guard.py imports it (MkDocs puts hooks/ on the path while it loads a hook).
"""

from __future__ import annotations

import ast
import io
import traceback
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import Any

import nbformat
from IPython.core.formatters import DisplayFormatter


@dataclass(frozen=True)
class CellFailure:
    """The cell that raised: its position (from 1, counting every cell), first line, the line that raised, the error."""

    index: int
    first_line: str
    line: int
    error: Exception

    def describe(self) -> str:
        """Where it failed in a few words: ``cell 7, line 2 (`half_l2 = ...`)``."""
        at_line = f", line {self.line}" if self.line else ""
        return f"cell {self.index}{at_line} (`{self.first_line}`)"


def _first_line(source: str) -> str:
    """The cell's first non-blank line, shortened to 60 characters."""
    line = next((text.strip() for text in source.splitlines() if text.strip()), "")
    return line if len(line) <= 60 else line[:57] + "..."  # noqa: PLR2004 - the length of a short quote


def _failing_line(error: BaseException, filename: str) -> int:
    """The line of the cell (from 1) where ``error`` was raised, or 0 if no frame is in the cell."""
    if isinstance(error, SyntaxError) and error.filename == filename:
        return error.lineno or 0
    lines = [frame.lineno or 0 for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename]
    return lines[-1] if lines else 0


def _streams(stdout: str, stderr: str) -> list[Any]:
    """Stream outputs for what the cell printed, stdout first."""
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


def run_cells(notebook: nbformat.NotebookNode, filename: str) -> CellFailure | None:
    """Run every code cell of ``notebook`` in order, filling its outputs; the first failing cell, or None.

    ``filename`` names the notebook in tracebacks. Outputs and execution counts already in the notebook are replaced.
    """
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
            value, stdout, stderr = _run_cell(cell.source, name, namespace)
        except Exception as error:  # noqa: BLE001 - any error of a cell is reported, naming the cell
            return CellFailure(index, _first_line(cell.source), _failing_line(error, name), error)
        cell.outputs = _streams(stdout, stderr)
        if value is not None:
            data, metadata = formatter.format(value)
            cell.outputs.append(
                nbformat.v4.new_output("execute_result", data=data, metadata=metadata, execution_count=count)
            )
    return None
