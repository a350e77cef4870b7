"""hooks/build_guard.py: any failing block or notebook cell fails the build at any verbosity, and shows in the page."""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest
from markdown_exec import ExecutionError, validator
from mkdocs.exceptions import Abort

from ascend_dsa.errors import FigureMismatch, Mismatch
from tests.conftest import load_hook, mkdocs_serve, wait_for_text

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.conftest import ProjectCopy

#: A logger below the one markdown-exec's MkDocs plugin gives its modules.
BLOCK_LOGGER = "mkdocs.plugins.markdown_exec._internal.formatters.base"
MISMATCH = FigureMismatch(
    "1 claim(s) differ from the report: claim x ...",
    [Mismatch("claim head-roofline-line-108", "report (zh) line 108", "(8192, 6921)", "(8192, 6922)", "exact")],
)


@pytest.fixture
def guard() -> Iterator[ModuleType]:
    """A fresh hooks/build_guard.py; the loggers it reconfigures are restored afterwards."""
    loggers = [logging.getLogger(name) for name in ("mkdocs.plugins.markdown_exec", "ascend_dsa.build_guard")]
    saved = [(lg.handlers[:], lg.propagate, lg.level) for lg in loggers]
    hook = load_hook("build_guard")
    yield hook
    hook.STATE.serving = False  # hooks/serve_state.py outlives the test: the next one starts as a build
    hook.STATE.blocks.clear()
    for logger, (handlers, propagate, level) in zip(loggers, saved, strict=True):
        logger.handlers[:] = handlers
        logger.propagate = propagate
        logger.setLevel(level)


def markdown_exec_like(error: Exception) -> Any:  # noqa: ANN401 - a superfences format function
    """A format function that fails as markdown-exec does: it logs a warning while handling ExecutionError."""

    def fail() -> None:
        raise error

    def run_block() -> None:
        try:
            fail()
        except Exception as cause:
            raise ExecutionError("<pre>traceback</pre>") from cause

    def format_block(*_: object, **__: object) -> str:
        try:
            run_block()
        except ExecutionError:
            logging.getLogger(BLOCK_LOGGER).warning("Execution of python code block exited with errors")
        return "<pre>traceback</pre>"

    return format_block


def configured(guard: ModuleType, error: Exception) -> Any:  # noqa: ANN401 - the wrapped format function
    """Run the hook's on_config on a config whose one markdown-exec fence fails with ``error``; its format function."""
    fence = {"name": "python", "validator": validator, "format": markdown_exec_like(error)}
    config = {"mdx_configs": {"pymdownx.superfences": {"custom_fences": [fence]}}, "plugins": {}}
    guard.on_config(config)
    guard.on_config(config)  # the i18n plugin runs it again for the English build: no second wrapper
    return fence["format"]


def test_error_box_shows_claim_report_line_ours_and_theirs(guard: ModuleType) -> None:
    """A FigureMismatch's box is an admonition with one row per differing figure: what, report line, ours, theirs."""
    box = guard.error_box(guard.Failure("docs/discussion/heads-per-core.en.md", "block 'heads-per-core-fp8'", MISMATCH))
    assert box.startswith('<div class="admonition failure build-guard-error">')
    assert "docs/discussion/heads-per-core.en.md" in box
    assert "<th>ours</th><th>report</th>" in box
    row = "<td>claim head-roofline-line-108</td><td>report (zh) line 108</td><td>(8192, 6921)</td><td>(8192, 6922)</td>"
    assert row in box
    zh_box = guard.error_box(guard.Failure("docs/x.md", "block 'b'", ValueError("a < b")))
    assert "我们的值" not in zh_box  # no table without structured fields: the escaped message instead
    assert "a &lt; b" in zh_box
    assert "构建时检查失败" in zh_box


