"""ascend_dsa.site.notebooks: the what-if notebooks' cells run in-process, their pages' headings keep their anchors."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import nbformat
from mkdocs_jupyter.plugin import Plugin

from ascend_dsa.site import notebooks
from ascend_dsa.site.limits import Limits, OutputLimitExceeded, TimeLimitExceeded
from tests.helpers.project import ROOT


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
    assert notebooks.run_cells(nb, "demo.ipynb") is None
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
    failure = notebooks.run_cells(nb, "demo.ipynb")
    assert failure is not None
    assert isinstance(failure.error, ZeroDivisionError)
    assert failure.describe() == "cell 3, line 3 (`# halve it`)"
    assert nb.cells[3].outputs == []


def test_syntax_error_names_its_line() -> None:
    """A cell that does not parse fails at the line of the syntax error."""
    failure = notebooks.run_cells(notebook("x = 1\ny = (\n"), "demo.ipynb")
    assert failure is not None
    assert isinstance(failure.error, SyntaxError)
    assert failure.describe().startswith("cell 2, line ")


def test_a_cell_that_never_ends_is_stopped_at_the_time_limit() -> None:
    """A cell looping forever is interrupted after the limit, and named as the failing cell."""
    failure = notebooks.run_cells(notebook("while True:\n    pass\n"), "demo.ipynb", Limits(time_s=0.2))
    assert failure is not None
    assert isinstance(failure.error, TimeLimitExceeded)
    assert "0.2 s" in str(failure.error)
    assert failure.index == 2


def test_a_cell_printing_too_much_is_a_failure() -> None:
    """A cell whose output is over the size limit fails, saying how large it was and the limit."""
    failure = notebooks.run_cells(notebook("print('x' * 5000)"), "demo.ipynb", Limits(output_bytes=1000))
    assert failure is not None
    assert isinstance(failure.error, OutputLimitExceeded)
    assert "over the limit of 1000 bytes" in str(failure.error)


def test_a_notebook_page_renders_with_a_failing_cells_box(tmp_path: Path) -> None:
    """The render runs the cells, puts the failing cell's box under it, and converts as mkdocs-jupyter does."""
    source = tmp_path / "demo.ipynb"
    nbformat.write(notebook("print('ran')", "1 / 0"), source)
    plugin = Plugin()
    plugin.load_config({})
    failures = []

    def failed(failure: notebooks.CellFailure) -> str:
        failures.append(failure)
        return '<div class="the-box">box</div>'

    page = notebooks.render_notebook(
        source, "docs/demo.ipynb", dict(plugin.config), Limits(), execute=True, failed=failed
    )
    assert "ran" in page.content
    assert '<div class="the-box">box</div>' in page.content
    assert [f.describe() for f in failures] == ["cell 3, line 1 (`1 / 0`)"]
    assert page.title == "Title"


def test_heading_ids_follow_the_table_of_contents_and_explicit_anchors() -> None:
    """A Chinese heading written with {#anchor} gets that anchor, in the HTML, its ¶ link and the toc."""
    html = (
        '<h2 id="">起点 {#the-start}<a class="anchor-link" href="#">¶</a></h2>'
        '<h2 id="x">Plain<a class="anchor-link" href="#x">¶</a></h2>'
    )
    toc = [
        SimpleNamespace(title="起点 {#the-start}", id="_1", children=[]),
        SimpleNamespace(title="Plain", id="plain", children=[]),
    ]
    out = notebooks.with_heading_ids(html, toc)
    assert '<h2 id="the-start">起点<a class="anchor-link" href="#the-start">¶</a></h2>' in out
    assert '<h2 id="plain">' in out
    assert [(t.title, t.id) for t in toc] == [("起点", "the-start"), ("Plain", "plain")]
    assert notebooks.without_explicit_id("如果 {#what-if}") == "如果"


def test_the_what_if_notebooks_code_is_read_for_its_dependencies() -> None:
    """What a notebook's outputs depend on is its code cells, joined."""
    code = notebooks.code_of(ROOT / "docs" / "design" / "what-if.ipynb")
    assert "from ascend_dsa import" in code
    assert "#" not in code.split("\n", 1)[0]  # code, not a markdown heading
