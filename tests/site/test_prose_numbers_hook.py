"""The MkDocs hook that fills and checks numbers in prose, called in process as MkDocs calls it."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest
from mkdocs.exceptions import PluginError

from tests.conftest import load_hook

if TYPE_CHECKING:
    from pathlib import Path

HOOK = load_hook("prose_numbers")


def _page(src_uri: str, abs_src_path: str = "", toc: tuple[object, ...] = ()) -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri, abs_src_path=abs_src_path), toc=list(toc))


def test_markdown_is_filled_per_language() -> None:
    """A marker becomes the package's value on a Markdown page."""
    out = HOOK.on_page_markdown("L2: {{ l2_tb_per_s }} TB/s", page=_page("x.en.md"))
    assert out == "L2: 5 TB/s"


def test_typed_number_stops_the_build_naming_page_and_number() -> None:
    """A number typed in prose raises naming docs/<page>, its line and the number."""
    with pytest.raises(PluginError, match=r"docs/discussion/x\.md: 1 number.*line 3: 1080"):
        HOOK.on_page_markdown("# T\n\nabout 1080 cycles\n", page=_page("discussion/x.md"))


def test_unknown_name_stops_the_build_naming_page() -> None:
    """A marker with no value raises naming the page and the name."""
    with pytest.raises(PluginError, match=r"docs/x\.md: .*no_such_value"):
        HOOK.on_page_markdown("{{ no_such_value }}", page=_page("x.md"))


def test_notebook_cells_are_checked_and_headings_filled(tmp_path: Path) -> None:
    """A notebook's markdown cells are checked, and markers in its HTML and table of contents are filled."""
    notebook = tmp_path / "n.ipynb"
    cells = [{"cell_type": "markdown", "source": ["## Only {{ ai_cores }} cores\n"]}]
    notebook.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    heading = SimpleNamespace(title="Only {{ ai_cores }} cores", children=[])
    page = _page("design/n.ipynb", str(notebook), (heading,))
    html = HOOK.on_page_content("<h2>Only {{ ai_cores }} cores</h2>", page=page)
    assert html == "<h2>Only 32 cores</h2>"
    assert heading.title == "Only 32 cores"
    cells[0]["source"] = ["Only 24 cores\n"]
    notebook.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    with pytest.raises(PluginError, match=r"docs/design/n\.ipynb: .*24"):
        HOOK.on_page_content("<p></p>", page=page)
