"""ascend_dsa.imports: what a module's source imports, read without running it."""

from __future__ import annotations

import textwrap

import pytest

from ascend_dsa.imports import Import, facade_homes, module_graph, package_modules, parents, read_imports
from tests.helpers.project import ROOT

SOURCE = textwrap.dedent(
    """
    from __future__ import annotations
    import os
    import ascend_dsa.facts.hardware as hardware
    from ascend_dsa.models import roofline
    from . import sibling
    from ..lang import pick
    from typing import TYPE_CHECKING
    if TYPE_CHECKING:
        from ascend_dsa.render.svg import figure
    def late():
        from ascend_dsa.report import claims
        importlib.import_module("ascend_dsa.cli")
    """
)


def test_every_import_is_read_with_its_line_and_when_it_runs() -> None:
    """Module-level imports run on import; a function's or TYPE_CHECKING's do not; relative ones are resolved."""
    found = {(i.module, i.name): i for i in read_imports(SOURCE, "ascend_dsa.render.roofline").imports}
    assert found["os", None].runs_on_import
    assert found["ascend_dsa.facts.hardware", None].alias == "hardware"
    assert found["ascend_dsa.models", "roofline"].runs_on_import
    assert ("ascend_dsa.render", "sibling") in found
    assert ("ascend_dsa.lang", "pick") in found
    svg = found["ascend_dsa.render.svg", "figure"]
    assert (svg.runs_on_import, svg.type_only) == (False, True)
    late = found["ascend_dsa.report", "claims"]
    assert (late.runs_on_import, late.type_only) == (False, False)
    literal = found["ascend_dsa.cli", None]
    assert (literal.runs_on_import, literal.line) == (False, 13)


def test_a_package_resolves_relative_imports_from_itself() -> None:
    """In a package's __init__, ``from . import x`` names the package's own x."""
    [found] = read_imports("from . import x", "ascend_dsa.facts", is_package=True).imports
    assert (found.module, found.name) == ("ascend_dsa.facts", "x")


@pytest.mark.parametrize(
    ("source", "dynamic"),
    [
        ("import ascend_dsa", True),
        ("import ascend_dsa.facts", True),
        ("import ascend_dsa.facts as facts", False),
        ("from ascend_dsa import ASCEND_950", False),
        ("importlib.import_module(name)", True),
        ("importlib.import_module('ascend_dsa.cli')", False),
        ("__import__(name)", True),
        ("if TYPE_CHECKING:\n    import ascend_dsa", False),
    ],
)
def test_code_that_can_import_any_module_is_dynamic(source: str, *, dynamic: bool) -> None:
    """A bare package import or a computed module name means the imports cannot all be read."""
    assert read_imports(source, "__main__").dynamic is dynamic


def test_a_syntax_error_is_raised_not_guessed() -> None:
    """Source that does not parse raises SyntaxError."""
    with pytest.raises(SyntaxError):
        read_imports("def f(:", "m")


def test_target_is_the_submodule_when_it_is_one() -> None:
    """``from a import b`` loads a.b when that is a module, else a."""
    item = Import("ascend_dsa.models", "roofline", "roofline", 1, runs_on_import=True, type_only=False)
    assert item.target({"ascend_dsa.models.roofline"}) == "ascend_dsa.models.roofline"
    assert item.target(()) == "ascend_dsa.models"


def test_facade_homes_are_the_type_checking_table() -> None:
    """The facade's names and their modules, as its TYPE_CHECKING block lists them."""
    source = (ROOT / "src" / "ascend_dsa" / "__init__.py").read_text(encoding="utf-8")
    homes = facade_homes(source)
    assert homes["ASCEND_950"] == "ascend_dsa.facts.hardware"
    assert homes["simulate"] == "ascend_dsa.models.pipeline"
    assert facade_homes("import os\nif TYPE_CHECKING:\n    from a.b import c as d\n") == {"d": "a.b"}


def test_modules_parents_and_graph_of_the_package() -> None:
    """Every module of the package is listed with its file; the graph follows run-time imports only."""
    modules = package_modules(ROOT / "src")
    assert modules["ascend_dsa"].name == "__init__.py"
    assert modules["ascend_dsa.site.links"].name == "links.py"
    assert parents("ascend_dsa.facts.hardware") == ("ascend_dsa", "ascend_dsa.facts")
    imports = {
        name: read_imports(path.read_bytes(), name, is_package=path.name == "__init__.py")
        for name, path in modules.items()
    }
    graph = module_graph(imports)
    assert "ascend_dsa.facts.provenance" in graph["ascend_dsa.facts.hardware"]
    assert "ascend_dsa" not in graph["ascend_dsa.facts.hardware"]  # no module imports the facade
