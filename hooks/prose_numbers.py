"""MkDocs hook: fill ``{{ name }}`` in page prose from the package, and fail on any number typed by hand.

The rules and the exemptions are in :mod:`ascend_dsa.site.prose_numbers`; the values in
:mod:`ascend_dsa.report.prose_values`.
Markdown pages are filled before they are rendered; notebooks (rendered by mkdocs-jupyter) are checked from their
markdown cells and filled in the HTML. A typed number, or an unknown name, stops the build naming the page file.
The package is imported on each call, so ``mkdocs serve`` sees a reloaded package (hooks/reload_package.py).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError


def _lang(page: Any) -> str:  # noqa: ANN401 - MkDocs' Page
    return "en" if ".en." in page.file.src_uri else "zh"


def _module() -> Any:  # noqa: ANN401 - the module, imported afresh after a reload
    return importlib.import_module("ascend_dsa.site.prose_numbers")


def _check(source: str, page: Any) -> None:  # noqa: ANN401 - MkDocs' Page
    prose = _module()
    for name in prose.MARKER.findall(source):
        try:
            prose.quantity(name)
        except KeyError as error:
            raise PluginError(f"docs/{page.file.src_uri}: {error.args[0]}") from None
    typed = prose.typed_numbers(source)
    if typed:
        listed = "; ".join(f"line {t.line}: {t.number} in {t.context!r}" for t in typed)
        raise PluginError(
            f"docs/{page.file.src_uri}: {len(typed)} number(s) typed by hand in prose ({listed}); "
            "write {{ name }} with a value from ascend_dsa.report.prose_values, or cite"
        )


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:  # noqa: ANN401, ARG001 - hook signature
    """Check the page's prose, then fill its values."""
    if page.file.src_uri.endswith(".ipynb"):
        return markdown
    _check(markdown, page)
    return str(_module().fill(markdown, _lang(page)))


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:  # noqa: ANN401, ARG001 - hook signature
    """For a notebook: check its markdown cells, then fill its values in the rendered page and its headings."""
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    cells = json.loads(Path(page.file.abs_src_path).read_text(encoding="utf-8"))["cells"]
    _check("\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown"), page)
    lang = _lang(page)
    pending = list(page.toc)
    while pending:
        item = pending.pop()
        item.title = str(_module().fill_html(item.title, lang))
        pending.extend(item.children)
    return str(_module().fill_html(html, lang))
