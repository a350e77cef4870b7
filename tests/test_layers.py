"""Imports flow one way, down the layers; facts and the closed-form models need only the standard library.

Every module's imports are read with ``ast`` (type-only ones under ``if TYPE_CHECKING:`` and those inside functions
included) and each is mapped to its layer. Bottom to top: the leaves (errors, units, lang, validate) < facts < models
< report < render < site, cli; the facade (``ascend_dsa/__init__.py``) and ``__main__`` sit above everything. A module
may import its own layer and those below; modules import each other without cycles. The imports are read by
`ascend_dsa.imports`, the one reader the facade and the site use too. Every failure names the file, the line and
the import.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ascend_dsa import imports as import_reader
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

PACKAGE: Final = "ascend_dsa"
SRC: Final = ROOT / "src"

#: Rank of each layer, bottom to top; a module may import a layer of lower or equal rank only (and within the top
#: rank, only its own layer: site and cli do not import each other).
LAYER_RANKS: Final = {
    "leaf": 0,
    "facts": 1,
    "models": 2,
    "report": 3,
    "render": 4,
    "site": 5,
    "cli": 5,
    "facade": 6,
}
#: Top-level modules that import nothing of ours but each other.
LEAVES: Final = frozenset({"errors", "units", "lang", "validate", "interrupt", "imports"})
#: The third-party libraries that the standard-library core must not need.
HEAVY: Final = frozenset({"numpy", "matplotlib", "ml_dtypes"})
#: The closed-form models, the claims ledger and the command line: they, and every module of ours they load,
#: import only the standard library at module level (NumPy and friends only inside the functions that need them).
CLOSED_FORM: Final = (
    "ascend_dsa.models.roofline",
    "ascend_dsa.models.memory_plans",
    "ascend_dsa.models.design_point",
    "ascend_dsa.models.pipeline",
    "ascend_dsa.report.claims",
    "ascend_dsa.report.checks",
    "ascend_dsa.cli",
)


@dataclass(frozen=True)
class Import:
    """One import statement's target, where it stands, and whether it runs when the module is imported."""

    path: Path
    line: int
    target: str  # the dotted module imported (for ``from a import b``: ``a.b`` when that is a module, else ``a``)
    module_level: bool  # False under ``if TYPE_CHECKING:`` or inside a function

    def where(self) -> str:
        """``path:line`` relative to the project root, for failure messages."""
        return f"{_shown(self.path)}:{self.line}"


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def read_imports(
    source: str, path: Path, module: str, *, is_package: bool = False, known: Iterable[str] = ()
) -> list[Import]:
    """Every import of ``source`` (the text of ``module``, found at ``path``), as ascend_dsa.imports reads it.

    ``known`` lists our modules, so that ``from ascend_dsa import cli`` counts as importing ``ascend_dsa.cli``.
    """
    modules = set(known)
    found = import_reader.read_imports(source, module, is_package=is_package).imports
    targets = {(i.line, i.target(modules), i.runs_on_import) for i in found}
    return [Import(path, line, target, module_level) for line, target, module_level in sorted(targets)]


def package_modules(src: Path = SRC) -> dict[str, Path]:
    """Every module of the package under ``src``: dotted name -> file."""
    return import_reader.package_modules(src)


def layer_of(module: str) -> str:
    """The layer a module of ours belongs to; ValueError for one outside every layer."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        raise ValueError(f"module must be in {PACKAGE}, got {module}")
    if len(parts) == 1 or parts[1] == "__main__":
        return "facade"
    if parts[1] in LEAVES:
        return "leaf"
    if parts[1] in LAYER_RANKS and parts[1] not in {"leaf", "facade"}:
        return parts[1]
    raise ValueError(f"{module} belongs to no layer: add it to LAYER_RANKS or LEAVES in tests/test_layers.py")


def may_import(importer: str, imported: str) -> bool:
    """Whether a module of layer ``importer`` may import one of layer ``imported``."""
    if importer == imported:
        return True
    return LAYER_RANKS[imported] < LAYER_RANKS[importer]


def is_standard_library(module: str) -> bool:
    """Whether ``module`` is part of Python's standard library (or ``__future__``)."""
    return module.partition(".")[0] in sys.stdlib_module_names | {"__future__"}


def all_imports(modules: Mapping[str, Path]) -> dict[str, list[Import]]:
    """Each of our modules -> its imports."""
    return {
        name: read_imports(
            path.read_text(encoding="utf-8"), path, name, is_package=path.name == "__init__.py", known=modules
        )
        for name, path in modules.items()
    }


def ours(target: str) -> bool:
    """Whether ``target`` is a module of this package."""
    return target == PACKAGE or target.startswith(f"{PACKAGE}.")


