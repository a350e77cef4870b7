"""The steps that follow a page's rendering, as pure functions of its HTML: what `ascend_dsa.site.step_cache` keeps.

`content` runs on the page's article (``on_page_content``), `output` on the whole written page (``on_post_page``).
Each depends only on its arguments and on the code of this module and what it imports, which is how the step cache
keys their results under ``mkdocs serve`` (`ascend_dsa.site.app`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ascend_dsa.render.markdown import DATA_MARKER
from ascend_dsa.site import cjk, compact_html, downloads, editions, glossary, notebook_css, offline

if TYPE_CHECKING:
    from ascend_dsa.lang import Lang

#: Reports a failure of the page: what failed, and the error.
Record = Callable[[str, Exception], None]


def content(html: str, lang: Lang, record: Record, *, prose: bool = True) -> tuple[str, dict[str, bytes]]:
    """The article checked, first titles kept, the tables' downloads taken out (returned by name), Chinese lines joined.

    It is checked for a diagram needing a CDN and, on an English page of ``prose`` (not an API page, whose
    docstrings show the Chinese text the code writes), for Chinese with no English beside it. A step that fails is
    ``record``-ed and leaves the HTML as it was.
    """
    try:
        offline.check_no_cdn_diagram(html)
    except offline.CdnDiagram as error:
        record("the page", error)
    if lang == "en" and prose:
        try:
            cjk.check_translated(html)
        except cjk.UntranslatedChinese as error:
            record("the page's language", error)
    html = glossary.keep_first_titles(html)
    files: dict[str, bytes] = {}
    if DATA_MARKER in html:
        try:
            html, files = downloads.take_downloads(html, lang)
        except Exception as error:  # noqa: BLE001 - a step that fails on a page shows in the page
            record("the downloads", error)
    return cjk.join_cjk_lines(html), files


def output(html: str, url: str, pruned_css: dict[object, object]) -> str:
    """The written page standing in its edition, a notebook's style sheets pruned to its rules, white space folded."""
    html = editions.rewrite_page(html, url)
    html = notebook_css.prune_page(html, pruned_css)
    return compact_html.compact_html(html)
