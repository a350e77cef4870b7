"""Under ``mkdocs serve``, a page whose rendering cannot have changed is not rendered again.

A page's rendering (its HTML, table of contents, title, anchors and links, what it registered with mkdocs-autorefs
and the API inventory) is kept after it is rendered, with what it was rendered from: its place, its Markdown after
every ``on_page_markdown`` step, the site's file list and mkdocs.yml (`page_key`), and the files it depends on
(its own source; for its blocks and notebook cells, the package modules they import and the files they read; for
each ``::: identifier``, the modules it documents and what those import). The next build gives the kept rendering
back to a page whose key is the same and whose files have the same digests (`ascend_dsa.site.files`). Only public
attributes are read and set: what `Page.render` sets, plus the anchors and inventory entries replayed through
mkdocs-autorefs' ``register_anchor`` and mkdocstrings' inventory.

A page whose rendering logged a warning or a failure is rendered every time, so its box and its line come back on
every build until it is fixed. ``mkdocs build`` keeps nothing.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ascend_dsa.site.state import KeptPage

if TYPE_CHECKING:
    from collections.abc import Callable

    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

    from ascend_dsa.site.state import Build

#: A line of mkdocstrings' syntax, ``::: identifier`` (as its AutoDocProcessor reads it).
AUTODOC: Final = re.compile(r"^(?:#{1,6} *)?::: ?(?P<name>.+?) *$", re.MULTILINE)

#: One ``register_anchor`` call of mkdocs-autorefs: identifier, anchor, title, primary.
Anchor = tuple[str, str | None, str | None, bool]


@dataclass(frozen=True)
class Rendering:
    """What `Page.render` produced, and what the page registered with autorefs and mkdocstrings' inventory."""

    content: str
    toc: Any
    title: str | None
    present_anchor_ids: frozenset[str] | None
    links_to_anchors: dict[str, dict[str, str]] | None
    anchors: tuple[Anchor, ...]
    inventory: dict[str, Any]


def page_key(build: Build, page: Page, config: MkDocsConfig, files: Files) -> tuple[str, ...]:
    """What a page's rendering depends on besides files: its edition and place, its Markdown, the file list, setup."""
    listing = build.once.get(("listing", build.edition))
    if listing is None:
        listing = "\n".join(sorted(f"{f.src_uri}\t{f.dest_uri}\t{f.url}" for f in files))
        build.once[("listing", build.edition)] = listing
    setup = build.digests.of([Path(config.config_file_path)] if config.config_file_path else [])
    return (build.edition, page.file.src_uri, page.file.dest_uri, page.url, page.markdown or "", listing, setup)


def _autorefs(config: MkDocsConfig) -> Any:  # noqa: ANN401 - mkdocs-autorefs' plugin
    return config.plugins.get("autorefs")


def _inventory(config: MkDocsConfig) -> Any:  # noqa: ANN401 - mkdocstrings' Inventory, a dict by name
    mkdocstrings = config.plugins.get("mkdocstrings")
    return None if mkdocstrings is None else mkdocstrings.handlers.inventory


class _RecordingAnchors:
    """While active, notes each anchor a page registers with mkdocs-autorefs (and still registers it)."""

    def __init__(self, config: MkDocsConfig) -> None:
        self.plugin = _autorefs(config)
        self.anchors: list[Anchor] = []

    def __enter__(self) -> list[Anchor]:
        if self.plugin is None:
            return self.anchors
        original = self.plugin.register_anchor
        anchors = self.anchors

        def register_anchor(
            page: Any,  # noqa: ANN401 - MkDocs' Page
            identifier: str,
            anchor: str | None = None,
            *,
            title: str | None = None,
            primary: bool = True,
        ) -> None:
            anchors.append((identifier, anchor, title, primary))
            original(page, identifier, anchor, title=title, primary=primary)

        self.plugin.register_anchor = register_anchor
        return self.anchors

    def __exit__(self, *exc: object) -> None:
        if self.plugin is not None:
            vars(self.plugin).pop("register_anchor", None)


def recorded(page: Page, config: MkDocsConfig, render: Callable[[], None]) -> Rendering | None:
    """Run ``render``; what it produced (None if the page has no content afterwards)."""
    inventory = _inventory(config)
    before = dict(inventory or {})
    with _RecordingAnchors(config) as anchors:
        render()
    if page.content is None:
        return None
    links = page.links_to_anchors
    return Rendering(
        content=page.content,
        toc=copy.deepcopy(page.toc),
        title=page.title,
        present_anchor_ids=None if page.present_anchor_ids is None else frozenset(page.present_anchor_ids),
        links_to_anchors=None if links is None else {f.src_uri: dict(a) for f, a in links.items()},
        anchors=tuple(dict.fromkeys(anchors)),
        inventory={name: item for name, item in (inventory or {}).items() if before.get(name) is not item},
    )


def give_back(kept: Rendering, page: Page, config: MkDocsConfig, files: Files) -> bool:
    """Give ``page`` the rendering it produced last time; False (nothing changed) if a linked page is gone."""
    links = None
    if kept.links_to_anchors is not None:
        links = {}
        for src_uri, anchors in kept.links_to_anchors.items():
            file = files.get_file_from_path(src_uri)
            if file is None:
                return False
            links[file] = dict(anchors)
    page.content = kept.content
    page.toc = copy.deepcopy(kept.toc)
    page.title = kept.title
    page.present_anchor_ids = None if kept.present_anchor_ids is None else set(kept.present_anchor_ids)
    if links is not None:
        page.links_to_anchors = links
    autorefs = _autorefs(config)
    if autorefs is not None:
        for identifier, anchor, title, primary in kept.anchors:
            autorefs.register_anchor(page, identifier, anchor, title=title, primary=primary)
    inventory = _inventory(config)
    if inventory is not None:
        inventory.update(kept.inventory)  # as registering them again would: a later page's entry replaces an earlier's
    return True


def reuse(build: Build, key: tuple[str, ...], page: Page, config: MkDocsConfig, files: Files) -> bool:
    """Under serve, give ``page`` its kept rendering if nothing it depends on changed; whether it did."""
    if build.session is None:
        return False
    kept = build.session.pages.get(key[:3])
    if kept is None or kept.key != key or build.digests.of(kept.depends) != kept.digest:
        return False
    return give_back(kept.rendering, page, config, files)


def keep(build: Build, key: tuple[str, ...], rendering: Rendering, depends: set[Path]) -> None:
    """Under serve, keep ``rendering`` with the files it depends on."""
    if build.session is None:
        return
    paths = tuple(sorted(depends))
    build.session.pages[key[:3]] = KeptPage(key, paths, build.digests.of(paths), rendering)


def forget(build: Build, key: tuple[str, ...]) -> None:
    """Drop what is kept for the page at ``key`` (its rendering failed or logged)."""
    if build.session is not None:
        build.session.pages.pop(key[:3], None)