def upward_imports(imports: Mapping[str, list[Import]]) -> list[str]:
    """One message per import of a higher layer (or a sibling top layer), naming file, line and import."""
    return [
        f"{imp.where()}: {layer_of(module)} module {module} imports {imp.target} ({layer_of(imp.target)} layer)"
        for module, module_imports in imports.items()
        for imp in module_imports
        if ours(imp.target) and not may_import(layer_of(module), layer_of(imp.target))
    ]


def third_party_imports(
    imports: Mapping[str, list[Import]], modules: Iterable[str], *, module_level: bool
) -> list[str]:
    """One message per import outside the standard library and the package among ``modules``' imports.

    With ``module_level``, only the imports that run when the module is imported count.
    """
    return [
        f"{imp.where()}: {module} imports {imp.target}, which is not in the standard library"
        for module in modules
        for imp in imports[module]
        if (imp.module_level or not module_level) and not ours(imp.target) and not is_standard_library(imp.target)
    ]


def runtime_closure(imports: Mapping[str, list[Import]], roots: Iterable[str]) -> set[str]:
    """Our modules that importing ``roots`` runs: module-level imports, followed, and their parent packages."""
    seen: set[str] = set()
    pending = list(roots)
    while pending:
        module = pending.pop()
        if module in seen or module not in imports:
            continue
        seen.add(module)
        pending.extend(import_reader.parents(module))
        pending.extend(imp.target for imp in imports[module] if imp.module_level and ours(imp.target))
    return seen


