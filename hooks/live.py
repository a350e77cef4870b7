"""MkDocs hook: the live what-ifs. Pages with a live form load live.js; the site gets the package it runs.

A page whose HTML has a form with ``data-live`` gets ``assets/javascripts/live.js`` as a module script; other pages
load nothing more. After the build, the package's source (the tree this build imported) is packed into
``assets/live/ascend_dsa.zip`` for the browser to import (``ascend_dsa.site.live``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ascend_dsa.site.live import with_live_script, write_core


def on_post_page(output: str, page: Any, **kwargs: Any) -> str:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Add live.js to a page that has a live form."""
    return with_live_script(output, page.url)


def on_post_build(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Pack the package into the built site."""
    write_core(Path(config["site_dir"]))
