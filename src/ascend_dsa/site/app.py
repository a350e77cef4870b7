"""The site's build, event by event: what the plugin (`ascend_dsa.site.plugin`) hands each MkDocs event to.

One `SiteApp` serves one build, both editions (mkdocs-static-i18n builds the English edition inside the Chinese
one's ``on_post_build``); it holds that build's `Build` state and passes it to each step. Every step that can fail
on a page records the failure (`ascend_dsa.site.failures`) and lets the build go on: a block's box replaces its
output, a page's box opens its article, a site failure's banner opens every page. At the end of the outermost
build, ``mkdocs build`` stops with one error counting them all; ``mkdocs serve`` logs the count and serves on.

The plugin makes a new `SiteApp` for each build from this module as it is then (under serve, after the edited
modules were forgotten: `ascend_dsa.site.reload`), so a build always runs the package's current code.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

from mkdocs.exceptions import Abort
from mkdocs.structure.files import Files
from mkdocs.structure.toc import get_toc
from mkdocs.utils import CountHandler

from ascend_dsa.site import (
    api_aliases,
    api_pages,
    blocks,
    build_date,
    editions,
    failures,
    glossary,
    internals,
    links,
    live,
    notebooks,
    offline,
    page_actions,
    page_cache,
    page_steps,
    prefetch,
    prose_numbers,
    search_entries,
    search_index,
    search_loading,
    templates,
)
from ascend_dsa.site.failures import Failure
from ascend_dsa.site.limits import Limits
from ascend_dsa.site.state import Build, ServeSession, Speedups

if TYPE_CHECKING:
    import jinja2
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

    from ascend_dsa.lang import Lang

log = logging.getLogger(failures.REPORT_LOGGER)

T = TypeVar("T")

#: With this variable set (to anything but 0), no page code runs: blocks show their source, notebooks are not
#: executed. ``benchmarks/site_build.py`` times the build's floor with it; never set it for a real build.
NO_EXEC_VARIABLE: Final = "ASCEND_DSA_NO_EXEC"


class PageWarning(Exception):  # noqa: N818 - it is MkDocs' warning, carried to the page's box
    """A warning MkDocs or a plugin logged about a page or the site (a broken link, a missing nav page)."""


class _Warnings(logging.Handler):
    """Notes each warning logged on the "mkdocs" logger during the build as a failure of its page or the site."""

    def __init__(self, app: SiteApp) -> None:
        super().__init__(logging.WARNING)
        self.app = app

    def emit(self, record: logging.LogRecord) -> None:
        self.app.note_warning(record.getMessage())


def execution_disabled() -> bool:
    """Whether the environment asks for a build without code execution (`NO_EXEC_VARIABLE`)."""
    return os.environ.get(NO_EXEC_VARIABLE, "") not in {"", "0"}


class SiteApp:
    """One build of the site: its state, and one method per MkDocs event the plugin forwards."""

    def __init__(
        self,
        config: MkDocsConfig,
        limits: Limits,
        speedups: Speedups,
        session: ServeSession | None,
        repo: tuple[str, str] = ("", "main"),
    ) -> None:
        """Start a build of the project whose mkdocs.yml ``config`` read; ``repo`` is its repository URL and branch."""
        root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        execute = not execution_disabled()
        self.build = Build(root, Path(config.docs_dir), limits, session, execute=execute, speedups=speedups)
        self.repo = page_actions.repository(*repo)
        self.block_errors = blocks.catching_block_errors()
        self.errors = self.block_errors.__enter__()
        self.warnings = _Warnings(self)
        mkdocs_logger = logging.getLogger("mkdocs")
        # Under -q MkDocs drops warnings before any handler sees them, so `--strict -q` passed with a broken link
        # or a missing nav page: warnings are let through (and shown) for the build, and counted as strict counts.
        self._mkdocs_level = mkdocs_logger.level
        quiet = mkdocs_logger.getEffectiveLevel() > logging.INFO
        mkdocs_logger.setLevel(min(mkdocs_logger.getEffectiveLevel(), logging.WARNING))
        mkdocs_logger.addHandler(self.warnings)
        # jieba (the Chinese search index) prints its progress on a handler of its own: under -q, only its errors.
        logging.getLogger("jieba").setLevel(logging.WARNING if quiet else logging.DEBUG)
        failures.install_report_logger(quiet=quiet)
        self.files: dict[Lang, Files] = {}
        #: The editions whose builds are running, outermost first.
        self.editions: list[Lang] = []
        self.run_notebooks = True
        self.site_dir = Path(config.site_dir)
        build_date.date_the_build(root)
        self.signatures: dict[str, str] = self._kept("signatures", dict)
        self.signatures_used: set[str] = set()
        self.signatures_file = internals.signature_cache_file()
        if not self.signatures:  # the process's first build: what earlier builds formatted
            self.signatures.update(internals.read_signature_cache(self.signatures_file))
        self.signatures_read = len(self.signatures)
        internals.remember_signature_formats(self.signatures, self.signatures_used)

    def _kept(self, name: str, make: Callable[[], Any]) -> Any:  # noqa: ANN401 - each step owns its kept value
        """What step ``name`` keeps: across serve builds in the session, else for this build."""
        store = self.build.once if self.build.session is None else self.build.session.kept
        if name not in store:
            store[name] = make()
        return store[name]

    # The editions' builds -------------------------------------------------------------------------------------

    def config_early(self, config: MkDocsConfig) -> None:
        """Before the plugins read it: the edition's language for mkdocstrings and the permalinks."""
        self.build.edition = editions.edition_language(config)
        editions.speak_edition(config, self.build.edition)

    def config(self, config: MkDocsConfig) -> None:
        """After the plugins: guard markdown-exec's fences, run the notebooks here, check the vendored files."""
        if self.build.serving:
            # MkDocs would stop a strict rebuild at the end over any warning, and the server would hang; under
            # serve each warning shows in its page instead (the same check fails `mkdocs build --strict`).
            mkdocs_logger = logging.getLogger("mkdocs")
            for handler in [h for h in mkdocs_logger.handlers if isinstance(h, CountHandler)]:
                mkdocs_logger.removeHandler(handler)
        if self.build.execute:
            blocks.guard_fences(config.mdx_configs, self.build, self.errors)
        else:
            blocks.run_nothing(config.mdx_configs)
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is not None:
            if self.build.depth == 0:  # the outermost build decides; the other edition inherits
                self.run_notebooks = bool(jupyter.config["execute"]) and self.build.execute
            jupyter.config["execute"] = False
        try:
            offline.check_vendored(self.build.docs_dir)
        except offline.MissingVendoredFile as error:
            self.build.record("", "the vendored files", error)

    def pre_build(self, config: MkDocsConfig) -> None:
        """Count the editions' builds (the second runs inside the first) and remember whose build this is.

        At the start of a ``mkdocs build`` that builds the English edition after this one, its blocks and notebooks
        start being computed ahead on the other core (`ascend_dsa.site.prefetch`).
        """
        self.build.depth += 1
        self.editions.append(self.build.edition)
        i18n = config.plugins.get("i18n")
        languages = getattr(i18n, "build_languages", [])
        wanted = self.build.speedups.compute_ahead and self.build.execute and "en" in languages
        if self.build.depth == 1 and self.build.session is None and wanted:
            jupyter = config.plugins.get("mkdocs-jupyter")
            sources = self.build.digests.listing(self.build.docs_dir)
            pages = [p for p in sources if p.name.endswith(".en.md") and "vendor" not in p.parts]
            notebooks = [
                p for p in sources if p.name.endswith(".en.ipynb") and jupyter is not None and self.run_notebooks
            ]
            options = dict(jupyter.config) if jupyter is not None else {}
            self.build.prefetch = prefetch.Prefetch.start(pages, notebooks, self.build.root, self.build.limits, options)

    def files_after_i18n(self, files: Files, config: MkDocsConfig) -> Files:
        """Let mkdocs-jupyter render the notebooks mkdocs-static-i18n placed; remember the edition's files."""
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is not None:
            from mkdocs_jupyter.plugin import NotebookFile  # type: ignore[import-untyped]  # noqa: PLC0415

            for file in [f for f in files if not isinstance(f, NotebookFile) and jupyter.should_include(f)]:
                page = NotebookFile(file, use_directory_urls=config.use_directory_urls, site_dir=config.site_dir)
                page.dest_path, page.abs_dest_path, page.url = file.dest_path, file.abs_dest_path, file.url
                files.remove(file)
                files.append(page)
        self.files[self.build.edition] = files
        return files

    def env(self, env: jinja2.Environment) -> jinja2.Environment:
        """Let the theme's templates compile once per process, not once per edition and build."""
        templates.attach(env, self._kept("templates", dict))
        return env

    def post_build_boxes(self) -> None:
        """After an edition's pages are written (anchors checked): show its page and site failures in its pages."""
        edition = self.build.edition
        files = self.files.get(edition)
        shown = [f for f in self.build.failures if not f.in_place]
        mine = [f for f in shown if (editions.page_lang(f.page) if f.page else f.edition) == edition]
        if not mine or files is None:
            return
        site = [f for f in mine if not f.page]
        by_page: dict[str, list[Failure]] = {}
        for failure in mine:
            if failure.page:
                by_page.setdefault(failure.page, []).append(failure)
        for file in files.documentation_pages():
            page_failures = site + by_page.get(self.build.project_path(file.abs_src_path or ""), [])
            target = Path(file.abs_dest_path)
            if page_failures and target.is_file():
                text = target.read_text(encoding="utf-8")
                target.write_text(failures.with_boxes(text, page_failures), encoding="utf-8")

    def post_build(self, config: MkDocsConfig) -> None:
        """At the end of each edition's build: its boxes; at the end of the outermost, stop over any failure."""
        self.post_build_boxes()
        self.build.depth = max(self.build.depth - 1, 0)
        if self.editions:
            self.editions.pop()
        if self.editions:  # back in the outer edition's build
            self.build.edition = self.editions[-1]
        if self.build.depth:
            return
        self.close()
        if self.build.prefetch is not None:
            ahead = self.build.prefetch.ahead()
            log.info(
                "Computed ahead on the other core: %d blocks and %d notebooks of the English edition",
                len(ahead.blocks),
                len(ahead.notebooks),
            )
        if self.build.session is not None:
            self.build.session.sources = self.build.digests.snapshot([self.build.src])
            self.build.session.step_results = self.build.steps.current
            log.info(
                "Pages: %d rendered, %d unchanged; blocks: %d run, %d unchanged; page steps: %d reused"
                " since an earlier build",
                self.build.pages_rendered,
                self.build.pages_kept,
                self.build.blocks_run,
                self.build.blocks_kept,
                self.build.steps.hits,
            )
        ours = [f for f in self.build.failures if not isinstance(f.error, PageWarning)]
        if not ours:
            return
        if self.build.serving:
            log.error("%s; the pages show them in boxes", failures.summary(ours))
            return
        del config
        raise Abort(f"Aborted: {failures.summary(ours)}")

    def finish_site(self, config: MkDocsConfig) -> None:
        """After both editions (outermost build only): a search index per edition, fetched on first search; sitemap."""
        if self.build.depth:
            return
        search_index.split_site_index(self.site_dir)
        search_loading.defer_index_request(self.site_dir)
        editions.write_english_sitemap(self.site_dir, str(config.site_url or ""))

    def pack_live_core(self) -> None:
        """Pack the package into the built site for the live forms (once: the editions share the site)."""
        if self.build.depth == 1:
            live.write_core(self.site_dir)

    def build_error(self) -> None:
        """A build that raised: put the loggers back; the plugin drops this app."""
        self.close()

    def close(self) -> None:
        """Reap the child computing ahead; keep new signature formats; put the loggers back as they were."""
        if self.build.prefetch is not None:
            self.build.prefetch.close()
        if len(self.signatures) > self.signatures_read:
            internals.write_signature_cache(self.signatures_file, self.signatures, self.signatures_used)
            self.signatures_read = len(self.signatures)
        self.block_errors.__exit__(None, None, None)
        mkdocs_logger = logging.getLogger("mkdocs")
        mkdocs_logger.removeHandler(self.warnings)
        mkdocs_logger.setLevel(self._mkdocs_level)

    def note_warning(self, message: str) -> None:
        """A warning logged during the build: a failure of the page it names (or is being built), or of the site."""
        page = self.build.page or _page_named(message, self.build)
        self.build.failures.append(Failure(page, "a warning", PageWarning(message), self.build.edition))

    # A page ---------------------------------------------------------------------------------------------------

    def pre_page(self, page: Page, config: MkDocsConfig, files: Files) -> Page:
        """Note the page; a notebook renders by running its cells here; under serve, reuse what cannot change."""
        self.build.page = self.build.project_path(_source(page))
        render: Callable[[MkDocsConfig, Files], None] = page.render
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is not None and jupyter.should_include(page.file):
            render = self._notebook_render(page, jupyter.config)
        page.render = self._guarded_render(page, render)  # type: ignore[method-assign, assignment]
        del files
        return page

    def _notebook_render(self, page: Page, options: Any) -> Callable[[MkDocsConfig, Files], None]:  # noqa: ANN401
        """A ``page.render`` that runs the notebook's cells in-process, then converts it as mkdocs-jupyter does."""
        source = _source(page)
        name = self.build.page
        ignored = any(source.match(p) for p in options["execute_ignore"])
        execute = self.run_notebooks and not ignored

        def render(config: MkDocsConfig, files: Files) -> None:
            del config, files

            def failed(failure: notebooks.CellFailure) -> str:
                return self.build.record(name, failure.describe(), failure.error, in_place=True)

            ahead = None
            if self.build.prefetch is not None and self.build.edition == "en" and execute:
                ahead = self.build.prefetch.ahead().notebooks.get(name)
            rendered = ahead or notebooks.render_notebook(
                source, name, dict(options), self.build.limits, execute=execute, failed=failed
            )
            if self.build.page_depends is not None and execute:
                self.build.page_depends.update(blocks.code_depends(self.build, notebooks.code_of(source)))
            page.content = rendered.content
            page.toc = rendered.toc
            if rendered.title is not None:
                page.title = rendered.title

        return render

    def _guarded_render(
        self, page: Page, render: Callable[[MkDocsConfig, Files], None]
    ) -> Callable[[MkDocsConfig, Files], None]:
        """``render`` that shows a failure as a box instead of stopping the build, and under serve reuses."""

        def guarded(config: MkDocsConfig, files: Files) -> None:
            key = page_cache.page_key(self.build, page, config, files) if self.build.serving else ()
            if self.build.serving and page_cache.reuse(self.build, key, page, config, files):
                self.build.pages_kept += 1
                return
            self._prepare_api_rendering(page, config)
            self.build.pages_rendered += 1
            log.debug("Rendering %s", self.build.page)
            before = len(self.build.failures)
            self.build.page_depends = set() if self.build.serving else None
            shared = self._api_objects(page)

            def render_page() -> None:
                render(config, files)
                if shared is not None and shared[0] == "give":
                    self._give_api_objects(page, config)

            try:
                if self.build.serving or shared is not None:  # what it registers is kept, or shared
                    rendering = page_cache.recorded(page, config, render_page)
                else:
                    render_page()
                    rendering = None
                if shared is not None and shared[0] == "take" and rendering is not None:
                    rendering = self._take_api_objects(page, rendering, shared[1])
            except Exception as error:  # noqa: BLE001 - a page that cannot render shows why, the build goes on
                page.content = self.build.record(self.build.page, "the page's rendering", error, in_place=True)
                page.toc = get_toc([])
                rendering = None
            depends, self.build.page_depends = self.build.page_depends, None
            if not self.build.serving:
                return
            if rendering is None or len(self.build.failures) != before or depends is None:
                page_cache.forget(self.build, key)
                self._kept("api-objects", dict).pop(page.file.src_uri, None)
                return
            depends |= self._documented_depends(page)
            depends.add(_source(page))
            page_cache.keep(self.build, key, rendering, depends)

        return guarded

    def _api_objects(self, page: Page) -> tuple[str, str] | None:
        """For an API page sharing its objects: (its role, the blocks' Markdown); None for any other page.

        The role is "take" (the Chinese page renders them) or "give" (the English page gets the Chinese page's).
        """
        found: tuple[str, str] | None = self.build.once.get(("api-objects", page.file.src_uri))
        return found

    def _take_api_objects(self, page: Page, rendering: page_cache.Rendering, source: str) -> page_cache.Rendering:
        """After the Chinese API page rendered: keep its objects for its twin; its rendering without the marks."""
        objects = api_pages.take(page, rendering, source)
        if objects is None:
            raise RuntimeError(f"{page.file.src_uri}: the API objects' marks are missing from its HTML")
        self._kept("api-objects", dict)[page.file.src_uri] = objects
        return dataclasses.replace(rendering, content=page.content or "")

    def _give_api_objects(self, page: Page, config: MkDocsConfig) -> None:
        """After the English API page rendered its frame: put its twin's objects in (while its rendering is noted)."""
        kept: dict[str, api_pages.Objects] = self._kept("api-objects", dict)
        objects = kept[editions.twin_source(page.file.src_uri, "zh")]
        if not api_pages.give(objects, page, config, self._api_labels(config)):
            raise RuntimeError(f"{page.file.src_uri}: the API objects' placeholder is missing from its HTML")

    def _api_labels(self, config: MkDocsConfig) -> tuple[tuple[str, str], ...]:
        """mkdocstrings-python's labels, Chinese and English (`ascend_dsa.site.api_pages.labels`), once per build."""
        found: tuple[tuple[str, str], ...] | None = self.build.once.get("api-labels")
        if found is None:
            mkdocstrings: Any = config.plugins["mkdocstrings"]
            found = self.build.once["api-labels"] = api_pages.labels(mkdocstrings.handlers.get_handler("python").env)
        return found

    def _mark_api_objects(self, markdown: str, page: Page) -> str:
        """An API page's ``:::`` blocks: marked on the Chinese page, stood in for on the English one when kept."""
        src_uri = page.file.src_uri
        if not src_uri.startswith(links.API_FOLDER) or not src_uri.endswith(".md"):
            return markdown
        source = api_pages.blocks(markdown) if self.build.speedups.share_api_objects else None
        if source is None:
            return markdown
        if self.build.edition == "zh":
            self.build.once[("api-objects", src_uri)] = ("take", source)
            return api_pages.mark(markdown, source)
        kept: dict[str, api_pages.Objects] = self._kept("api-objects", dict)
        objects = kept.get(editions.twin_source(src_uri, "zh"))
        if objects is None or objects.source != source:
            return markdown
        self.build.once[("api-objects", src_uri)] = ("give", source)
        return api_pages.stand_in(markdown, source)

    def _documented_depends(self, page: Page) -> set[Path]:
        """The files an API page's ``::: identifier`` lines read: the modules documented and what they import."""
        shared = self._api_objects(page)
        names = [m.strip() for m in page_cache.AUTODOC.findall(shared[1] if shared else page.markdown or "")]
        if not names:
            return set()
        return set(self.build.sources.depends_on_modules(names, with_type_only=True).files)

    def _prepare_api_rendering(self, page: Page, config: MkDocsConfig) -> None:
        """Before an API page renders: mkdocstrings' templates compile once per process, not once per edition."""
        if not page_cache.AUTODOC.search(page.markdown or ""):
            return
        mkdocstrings = config.plugins.get("mkdocstrings")
        if mkdocstrings is None:
            return
        handler = mkdocstrings.handlers.get_handler("python")
        env = getattr(handler, "env", None)
        if env is not None:
            templates.attach(env, self._kept("templates", dict))
        if not self.build.once.get(("aliases", self.build.edition)):
            api_aliases.resolve_every_alias(handler)
            self.build.once[("aliases", self.build.edition)] = True

    def page_markdown(self, markdown: str, page: Page) -> str:
        """Fill and check the prose's numbers, add the glossary's definitions, link API names and citations."""
        src_uri = page.file.src_uri
        lang = editions.page_lang(src_uri)
        markdown = self._mark_api_objects(markdown, page)
        if src_uri.endswith(".md"):
            markdown = self._step("the prose's numbers", markdown, lambda m: self._prose(m, lang))
        markdown = self._step(
            "the glossary",
            markdown,
            lambda m: glossary.with_abbreviations(glossary.with_unit_link(m, src_uri, lang), src_uri, lang),
        )
        if src_uri.endswith(".md"):
            markdown = self._step("the links", markdown, lambda m: self._links(m, src_uri, lang))
        return markdown

    def _step(self, what: str, text: str, step: Callable[[str], str]) -> str:
        """``step(text)``, or ``text`` unchanged and a failure of the page if the step raises."""
        try:
            return step(text)
        except Exception as error:  # noqa: BLE001 - a step that fails on a page shows in the page
            self.build.record(self.build.page, what, error)
            return text

    def _prose(self, markdown: str, lang: Lang) -> str:
        checked: dict[str, prose_numbers.ProseProblem | None] = self._kept("prose-checks", dict)
        if markdown not in checked:
            checked[markdown] = prose_numbers.problems(markdown)
        problem = checked[markdown]
        if problem is not None:
            self.build.record(self.build.page, "the prose", problem)
        return prose_numbers.fill(prose_numbers.unknown_shown(markdown), lang, self._prose_values())

    def _prose_values(self) -> dict[str, Any]:
        """The prose values computed so far: for this build, and under serve while their code keeps its digest.

        Their code: `ascend_dsa.site.prose_numbers` and what it imports (the values and their formats).
        """
        kept: dict[str, dict[str, Any]] = self._kept("prose-values", dict)
        digest = self._code_digest(prose_numbers.__name__)
        if digest not in kept:
            kept.clear()
            kept[digest] = {}
        return kept[digest]

    def _api_index(self) -> links.ApiIndex:
        """The API names and the chapters using each module: read once for the whole build (both editions).

        If they cannot be read (a documented module that does not parse), that is one failure of the site, and the
        pages go without API links until it is fixed.
        """
        index = self.build.once.get("api-index")
        if index is not None:
            return index  # type: ignore[no-any-return]
        try:
            index = links.api_index(self.build.docs_dir, self.build.sources, self._kept("api-sources", dict))
        except Exception as error:  # noqa: BLE001 - shown on every page, the build goes on
            self.build.record("", "the API links", error)
            index = links.ApiIndex({}, {})
        self.build.once["api-index"] = index
        return index

    def _links(self, markdown: str, src_uri: str, lang: Lang) -> str:
        index = self._api_index()
        if src_uri.startswith(links.API_FOLDER):
            return markdown + links.used_by_section(self.build.docs_dir, src_uri, lang, index.uses)
        return links.citation_links(links.api_links(markdown, index.identifiers))

    def page_content_first(self, html: str) -> str:
        """Before every other step: leave figures, tables, code and citation notes out of the search index."""
        return search_index.exclude_from_search(html)

    def page_content(self, html: str, page: Page, config: MkDocsConfig) -> str:
        """After rendering: notebook anchors and numbers, first definitions, downloads, joined Chinese lines."""
        src_uri = page.file.src_uri
        lang = editions.page_lang(src_uri)

        def record(what: str, error: Exception) -> None:
            self.build.record(self.build.page, what, error)

        if src_uri.endswith(".ipynb"):  # its steps also set the page's title and table of contents: never kept
            html = self._step("the notebook's prose", html, lambda h: self._notebook_prose(h, page, lang))
            html = self._step("the glossary", html, lambda h: glossary.with_first_definitions(h, lang))
            html, files = page_steps.content(html, lang, record)
        else:
            parts = ("content", self._code_digest(page_steps.__name__), src_uri, html)
            html, files = self.build.steps.result(
                parts,
                self._kept_unless_failed(
                    lambda: page_steps.content(html, lang, record, prose=not src_uri.startswith(links.API_FOLDER))
                ),
            )
        html = page_actions.with_page_actions(html, src_uri, page.title or src_uri, lang, self.repo)
        folder = Path(config.site_dir) / page.url
        for name, data in files.items():
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        return html

    def _kept_unless_failed(self, compute: Callable[[], T]) -> Callable[[], tuple[T, bool]]:
        """``compute`` for the step cache: its result, kept only if it recorded no failure."""

        def run() -> tuple[T, bool]:
            before = len(self.build.failures)
            value = compute()
            return value, len(self.build.failures) == before

        return run

    def _code_digest(self, module: str) -> str:
        """One digest of mkdocs.yml and the code ``module`` runs (it and what it imports), once per build."""
        found: str | None = self.build.once.get(("code-digest", module))
        if found is None:
            code = self.build.sources.depends_on_modules([module]).files
            found = self.build.digests.of([*code, self.build.root / "mkdocs.yml"])
            self.build.once[("code-digest", module)] = found
        return found

    def _notebook_prose(self, html: str, page: Page, lang: Lang) -> str:
        html = notebooks.with_heading_ids(html, page.toc)
        if page.title:
            page.title = notebooks.without_explicit_id(page.title)
        source = _source(page).read_text(encoding="utf-8")
        problem = prose_numbers.problems(prose_numbers.notebook_prose(source))
        if problem is not None:
            self.build.record(self.build.page, "the notebook's prose", problem)
        pending = list(page.toc)
        while pending:
            item = pending.pop()
            item.title = prose_numbers.fill_html(prose_numbers.unknown_shown(item.title), lang, self._prose_values())
            pending.extend(item.children)
        return prose_numbers.fill_html(prose_numbers.unknown_shown(html), lang, self._prose_values())

    def page_context(self, config: MkDocsConfig) -> None:
        """Under serve, the search index takes the entries of a page whose HTML did not change from the last build."""
        if self.build.session is not None:
            search_entries.remember(config, self._kept("search-entries", dict))

    def post_page_first(self, output: str, page: Page) -> str:
        """The live forms' loader and download size on pages that have one (the size measured once per build)."""
        if live.LIVE_MARKER not in output:
            return output
        once = self.build.once  # measured for this build: under serve the package may have changed since the last
        if "live-download-bytes" not in once:
            once["live-download-bytes"] = live.download_bytes(self.build.docs_dir)
        size: int = once["live-download-bytes"]
        return live.with_download_size(live.with_live_script(output, page.url), size)

    def post_page(self, output: str, page: Page) -> str:
        """Each page stands in its edition; a notebook page keeps the style rules it uses; white space folded."""
        self.build.page = ""
        pruned: dict[object, object] = self._kept("pruned-css", dict)
        parts = ("output", self._code_digest(page_steps.__name__), page.url, output)
        written: str = self.build.steps.result(parts, lambda: (page_steps.output(output, page.url, pruned), True))
        return written

    def post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        """The 404 page (served at any URL) offers both editions' home pages."""
        if template_name != "404.html":
            return output
        from urllib.parse import urlsplit  # noqa: PLC0415 - used once per build

        return editions.rewrite_not_found(output, urlsplit(str(config.site_url or "/")).path or "/")


def _source(page: Page) -> Path:
    """The page's source file (every page MkDocs builds from docs/ has one)."""
    if page.file.abs_src_path is None:
        raise ValueError(f"page {page.file.src_uri} has no source file")
    return Path(page.file.abs_src_path)


def _page_named(message: str, build: Build) -> str:
    """The page a MkDocs warning names ("Doc file 'x.md' ..."), relative to the project, or "" for the site."""
    import re  # noqa: PLC0415 - only when a warning is logged

    found = re.search(r"Doc file '([^']+)'", message)
    return build.project_path(build.docs_dir / found.group(1)) if found else ""
