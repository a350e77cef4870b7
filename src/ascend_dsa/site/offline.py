"""Keep the site free of requests to other hosts, with one-line errors that say what to do.

- Before building, check that the KaTeX and Pyodide which ``make setup`` fetches are in place.
- Material's bundle can load mermaid from a CDN when a page contains a ``mermaid`` diagram. The privacy plugin is
  told to skip that one URL (it is in the bundle whether used or not), so a page that would trigger it is a failure
  instead, which fails the strict build.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

#: Files below ``docs_dir`` that pages load, by the package scripts/fetch_vendor.py puts them there as.
VENDORED: Final = {
    "assets/vendor/katex/katex.min.js": "katex",
    "assets/vendor/katex/katex.min.css": "katex",
    "assets/vendor/pyodide/pyodide.mjs": "pyodide",
    "assets/vendor/pyodide/pyodide.asm.mjs": "pyodide",
    "assets/vendor/pyodide/pyodide.asm.wasm": "pyodide",
    "assets/vendor/pyodide/python_stdlib.zip": "pyodide",
    "assets/vendor/pyodide/pyodide-lock.json": "pyodide",
}

#: Markup that makes Material fetch mermaid from a CDN in the reader's browser.
MERMAID: Final = re.compile(r"""class=["'](?:[^"']*\s)?mermaid(?:\s[^"']*)?["']""")


class MissingVendoredFile(Exception):  # noqa: N818 - it names what is missing, not an error of ours
    """A file ``make setup`` fetches is not in place."""


def check_vendored(docs_dir: Path) -> None:
    """Raise `MissingVendoredFile` naming the set-up command if a vendored file is absent."""
    missing = [name for name in VENDORED if not (docs_dir / name).is_file()]
    if missing:
        package = VENDORED[missing[0]]
        raise MissingVendoredFile(
            f"{docs_dir / missing[0]} is missing: run `make setup` (or `python scripts/fetch_vendor.py {package}`)"
        )


class CdnDiagram(Exception):  # noqa: N818 - it names what the page holds
    """A page holds a mermaid diagram, which would make the reader's browser fetch mermaid from a CDN."""


def check_no_cdn_diagram(html: str) -> None:
    """Raise `CdnDiagram` when ``html`` has a mermaid diagram."""
    if MERMAID.search(html):
        raise CdnDiagram(
            "a mermaid diagram makes the browser fetch mermaid from a CDN; draw an inline SVG with the package"
        )
