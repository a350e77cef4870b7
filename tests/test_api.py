from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import ascend_dsa
from tests.helpers.project import ROOT

#: A Sphinx cross-reference role, which mkdocstrings prints as it stands instead of a link.
SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|func|data|mod|attr|meth|exc|obj|const):`?")
#: The API reference pages, below docs/ and below the built site of each edition.
API_DIR = Path("reference") / "api"


def test_all_names_resolve() -> None:
    """Every name in __all__ exists on the package."""
    for name in ascend_dsa.__all__:
        assert hasattr(ascend_dsa, name), name


def test_facade_table_matches_its_type_checking_imports() -> None:
    """The facade resolves exactly __all__, each name from the module its TYPE_CHECKING import (for mypy) names."""
    tree = ast.parse((ROOT / "src" / "ascend_dsa" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", None) == "TYPE_CHECKING")
    imported = {a.name: node.module for node in block.body if isinstance(node, ast.ImportFrom) for a in node.names}
    assert imported == ascend_dsa._homes()  # noqa: SLF001 - the facade's own table is what this test checks
    assert set(imported) == set(ascend_dsa.__all__)


def test_facade_resolves_lazily_and_lists_every_name() -> None:
    """dir() lists every public name; an unknown one is an AttributeError naming it, as for any module."""
    assert set(ascend_dsa.__all__) <= set(dir(ascend_dsa))
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        ascend_dsa.no_such_name  # noqa: B018 - the lookup is the test
    assert not hasattr(ascend_dsa, "numpy")


def test_all_is_sorted_and_unique() -> None:
    """__all__ has no duplicates (a duplicate hides a stale export)."""
    assert len(set(ascend_dsa.__all__)) == len(ascend_dsa.__all__)


def test_public_objects_have_docstrings() -> None:
    """Every exported function and class says what it is."""
    for name in ascend_dsa.__all__:
        obj = getattr(ascend_dsa, name)
        if callable(obj):
            assert (obj.__doc__ or "").strip(), name


def test_source_has_no_sphinx_roles() -> None:
    """No docstring or comment in the package names another object with a Sphinx role; they use autorefs links."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "src" / "ascend_dsa").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if SPHINX_ROLE.search(line)
    ]
    assert found == []


def test_every_exported_module_has_an_api_page() -> None:
    """Each module an exported name comes from is rendered by some page of the API reference, in both languages."""
    rendered = {
        language: {
            line.removeprefix("::: ").strip()
            for page in (ROOT / "docs" / API_DIR).glob("*.md")
            if page.name.endswith(".en.md") == (language == "en")
            for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("::: ")
        }
        for language in ("zh", "en")
    }
    homes = {getattr(getattr(ascend_dsa, name), "__module__", None) for name in ascend_dsa.__all__}
    modules = {home for home in homes if home and home.startswith("ascend_dsa.")}
    assert rendered["zh"] == rendered["en"]
    assert modules - rendered["zh"] == set()


@pytest.mark.build
@pytest.mark.parametrize("edition", ["", "en"])
def test_built_api_pages_show_no_raw_roles(built_site: Path, edition: str) -> None:
    """No built API page shows a Sphinx role, and a cross-reference becomes a link within the same edition."""
    pages = sorted((built_site / edition / API_DIR).rglob("index.html"))
    assert len(pages) > 1
    raw = [str(page.relative_to(built_site)) for page in pages if SPHINX_ROLE.search(page.read_text(encoding="utf-8"))]
    assert raw == []
    claims = (built_site / edition / API_DIR / "report" / "index.html").read_text(encoding="utf-8")
    assert 'href="../facts/#ascend_dsa.errors.FigureMismatch"' in claims
