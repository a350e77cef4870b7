"""Numbers in prose: ``{{ name }}`` is filled from the package; any other number must be a citation or a name."""

from __future__ import annotations

import json
import re

import pytest

from ascend_dsa.render.format import format_quantity
from ascend_dsa.report.prose_values import PROSE_VALUES, Quantity
from ascend_dsa.site.prose_numbers import fill, fill_html, quantity, typed_numbers
from tests.conftest import ROOT

NAME = next(iter(PROSE_VALUES))


def test_fill_puts_the_package_value_in_place_of_the_marker() -> None:
    """``{{ name }}`` becomes the formatted value, in both languages."""
    expected = format_quantity(PROSE_VALUES[NAME](), "en")
    assert fill(f"the value is {{{{ {NAME} }}}} here", "en") == f"the value is {expected} here"
    assert fill(f"值为 {{{{{NAME}}}}}", "zh") == f"值为 {expected}"


def test_fill_leaves_code_alone() -> None:
    """A marker inside a fenced block or inline code stays as written."""
    page = f"```python\nx = '{{{{ {NAME} }}}}'\n```\n\n`{{{{ {NAME} }}}}`\n"
    assert fill(page, "zh") == page


def test_fill_html_fills_notebook_output() -> None:
    """A rendered notebook's markers are filled too."""
    assert "{{" not in fill_html(f"<p>{{{{ {NAME} }}}}</p>", "en")


def test_unknown_name_raises_naming_it() -> None:
    """A name the package does not define raises and names it."""
    with pytest.raises(KeyError, match="no_such_value"):
        quantity("no_such_value")


def test_typed_number_is_found_with_its_line() -> None:
    """A number typed in prose is reported with its line."""
    typed = typed_numbers("# Title\n\nThe block takes 1080 cycles.\n")
    assert [(t.number, t.line) for t in typed] == [("1080", 3)]


@pytest.mark.parametrize(
    "text",
    [
        "report (zh) line 116",
        "报告 (zh) 第 85、89 行",
        "lines 104-111 and line 142",
        "第 142-144 行",
        "config.h:74 and kernel_body.h:1297",
        "commit a123d0b0191e0da7aa1e044f8644e0989cc63220",
        "published 2026-09-30 as 20260930",
        "FP8, e4m3, fp32, bf16, 1C2V, ND2NZ, MTE2, L0C, H_Q, gather2 and V4.1",
        "the Ascend 950 and 昇腾 950",
        "1. first step\n2. second step",
        "`B_TOPK = 64`",
        "```python\nprint(64)\n```",
        "[link](../x/1.md) and a footnote[^1]",
        "<!-- 64 -->",
        "{{ any_name }}",
        "$\\sum_{j=1}^{n} x_j$ and $1/\\sqrt{d}$ and $x > 0$",
    ],
)
def test_citations_names_and_markdown_are_exempt(text: str) -> None:
    """Citations, names, list markers, code and markers are not typed numbers."""
    assert typed_numbers(text) == []


@pytest.mark.parametrize(
    "text", ["94.79%", "$1024 / 0.9479$", "| 16 | 0.35 |", "rows 73 and 74", "1,024", "out is 0", "$2 \\times 1.5$"]
)
def test_numbers_in_math_tables_and_percentages_are_caught(text: str) -> None:
    """Math, table cells and percentages typed by hand are found."""
    assert typed_numbers(text)


def test_every_value_is_a_quantity() -> None:
    """Every name in the registry computes a Quantity."""
    for name, make in PROSE_VALUES.items():
        assert isinstance(make(), Quantity), name


def _sources() -> dict[str, str]:
    pages = {}
    for path in sorted((ROOT / "docs").rglob("*")):
        if "vendor" in path.parts or path.suffix not in (".md", ".ipynb"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n\n".join("".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "markdown")
        pages[path.relative_to(ROOT / "docs").as_posix()] = text
    return pages


def test_no_page_has_a_typed_number() -> None:
    """No page types a number in its prose (the fast, in-process form of the build's check)."""
    typed = {page: [t.number for t in typed_numbers(text)] for page, text in _sources().items()}
    assert {page: numbers for page, numbers in typed.items() if numbers} == {}


def test_every_marker_names_a_value() -> None:
    """Every ``{{ name }}`` on a page is defined in ascend_dsa.report.prose_values."""
    used = {name for text in _sources().values() for name in re.findall(r"\{\{\s*([a-z]\w*)\s*\}\}", text)}
    assert used - set(PROSE_VALUES) == set()