def test_failing_block_is_counted_and_the_build_aborts_at_the_end(guard: ModuleType) -> None:
    """Each failing block is recorded with its page file; the outermost build's end aborts with the total count."""
    format_block = configured(guard, MISMATCH)
    guard.on_startup(command="build")
    guard.on_pre_build({})
    guard.on_pre_page(_page("docs/a.md"), config={"config_file_path": "mkdocs.yml", "plugins": {}})
    html = format_block("print(1)", "python", "python", {"id": "fp8"}, None)
    assert "build-guard-error" in html
    assert "<td>(8192, 6922)</td>" in html
    guard.on_pre_build({})  # the English build, inside the Chinese one's on_post_build
    guard.on_pre_page(_page("docs/a.en.md"), config={"config_file_path": "mkdocs.yml", "plugins": {}})
    format_block("print(1)", "python", "python", {"id": "fp8"}, None)
    guard.on_post_build({})  # the English build ends: nothing raised yet
    with pytest.raises(Abort, match=r"2 failing block\(s\) or notebook cell\(s\) in 2 page file\(s\): docs/a\.en\.md"):
        guard.on_post_build({})
    assert [f.line() for f in guard._STATE.failures] == []  # noqa: SLF001 - the next build starts clean


def test_serve_shows_the_box_and_keeps_serving(guard: ModuleType, caplog: pytest.LogCaptureFixture) -> None:
    """Under `mkdocs serve` a failing block still renders as the box, and the end of the build raises nothing."""
    format_block = configured(guard, MISMATCH)
    guard.on_startup(command="serve")
    guard.on_pre_build({})
    guard.on_pre_page(_page("docs/a.md"), config={"config_file_path": "mkdocs.yml", "plugins": {}})
    html = format_block("print(1)", "python", "python", {"id": "fp8"}, None)
    with caplog.at_level(logging.INFO, logger="ascend_dsa.build_guard"):
        guard.on_post_build({})
    assert "<td>report (zh) line 108</td>" in html
    assert "1 failing block(s)" in caplog.text


def test_block_that_passes_is_left_alone(guard: ModuleType) -> None:
    """A block that does not fail keeps its output and counts nothing."""
    fence = {"name": "python", "validator": validator, "format": lambda *_, **__: "<p>6920.6</p>"}
    guard.on_config({"mdx_configs": {"pymdownx.superfences": {"custom_fences": [fence]}}, "plugins": {}})
    guard.on_startup(command="build")
    guard.on_pre_build({})
    assert fence["format"]("print(1)", "python", "python", {"id": "ok"}, None) == "<p>6920.6</p>"
    guard.on_post_build({})


def _page(path: str) -> Any:  # noqa: ANN401 - a stand-in for MkDocs' Page
    """A stand-in page whose source file is ``path`` (relative to the working directory, like mkdocs.yml)."""
    file = type("File", (), {"abs_src_path": os.path.abspath(path)})()  # noqa: PTH100 - as MkDocs stores it
    return type("Page", (), {"file": file})()


#: At least: a block on heads-per-core and one on the claims ledger per language (both check row 108), one cell.
QUIET_BUILD_FAILURES = 5


@pytest.mark.build
def test_quiet_strict_build_fails_naming_every_failure(project_copy: ProjectCopy) -> None:
    """`mkdocs build --strict -q` of a copy with a mismatched figure and a failing notebook cell exits 1.

    Each failure is one line naming the page file (zh and en), the block or the notebook cell; the final count
    covers both languages; no traceback and no colour codes.
    """
    project_copy.replace("src/ascend_dsa/facts/report_figures.py", "mem_cycles=  6921", "mem_cycles=  6922")
    notebook_path = project_copy.root / "docs/design/what-if.en.ipynb"
    notebook = json.loads(notebook_path.read_text(encoding="utf-8"))
    notebook["cells"][-1] = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    notebook["cells"][-1]["source"] = ["total = 1\n", "total / 0\n"]
    notebook_path.write_text(json.dumps(notebook), encoding="utf-8")
    result = project_copy.build(extra_args=("-q",))
    output = result.output
    assert result.returncode == 1, output[-3000:]
    errors = [line for line in output.splitlines() if line.startswith("ERROR")]
    failing_pages = {line.split()[2].rstrip(":") for line in errors}
    assert {"docs/discussion/heads-per-core.md", "docs/discussion/heads-per-core.en.md"} <= failing_pages
    assert "docs/design/what-if.en.ipynb" in failing_pages
    cells = len(notebook["cells"])
    assert f"docs/design/what-if.en.ipynb: cell {cells}, line 2 (`total = 1`) failed: ZeroDivisionError" in output
    assert f"Aborted: {len(errors)} failing block(s)" in output
    assert len(errors) >= QUIET_BUILD_FAILURES
    assert "report (zh) line 108" in output
    assert "Traceback" not in output
    assert "\x1b[" not in output
    assert "prefix dict" not in output  # jieba's progress lines: -q prints errors only


