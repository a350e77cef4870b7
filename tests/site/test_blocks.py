"""ascend_dsa.site.blocks: every page code block runs under the limits, a failure shows in its place and is counted."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from markdown_exec import ExecutionError, formatter, validator

from ascend_dsa.errors import FigureMismatch, Mismatch
from ascend_dsa.site import blocks
from ascend_dsa.site.failures import BOX_CLASS
from ascend_dsa.site.limits import Limits
from ascend_dsa.site.state import Build, ServeSession
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: A logger below the one markdown-exec's MkDocs plugin gives its modules.
BLOCK_LOGGER = "mkdocs.plugins.markdown_exec._internal.formatters.base"
MISMATCH = FigureMismatch(
    "1 claim(s) differ from the report: claim x ...",
    [Mismatch("claim head-roofline-line-108", "report (zh) line 108", "(8192, 6921)", "(8192, 6922)", "exact")],
)


def markdown_exec_like(error: Exception) -> Callable[..., str]:
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


@pytest.fixture
def errors() -> Iterator[blocks.BlockErrors]:
    """markdown-exec's log routed through a BlockErrors handler for the test, restored afterwards."""
    catching = blocks.catching_block_errors()
    yield catching.__enter__()
    catching.__exit__(None, None, None)


def _build(*, serving: bool = False, limits: Limits | None = None) -> Build:
    build = Build(ROOT, ROOT / "docs", limits or Limits(), ServeSession() if serving else None)
    build.page = "docs/a.md"
    return build


def _guard(build: Build, errors: blocks.BlockErrors, format_function: Callable[..., str]) -> Callable[..., str]:
    fence = {"name": "python", "validator": validator, "format": format_function}
    config: dict[str, Any] = {"pymdownx.superfences": {"custom_fences": [fence]}}
    assert blocks.guard_fences(config, build, errors) == 1
    assert blocks.guard_fences(config, build, errors) == 0  # the second edition adds its fences again: no rewrap
    return fence["format"]  # type: ignore[no-any-return]


def test_a_failing_block_shows_its_box_in_place_and_is_counted(errors: blocks.BlockErrors) -> None:
    """markdown-exec's failure becomes the failure's box, counted once with its page and block, in place."""
    build = _build()
    html = _guard(build, errors, markdown_exec_like(MISMATCH))("print(1)", "python", "python", {"id": "fp8"}, None)
    assert BOX_CLASS in html
    assert "<td>(8192, 6922)</td>" in html
    [failure] = build.failures
    assert (failure.page, failure.where, failure.in_place) == ("docs/a.md", "block 'fp8'", True)
    assert failure.error is MISMATCH


def test_a_block_that_passes_is_left_alone(errors: blocks.BlockErrors) -> None:
    """A block that does not fail keeps its output and counts nothing."""
    build = _build()
    guarded = _guard(build, errors, lambda *_, **__: "<p>6920.6</p>")
    assert guarded("print(1)", "python", "python", {"id": "ok"}, None) == "<p>6920.6</p>"
    assert build.failures == []


def test_other_fences_are_not_wrapped(errors: blocks.BlockErrors) -> None:
    """Only markdown-exec's fences (its validator) run guarded."""

    def mine(*_: object, **__: object) -> bool:
        return True

    config: dict[str, Any] = {"pymdownx.superfences": {"custom_fences": [{"validator": mine, "format": formatter}]}}
    assert blocks.guard_fences(config, _build(), errors) == 0


def test_a_block_past_the_time_limit_is_stopped_and_the_next_runs(errors: blocks.BlockErrors) -> None:
    """A block that never ends is stopped at the limit; its box names the limit; the next block still runs."""
    build = _build(limits=Limits(time_s=0.2))

    def forever(*_: object, **__: object) -> str:
        while True:
            pass

    html = _guard(build, errors, forever)("while True: pass", "python", "python", {"id": "loop"}, None)
    assert "time limit of 0.2 s" in html
    assert "block_time_limit_s" in html
    assert build.failures[0].where == "block 'loop'"
    assert _guard(build, errors, lambda *_, **__: "<p>ok</p>")("x", "python", "python", {"id": "next"}, None) == (
        "<p>ok</p>"
    )


def test_a_block_printing_too_much_is_a_failure(errors: blocks.BlockErrors) -> None:
    """Output over the size limit is replaced by a box giving its size and the limit."""
    build = _build(limits=Limits(output_bytes=100))
    html = _guard(build, errors, lambda *_, **__: "x" * 1000)("print('x' * 1000)", "python", "python", {}, None)
    assert "produced 1000 bytes of output, over the limit of 100 bytes" in html
    assert build.failures[0].where == "a python block without id"


