"""Which files of ``src/`` a piece of Python code can run, read from the sources: not itself a hook.

Under ``mkdocs serve``, a block's output (hooks/build_guard.py) and a rendered page (hooks/serve_cache.py) are kept
until one of the files they depend on changes. For Python code those are the package modules it imports, the
modules those import, and so on (imports inside functions included, ``if TYPE_CHECKING:`` ones left out), with
every ``__init__.py`` on the way and every file of ``src/`` that is not Python (data a module may read). A name
imported from the lazy facade (``from ascend_dsa import X``) is followed to the module its ``TYPE_CHECKING`` table
says owns it. Where the code's imports cannot be read (a syntax error, ``import ascend_dsa`` and attribute access,
``importlib``, ``__import__``, a name the facade does not list), the answer is every file of ``src/``; the facade
itself is the one module allowed ``importlib``, as it imports exactly what its table says.
"""

from __future__ import annotations

import ast
from pathlib import Path

from serve_state import file_digest, files_in

#: The package whose modules are followed.
PACKAGE = "ascend_dsa"
#: Calls that import a module named at run time: code making them may run any module.
DYNAMIC_IMPORTS = frozenset({"import_module", "__import__"})

#: What ``_file_imports`` found, by file digest and whether annotations' imports count: kept for the process
#: (a file's imports change only with its content).
_PARSED: dict[tuple[str, bool], tuple[frozenset[str], bool]] = {}
#: The facade's table of names, by the facade's digest (the last one only).
_FACADES: dict[str, dict[str, str]] = {}


def _is_type_checking(node: ast.AST) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:`` (its imports never run)."""
    return isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")


def _walk(tree: ast.AST, *, annotations: bool) -> list[ast.AST]:
    """Every node of ``tree``, outside ``if TYPE_CHECKING:`` blocks unless ``annotations``."""
    found: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(c for c in ast.iter_child_nodes(node) if annotations or not _is_type_checking(c))
    return found


def imports_of(
    tree: ast.AST, module: str, *, is_package: bool, annotations: bool = False
) -> tuple[frozenset[str], bool]:
    """The ``ascend_dsa`` names ``tree`` (of module ``module``) imports, and whether it may import any module."""
    names: set[str] = set()
    dynamic = False
    for node in _walk(tree, annotations=annotations):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
            # ``import ascend_dsa`` (or a submodule, unaliased) binds the package: any attribute may follow.
            dynamic |= any(a.asname is None and a.name.split(".")[0] == PACKAGE for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join([*parts, base] if base else parts)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call):
            function = node.func
            called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
            dynamic |= called in DYNAMIC_IMPORTS
    ours = frozenset(n for n in names if n == PACKAGE or n.startswith(f"{PACKAGE}."))
    return ours, dynamic


def _modules(src: Path) -> dict[str, Path]:
    """``{dotted module name: file}`` for every Python file of the package under ``src``."""
    modules = {}
    for file in files_in(src / PACKAGE):
        if file.suffix == ".py":
            parts = file.relative_to(src).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = file
    return modules


def _file_imports(module: str, file: Path, *, annotations: bool) -> tuple[frozenset[str], bool]:
    """The imports of one module's file (parsed once per content)."""
    key = (file_digest(file), annotations)
    if key not in _PARSED:
        try:
            tree = ast.parse(file.read_bytes())
        except (SyntaxError, ValueError):
            _PARSED[key] = (frozenset(), True)
        else:
            is_package = file.name == "__init__.py"
            _PARSED[key] = imports_of(tree, module, is_package=is_package, annotations=annotations)
    return _PARSED[key]


def _facade(modules: dict[str, Path]) -> dict[str, str]:
    """``{public name: owning module}`` from the facade's ``if TYPE_CHECKING:`` imports (read once per content)."""
    key = file_digest(modules[PACKAGE])
    if key not in _FACADES:
        tree = ast.parse(modules[PACKAGE].read_bytes())
        owners: dict[str, str] = {}
        for block in (n for n in tree.body if _is_type_checking(n)):
            for node in ast.walk(block):
                if isinstance(node, ast.ImportFrom) and node.module:
                    owners.update({alias.asname or alias.name: node.module for alias in node.names})
        _FACADES.clear()
        _FACADES[key] = owners
    return _FACADES[key]


def depends(code: str, src: Path, *, annotations: bool = False) -> tuple[Path, ...]:
    """The files of ``src`` that running ``code`` (Python source) can execute or read; all of them if unsure.

    With ``annotations``, imports made only for type checking are followed too: what documenting the code reads.
    """
    everything = files_in(src)
    modules = _modules(src)
    if PACKAGE not in modules:
        return everything
    try:
        start, dynamic = imports_of(ast.parse(code), "__main__", is_package=False)
    except (SyntaxError, ValueError):
        return everything
    facade = _facade(modules)
    seen: set[str] = set()
    todo = list(start)
    while todo and not dynamic:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name == PACKAGE:
            continue  # the facade itself loads no module of ours; the names taken from it are followed below
        parent, _, last = name.rpartition(".")
        if name not in modules:  # a name imported from a module, or from the facade
            if parent == PACKAGE and last in facade:
                todo.append(facade[last])
            elif parent in modules and parent != PACKAGE:
                todo.append(parent)
            else:
                dynamic = True  # an import the sources do not explain
            continue
        todo.extend(".".join(name.split(".")[:depth]) for depth in range(1, name.count(".") + 1))
        found, dynamic_here = _file_imports(name, modules[name], annotations=annotations)
        dynamic |= dynamic_here
        todo.extend(found)
    if dynamic:
        return everything
    files = {modules[name] for name in seen if name in modules} | {modules[PACKAGE]}
    files.update(file for file in everything if file.suffix != ".py")
    return tuple(sorted(files))
