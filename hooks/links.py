"""MkDocs hook: API names link to their reference entries and back, upstream citations to the cited line.

What is linked and how is in :mod:`ascend_dsa.site.links`. The API identifiers, and the chapters using
each documented module, are found once per build.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

_STATE: dict[str, Any] = {}


def _links() -> Any:  # noqa: ANN401 - the module, imported afresh after a reload
    return importlib.import_module("ascend_dsa.site.links")


def on_pre_build(config: Any, **_: Any) -> None:  # noqa: ANN401 - MkDocs' config
    """Find the package's documented functions and classes, and the chapters using them, once per build."""
    links, docs_dir = _links(), Path(config["docs_dir"])
    modules = links.documented_modules(docs_dir)
    _STATE["identifiers"] = links.api_identifiers(modules)
    _STATE["uses"] = links.chapters_using(docs_dir, frozenset(modules), _STATE["identifiers"])


def on_page_markdown(markdown: str, page: Any, config: Any, **_: Any) -> str:  # noqa: ANN401 - MkDocs' objects
    """Link a chapter's API names and citations; end an API page with the chapters that use it."""
    links, src_uri = _links(), page.file.src_uri
    if not src_uri.endswith(".md"):
        return markdown
    if src_uri.startswith(links.API_FOLDER):
        lang = importlib.import_module("ascend_dsa.site.pages").page_lang(src_uri)
        return str(markdown + links.used_by_section(Path(config["docs_dir"]), src_uri, lang, _STATE["uses"]))
    return str(links.citation_links(links.api_links(markdown, _STATE["identifiers"])))
