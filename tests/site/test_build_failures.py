"""Every kind of failure fails `mkdocs build --strict -q`, each named on one line of the output with its page.

One build of a copy holds them all (the helpers' ``MUTATIONS`` and ``DELETED``, the ``mutated_build`` fixture):
a failing notebook cell, a block that never ends, a block that prints two megabytes, a syntax error in a module a
page imports, a page the nav lists but that is gone, a broken link and a broken anchor, a marker written wrong and
numbers typed on two pages, and an external script and font. ``-q`` hides nothing a failure needs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests.helpers.project import DELETED, MUTATIONS, ROOT

if TYPE_CHECKING:
    from tests.helpers.project import BuildResult

pytestmark = pytest.mark.build


def _lines(result: BuildResult, start: str) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith(start)]


def test_the_build_fails(mutated_build: BuildResult) -> None:
    """A build with any of these failures exits 1, with no traceback in its output."""
    assert mutated_build.returncode == 1
    assert "Traceback (most recent call last)" not in mutated_build.output


@pytest.mark.parametrize(
    ("key", "line"),
    [
        ("notebook-cell", "docs/design/what-if.en.ipynb: cell 28, line 2 (`total = 1`) failed: ZeroDivisionError"),
        ("forever", "docs/optimizations/gather2.md:LINE: block 'forever' failed: TimeLimitExceeded"),
        ("huge-output", "docs/optimizations/gather2.en.md:LINE: block 'huge' failed: OutputLimitExceeded"),
        ("syntax-error", "docs/discussion/accumulator.md:LINE: block 'accumulator-identity' failed: SyntaxError"),
        ("syntax-error", "docs/discussion/accumulator.en.md:LINE: block 'accumulator-identity' failed: SyntaxError"),
        ("marker-and-numbers", "docs/optimizations/fast-nd2nz.md: the prose failed: ProseProblem"),
        ("numbers-elsewhere", "docs/optimizations/l1-banks.en.md: the prose failed: ProseProblem"),
    ],
)
def test_each_failure_is_one_error_line_naming_its_page(mutated_build: BuildResult, key: str, line: str) -> None:
    """A failure of the site's own checks is one ERROR line naming the page file (a block's fence line), the place
    and the error."""
    assert key in MUTATIONS
    pattern = re.compile(re.escape(line).replace("LINE", r"\d+"))
    assert [found for found in _lines(mutated_build, "ERROR") if pattern.search(found)], line


def test_the_time_limit_is_the_one_mkdocs_yml_states(mutated_build: BuildResult) -> None:
    """The block that never ends is stopped at the plugin's block_time_limit_s, which the line names."""
    [found] = [x for x in _lines(mutated_build, "ERROR") if "block 'forever'" in x]
    assert "time limit of 3 s (block_time_limit_s of the ascend-dsa plugin in mkdocs.yml)" in found


def test_a_block_that_never_ends_is_named_at_the_page_line_it_was_stopped_on(mutated_build: BuildResult) -> None:
    """The line of the block's code that was running when the time limit struck: the loop's sleep, in the page."""
    [found] = [x for x in _lines(mutated_build, "ERROR") if "block 'forever'" in x]
    page = (ROOT / "docs/optimizations/gather2.md").read_text(encoding="utf-8") + MUTATIONS["forever"].new
    sleep = page.splitlines().index("    time.sleep(1)") + 1
    assert f"; raised at docs/optimizations/gather2.md:{sleep};" in found


def test_a_syntax_error_names_the_line_that_does_not_parse(mutated_build: BuildResult) -> None:
    """The module's own file and line are named, not the import that found it."""
    assert "raised at src/ascend_dsa/render/accumulator.py:" in mutated_build.output


def test_a_page_with_several_problems_names_them_all(mutated_build: BuildResult) -> None:
    """The marker written wrong, the glued brace and the typed number of one page are all in its one line."""
    [found] = [x for x in _lines(mutated_build, "ERROR") if "fast-nd2nz.md: the prose" in x]
    assert "{{ b_topk and" in found
    assert "{{ clock_ghz }}}" in found
    assert "1080" in found


def test_every_page_with_typed_numbers_is_named_with_each_number(mutated_build: BuildResult) -> None:
    """Numbers typed on several pages: the one failed build names each page, and each page's line names its number.

    The build does not stop at the first page: every page's problems are recorded and it fails after the last.
    """
    typed = {"typed-forms": "1080", "marker-and-numbers": "1080", "numbers-elsewhere": "1234"}
    errors = _lines(mutated_build, "ERROR")
    for key, number in typed.items():
        [found] = [x for x in errors if f"{MUTATIONS[key].file}: the prose failed" in x]
        assert f": {number} in " in found, key
    assert mutated_build.returncode == 1


@pytest.mark.parametrize(
    "warning",
    [
        f"A reference to '{DELETED[0].removeprefix('docs/')}' is included in the 'nav' configuration",
        "Doc file 'optimizations/kv-cache-layout.md' contains a link 'no-such-page.md'",
        "does not contain an anchor '#no-such-anchor'",
        "External file: https://cdn.example.com/lib.js",
        "External file: https://fonts.googleapis.com/css2?family=Roboto",
    ],
)
def test_mkdocs_warnings_show_and_count_even_with_q(mutated_build: BuildResult, warning: str) -> None:
    """A missing nav page, a broken link or anchor and an external asset are WARNING lines, shown under -q too."""
    assert [found for found in _lines(mutated_build, "WARNING") if warning in found], warning
    assert "in strict mode!" in mutated_build.output
