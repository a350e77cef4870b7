"""MkDocs hook: under ``mkdocs serve``, a rebuild redoes only what an edit can have changed.

MkDocs' watcher rebuilds on any file event, and each rebuild used to render every page of both editions and run
every block, about ten seconds. Under serve only (``mkdocs build`` is untouched):

- a file saved without a change of content (an editor's save of an unchanged buffer, ``touch``, a checkout that
  rewrites the same bytes) triggers no rebuild: the server's builder is wrapped, and skips the build when the digest
  of the watched inputs (the docs, mkdocs.yml, the ``watch:`` folders) equals the last build's;
- a page whose rendering cannot have changed is not rendered again: its HTML, table of contents, anchors and
  cross-reference targets (mkdocs-autorefs, mkdocstrings' inventory) are kept and applied to the page of the next
  build. A page is reused when its Markdown (after the hooks that fill it), the site's file list, mkdocs.yml and
  hooks/ are the same, and so are the files it depends on: its own source; for its markdown-exec blocks and its
  notebook cells, the package modules they import (hooks/package_imports.py) and the files they read; for each
  ``::: identifier`` of mkdocstrings, the modules it documents and what they import. A page whose rendering logged
  a warning or a failure is rendered every time, so its box and its line come back with each build;
- what only depends on its inputs is kept for the next builds: the list of the theme's files and its compiled
  Jinja templates (by name and source checksum), Material's search entries for a page (by its URL, HTML, title,
  table of contents and the config), griffe's reading of the package for mkdocstrings (by the digest of src/),
  and the results of mkdocstrings' signature formatter (a ``ruff format`` process per long signature, by its text).

The block output cache is in hooks/build_guard.py, the state that outlives a build in hooks/serve_state.py.
"""

from __future__ import annotations

import copy
import importlib
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from mkdocs.plugins import event_priority
from package_imports import PACKAGE, depends
from serve_state import STATE, begin_build, files_digest, files_in

#: mkdocstrings-python's module whose ``_get_formatter`` returns the signature formatter.
SIGNATURE_RENDERING = "mkdocstrings_handlers.python._internal.rendering"

#: A line of mkdocstrings' syntax, ``::: identifier`` (as its AutoDocProcessor reads it).
AUTODOC = re.compile(r"^(?:#{1,6} *)?::: ?(?P<name>.+?) *$", re.MULTILINE)

log = logging.getLogger("mkdocs.hooks.serve_cache")


class _WarningCounter(logging.Handler):
    """Counts the warnings MkDocs and its plugins log, so that a page whose rendering logged one is not kept."""

    def emit(self, record: logging.LogRecord) -> None:
        """Count a warning or worse."""
        if record.levelno >= logging.WARNING:
            STATE.warnings += 1


