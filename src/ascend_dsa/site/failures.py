"""What a failure of the build is, how it is told in one log line, and how it shows in the page: written once here.

A failure has a place: a block or a notebook cell of a page (its box replaces the block's output), a page as a whole
(a prose check, a broken link: the box opens the page's article), or the site (a nav entry whose page is gone, a
step no page can do without: a banner opens every page). Each is one ERROR line on `REPORT_LOGGER`, naming the page
file, the place, the error's one-line message, the project file and line it was raised at, and a file holding the
full traceback. ``mkdocs build`` then stops once, after both editions, counting them all; ``mkdocs serve`` serves
the pages with their boxes and keeps serving.
"""

from __future__ import annotations

import html
import logging
import re
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ascend_dsa.lang import Lang, term
from ascend_dsa.site.editions import page_lang

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

#: Our one-line failure reports. Outside the "mkdocs" logger, so MkDocs' strict counter does not abort one
#: edition's build before the other is built; the final stop counts every failure of both.
REPORT_LOGGER: Final = "ascend_dsa.site"
#: A failure's line quotes at most this much of the error's message (a FigureMismatch naming every row fits).
MESSAGE_CHARS: Final = 2000
#: The class of every box and banner this module draws (the reader's style sheet and the tests find them by it).
BOX_CLASS: Final = "ascend-build-error"
#: The error box's table columns, in order: the catalogue's names after ``error-box:``.
ERROR_BOX_COLUMNS: Final = ("what", "report line", "ours", "report", "rule")
#: Where a box opens a built page: just inside Material's article.
_ARTICLE: Final = re.compile(r'<article class="md-content__inner md-typeset">')

#: How markdown-exec names the code of a block it compiles (``<code block: session s; n3>``): its lines are the
#: block's (markdown_exec/_internal/formatters/python.py, ``_code_block_id``).
BLOCK_CODE_FILENAME: Final = "<code block: "

#: The site's own modules: a failure is never "raised at" them, but at the page code or package code at fault.
_MACHINERY: Final = "src/ascend_dsa/site/"

log = logging.getLogger(REPORT_LOGGER)


def _project_file(path: Path, root: Path) -> str:
    """``path`` relative to the project, if it is a project file outside any library, else ""."""
    if not path.is_absolute():
        return ""
    try:
        relative = path.resolve().relative_to(root)
    except ValueError:
        return ""
    if not relative.parts or relative.parts[0] == ".venv" or "site-packages" in relative.parts:
        return ""
    return relative.as_posix()


@dataclass(frozen=True)
class Failure:
    """One failure: the page file (relative to the project, "" for the site), where in it, and the error raised.

    ``edition`` is the language of the build it happened in (a site failure shows in that edition's pages);
    ``in_place`` says the box already stands where the failure is (a block's or a cell's output); ``fence_line`` is the
    page's line where the failing block's fence opens (0 when the failure is not a block's).
    """

    page: str
    where: str
    error: BaseException
    edition: Lang = "zh"
    in_place: bool = False
    fence_line: int = 0

    @property
    def place(self) -> str:
        """The page file, with the line of the block's fence when there is one ("" for the site)."""
        return f"{self.page}:{self.fence_line}" if self.page and self.fence_line else self.page

    @property
    def lang(self) -> Lang:
        """The language its box speaks: the page's, or the edition's for the site."""
        return page_lang(self.page) if self.page else self.edition

    def message(self) -> str:
        """The error's type and its message on one line (at most ``MESSAGE_CHARS`` characters)."""
        text = " ".join(line.strip() for line in str(self.error).splitlines() if line.strip())
        if len(text) > MESSAGE_CHARS:
            text = text[: MESSAGE_CHARS - 3] + "..."
        return f"{type(self.error).__name__}: {text}" if text else type(self.error).__name__

    def raised_at(self, root: Path) -> str:
        """``file:line`` where the error arose in the project, or "".

        For a syntax error, the line that does not parse; else the innermost frame in a project file that is
        neither a library nor the site's own machinery (a block's time limit is raised by the site's alarm, but the
        block was at fault). A frame of the block's own code is named at its line in the page.
        """
        if isinstance(self.error, SyntaxError) and self.error.filename:
            found = _project_file(Path(self.error.filename), root)
            if found:
                return f"{found}:{self.error.lineno}"
        for frame in reversed(traceback.extract_tb(self.error.__traceback__)):
            if frame.filename.startswith(BLOCK_CODE_FILENAME) and self.fence_line and frame.lineno:
                return f"{self.page}:{self.fence_line + frame.lineno}"  # the code's line 1 follows the fence's
            found = _project_file(Path(frame.filename), root)
            if found and not found.startswith(_MACHINERY):
                return f"{found}:{frame.lineno}"
        return ""

    def traceback_text(self) -> str:
        """The error's full traceback, as Python prints it ("" for an error that was never raised)."""
        if self.error.__traceback__ is None:
            return ""
        return "".join(traceback.format_exception(self.error))

    def line(self, root: Path, traceback_file: str = "") -> str:
        """One line: the page file (or "site"), the place, the error, where it was raised, its traceback file."""
        raised = self.raised_at(root)
        where = f"; raised at {raised}" if raised else ""
        full = f"; traceback in {traceback_file}" if traceback_file else ""
        return f"{self.place or 'site'}: {self.where} failed: {self.message()}{where}{full}"


