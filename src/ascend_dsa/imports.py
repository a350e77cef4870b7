"""What a Python module's source imports, read with ``ast``: the one reader of imports in the project.

The facade finds which module owns each public name here (its ``if TYPE_CHECKING:`` table), the site's edit loop
finds which files a block or an API page depends on, the layer test checks that imports flow down the layers, and
the mutation script finds the tests that speak for a module. Nothing is imported to answer: a module with a syntax
error is reported as such, not run.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

#: The package whose modules these readers follow.
PACKAGE: Final = "ascend_dsa"
#: Calls that import a module named at run time (``importlib.import_module(...)``, ``__import__(...)``).
DYNAMIC_IMPORTS: Final = frozenset({"import_module", "__import__"})


@dataclass(frozen=True)
class Import:
    """One imported name as the source writes it, where it stands, and when it runs.

    ``module`` is the module named (absolute, relative imports resolved); ``name`` the name taken from it by
    ``from module import name`` (None for ``import module``), bound as ``alias``. ``runs_on_import`` is False for
    an import under ``if TYPE_CHECKING:`` or inside a function; ``type_only`` marks the former. A literal
    ``importlib.import_module("x")`` counts as an import of ``x`` that does not run on import.
    """

    module: str
    name: str | None
    alias: str
    line: int
    runs_on_import: bool
    type_only: bool

    def target(self, modules: Iterable[str] = ()) -> str:
        """The module this import loads: ``module.name`` when that is one of ``modules``, else ``module``."""
        if self.name is not None and f"{self.module}.{self.name}" in set(modules):
            return f"{self.module}.{self.name}"
        return self.module


@dataclass(frozen=True)
class ModuleImports:
    """Every import of one module's source, and whether it can also import a module only named at run time.

    ``dynamic`` is True for a call of ``import_module``/``__import__`` whose module is not a string literal, and for
    a plain ``import ascend_dsa`` (or of a subpackage without ``as``), after which any attribute may load a module.
    """

    imports: tuple[Import, ...]
    dynamic: bool

    def ours(self, *, with_type_only: bool = True) -> tuple[Import, ...]:
        """The imports of the package's own modules (those only for type checking too, if ``with_type_only``)."""
        return tuple(i for i in self.imports if is_ours(i.module) and (with_type_only or not i.type_only))


def is_ours(module: str) -> bool:
    """Whether the dotted ``module`` is the package or one of its modules."""
    return module == PACKAGE or module.startswith(f"{PACKAGE}.")


def is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` test is ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``): its imports never run."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(module: str, node: ast.ImportFrom, *, is_package: bool) -> str:
    """The absolute module of ``from .x import y`` written in ``module``."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _called(node: ast.Call) -> str:
    """The name a call calls: ``f`` for ``f(...)`` and ``m.f(...)``, else ""."""
    function = node.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def read_imports(source: str | bytes, module: str, *, is_package: bool = False) -> ModuleImports:
    """Every import in ``source``, the text of ``module`` (a package's ``__init__`` when ``is_package``).

    Raises SyntaxError (or ValueError for a null byte) when the source does not parse.
    """
    found: list[Import] = []
    dynamic = False

    def visit(node: ast.AST, *, runs: bool, type_only: bool) -> None:
        nonlocal dynamic
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                found.append(Import(alias.name, None, bound, node.lineno, runs, type_only))
                dynamic |= not type_only and alias.asname is None and is_ours(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node, is_package=is_package)
            found.extend(
                Import(base, alias.name, alias.asname or alias.name, node.lineno, runs, type_only)
                for alias in node.names
            )
        elif isinstance(node, ast.Call) and _called(node) in DYNAMIC_IMPORTS:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(Import(first.value, None, "", node.lineno, runs_on_import=False, type_only=type_only))
            else:
                dynamic |= not type_only
        inner = runs and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            checking = isinstance(node, ast.If) and is_type_checking(node.test) and child in node.body
            visit(child, runs=inner and not checking, type_only=type_only or checking)

    visit(ast.parse(source), runs=True, type_only=False)
    return ModuleImports(tuple(found), dynamic)


def facade_homes(source: str | bytes) -> dict[str, str]:
    """Each name the facade's top-level ``if TYPE_CHECKING:`` block imports, and the module it comes from."""
    tree = ast.parse(source)
    return {
        alias.asname or alias.name: node.module
        for block in tree.body
        if isinstance(block, ast.If) and is_type_checking(block.test)
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


def package_modules(src: Path, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of ``package`` under the folder ``src``: dotted name -> file, in sorted order of files."""
    found: dict[str, Path] = {}
    for path in sorted((src / package).rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(src).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def parents(module: str) -> tuple[str, ...]:
    """The packages Python imports before ``module``: ``ascend_dsa``, ``ascend_dsa.facts``, ... (outermost first)."""
    parts = module.split(".")
    return tuple(".".join(parts[:end]) for end in range(1, len(parts)))


def module_graph(imports: Mapping[str, ModuleImports], *, with_type_only: bool = False) -> dict[str, frozenset[str]]:
    """Each module of ours -> the modules of ours its imports load (type-only ones too, if ``with_type_only``)."""
    modules = set(imports)
    return {
        name: frozenset(
            t for i in found.ours(with_type_only=with_type_only) if (t := i.target(modules)) in modules and t != name
        )
        for name, found in imports.items()
    }