def on_startup(command: str, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Remember, for the whole process, whether it serves the site; under serve, count the warnings logged."""
    STATE.serving = command == "serve"
    if STATE.serving and not STATE.warning_counter_installed:
        # build_guard's reports reach it too: each build, build_guard gives its logger a copy of MkDocs' handlers.
        logging.getLogger("mkdocs").addHandler(_WarningCounter(logging.WARNING))
        STATE.warning_counter_installed = True


def _listing_theme_once(theme: Any) -> None:  # noqa: ANN401 - MkDocs' Theme
    """Make the theme's Jinja environments list the theme's files once per process, not twice a build.

    MkDocs lists every file of the theme (Material's icons included) to copy its assets, for each edition of each
    build; the list is kept by the theme's folders and the filter's name (``STATE.theme_files``).
    """
    get_env = theme.get_env

    def get_env_listing_once() -> Any:  # noqa: ANN401 - a Jinja Environment
        env = get_env()
        list_templates = env.list_templates

        def listed(extensions: Any = None, filter_func: Any = None) -> list[str]:  # noqa: ANN401 - Jinja's types
            name = getattr(filter_func, "__qualname__", "")
            if filter_func is not None and "<lambda>" in name:
                return list(list_templates(extensions, filter_func))
            key = (tuple(theme.dirs), tuple(sorted(theme.static_templates)), repr(extensions), name)
            if key not in STATE.theme_files:
                STATE.theme_files[key] = list(list_templates(extensions, filter_func))
            return list(STATE.theme_files[key])

        env.list_templates = listed
        return env

    theme.get_env = get_env_listing_once


def on_config(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Under serve, list the theme once, and make mkdocstrings' signature formatter remember what it formatted."""
    if not STATE.serving:
        return
    if "get_env" not in vars(config["theme"]):
        _listing_theme_once(config["theme"])
    if STATE.signature_formatter_wrapped:
        return
    try:
        rendering = importlib.import_module(SIGNATURE_RENDERING)
    except ImportError:
        return
    formatter = rendering._get_formatter()  # noqa: SLF001 - the one place mkdocstrings-python chooses it
    formatted: dict[tuple[str, int], str] = {}

    def remembered(code: str, line_length: int) -> str:
        key = (code, line_length)
        if key not in formatted:
            formatted[key] = formatter(code, line_length)
        return formatted[key]

    rendering._get_formatter = lambda: remembered  # noqa: SLF001
    STATE.signature_formatter_wrapped = True


def watched(config: Any) -> list[Path]:  # noqa: ANN401 - MkDocs' config
    """The inputs ``mkdocs serve`` watches: the docs folder, mkdocs.yml and the ``watch:`` entries."""
    paths = [Path(config["docs_dir"])]
    if config["config_file_path"]:
        paths.append(Path(config["config_file_path"]))
    paths.extend(Path(p) for p in config["watch"])
    return [p.resolve() for p in paths]


def on_serve(server: Any, config: Any, builder: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG001 - hook signature
    """Make the server rebuild only when a watched file's content changed since the last build."""
    paths = watched(config)
    STATE.inputs_digest = files_digest(paths)  # the first build has just run on these files
    build = server.builder

    def build_if_changed(*args: Any, **kwargs: Any) -> None:  # noqa: ANN401 - MkDocs' builder
        begin_build()
        digest = files_digest(paths)
        if digest == STATE.inputs_digest:
            log.info("No watched file changed its content: not rebuilding")
            return
        STATE.pages_reused = STATE.pages_rendered = 0
        build(*args, **kwargs)
        STATE.inputs_digest = digest
        log.info("Pages: %d rendered, %d unchanged since an earlier build", STATE.pages_rendered, STATE.pages_reused)

    server.builder = build_if_changed
    return server


@dataclass(frozen=True)
class Rendered:
    """What rendering one page produced, with what it was rendered from (``key``, ``depends`` and their ``digest``)."""

    key: tuple[str, ...]
    depends: tuple[Path, ...]
    digest: str
    content: str
    toc: Any
    title: str | None
    present_anchor_ids: frozenset[str] | None
    links_to_anchors: dict[str, dict[str, str]] | None
    #: mkdocs-autorefs' ``register_anchor`` calls: identifier, anchor, title, primary.
    anchors: tuple[tuple[str, str | None, str | None, bool], ...]
    #: mkdocstrings' inventory items the page added, by name.
    inventory: dict[str, Any]


def _autorefs(config: Any) -> list[Any]:  # noqa: ANN401 - MkDocs' config and plugins
    """The mkdocs-autorefs plugin instances pages register anchors with (the configured one, mkdocstrings' own)."""
    found = [config["plugins"].get("autorefs"), getattr(config["plugins"].get("mkdocstrings"), "_autorefs", None)]
    return [p for i, p in enumerate(found) if p is not None and all(p is not q for q in found[:i])]


def _inventory(config: Any) -> dict[str, Any] | None:  # noqa: ANN401 - MkDocs' config
    """The object inventory of mkdocstrings (a dict by name), or None before it exists."""
    handlers = getattr(config["plugins"].get("mkdocstrings"), "_handlers", None)
    return getattr(handlers, "inventory", None)


def _setup_digest(config: Any) -> str:  # noqa: ANN401 - MkDocs' config
    """A digest of what configures every page's rendering: mkdocs.yml and hooks/."""
    setup = [Path(config["config_file_path"])] if config["config_file_path"] else []
    setup.append(Path(__file__).resolve().parent)
    return files_digest(setup)


def _page_key(page: Any, config: Any, files: Any) -> tuple[str, ...]:  # noqa: ANN401 - MkDocs' objects
    """What a page's rendering depends on besides files: its place, its Markdown, the site's files, the config."""
    listing = "\n".join(sorted(f"{f.src_uri}\t{f.dest_uri}\t{f.url}" for f in files))
    return (page.file.src_uri, page.file.dest_uri, page.url, page.markdown or "", listing, _setup_digest(config))


def _documented(markdown: str, src: Path) -> set[Path]:
    """The files of ``src`` mkdocstrings reads for the ``::: identifier`` lines of ``markdown``."""
    found: set[Path] = set()
    for name in AUTODOC.findall(markdown):
        if name.strip() == PACKAGE:
            found.update(files_in(src))
        else:
            found.update(depends(f"import {name.strip()} as documented", src, annotations=True))
    return found


def _reuse(entry: Rendered, page: Any, config: Any, files: Any) -> bool:  # noqa: ANN401 - MkDocs' objects
    """Give ``page`` what rendering it produced last time; False (nothing changed) if a linked file is gone."""
    links = None
    if entry.links_to_anchors is not None:
        links = {}
        for src_uri, anchors in entry.links_to_anchors.items():
            file = files.get_file_from_path(src_uri)
            if file is None:
                return False
            links[file] = dict(anchors)
    page.content = entry.content
    page.toc = copy.deepcopy(entry.toc)
    page._title_from_render = entry.title  # noqa: SLF001 - what Page.render sets
    page.present_anchor_ids = None if entry.present_anchor_ids is None else set(entry.present_anchor_ids)
    if links is not None:
        page.links_to_anchors = links
    for autorefs in _autorefs(config):
        for identifier, anchor, title, primary in entry.anchors:
            autorefs.register_anchor(page, identifier, anchor, title=title, primary=primary)
    inventory = _inventory(config)
    if inventory is not None:
        for name, item in entry.inventory.items():
            inventory.setdefault(name, item)
    return True


def _recording(config: Any, anchors: list[tuple[str, str | None, str | None, bool]]) -> list[Any]:  # noqa: ANN401
    """Make the autorefs plugins note in ``anchors`` each anchor registered (replayed to all of them); the plugins."""
    plugins = _autorefs(config)
    for plugin in plugins:
        original = plugin.register_anchor

        def register_anchor(
            page: Any,  # noqa: ANN401 - MkDocs' Page
            identifier: str,
            anchor: str | None = None,
            *,
            title: str | None = None,
            primary: bool = True,
            original: Any = original,  # noqa: ANN401 - the bound method
        ) -> None:
            anchors.append((identifier, anchor, title, primary))
            original(page, identifier, anchor, title=title, primary=primary)

        plugin.register_anchor = register_anchor
    return plugins


def _prepare_mkdocstrings(config: Any) -> None:  # noqa: ANN401 - MkDocs' config
    """Let mkdocstrings' Python handler compile its templates once, and load the package once per content of src/.

    Each build (and each edition) makes a new handler, which would parse every module of the package with griffe
    again (about a second) and compile its templates again. The modules griffe loaded are kept with the digest of
    src/ (``STATE.griffe``) and handed to a new handler while that digest holds; they are only read when rendered.
    """
    try:
        handler = config["plugins"]["mkdocstrings"].handlers.get_handler("python")
    except (KeyError, AttributeError):
        return
    env = getattr(handler, "env", None)
    if env is not None and env.bytecode_cache is None:
        env.bytecode_cache = _Templates()
    collections = ("_modules_collection", "_lines_collection")  # mkdocstrings-python's, private
    if not all(hasattr(handler, name) for name in collections):
        return
    digest = files_digest([Path(config["config_file_path"] or "mkdocs.yml").resolve().parent / "src"])
    kept = STATE.griffe
    if kept is not None and kept[0] == digest:
        if getattr(handler, collections[0]) is not kept[1]:
            setattr(handler, collections[0], kept[1])
            setattr(handler, collections[1], kept[2])
        return
    STATE.griffe = (digest, getattr(handler, collections[0]), getattr(handler, collections[1]))


@event_priority(-60)  # after hooks/build_guard.py has given a notebook page its own render (-50)
def on_pre_page(page: Any, config: Any, files: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG001 - hook signature
    """Under serve, render the page only if something it depends on changed; otherwise reuse the last rendering."""
    if not STATE.serving:
        return page
    render = page.render

    def render_or_reuse(config: Any, files: Any) -> None:  # noqa: ANN401 - Page.render's signature
        key = _page_key(page, config, files)
        place = key[:2]
        entry = STATE.pages.get(place)
        if (
            entry is not None
            and entry.key == key
            and files_digest(list(entry.depends)) == entry.digest
            and _reuse(entry, page, config, files)
        ):
            STATE.pages_reused += 1
            return
        STATE.pages.pop(place, None)
        STATE.pages_rendered += 1
        if AUTODOC.search(page.markdown or ""):
            _prepare_mkdocstrings(config)
        failures, warnings = STATE.failures, STATE.warnings
        anchors: list[tuple[str, str | None, str | None, bool]] = []
        inventory = _inventory(config)
        before = set(inventory or ())
        STATE.page_depends = set()
        plugins = _recording(config, anchors)
        try:
            render(config, files)
        finally:
            found, STATE.page_depends = STATE.page_depends, None
            for plugin in plugins:
                vars(plugin).pop("register_anchor", None)
        if (STATE.failures, STATE.warnings) != (failures, warnings) or page.content is None:
            return
        root = Path(config["config_file_path"] or "mkdocs.yml").resolve().parent
        found |= _documented(page.markdown or "", root / "src")
        found.add(Path(page.file.abs_src_path))
        paths = tuple(sorted(found))
        links = page.links_to_anchors
        STATE.pages[place] = Rendered(
            key=key,
            depends=paths,
            digest=files_digest(list(paths)),
            content=page.content,
            toc=copy.deepcopy(page.toc),
            title=page._title_from_render,  # noqa: SLF001 - what Page.render sets
            present_anchor_ids=None if page.present_anchor_ids is None else frozenset(page.present_anchor_ids),
            links_to_anchors=None if links is None else {f.src_uri: dict(a) for f, a in links.items()},
            anchors=tuple(dict.fromkeys(anchors)),
            inventory={name: item for name, item in (inventory or {}).items() if name not in before},
        )

    page.render = render_or_reuse
    return page


class _Templates(BytecodeCache):
    """Jinja's compiled templates, kept in hooks/serve_state.py: each build's new environment compiles none again."""

    def load_bytecode(self, bucket: Bucket) -> None:
        """Give the bucket the code compiled for the same name and source, if any."""
        kept = STATE.templates.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep the code just compiled."""
        STATE.templates[bucket.key] = (bucket.checksum, bucket.code)


def on_env(env: Any, config: Any, files: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Under serve, let the theme's templates compile once per process."""
    if STATE.serving and env.bytecode_cache is None:
        env.bytecode_cache = _Templates()
    return env


def _remembering(index: Any, setup: str) -> Any:  # noqa: ANN401 - Material's SearchIndex and its method
    """``index.add_entry_from_context`` that reuses a page's entries when what they are made from is unchanged."""
    add = index.add_entry_from_context

    def add_entry_from_context(page: Any) -> None:  # noqa: ANN401 - MkDocs' Page
        key = (setup, page.title or "", page.content or "", str(page.toc), repr(page.meta.get("search")))
        kept = STATE.search_entries.get(page.url)
        if kept is not None and kept[0] == key:
            index.entries.extend(copy.deepcopy(kept[1]))
            return
        start = len(index.entries)
        add(page)
        STATE.search_entries[page.url] = (key, copy.deepcopy(index.entries[start:]))

    return add_entry_from_context


@event_priority(10)  # before Material's search plugin indexes the page (priority 0)
def on_page_context(context: Any, page: Any, config: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG001 - hook
    """Under serve, make the search index reuse the entries of a page that did not change."""
    if STATE.serving:
        for plugin in config["plugins"].values():
            index = getattr(plugin, "search_index", None)
            if index is not None and "add_entry_from_context" not in vars(index):
                index.add_entry_from_context = _remembering(index, _setup_digest(config))
    return context