def test_under_serve_a_blocks_output_is_kept_until_a_file_it_imports_changes(
    errors: blocks.BlockErrors, tmp_path: Path
) -> None:
    """A block's output is reused while the modules it imports keep their digests; an edit runs it again."""
    package = tmp_path / "src" / "ascend_dsa"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "values.py").write_text("X = 1\n", encoding="utf-8")
    (package / "other.py").write_text("Y = 2\n", encoding="utf-8")
    session = ServeSession()
    runs = []

    def run(*_: object, **__: object) -> str:
        runs.append(1)
        return f"<p>{len(runs)}</p>"

    def build_once() -> str:
        build = Build(tmp_path, tmp_path / "docs", Limits(), session)
        build.page = "docs/a.md"
        return _guard(build, errors, run)("from ascend_dsa.values import X\nprint(X)", "python", "python", {}, None)

    assert build_once() == "<p>1</p>"
    assert build_once() == "<p>1</p>"  # kept
    (package / "other.py").write_text("Y = 3\n", encoding="utf-8")
    assert build_once() == "<p>1</p>"  # a module it does not import
    (package / "values.py").write_text("X = 2\n", encoding="utf-8")
    assert build_once() == "<p>2</p>"
    assert len(runs) == 2


def test_a_block_with_headings_is_never_kept(errors: blocks.BlockErrors) -> None:
    """Output with headings feeds the page's table of contents, so the block runs on every build."""
    build = _build(serving=True)
    _guard(build, errors, lambda *_, **__: "<h2>x</h2>")("print(1)", "python", "python", {}, None)
    assert build.session is not None
    assert build.session.blocks == {}


def test_the_floor_shows_every_block_as_its_source() -> None:
    """With code execution off, markdown-exec's fences show their escaped source; others keep their format."""

    def other(*_: object, **__: object) -> bool:
        return True

    fences = [{"validator": validator, "format": formatter}, {"validator": other, "format": formatter}]
    config: dict[str, Any] = {"pymdownx.superfences": {"custom_fences": fences}}
    blocks.run_nothing(config)
    assert fences[0]["format"] is blocks.show_source
    assert fences[1]["format"] is formatter
    assert blocks.show_source("print(1 < 2)", "python") == (
        '<pre><code class="language-python">print(1 &lt; 2)</code></pre>'
    )


def test_the_logger_is_put_back_as_it_was() -> None:
    """Routing markdown-exec's log is undone on exit: handler removed, propagation and level restored."""
    logger = logging.getLogger(blocks.MARKDOWN_EXEC_LOGGER)
    before = (list(logger.handlers), logger.propagate, logger.level)
    with blocks.catching_block_errors():
        assert logger.propagate is False
    assert (list(logger.handlers), logger.propagate, logger.level) == before


def test_a_warning_that_is_not_a_failed_block_goes_on_to_mkdocs(
    errors: blocks.BlockErrors, caplog: pytest.LogCaptureFixture
) -> None:
    """Any other record of markdown-exec's logger reaches MkDocs' logger unchanged."""
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        logging.getLogger(BLOCK_LOGGER).warning("something else")
    assert "something else" in caplog.text
    assert errors.caught is None


PAGE = """Prose.

```python exec="true" id="first"
print(1)
```

!!! note
    ```python exec="1"
    x = 1
    raise ValueError(x)
    ```
"""


def test_a_fence_is_found_by_its_id_or_its_code() -> None:
    """The line a block's fence opens on: by id, by code (indented in an admonition), 0 when not found once."""
    assert blocks.fence_line(PAGE, "print(1)", {"id": "first"}) == 3
    assert blocks.fence_line(PAGE, "x = 1\nraise ValueError(x)", {}) == 8
    assert blocks.fence_line(PAGE, "print(2)", {"id": "other"}) == 0
    assert blocks.fence_line(PAGE + PAGE, "print(1)", {"id": "first"}) == 0  # twice: which one is not told


def test_a_block_raising_in_its_own_code_is_named_at_its_page_line(errors: blocks.BlockErrors, tmp_path: Path) -> None:
    """The line names the block's fence in the page and, raised at, the page line of the code that raised."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text(PAGE, encoding="utf-8")
    build = Build(tmp_path, tmp_path / "docs", Limits(), None)
    build.page = "docs/a.md"

    def run_as_markdown_exec(source: str, *_: object, **__: object) -> str:
        exec(compile(source, "<code block: n1>", "exec"), {})  # noqa: S102 - the block's code, as markdown-exec runs it
        return ""

    source = "x = 1\nraise ValueError(x)"
    html = _guard(build, errors, run_as_markdown_exec)(source, "python", "python", {}, None)
    assert "<code>docs/a.md:8</code>" in html
    [failure] = build.failures
    line = failure.line(tmp_path)
    assert line.startswith("docs/a.md:8: a python block without id failed: ValueError: 1; raised at docs/a.md:10"), line