@pytest.mark.build
def test_serve_renders_a_mismatch_as_an_error_box(project_copy: ProjectCopy) -> None:
    """`mkdocs serve` of a copy with a mismatched figure serves the page, with the claim's row in an error box."""
    project_copy.replace("src/ascend_dsa/facts/report_figures.py", "mem_cycles=  6921", "mem_cycles=  6922").lean()
    with mkdocs_serve(project_copy.root, "--no-livereload") as (base, server):
        page = wait_for_text(f"{base}discussion/heads-per-core/", "build-guard-error", timeout_s=240)
        assert "<td>report (zh) line 108</td>" in page
        assert "docs/discussion/heads-per-core.md" in page
        assert server.poll() is None  # still serving


@pytest.mark.build
def test_serve_shows_an_unknown_prose_marker_in_a_box(project_copy: ProjectCopy) -> None:
    """`mkdocs serve` of a page with `{{ no_such_value }}`: the page has an error box, and every page is served."""
    project_copy.append("docs/pipeline.md", "\n\n{{ no_such_value }}\n").lean()
    with mkdocs_serve(project_copy.root, "--no-livereload") as (base, server):
        page = wait_for_text(f"{base}pipeline/", "build-guard-error", timeout_s=240)
        assert "no_such_value" in page
        assert "docs/pipeline.md" in page
        other = wait_for_text(f"{base}discussion/heads-per-core/", "</html>", timeout_s=30)
        assert "build-guard-error" not in other
        assert server.poll() is None  # still serving


def test_failure_line_is_one_line_naming_page_and_block(guard: ModuleType) -> None:
    """A failure is reported on one line: page file, block, error type and its whole message, newlines folded."""
    failure = guard.Failure("docs/pipeline.en.md", "block 'pipeline-gantt'", ValueError("first\n  second\n"))
    assert failure.line() == "docs/pipeline.en.md: block 'pipeline-gantt' failed: ValueError: first second"


def test_a_render_exception_names_the_python_file_and_line(
    guard: ModuleType, project_root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The one line names page, block, the project file and line that raised, and a file with the traceback."""
    from ascend_dsa.validate import require_instance  # noqa: PLC0415

    guard.on_config({"config_file_path": str(project_root / "mkdocs.yml"), "mdx_configs": {}, "plugins": {}})
    try:
        require_instance("spec", "not a spec", int)
    except TypeError as raised:
        error = raised
    failure = guard.Failure("docs/pipeline.en.md", "block 'pipeline-gantt'", error)
    line = failure.line("tracebacks/x.txt")
    assert line.startswith("docs/pipeline.en.md: block 'pipeline-gantt' failed: TypeError: ")
    assert re.search(r"; raised at src/ascend_dsa/validate\.py:\d+; traceback in tracebacks/x\.txt$", line), line
    with caplog.at_level(logging.ERROR, logger="ascend_dsa.build_guard"):
        box = guard.record(failure)
    guard._STATE.failures.clear()  # noqa: SLF001 - the next test starts clean
    assert "<details><summary>Traceback</summary>" in box
    [reported] = [r.getMessage() for r in caplog.records if r.name == "ascend_dsa.build_guard"]
    [written] = re.findall(r"traceback in (\S+\.txt)$", reported)
    assert "Traceback (most recent call last)" in Path(written).read_text(encoding="utf-8")


def test_guard_is_listed_after_the_execution_switch(project_root: Path) -> None:
    """The floor build runs no notebook: the guard reads mkdocs-jupyter's execute after the switch has set it."""
    config = (project_root / "mkdocs.yml").read_text(encoding="utf-8")
    assert config.index("- hooks/execution_switch.py") < config.index("- hooks/build_guard.py")
