"""Under ``mkdocs serve``, Material's search index takes a page's entries from the last build if its HTML is the same.

Material's search plugin parses every page's HTML into index entries on every build (a few milliseconds a page,
128 pages a rebuild). Its index's ``add_entry_from_context`` is wrapped for the build: a page whose URL, title,
HTML, table of contents and ``search`` settings are what they were gets a copy of the entries it got then.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

#: Marks an index already wrapped for this build.
_WRAPPED: Final = "_ascend_dsa_remembering"


def remember(config: MkDocsConfig, kept: dict[str, tuple[tuple[str, ...], list[Any]]]) -> None:
    """Make the search index of this build reuse the entries ``kept`` (by page URL) when a page is unchanged."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    index = getattr(search, "search_index", None)
    if index is None or getattr(index.add_entry_from_context, _WRAPPED, False):
        return
    add = index.add_entry_from_context

    def add_entry_from_context(page: Page) -> None:
        key = (page.title or "", page.content or "", str(page.toc), repr(page.meta.get("search")))
        found = kept.get(page.url)
        if found is not None and found[0] == key:
            index.entries.extend(copy.deepcopy(found[1]))
            return
        start = len(index.entries)
        add(page)
        kept[page.url] = (key, copy.deepcopy(index.entries[start:]))

    setattr(add_entry_from_context, _WRAPPED, True)
    index.add_entry_from_context = add_entry_from_context
