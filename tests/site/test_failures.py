"""ascend_dsa.site.failures: one line in the log and one box in the page for every failure, in the page's language."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from ascend_dsa.errors import FigureMismatch, Mismatch
from ascend_dsa.site import failures
from ascend_dsa.site.failures import BOX_CLASS, Failure, Reporter
from ascend_dsa.validate import require_instance
from tests.helpers.project import ROOT

MISMATCH = FigureMismatch(
    "1 claim(s) differ from the report: claim x ...",
    [Mismatch("claim head-roofline-line-108", "report (zh) line 108", "(8192, 6921)", "(8192, 6922)", "exact")],
)


def _raised(error: Exception) -> Exception:
    """``error`` with a traceback through a project file (validate.py)."""
    try:
        require_instance("spec", "not a spec", int)
    except TypeError as raised:
        return raised
    return error


def test_a_mismatch_box_has_a_row_per_figure_in_the_pages_language() -> None:
    """A FigureMismatch's box is an admonition with one row per differing figure: what, report line, ours, theirs."""
    box = failures.box(Failure("docs/discussion/heads-per-core.en.md", "block 'heads-per-core-fp8'", MISMATCH))
    assert box.startswith(f'<div class="admonition failure {BOX_CLASS}" data-search-exclude>')
    assert "docs/discussion/heads-per-core.en.md" in box
    assert "<th>ours</th><th>report</th>" in box
    row = "<td>claim head-roofline-line-108</td><td>report (zh) line 108</td><td>(8192, 6921)</td><td>(8192, 6922)</td>"
    assert row in box
    zh_box = failures.box(Failure("docs/x.md", "block 'b'", ValueError("a < b")))
    assert "我们的值" not in zh_box  # no table without structured fields: the escaped message instead
    assert "a &lt; b" in zh_box
    assert "构建时检查失败" in zh_box


def test_a_site_failure_speaks_its_editions_language() -> None:
    """A failure of no page speaks the edition it happened in."""
    assert "A build-time check failed" in failures.box(Failure("", "the API links", ValueError("x"), "en"))
    assert "构建时检查失败" in failures.box(Failure("", "the API links", ValueError("x"), "zh"))


def test_the_line_is_one_line_naming_page_place_and_message() -> None:
    """A failure is one line: page file, place, error type and its whole message, newlines folded."""
    failure = Failure("docs/pipeline.en.md", "block 'pipeline-gantt'", ValueError("first\n  second\n"))
    assert failure.line(ROOT) == "docs/pipeline.en.md: block 'pipeline-gantt' failed: ValueError: first second"
    assert Failure("", "the build", ValueError("x")).line(ROOT).startswith("site: the build failed")
    long = Failure("docs/x.md", "b", ValueError("y" * 5000)).message()
    assert len(long) <= failures.MESSAGE_CHARS + len("ValueError: ")


def test_the_line_names_the_project_file_and_line_that_raised() -> None:
    """The innermost project file (not a library) the error passed through is named with its line."""
    failure = Failure("docs/pipeline.en.md", "block 'pipeline-gantt'", _raised(ValueError()))
    line = failure.line(ROOT, "tracebacks/x.txt")
    assert re.search(r"; raised at src/ascend_dsa/validate\.py:\d+; traceback in tracebacks/x\.txt$", line), line


def test_a_syntax_error_names_the_file_and_line_that_does_not_parse(tmp_path: Path) -> None:
    """A module that does not parse is named at its own bad line, not at the import that found it."""
    broken = ROOT / "src" / "ascend_dsa" / "render" / "pipeline.py"
    error = SyntaxError("invalid syntax", (str(broken), 296, 1, "def broken(:", 296, 12))
    assert Failure("docs/pipeline.md", "block 'b'", error).raised_at(ROOT) == "src/ascend_dsa/render/pipeline.py:296"
    del tmp_path


def test_the_reporter_logs_each_failure_once_with_a_traceback_file(caplog: pytest.LogCaptureFixture) -> None:
    """Recording logs one ERROR line on the site's logger and writes the full traceback to the file it names."""
    reporter = Reporter(ROOT, [])
    with caplog.at_level(logging.ERROR, logger=failures.REPORT_LOGGER):
        box = reporter.record(Failure("docs/pipeline.en.md", "block 'pipeline-gantt'", _raised(ValueError())))
    assert "<details><summary>Traceback</summary>" in box
    [reported] = [r.getMessage() for r in caplog.records if r.name == failures.REPORT_LOGGER]
    [written] = re.findall(r"traceback in (\S+\.txt)$", reported)
    assert "Traceback (most recent call last)" in Path(written).read_text(encoding="utf-8")
    assert len(reporter.failures) == 1


def test_boxes_open_the_article_or_the_body() -> None:
    """A page's boxes go just inside Material's article; a page without one gets them at the top of its body."""
    failure = Failure("docs/x.md", "the prose", ValueError("v"))
    page = '<body><div><article class="md-content__inner md-typeset"><h1>T</h1></article></div></body>'
    boxed = failures.with_boxes(page, [failure])
    assert boxed.index("<article") < boxed.index(BOX_CLASS) < boxed.index("<h1>")
    plain = failures.with_boxes('<html><body class="x"><p>p</p></body></html>', [failure])
    assert plain.index('<body class="x">') < plain.index(BOX_CLASS) < plain.index("<p>")
    assert failures.with_boxes(page, []) == page
    assert BOX_CLASS in failures.banner_page([failure])


def test_the_summary_counts_failures_and_pages() -> None:
    """One line: how many failures, in how many page files (the site counting as one), and which."""
    found = [
        Failure("docs/b.md", "x", ValueError()),
        Failure("docs/a.md", "y", ValueError()),
        Failure("", "z", ValueError()),
    ]
    assert failures.summary(found) == "3 failure(s) in 3 page file(s): docs/a.md, docs/b.md, site"


class _SiteHandler(logging.Handler):
    """A handler of the site's own on MkDocs' logger, as the one that notes MkDocs' warnings as failures."""

    __module__ = "ascend_dsa.site.app"  # where the plugin's handler lives; a test module's class would pass by luck

    def emit(self, record: logging.LogRecord) -> None:
        del record


def test_the_report_logger_skips_the_sites_own_handlers() -> None:
    """The site's lines go to MkDocs' console, not to the site's warning handler: else each failure shows twice."""
    mkdocs_logger = logging.getLogger("mkdocs")
    report = logging.getLogger(failures.REPORT_LOGGER)
    console, ours = logging.StreamHandler(), _SiteHandler()
    saved = (list(mkdocs_logger.handlers), list(report.handlers), report.propagate, report.level)
    mkdocs_logger.handlers = [console, ours]
    try:
        failures.install_report_logger(quiet=True)
        assert report.handlers == [console]
        assert report.level == logging.ERROR
        assert not report.propagate
    finally:
        mkdocs_logger.handlers, report.handlers, report.propagate = saved[0], saved[1], saved[2]
        report.setLevel(saved[3])
