"""Numbers in prose: ``{{ name }}`` is filled from the package, markers written wrong are found, no page types a number.

The scanner itself (what a typed number is, its exemptions) is tested in tests/render/test_typed_numbers.py.
"""

from __future__ import annotations

import json
import re

import pytest

from ascend_dsa.render.format import format_quantity
from ascend_dsa.render.typed_numbers import typed_numbers
from ascend_dsa.report.prose_values import PROSE_VALUES, Quantity
from ascend_dsa.site.prose_numbers import (
    ProseProblem,
    fill,
    fill_html,
    malformed_markers,
    notebook_prose,
    problems,
    quantity,
    unknown_shown,
)
from tests.helpers.project import ROOT

NAME = next(iter(PROSE_VALUES))


def test_fill_puts_the_package_value_in_place_of_the_marker() -> None:
    """``{{ name }}`` becomes the formatted value, in both languages."""
    expected = format_quantity(PROSE_VALUES[NAME](), "en")
    assert fill(f"the value is {{{{ {NAME} }}}} here", "en") == f"the value is {expected} here"
    assert fill(f"值为 {{{{{NAME}}}}}", "zh") == f"值为 {expected}"


def test_fill_leaves_executed_code_alone() -> None:
    """A marker inside an executed block stays as written: that block is Python the package runs."""
    page = f'```python exec="true"\nx = "{{{{ {NAME} }}}}"\n```\n'
    assert fill(page, "zh") == page


def test_fill_fills_inline_code_and_shown_blocks() -> None:
    """Inline code and a shown (not executed) block are read like prose, so their markers are filled."""
    value = format_quantity(PROSE_VALUES[NAME](), "en")
    page = f"`x[{{{{ {NAME} }}}}]`\n\n```bash\nrun  # {{{{ {NAME} }}}} B\n```\n"
    assert fill(page, "en") == f"`x[{value}]`\n\n```bash\nrun  # {value} B\n```\n"


def test_fill_html_fills_notebook_output() -> None:
    """A rendered notebook's markers are filled too."""
    assert "{{" not in fill_html(f"<p>{{{{ {NAME} }}}}</p>", "en")


def test_unknown_name_raises_naming_it() -> None:
    """A name the package does not define raises and names it."""
    with pytest.raises(KeyError, match="no_such_value"):
        quantity("no_such_value")


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


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("a {{ b_topk and {{}} c", "{{ b_topk and"),
        ("x {{ clock_ghz }}} y", "{{ clock_ghz }}}"),
        ("x {{{ clock_ghz }} y", "{{{ clock_ghz }}"),
        ("x }} y", "}} y"),
        ("math $ {{ b_ $", "{{ b_"),
    ],
)
def test_a_marker_written_wrong_is_found_with_its_line(text: str, fault: str) -> None:
    """Braces that open or close no marker, or a marker with a brace glued to it, are found."""
    [first, *_] = malformed_markers(f"# T\n\n{text}\n")
    assert first.line == 3
    assert fault in first.text


@pytest.mark.parametrize(
    "text",
    [
        "{{ clock_ghz }} and {{ l2_tb_per_s }}",
        r"$\mathbb{R}^{h_q \times d_{qk}}$ and $x^{{{ clock_ghz }}}$",
        '```python exec="true"\nx = {"a": {"b": 1}}\n```',
    ],
)
def test_markers_and_latex_braces_are_not_faults(text: str) -> None:
    """Whole markers, LaTeX's nested braces in math and executed code hold no fault."""
    assert malformed_markers(text) == []


def test_problems_names_every_kind_in_one_error() -> None:
    """A page's unknown names, markers written wrong and typed numbers make one error naming each."""
    problem = problems("# T\n\n{{ no_such_value }} and {{ x }}} and about 1080 cycles\n")
    assert isinstance(problem, ProseProblem)
    message = str(problem)
    assert "unknown prose value {{ no_such_value }}" in message
    assert "written wrong" in message
    assert "line 3: 1080" in message
    assert problems("# T\n\n{{ clock_ghz }} GHz\n") is None


def test_unknown_markers_are_shown_as_code_so_the_rest_fills() -> None:
    """An unknown marker becomes code with entity braces (not filled again); a known one is left to fill."""
    shown = unknown_shown("{{ no_such_value }} {{ clock_ghz }}")
    assert shown.startswith("<code>&#123;&#123; no_such_value &#125;&#125;</code>")
    assert fill(shown, "en").endswith(format_quantity(PROSE_VALUES["clock_ghz"](), "en"))


def test_values_are_computed_once_for_a_build() -> None:
    """Given a dict, fill keeps each value it computes there and takes it from there the next time."""
    values: dict[str, Quantity] = {}
    fill("{{ clock_ghz }}", "zh", values)
    assert set(values) == {"clock_ghz"}
    values["clock_ghz"] = Quantity(2.5, "GHz", 1)
    assert fill("{{ clock_ghz }}", "en", values) == "2.5"


def test_a_notebooks_prose_is_its_markdown_cells() -> None:
    """A notebook's prose is its markdown cells, joined; code cells are not prose."""
    cells = [
        {"cell_type": "markdown", "source": ["## Only ", "{{ ai_cores }} cores\n"]},
        {"cell_type": "code", "source": ["x = 24\n"]},
    ]
    assert notebook_prose(json.dumps({"cells": cells})) == "## Only {{ ai_cores }} cores\n"
