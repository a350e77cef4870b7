"""ascend_dsa.site.sources: which files of src/ some code can run, read from the sources."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site.files import Digests
from ascend_dsa.site.sources import SourceTree, with_docs
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from pathlib import Path

TREE = SourceTree(ROOT / "src", Digests())
PACKAGE = ROOT / "src" / "ascend_dsa"


def _names(files: tuple[Path, ...]) -> set[str]:
    return {f.relative_to(PACKAGE).as_posix() for f in files if f.is_relative_to(PACKAGE)}


def test_a_block_depends_on_the_modules_it_imports_and_theirs() -> None:
    """A facade name is followed to its module, that module's imports too, with parents; not unrelated modules."""
    found = TREE.depends("from ascend_dsa import render_head_roofline_table\nprint(1)")
    names = _names(found.files)
    assert {"render/roofline.py", "models/roofline.py", "facts/hardware.py", "render/__init__.py"} <= names
    assert "__init__.py" in names
    assert "models/kv_quant.py" not in names
    assert "py.typed" in names  # data files count
    assert found.docs is False


def test_imports_inside_functions_count_type_checking_ones_only_when_asked() -> None:
    """A module's function-local imports are followed; TYPE_CHECKING ones only for what documenting reads."""
    plain = _names(TREE.depends_on_modules(["ascend_dsa.render.svg"]).files)
    documented = _names(TREE.depends_on_modules(["ascend_dsa.render.svg"], with_type_only=True).files)
    assert plain <= documented


@pytest.mark.parametrize(
    "code",
    [
        "import ascend_dsa\nascend_dsa.simulate",
        "x = (",
        "import importlib\nimportlib.import_module(name)",
        "from ascend_dsa import no_such_name",
    ],
)
def test_code_whose_imports_cannot_be_read_depends_on_everything(code: str) -> None:
    """A bare package import, a syntax error, a computed import or an unknown facade name: all of src/."""
    found = TREE.depends(code)
    assert found.files == TREE.files
    assert found.docs is True


def test_code_reading_the_page_sources_depends_on_the_pages() -> None:
    """A block whose renderer lists the pages (the assumptions table) depends on every page source too."""
    found = TREE.depends("from ascend_dsa import render_assumptions\nprint(render_assumptions())")
    assert found.docs is True
    files = with_docs(found, ROOT / "docs", Digests())
    assert ROOT / "docs" / "pipeline.md" in files
    assert not [f for f in files if "vendor" in f.parts]


def test_importers_are_followed_to_the_top() -> None:
    """The modules importing a changed one, directly or not, run-time imports only."""
    reached = TREE.importers({"ascend_dsa.facts.provenance"})
    assert {"ascend_dsa.facts.provenance", "ascend_dsa.facts.hardware", "ascend_dsa.models.roofline"} <= reached
    assert "ascend_dsa.site.limits" not in reached


def test_a_module_with_a_syntax_error_depends_on_everything(tmp_path: Path) -> None:
    """Code importing a module that does not parse cannot be followed: it depends on all of src/."""
    package = tmp_path / "ascend_dsa"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "broken.py").write_text("def f(:\n", encoding="utf-8")
    tree = SourceTree(tmp_path, Digests())
    assert tree.imports_of("ascend_dsa.broken") is None
    assert tree.depends("from ascend_dsa.broken import f").files == tree.files
