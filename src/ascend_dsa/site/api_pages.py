"""The API reference's objects are rendered once per build: the English edition takes the Chinese edition's rendering.

An API page is a frame in its edition's language (title, a sentence or two, the chapters using it) around the
``::: identifier`` blocks mkdocstrings renders from the English docstrings; half a build's time went to rendering
those blocks twice. Their HTML is the same in both editions but for the headings' permalink title and
mkdocstrings-python's labels (a section's title such as 返回： / Returns:, a table's heads), so:

- in the Chinese edition the blocks of an API page are marked in its Markdown (`mark`); after it renders, the HTML
  between the marks, the table-of-contents entries, cross-reference anchors and inventory entries its objects
  registered are kept (`take`), and the marks leave the page;
- in the English edition the same blocks (same identifiers and options, same build) are replaced by a placeholder
  (`stand_in`); the page renders its frame only, and the kept rendering goes in (`give`): the HTML with the
  English permalink title and labels (`labels`: each label as mkdocstrings-python's own language templates write it
  in either language), the entries into its table of contents, its anchors and inventory entries registered for the
  English page.

tests/site/test_api_pages.py checks that a page put together this way is the page rendering it whole would give.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ascend_dsa.site.editions import PERMALINK_TITLES

if TYPE_CHECKING:
    from collections.abc import Callable

    import jinja2
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

    from ascend_dsa.site.page_cache import Anchor, Rendering

#: Where an API page's ``:::`` blocks start and end in its Markdown (and in its HTML, until `take` removes them).
START: Final = "<!-- ascend-dsa:api-objects -->"
END: Final = "<!-- ascend-dsa:/api-objects -->"
#: What stands in the English page for the blocks, until `give` puts them in.
PLACEHOLDER: Final = '<div class="ascend-api-objects"></div>'
#: The ``:::`` lines and their indented options, from the first to the end of the page.
_BLOCKS: Final = re.compile(r"^::: .*\Z", re.MULTILINE | re.DOTALL)
_HEADING_ID: Final = re.compile(r'<h[1-6] id="([^"]+)"')
#: The labels of mkdocstrings-python's templates (their translation keys) that a section's title can be...
SECTION_TITLES: Final = (
    "Attributes:",
    "Classes:",
    "Examples:",
    "Functions:",
    "Methods:",
    "Modules:",
    "Other Parameters:",
    "Parameters:",
    "Raises:",
    "Receives:",
    "Returns:",
    "Type Aliases:",
    "Type Parameters:",
    "Warns:",
    "Yields:",
)
#: ... and a section table's heads.
TABLE_HEADS: Final = ("Name", "Type", "Description", "Default")
_SECTION_TITLE: Final = '<span class="doc-section-title">{}</span>'


def _translate(env: jinja2.Environment, lang: str) -> Callable[[str], str]:
    """The ``t`` macro of mkdocstrings-python's language template for ``lang``: a label's text from its key."""
    module = env.get_template(f"languages/{lang}.html.jinja").module
    macro: Callable[[str], str] = getattr(module, "t")  # noqa: B009 - a template's macros are made at run time
    return macro


def labels(env: jinja2.Environment) -> tuple[tuple[str, str], ...]:
    """Each label's HTML in the Chinese edition and in the English one, as the handler's language templates say."""
    zh, en = (_translate(env, lang) for lang in ("zh", "en"))
    pairs = [
        *((_SECTION_TITLE.format(zh(k)), _SECTION_TITLE.format(en(k))) for k in SECTION_TITLES),
        *((f"<th>{zh(k)}</th>", f"<th>{en(k)}</th>") for k in TABLE_HEADS),
    ]
    return tuple((chinese, english) for chinese, english in pairs if chinese != english)


@dataclass(frozen=True)
class Objects:
    """The rendered ``:::`` blocks of one API page, and what they registered."""

    #: The blocks' Markdown, as written (the English page must have the same).
    source: str
    html: str
    #: Their table-of-contents entries, and the id of the entry they are children of ("" for the top).
    toc: tuple[Any, ...]
    parent: str
    ids: frozenset[str]
    anchors: tuple[Anchor, ...]
    #: Inventory entries: (name, domain, role, anchor, priority, display name).
    inventory: tuple[tuple[str, str, str, str, int, str | None], ...]


def blocks(markdown: str) -> str | None:
    """The ``:::`` blocks an API page ends with (None for a page whose blocks are not its end: not shared)."""
    found = _BLOCKS.search(markdown)
    if found is None:
        return None
    lines = found.group(0).splitlines()
    if any(line.strip() and not line.startswith((":::", "    ")) for line in lines):
        return None
    if _HEADING_ID.search(markdown[: found.start()]) or re.search(r"^#{2,6} ", markdown[: found.start()], re.MULTILINE):
        return None  # a heading in the frame before the blocks: their place in the toc would not be known
    return found.group(0)


def mark(markdown: str, source: str) -> str:
    """The Chinese page's Markdown with its blocks between the marks."""
    head = markdown[: len(markdown) - len(source)]
    return f"{head}\n{START}\n\n{source.rstrip()}\n\n{END}\n"