def _reachable(graph: Mapping[str, list[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    pending = list(graph[start])
    while pending:
        module = pending.pop()
        if module not in seen:
            seen.add(module)
            pending.extend(graph[module])
    return seen


def import_cycles(imports: Mapping[str, list[Import]]) -> list[list[str]]:
    """Every set of modules that import each other in a circle (any import counts), each as a sorted list."""
    graph = {
        module: sorted({imp.target for imp in found if imp.target in imports and imp.target != module})
        for module, found in imports.items()
    }
    reach = {module: _reachable(graph, module) for module in graph}
    cycles: list[list[str]] = []
    for module in sorted(graph):
        if module in reach[module] and not any(module in cycle for cycle in cycles):
            cycles.append(sorted(other for other in reach[module] if module in reach[other]))
    return cycles


def private_imports(sources: Mapping[str, tuple[Path, str]]) -> dict[tuple[str, str], str]:
    """Each ``from ascend_dsa.x import _name`` in another module: (importer, ``x._name``) -> where and what.

    ``sources`` maps a dotted module name to its file and source. A module's private names are its own (STYLE.md
    1b, one door per function): a caller elsewhere that holds checked values calls ``public_function.trusted``
    (``ascend_dsa.validate.door``), not the private work.
    """
    found = {}
    for module, (path, source) in sources.items():
        for item in import_reader.read_imports(source, module, is_package=path.name == "__init__.py").imports:
            name, imported = item.name or "", f"{item.module}.{item.name}"
            private = name.startswith("_") and not name.startswith("__")
            if private and import_reader.is_ours(item.module) and item.module != module:
                found[(module, imported)] = f"{_shown(path)}:{item.line}: {module} imports {imported}, a private name"
    return found


MODULES: Final = package_modules()
IMPORTS: Final = all_imports(MODULES)


def test_every_module_has_a_layer() -> None:
    """Every module of the package belongs to a layer (a new top-level module must be placed deliberately)."""
    for module in MODULES:
        layer_of(module)


def test_top_level_stays_small() -> None:
    """The top level holds the facade, the entry point and the leaves: at most 8 files."""
    assert len(list((SRC / PACKAGE).glob("*.py"))) <= 8


def test_no_upward_import() -> None:
    """No module imports a layer above its own, type-only and function-local imports included."""
    found = upward_imports(IMPORTS)
    assert not found, "\n".join(found)


def test_no_import_cycle() -> None:
    """No two modules import each other, directly or through others."""
    cycles = import_cycles(IMPORTS)
    assert not cycles, "\n".join(" <-> ".join(cycle) for cycle in cycles)


def test_facts_import_only_the_standard_library() -> None:
    """No facts module imports a third-party library anywhere: not at module level, in a function or for types."""
    facts = [module for module in MODULES if layer_of(module) in {"leaf", "facts"}]
    found = third_party_imports(IMPORTS, facts, module_level=False)
    assert not found, "\n".join(found)


def test_closed_form_models_import_only_the_standard_library() -> None:
    """The closed-form models, and every module of ours they load, import only the standard library when loaded."""
    closure = sorted(runtime_closure(IMPORTS, CLOSED_FORM))
    found = third_party_imports(IMPORTS, closure, module_level=True)
    assert not found, "\n".join(found)


def test_facade_loads_nothing_at_import() -> None:
    """The facade imports none of our modules when loaded: its names resolve on first use."""
    found = [f"{imp.where()}: {imp.target}" for imp in IMPORTS[PACKAGE] if imp.module_level and ours(imp.target)]
    assert not found, "\n".join(found)


# The checker bites: synthetic sources with the faults it must find.


def _fake(module: str, source: str, **others: str) -> dict[str, list[Import]]:
    """Imports of a fake package made of ``module`` with ``source`` and ``others`` (dotted name -> source)."""
    sources = {module: source, **{name.replace("__", "."): text for name, text in others.items()}}
    known = set(sources) | set(MODULES)
    return {
        name: read_imports(text, SRC / f"{name.replace('.', '/')}.py", name, known=known)
        for name, text in sources.items()
    }


def test_checker_names_an_upward_import() -> None:
    """A facts module importing a model, even for types only, fails with the file, the line and the import."""
    source = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from ascend_dsa.models.roofline import X\n"
    [message] = upward_imports(_fake("ascend_dsa.facts.fake", source))
    assert message == (
        "src/ascend_dsa/facts/fake.py:4: facts module ascend_dsa.facts.fake imports "
        "ascend_dsa.models.roofline (models layer)"
    )


def test_checker_finds_function_local_and_relative_imports() -> None:
    """An upward import inside a function, or written relative (``from ..render import x``), is found too."""
    source = "def f():\n    from ..render import svg\n    return svg\n"
    [message] = upward_imports(_fake("ascend_dsa.models.fake", source))
    assert ":2: models module ascend_dsa.models.fake imports ascend_dsa.render.svg (render layer)" in message


def test_checker_refuses_site_and_cli_importing_each_other() -> None:
    """The two top layers are siblings: the command line does not import the site's modules."""
    [message] = upward_imports(_fake("ascend_dsa.cli.fake", "import ascend_dsa.site.prose_numbers\n"))
    assert "imports ascend_dsa.site.prose_numbers (site layer)" in message


def test_checker_finds_a_cycle() -> None:
    """Two models importing each other form a cycle, even when one import is type-only."""
    imports = _fake(
        "ascend_dsa.models.fake_a",
        "from ascend_dsa.models import fake_b\n",
        ascend_dsa__models__fake_b="if TYPE_CHECKING:\n    from ascend_dsa.models.fake_a import A\n",
    )
    assert import_cycles(imports) == [["ascend_dsa.models.fake_a", "ascend_dsa.models.fake_b"]]


def test_checker_finds_numpy_in_facts_even_inside_a_function() -> None:
    """A facts module reaching NumPy lazily still fails, naming the line; a model may do it inside a function."""
    source = "import math\n\n\ndef f():\n    import numpy as np\n    return np\n"
    facts = _fake("ascend_dsa.facts.fake", source)
    [message] = third_party_imports(facts, ["ascend_dsa.facts.fake"], module_level=False)
    assert message == (
        "src/ascend_dsa/facts/fake.py:5: ascend_dsa.facts.fake imports numpy, which is not in the standard library"
    )
    models = _fake("ascend_dsa.models.fake", source)
    assert third_party_imports(models, ["ascend_dsa.models.fake"], module_level=True) == []


def test_checker_follows_the_closure_of_a_closed_form_model() -> None:
    """A closed-form model that loads a module of ours importing ml_dtypes at module level fails through it."""
    imports = _fake(
        "ascend_dsa.models.fake_closed",
        "from ascend_dsa.models.fake_heavy import x\n",
        ascend_dsa__models__fake_heavy="import ml_dtypes\n",
    )
    closure = runtime_closure(imports, ["ascend_dsa.models.fake_closed"])
    assert closure == {"ascend_dsa.models.fake_closed", "ascend_dsa.models.fake_heavy"}
    [message] = third_party_imports(imports, sorted(closure), module_level=True)
    assert message.endswith(
        "fake_heavy.py:1: ascend_dsa.models.fake_heavy imports ml_dtypes, which is not in the standard library"
    )


def test_no_module_imports_another_modules_private_name() -> None:
    """No module imports a ``_private`` name of another of ours: its public door's ``.trusted`` is the way in."""
    found = private_imports({name: (path, path.read_text(encoding="utf-8")) for name, path in MODULES.items()})
    assert list(found.values()) == []


def test_checker_names_a_private_import() -> None:
    """A model importing another module's ``_work`` fails naming the file, line and name; its own privates do not."""
    source = "from ascend_dsa.models.memory_plans import _ub_plan, ub_plan\nfrom ascend_dsa.models.fake import _own\n"
    path = SRC / "ascend_dsa/models/fake.py"
    [message] = private_imports({"ascend_dsa.models.fake": (path, source)}).values()
    assert message == (
        "src/ascend_dsa/models/fake.py:1: ascend_dsa.models.fake imports ascend_dsa.models.memory_plans._ub_plan, "
        "a private name"
    )
