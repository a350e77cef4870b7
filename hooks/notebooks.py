"""MkDocs hook: let mkdocs-jupyter render the notebooks that mkdocs-static-i18n has placed per language.

It also gives a notebook's headings the anchors its table of contents links to: nbconvert slugs headings to ASCII,
so a Chinese heading gets ``id=""`` while the page's table of contents links to ``#_1``. A heading may end with an
explicit anchor, ``## 起点 {#the-starting-point}`` (attr_list's syntax, which notebooks' Markdown lacks): the
hook strips it from the heading, the table of contents and the title, and uses it as the id, so a Chinese
heading's anchor is its English twin's and does not change with its wording.

mkdocs-static-i18n rebuilds the file list last (priority -100) and turns mkdocs-jupyter's notebook pages back
into plain files, so ``page.ipynb`` would be copied, as raw JSON, to ``page/index.html``. This hook runs after it
and wraps each notebook again as mkdocs-jupyter's page file, keeping the language's destination and URL.
"""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs_jupyter.plugin import NotebookFile


@event_priority(-110)
def on_files(files: Any, config: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Re-wrap every notebook mkdocs-jupyter includes, at the destination mkdocs-static-i18n chose."""
    jupyter = config["plugins"].get("mkdocs-jupyter")
    if jupyter is None:
        return files
    for file in [f for f in files if not isinstance(f, NotebookFile) and jupyter.should_include(f)]:
        page = NotebookFile(file, use_directory_urls=config["use_directory_urls"], site_dir=config["site_dir"])
        page.dest_path, page.abs_dest_path, page.url = file.dest_path, file.abs_dest_path, file.url
        files.remove(file)
        files.append(page)
    return files


_HEADING = re.compile(r'<h([1-6])([^>]*?)\sid="[^"]*"([^>]*)>(.*?)</h\1>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
#: An explicit anchor at the end of a heading's text: `` {#the-starting-point}``.
_EXPLICIT_ID = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")
#: The same inside a heading's HTML, before nbconvert's permalink.
_EXPLICIT_ID_IN_HTML = re.compile(r"\s*\{#[A-Za-z][\w-]*\}(?=\s*(?:<a\s|$))")


def _toc_items(items: Any) -> list[Any]:  # noqa: ANN401 - MkDocs' TableOfContents
    flat = []
    for item in items:
        flat.append(item)
        flat.extend(_toc_items(item.children))
    return flat


def _text(inner: str) -> str:
    return html_lib.unescape(_TAG.sub("", inner)).replace("\u00b6", "").strip()


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Set each notebook heading's id (and its ¶ link) to the anchor the table of contents uses for it."""
    if not isinstance(page.file, NotebookFile):
        return html
    pending = _toc_items(page.toc)
    explicit = set()
    for item in pending:
        found = _EXPLICIT_ID.search(item.title)
        if found:
            explicit.add(item.title.strip())
            item.id, item.title = found.group(1), _EXPLICIT_ID.sub("", item.title)
    if page.title and _EXPLICIT_ID.search(page.title):
        page.title = _EXPLICIT_ID.sub("", page.title)

    def rename(match: re.Match[str]) -> str:
        level, before, after, inner = match.groups()
        if _text(inner) in explicit:
            inner = _EXPLICIT_ID_IN_HTML.sub("", inner)
        if not pending or pending[0].title.strip() != _text(inner):
            return match.group(0)
        anchor = pending.pop(0).id
        inner = re.sub(r'class="anchor-link" href="#[^"]*"', f'class="anchor-link" href="#{anchor}"', inner)
        return f'<h{level}{before} id="{anchor}"{after}>{inner}</h{level}>'

    return _HEADING.sub(rename, html)
