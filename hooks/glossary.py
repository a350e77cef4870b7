"""MkDocs hook: hover definitions of the glossary's terms, and a pointer to the AI Core figure, on every chapter.

The terms and their definitions are in :mod:`ascend_dsa.facts.glossary`; how they reach a page is in
:mod:`ascend_dsa.site.glossary`. Notebook pages, which mkdocs-jupyter renders without Python-Markdown, get the
same definitions on their HTML.
"""

from __future__ import annotations

import importlib
from typing import Any


def _module() -> Any:  # noqa: ANN401 - the module, imported afresh after a reload
    return importlib.import_module("ascend_dsa.site.glossary")


def _lang(page: Any) -> str:  # noqa: ANN401 - MkDocs' Page
    return str(importlib.import_module("ascend_dsa.site.pages").page_lang(page.file.src_uri))


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:  # noqa: ANN401 - MkDocs' Page
    """Point a chapter naming a unit to the AI Core figure; append the abbreviations of the page's edition."""
    glossary, src_uri, lang = _module(), page.file.src_uri, _lang(page)
    return str(glossary.with_abbreviations(glossary.with_unit_link(markdown, src_uri, lang), src_uri, lang))


def on_page_content(html: str, page: Any, **_: Any) -> str:  # noqa: ANN401 - MkDocs' Page
    """Define each term on a notebook page's HTML; on every page keep a term's definition on its first use only."""
    glossary = _module()
    if page.file.src_uri.endswith(".ipynb"):
        html = glossary.with_first_definitions(html, _lang(page))
    return str(glossary.keep_first_titles(html))
