"""MkDocs hook: keep the site free of requests to other hosts, with one-line errors that say what to do.

- Before building, check that the KaTeX and Pyodide which ``make setup`` fetches are in place.
- Material's bundle can load mermaid from a CDN when a page contains a ``mermaid`` diagram. The privacy plugin is
  told to skip that one URL (it is in the bundle whether used or not), so this hook makes a page that would trigger
  it a warning instead, which fails the strict build.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.hooks.offline")

#: Files below ``docs_dir`` that pages load, by the package scripts/fetch_vendor.py puts them there as.
VENDORED = {
    "assets/vendor/katex/katex.min.js": "katex",
    "assets/vendor/katex/katex.min.css": "katex",
    "assets/vendor/pyodide/pyodide.mjs": "pyodide",
    "assets/vendor/pyodide/pyodide.asm.mjs": "pyodide",
    "assets/vendor/pyodide/pyodide.asm.wasm": "pyodide",
    "assets/vendor/pyodide/python_stdlib.zip": "pyodide",
    "assets/vendor/pyodide/pyodide-lock.json": "pyodide",
}

#: Markup that makes Material fetch mermaid from a CDN in the reader's browser.
MERMAID = re.compile(r"""class=["'](?:[^"']*\s)?mermaid(?:\s[^"']*)?["']""")


def on_config(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Raise PluginError naming the set-up command if a vendored file is absent."""
    docs = Path(config["docs_dir"])
    missing = [name for name in VENDORED if not (docs / name).is_file()]
    if missing:
        package = VENDORED[missing[0]]
        raise PluginError(
            f"{docs / missing[0]} is missing: run `make setup` (or `python scripts/fetch_vendor.py {package}`)"
        )


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Warn (an error under --strict) when a page has a mermaid diagram, which would load mermaid from a CDN."""
    if MERMAID.search(html):
        log.warning(
            "%s: a mermaid diagram makes the browser fetch mermaid from a CDN; draw an inline SVG with the package",
            page.file.src_uri,
        )
    return html
