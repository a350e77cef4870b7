"""MkDocs hook: fill ``{{ name }}`` in page prose from the package, and fail on any number typed by hand.

The rules and the exemptions are in :mod:`ascend_dsa.site.prose_numbers`; the values in
:mod:`ascend_dsa.report.prose_values`.
Markdown pages are filled before they are rendered; notebooks (rendered by mkdocs-jupyter) are checked from their
markdown cells and filled in the HTML. A typed number, or an unknown name, stops the build naming the page file;
under ``mkdocs serve`` (``serving`` in hooks/serve_state.py) it is one ERROR line and an error box at the top of
the page instead, and serving goes on (an exception here used to fail the rebuild, so every page request waited).
The package is imported on each call, so ``mkdocs serve`` sees a reloaded package (hooks/reload_package.py).
"""

from __future__ import annotations

import html
import importlib
import json
import logging
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from serve_state import STATE

#: One line per failure, on the logger hooks/build_guard.py reports its failures on.
report = logging.getLogger("ascend_dsa.build_guard")


def _lang(page: Any) -> str:  # noqa: ANN401 - MkDocs' Page
    return str(importlib.import_module("ascend_dsa.site.pages").page_lang(page.file.src_uri))


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


def _box(error: PluginError, page: Any) -> str:  # noqa: ANN401 - MkDocs' Page
    """An error box for the top of the page, in its language, saying what is wrong with its prose."""
    words = importlib.import_module("ascend_dsa.site.pages").error_box_words(f"docs/{page.file.src_uri}")
    return (
        '<div class="admonition failure build-guard-error">\n'
        f'<p class="admonition-title">{html.escape(words[0])}: PluginError</p>\n'
        f"<pre><code>{html.escape(str(error))}</code></pre>\n</div>\n\n"
    )


def _unknown_shown(text: str) -> str:
    """``text`` with every ``{{ name }}`` that has no value shown as code (left unfilled), so the rest can be filled.

    The braces are written as HTML entities, in Markdown as in HTML: `fill` fills markers in inline code too, so a
    marker merely put in backticks would be filled (and fail) again.
    """
    prose = _module()

    def shown(match: Any) -> str:  # noqa: ANN401 - re.Match
        if match.group(1) in prose.PROSE_VALUES:  # a known name is filled later; no need to compute it here
            return str(match.group(0))
        return f"<code>&#123;&#123; {match.group(1)} &#125;&#125;</code>"

    return str(prose.MARKER.sub(shown, text))


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:  # noqa: ANN401, ARG001 - hook signature
    """Check the page's prose, then fill its values (under serve, a failed check is a box at the top)."""
    if page.file.src_uri.endswith(".ipynb"):
        return markdown
    try:
        _check(markdown, page)
    except PluginError as error:
        if not STATE.serving:
            raise
        report.error("%s", error)
        return _box(error, page) + str(_module().fill(_unknown_shown(markdown), _lang(page)))
    return str(_module().fill(markdown, _lang(page)))


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:  # noqa: ANN401, ARG001 - hook signature
    """For a notebook: check its markdown cells, then fill its values in the rendered page and its headings."""
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    cells = json.loads(Path(page.file.abs_src_path).read_text(encoding="utf-8"))["cells"]
    try:
        _check("\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown"), page)
    except PluginError as error:
        if not STATE.serving:
            raise
        report.error("%s", error)
        html = _box(error, page) + _unknown_shown(html)
    lang = _lang(page)
    pending = list(page.toc)
    while pending:
        item = pending.pop()
        item.title = str(_module().fill_html(_unknown_shown(item.title), lang))
        pending.extend(item.children)
    return str(_module().fill_html(html, lang))
