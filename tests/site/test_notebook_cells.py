"""hooks/notebook_cells.py runs a notebook's cells in-process with the outputs a Jupyter kernel would give."""

from __future__ import annotations

import nbformat

from tests.conftest import load_hook

CELLS = load_hook("notebook_cells")


def notebook(*sources: str) -> nbformat.NotebookNode:
    """A notebook with a heading and one code cell per source."""
    cells = [nbformat.v4.new_markdown_cell("# Title")]
    cells += [nbformat.v4.new_code_cell(source) for source in sources]
    return nbformat.v4.new_notebook(cells=cells)


def test_outputs_are_what_a_kernel_gives() -> None:
    """Prints become a stdout stream; the last expression's rich display an execute_result; cells share names."""
    nb = notebook(
        "from ascend_dsa import ASCEND_950, as_markdown\nprint(ASCEND_950.clock_hz / 1e6)",
        'as_markdown("| a |\\n|---|\\n| 1 |")',
        "{topk: 2 * topk for topk in (1, 2)}",
        "x = 3;",
        "x;",
    )
    assert CELLS.run_cells(nb, "demo.ipynb") is None
    printed, markdown, mapping, assignment, silenced = (c.outputs for c in nb.cells[1:])
    assert printed == [nbformat.v4.new_output("stream", name="stdout", text="1650.0\n")]
    assert markdown[0]["output_type"] == "execute_result"
    assert markdown[0]["data"]["text/markdown"] == "| a |\n|---|\n| 1 |"
    assert mapping[0]["data"] == {"text/plain": "{1: 2, 2: 4}"}
    assert assignment == []
    assert silenced == []
    assert [c.execution_count for c in nb.cells[1:]] == [1, 2, 3, 4, 5]
    nbformat.validate(nb)


def test_failing_cell_is_named_by_position_first_line_and_line() -> None:
    """The first failing cell stops the run; the failure gives its position among all cells, first line and line."""
    nb = notebook("a = 1", "\n# halve it\nb = a / 0\n", "print('not run')")
    failure = CELLS.run_cells(nb, "demo.ipynb")
    assert failure is not None
    assert isinstance(failure.error, ZeroDivisionError)
    assert failure.describe() == "cell 3, line 3 (`# halve it`)"
    assert nb.cells[3].outputs == []


def test_syntax_error_names_its_line() -> None:
    """A cell that does not parse fails at the line of the syntax error."""
    failure = CELLS.run_cells(notebook("x = 1\ny = (\n"), "demo.ipynb")
    assert failure is not None
    assert isinstance(failure.error, SyntaxError)
    assert failure.describe().startswith("cell 2, line ")
