"""Under ``mkdocs serve``: forget the package modules an edit changed, so that the next build imports them afresh.

A module is forgotten when its file's digest changed since the last build, or when it imports (directly or through
others, run-time imports only) a module that is forgotten: it holds names bound from the old code. The facade is
forgotten whenever anything is, as it keeps every name it has handed out. Each forgotten module also leaves its
parent package's attribute, or ``from package import module`` would still find the old one. Modules an edit cannot
have reached keep their identity and whatever they cached.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ascend_dsa.imports import PACKAGE

if TYPE_CHECKING:
    from collections.abc import Iterable, MutableMapping
    from pathlib import Path
    from types import ModuleType

    from ascend_dsa.site.sources import SourceTree


def stale_modules(tree: SourceTree, changed: Iterable[Path]) -> set[str]:
    """The loaded modules an edit of the files ``changed`` makes stale (a new or removed module counts as changed)."""
    edited = {name for file in changed if (name := tree.module_of(file)) is not None}
    edited |= {name for name in _loaded() if name not in tree.modules}  # a removed module
    if any(file.suffix != ".py" for file in changed):  # data a module may have read when imported
        edited |= set(tree.modules)
    if not edited:
        return set()
    return tree.importers(edited) | {PACKAGE}


def forget(names: Iterable[str], modules: MutableMapping[str, ModuleType] | None = None) -> tuple[str, ...]:
    """Drop ``names`` from ``sys.modules`` (or ``modules``) and from their parent packages; the names dropped."""
    loaded = sys.modules if modules is None else modules
    dropped = sorted(name for name in set(names) if name in loaded)
    for name in dropped:
        del loaded[name]
    for name in dropped:
        parent, _, child = name.rpartition(".")
        package = loaded.get(parent)
        if package is not None and getattr(package, child, None) is not None:
            delattr(package, child)
    return tuple(dropped)


def _loaded() -> list[str]:
    return [name for name in sys.modules if name == PACKAGE or name.startswith(f"{PACKAGE}.")]
