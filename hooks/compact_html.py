"""MkDocs hook: fold the white space between tags of every built page (see :mod:`ascend_dsa.site.compact_html`)."""

from __future__ import annotations

import importlib
from typing import Any

from mkdocs.plugins import event_priority


@event_priority(-100)
def on_post_page(output: str, **_: Any) -> str:  # noqa: ANN401 - MkDocs' keyword arguments
    """The page's HTML with its inter-tag white space folded, after every other hook and plugin."""
    return str(importlib.import_module("ascend_dsa.site.compact_html").compact_html(output))
