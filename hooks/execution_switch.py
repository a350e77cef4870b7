"""MkDocs hook: with ``ASCEND_DSA_NO_EXEC=1`` the build runs no page code, to time the build's floor.

markdown-exec blocks are shown as their source instead of being run, and mkdocs-jupyter's ``execute`` is switched off,
so that hooks/build_guard.py (listed after this hook) runs no notebook. Without the variable this hook does nothing.
``benchmarks/site_build.py`` uses it; never set it for a real build.
"""

from __future__ import annotations

import html
import os
from typing import Any

from markdown_exec import validator

ENVIRONMENT_VARIABLE = "ASCEND_DSA_NO_EXEC"


def execution_disabled() -> bool:
    """Whether the environment asks for a build without code execution."""
    return os.environ.get(ENVIRONMENT_VARIABLE, "") not in {"", "0"}


def show_source(source: str, language: str, *args: Any, **kwargs: Any) -> str:  # noqa: ARG001, ANN401
    """Render a block as its escaped source, without running it (a superfences ``format`` function)."""
    return f'<pre><code class="language-{html.escape(language)}">{html.escape(source)}</code></pre>'


def on_config(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Swap markdown-exec's formatter for ``show_source`` and switch notebook execution off."""
    if not execution_disabled():
        return
    fences = config["mdx_configs"].get("pymdownx.superfences", {}).get("custom_fences", [])
    for fence in fences:
        if fence.get("validator") is validator:
            fence["format"] = show_source
    jupyter = config["plugins"].get("mkdocs-jupyter")
    if jupyter is not None:
        jupyter.config["execute"] = False
