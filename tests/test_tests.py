"""The tests mirror the package: one test file per module (or a stated reason), shared helpers only in tests/helpers,
and no test module importing another test module (or conftest, which holds fixtures and hooks only).

Imports are read by `ascend_dsa.imports`, the package's one import reader, so an import inside a function or under
``if TYPE_CHECKING:`` counts too.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Final

import pytest

from ascend_dsa.imports import package_modules, read_imports
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from pathlib import Path

SRC: Final = ROOT / "src"
TESTS: Final = package_modules(ROOT, "tests")
#: Where the plain helpers live; every other non-test file under tests/ is conftest.py or a package's __init__.py.
HELPERS: Final = "tests.helpers"

#: Modules with no tests/<layer>/test_<module>.py, and why: where their tests are instead.
UNMIRRORED: Final = {
    "ascend_dsa": "the facade: tests/test_api.py resolves every public name, tests/test_public_contract.py calls each",
    "ascend_dsa.__main__": "two lines that run cli.main: tests/cli/test_cli.py runs `python -m ascend_dsa`",
    "ascend_dsa.errors": "the error classes and typed_items: every failing example of tests/test_public_contract.py "
    "and tests/helpers/contract.py asserts their exact class and message",
    "ascend_dsa.interrupt": "Ctrl-C and a closed pipe around the command: tests/cli/test_exit_status.py",
    "ascend_dsa.facts.hopper": "the H800 preset: tests/facts/test_chips.py (the chip registry) and "
    "tests/facts/test_hardware.py check every chip's fields",
    "ascend_dsa.facts.hopper_figures": "FlashMLA's published figures: tests/report/test_ledger_hopper.py and "
    "tests/report/test_hopper_guard.py check and perturb each",
    "ascend_dsa.facts.report_inputs": "the report's inputs the claims take: tests/report/test_claims_guard.py "
    "perturbs each published figure and the claims that use it must fail",
    "ascend_dsa.models.arrays": "the array checks: tests/test_validate.py and tests/models/test_kv_quant.py",
    "ascend_dsa.models.blocked_forward": "two files, one per concern: tests/models/test_blocked_forward_checks.py "
    "(its checks at the door) and tests/models/test_blocked_forward_rounding.py (against a float64 oracle)",
    "ascend_dsa.render.design_figures": "tests/render/test_design_space.py and tests/render/test_figure_legends.py",
    "ascend_dsa.report.checks": "tests/report/test_checks_boundaries.py checks each at its tolerance",
    "ascend_dsa.report.ledger_design": "its claims: tests/report/test_claims.py, test_rule_boundaries.py and "
    "test_claims_guard.py test every claim of every ledger",
    "ascend_dsa.report.ledger_discussion": "its claims: tests/report/test_claims.py, test_rule_boundaries.py and "
    "test_claims_guard.py test every claim of every ledger",
    "ascend_dsa.report.prose_values": "tests/report/test_prose_values_text.py and tests/report/test_prose_sources.py",
    "ascend_dsa.report.rules": "what a claim is: tests/report/test_rule_boundaries.py tests every rule at its edge",
    "ascend_dsa.site.api_aliases": "mkdocstrings' aliases: the shared strict build's API pages "
    "(tests/site/test_api_pages.py)",
    "ascend_dsa.site.app": "the build's application: tests/site/test_plugin.py and tests/site/test_failures.py",
    "ascend_dsa.site.glossary": "the glossary page and its hover definitions: tests/render/test_glossary.py",
    "ascend_dsa.site.page_cache": "the edit loop's cache: tests/site/test_step_cache.py and tests/site/test_reload.py",
    "ascend_dsa.site.search_entries": "the search index per edition: tests/site/test_search_index.py",
    "ascend_dsa.site.state": "one build's state: tests/site/test_plugin.py, test_blocks.py and test_serve.py",
}


def mirror(module: str) -> Path:
    """The test file of ``module``: ``ascend_dsa.facts.hardware`` -> tests/facts/test_hardware.py; a package's
    ``__init__`` (``ascend_dsa.cli``) -> tests/cli/test_cli.py; the facade -> tests/test_ascend_dsa.py."""
    parts = module.split(".")
    folder = parts[1:] if (SRC.joinpath(*parts) / "__init__.py").is_file() else parts[1:-1]
    return ROOT.joinpath("tests", *folder, f"test_{parts[-1]}.py")


def defines_something(path: Path) -> bool:
    """Whether the module does more than hold a docstring and imports (a package's ``__init__`` often does not)."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return any(
        not isinstance(node, ast.Import | ast.ImportFrom)
        and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        for node in body
    )


def is_test_module(module: str) -> bool:
    """Whether the dotted ``module`` is a test module of ours or conftest (not a helper, not a package)."""
    last = module.rsplit(".", 1)[-1]
    return module.startswith("tests.") and (last.startswith("test_") or last == "conftest")


def imported_test_modules(source: str, module: str) -> list[str]:
    """The test modules (and conftest) that ``source``, the text of ``module``, imports, as written."""
    found = []
    for item in read_imports(source, module).imports:
        for target in (item.module, f"{item.module}.{item.name}" if item.name else item.module):
            if is_test_module(target):
                found.append(f"line {item.line}: {target}")
                break
    return found


@pytest.mark.parametrize("module", sorted(TESTS), ids=sorted(TESTS))
def test_no_test_module_imports_another(module: str) -> None:
    """A test module, helper or conftest imports no test module and no conftest: shared code is in tests/helpers."""
    assert imported_test_modules(TESTS[module].read_text(encoding="utf-8"), module) == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from tests.report.test_claims_guard import DOCS", ["line 1: tests.report.test_claims_guard"]),
        ("import tests.test_layers", ["line 1: tests.test_layers"]),
        ("from tests.site import test_search", ["line 1: tests.site.test_search"]),
        ("def f():\n    from tests.conftest import ROOT", ["line 2: tests.conftest"]),
        ("from .test_claims import x", ["line 1: tests.report.test_claims"]),
        ("from tests.helpers.project import ROOT\nfrom tests.helpers import figures", []),
    ],
)
def test_imported_test_modules_finds_every_form(source: str, found: list[str]) -> None:
    """An import of a test module is found however it is written: from, import, relative, inside a function."""
    assert imported_test_modules(source, "tests.report.test_example") == found


def test_plain_files_under_tests_are_helpers() -> None:
    """Each Python file under tests/ is a test module, a conftest, a package's __init__ or a helper (tests/helpers)."""
    stray = [
        name
        for name, path in TESTS.items()
        if not (is_test_module(name) or path.name == "__init__.py" or name.startswith(f"{HELPERS}."))
    ]
    assert stray == []


def test_every_module_has_its_test_file_or_a_reason() -> None:
    """Each module that defines something has tests/<layer>/test_<module>.py, or UNMIRRORED says where it is tested."""
    modules = package_modules(SRC)
    missing = [
        f"{name} (expected {mirror(name).relative_to(ROOT)})"
        for name, path in modules.items()
        if defines_something(path) and not mirror(name).is_file() and name not in UNMIRRORED
    ]
    assert missing == []


def test_every_stated_reason_is_still_needed() -> None:
    """UNMIRRORED names modules that exist and still have no test file of their own (a new one retires the reason)."""
    modules = package_modules(SRC)
    stale = [name for name in UNMIRRORED if name not in modules or mirror(name).is_file()]
    assert stale == []