def box(failure: Failure) -> str:
    """The failure as an admonition in its page's language; a ``FigureMismatch`` gets a row per differing figure."""
    escape = html.escape
    lang = failure.lang
    title = term("error-box:title", lang)
    headings = [term(f"error-box:{column}", lang) for column in ERROR_BOX_COLUMNS]
    place = f"<code>{escape(failure.place)}</code>, {escape(failure.where)}" if failure.page else escape(failure.where)
    parts = [
        f'<div class="admonition failure {BOX_CLASS}" data-search-exclude>',
        f'<p class="admonition-title">{escape(title)}: {escape(type(failure.error).__name__)}</p>',
        f"<p>{place}</p>",
    ]
    mismatches = getattr(failure.error, "mismatches", ())
    if mismatches:
        shown = headings if any(m.rule for m in mismatches) else headings[:-1]
        parts.append("<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in shown) + "</tr></thead><tbody>")
        for m in mismatches:
            cells = (m.subject, m.citation, m.ours, m.theirs, m.rule)[: len(shown)]
            parts.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        parts.append("</tbody></table>")
    else:
        parts.append(f"<pre><code>{escape(str(failure.error).strip())}</code></pre>")
    text = failure.traceback_text()
    if text:
        parts.append(f"<details><summary>Traceback</summary><pre><code>{escape(text)}</code></pre></details>")
    parts.append("</div>")
    return "\n".join(parts)


def with_boxes(page_html: str, failures: Sequence[Failure]) -> str:
    """A built page with the boxes of ``failures`` opening its article (at the top of the body without one)."""
    if not failures:
        return page_html
    boxes = "\n".join(box(f) for f in failures) + "\n"
    found = _ARTICLE.search(page_html)
    if found is not None:
        return page_html[: found.end()] + boxes + page_html[found.end() :]
    head, marker, tail = page_html.partition("<body")
    if not marker:
        return boxes + page_html
    end = tail.index(">") + 1
    return head + marker + tail[:end] + boxes + tail[end:]


def banner_page(failures: Sequence[Failure]) -> str:
    """A whole page holding only the boxes of ``failures``: what is served when no page could be built."""
    return (
        '<!doctype html>\n<html><head><meta charset="utf-8"><title>Build failed</title></head>\n<body>\n'
        + "\n".join(box(f) for f in failures)
        + "\n</body></html>\n"
    )


@dataclass
class Reporter:
    """Counts the failures of one build (both editions) and reports each in one line as it happens."""

    root: Path
    failures: list[Failure]
    _tracebacks: Path | None = None

    def record(self, failure: Failure) -> str:
        """Count and report ``failure``; the box that shows it."""
        self.failures.append(failure)
        log.error("%s", failure.line(self.root, self._write_traceback(failure)))
        log.debug("%s", failure.traceback_text())
        return box(failure)

    def _write_traceback(self, failure: Failure) -> str:
        text = failure.traceback_text()
        if not text:
            return ""
        if self._tracebacks is None:
            self._tracebacks = Path(tempfile.mkdtemp(prefix="ascend-dsa-tracebacks-"))
        name = re.sub(r"[^A-Za-z0-9.]+", "-", f"{failure.page or 'site'} {failure.where}").strip("-")[:100]
        path = self._tracebacks / f"{len(self.failures)}-{name}.txt"
        path.write_text(f"{failure.line(self.root)}\n\n{text}", encoding="utf-8")
        return str(path)


def summary(failures: Iterable[Failure]) -> str:
    """One line counting the failures and the page files they are in."""
    failures = list(failures)
    pages = sorted({f.page or "site" for f in failures})
    return f"{len(failures)} failure(s) in {len(pages)} page file(s): {', '.join(pages)}"


def install_report_logger(*, quiet: bool) -> None:
    """Give `REPORT_LOGGER` MkDocs' console handlers; only its errors when ``quiet``.

    Not MkDocs' strict counter (the site counts its own failures), nor a handler of the site's own on that logger
    (the one that notes MkDocs' warnings as failures would note each of the site's lines a second time).
    """
    from mkdocs.utils import CountHandler  # noqa: PLC0415 - MkDocs is there whenever a build runs

    report = logging.getLogger(REPORT_LOGGER)
    source = logging.getLogger("mkdocs")
    ours = __name__.split(".", 1)[0]
    report.handlers = [
        h for h in source.handlers if not isinstance(h, CountHandler) and type(h).__module__.split(".")[0] != ours
    ]
    report.propagate = not report.handlers
    report.setLevel(logging.ERROR if quiet else logging.INFO)
