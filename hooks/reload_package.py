"""MkDocs hook: forget ``ascend_dsa`` when its source changed, so ``mkdocs serve`` shows edits to the package.

Between two builds of one process (``mkdocs serve``, or the English build after the Chinese one) the package is
dropped from ``sys.modules`` only if one of its files changed since the last build ended; an unchanged package
keeps its modules, and the results they cache, instead of being imported again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from serve_state import STATE

#: Modification times of the package's files when the last build ended (empty before the first build); kept in
#: hooks/serve_state.py, as ``mkdocs serve`` executes this module afresh before each rebuild.
_SEEN: dict[str, int] = STATE.package_mtimes


def _package_mtimes() -> dict[str, int]:
    """``{path: mtime_ns}`` of every ``.py`` file of the imported package; empty if it is not imported."""
    package = sys.modules.get("ascend_dsa")
    location = getattr(package, "__file__", None)
    if location is None:
        return {}
    return {str(path): path.stat().st_mtime_ns for path in Path(location).parent.rglob("*.py")}


def on_pre_build(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Drop every imported ``ascend_dsa`` module unless the package is unchanged since the last build."""
    current = _package_mtimes()
    if current and current == _SEEN:
        return
    for name in [m for m in sys.modules if m == "ascend_dsa" or m.startswith("ascend_dsa.")]:
        del sys.modules[name]


def on_post_build(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Remember the package's files as this build saw them."""
    _SEEN.clear()
    _SEEN.update(_package_mtimes())