def stand_in(markdown: str, source: str) -> str:
    """The English page's Markdown with its blocks replaced by the placeholder."""
    head = markdown[: len(markdown) - len(source)]
    return f"{head}\n{PLACEHOLDER}\n"


def _flat(items: Any) -> list[Any]:  # noqa: ANN401 - MkDocs' table of contents
    found = []
    for item in items:
        found.append(item)
        found.extend(_flat(item.children))
    return found


def take(page: Page, rendering: Rendering, source: str) -> Objects | None:
    """Keep the rendered blocks of the Chinese page and take the marks out of its HTML; None if they are not there."""
    content = page.content or ""
    start, end = content.find(START), content.find(END)
    if start < 0 or end < start:
        return None
    html = content[start + len(START) : end].strip("\n")
    # As rendered without the marks: the blocks' HTML follows the frame's text on the next line, and the next
    # element follows it directly.
    page.content = content[:start].rstrip("\n") + "\n" + html + content[end + len(END) :].lstrip("\n")
    ids = frozenset(_HEADING_ID.findall(html))
    parent, toc = "", tuple[Any, ...]()
    for item in [None, *_flat(page.toc)]:
        children = page.toc.items if item is None else item.children
        mine = tuple(child for child in children if child.id in ids)
        if mine:
            parent, toc = ("" if item is None else item.id), copy.deepcopy(mine)
            break
    anchors = tuple(a for a in rendering.anchors if (a[1] or a[0]) in ids)
    inventory = tuple(
        (name, item.domain, item.role, item.uri.partition("#")[2], item.priority, item.dispname)
        for name, item in rendering.inventory.items()
    )
    return Objects(source, html, toc, parent, ids, anchors, inventory)


def give(objects: Objects, page: Page, config: MkDocsConfig, translations: tuple[tuple[str, str], ...]) -> bool:
    """Put the kept blocks into the English page in place of the placeholder; False if it has none.

    ``translations`` are the labels' (Chinese, English) HTML (`labels`).
    """
    content = page.content or ""
    if PLACEHOLDER not in content:
        return False
    zh, en = PERMALINK_TITLES["zh"], PERMALINK_TITLES["en"]
    html = objects.html.replace(f'class="headerlink" title="{zh}"', f'class="headerlink" title="{en}"')
    for chinese, english in translations:
        html = html.replace(chinese, english)
    at = content.index(PLACEHOLDER)
    rest = content[at + len(PLACEHOLDER) :].lstrip("\n")  # as in `take`: the next element follows directly
    page.content = content[:at] + html + rest
    parents = (
        [page.toc.items] if not objects.parent else [i.children for i in _flat(page.toc) if i.id == objects.parent]
    )
    if not parents:
        raise ValueError(f"{page.file.src_uri}: no heading {objects.parent!r} for the API objects' entries")
    parents[0][0:0] = copy.deepcopy(list(objects.toc))
    page.present_anchor_ids = (page.present_anchor_ids or set()) | objects.ids
    autorefs = config.plugins.get("autorefs")
    if autorefs is not None:
        for identifier, anchor, title, primary in objects.anchors:
            autorefs.register_anchor(page, identifier, anchor, title=title, primary=primary)
    mkdocstrings = config.plugins.get("mkdocstrings")
    if mkdocstrings is not None:
        inventory = mkdocstrings.handlers.inventory
        for name, domain, role, anchor, priority, dispname in objects.inventory:
            inventory.register(name, domain, role, f"{page.url}#{anchor}", priority, dispname)
    return True
