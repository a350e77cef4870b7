"""No module of the site writes to a dependency's private attribute, but ascend_dsa/site/internals.py.

A private attribute of MkDocs, Material, mkdocstrings or markdown-exec can change in any release without notice. The
site layer is the only one that uses these libraries, and its one use of such an attribute is in one module, whose
own test fails loudly when it changes (tests/site/test_internals.py). Every other write is found in the sources:
``obj._name = ...`` (also ``+=``, ``del``) on anything but ``self`` or ``cls``, and ``setattr``/``delattr`` with a
private name (a literal, or a module constant holding one), unless the object is a function the same code defined.
"""

from __future__ import annotations

import ast

import pytest

from ascend_dsa.imports import package_modules
from tests.helpers.project import ROOT

#: The one module allowed to write private attributes (it says why, attribute by attribute).
ALLOWED = ROOT / "src" / "ascend_dsa" / "site" / "internals.py"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_attribute_call(node: ast.AST) -> bool:
    """Whether ``node`` is ``setattr(obj, name, ...)`` or ``delattr(obj, name)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in {"setattr", "delattr"}
        and len(node.args) >= 2
    )


def private_writes(source: str, path: str) -> list[str]:
    """One message per write to a private attribute of an object not ``self``/``cls`` in ``source``."""
    tree = ast.parse(source)
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    found: list[str] = []

    def visit(node: ast.AST, own: frozenset[str]) -> None:
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del) and _private(node.attr):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in {"self", "cls"}):
                found.append(f"{path}:{node.lineno}: writes {ast.unparse(node)}")
        elif _is_attribute_call(node) and isinstance(node, ast.Call):
            target, name = node.args[0], node.args[1]
            text = name.value if isinstance(name, ast.Constant) else constants.get(getattr(name, "id", ""), "")
            ours = isinstance(target, ast.Name) and (target.id in own or target.id in {"self", "cls"})
            if isinstance(text, str) and _private(text) and not ours:
                found.append(f"{path}:{node.lineno}: {ast.unparse(node.func)}({ast.unparse(target)}, {text!r})")
        inner = own
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef):
            defined = {n.name for n in ast.walk(node) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
            inner = own | defined
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, frozenset())
    return sorted(set(found))


def test_no_module_writes_a_private_attribute_but_internals() -> None:
    """Across the site layer, only ascend_dsa/site/internals.py writes to another object's private attribute."""
    found = [
        message
        for name, path in package_modules(ROOT / "src").items()
        if name.startswith("ascend_dsa.site.") and path != ALLOWED
        for message in private_writes(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_internals_is_where_the_writes_are() -> None:
    """The allowed module does write private attributes: the scan sees them (so a clean result means something)."""
    assert private_writes(ALLOWED.read_text(encoding="utf-8"), "internals.py")


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("page._title_from_render = 'x'", True),
        ("handler._modules_collection += 1", True),
        ("del plugin._handlers", True),
        ("setattr(rendering, '_get_formatter', f)", True),
        ("NAME = '_get_formatter'\nsetattr(rendering, NAME, f)", True),
        ("self._cache = {}", False),
        ("page.content = 'x'", False),
        ("def f():\n    def g():\n        pass\n    setattr(g, '_marker', True)\n", False),
        ("obj.__doc__ = 'x'", False),
    ],
)
def test_the_scan_catches_what_it_must(source: str, *, caught: bool) -> None:
    """Private writes by attribute, augmented assignment, del and setattr are caught; our own are not."""
    assert bool(private_writes(source, "x.py")) is caught
