"""MkDocs hook: forget ``ascend_dsa`` before each build, so ``mkdocs serve`` shows edits to the package."""

from __future__ import annotations

import sys
from typing import Any


def on_pre_build(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Drop every imported ``ascend_dsa`` module; the next markdown-exec block imports the current code."""
    for name in [m for m in sys.modules if m == "ascend_dsa" or m.startswith("ascend_dsa.")]:
        del sys.modules[name]
