"""The site's MkDocs plugin, ``ascend-dsa`` in mkdocs.yml: each event handed to the build's `SiteApp`, nothing more.

A plugin rather than hook files because MkDocs keeps a plugin that has ``on_startup`` for the whole of one
``mkdocs serve`` process, while it executes hook files afresh before each rebuild: what must outlive a rebuild (the
`ServeSession`) lives on this object and is passed to each build, instead of in a module's global. For each build
the plugin makes a new `SiteApp` from `ascend_dsa.site.app` as it is then, so an edited package is what runs (the
modules an edit made stale are forgotten first: `ascend_dsa.site.serve`); this module and `ascend_dsa.site.state`
are the only ones a running server keeps, so editing them needs a restart of ``mkdocs serve``.

Options (mkdocs.yml, under ``plugins: - ascend-dsa:``): ``block_time_limit_s`` and ``block_output_limit_bytes``,
the limits every block and notebook cell runs under (`ascend_dsa.site.limits`); ``compute_ahead`` and
``share_api_objects`` (both true by default), the build's two speedups (`ascend_dsa.site.state.Speedups`): turned
off, the site is the same and takes longer to build; ``repo_url`` and ``repo_branch``, the repository the pages'
``edit this page`` and ``report an error`` links point to (`ascend_dsa.site.page_actions`), none when ``repo_url`` is
empty.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Literal

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority

from ascend_dsa.site.limits import DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIME_LIMIT_S, Limits
from ascend_dsa.site.state import ServeSession, Speedups

if TYPE_CHECKING:
    import jinja2
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

    from ascend_dsa.site.app import SiteApp

#: The module each build's `SiteApp` comes from, imported afresh for every build.
APP_MODULE = "ascend_dsa.site.app"


class SiteConfig(base.Config):
    """The plugin's options: the limits of each block and notebook cell, the build's speedups, the repository."""

    block_time_limit_s = c.Type((int, float), default=DEFAULT_TIME_LIMIT_S)
    block_output_limit_bytes = c.Type(int, default=DEFAULT_OUTPUT_LIMIT_BYTES)
    compute_ahead = c.Type(bool, default=True)
    share_api_objects = c.Type(bool, default=True)
    repo_url = c.Type(str, default="")
    repo_branch = c.Type(str, default="main")


class SitePlugin(BasePlugin[SiteConfig]):
    """Hands every event of a build to that build's `SiteApp`; keeps the `ServeSession` under ``mkdocs serve``."""

    def __init__(self) -> None:
        """No build yet; no session until ``on_startup`` says the process serves."""
        self.session: ServeSession | None = None
        self._app: SiteApp | None = None

    @property
    def app(self) -> SiteApp:
        """The running build's application."""
        if self._app is None:
            raise RuntimeError("the ascend-dsa plugin got an event outside a build")
        return self._app

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Keep a session for the whole process if it serves the site."""
        del dirty
        self.session = ServeSession() if command == "serve" else None

    @event_priority(100)  # before mkdocstrings reads its locale
    def _config_early(self, config: MkDocsConfig) -> None:
        if self._app is None or self._app.build.depth == 0:  # a new build; the other edition's runs inside it
            limits = Limits(self.config.block_time_limit_s, self.config.block_output_limit_bytes)
            speedups = Speedups(self.config.compute_ahead, self.config.share_api_objects)
            repo = (self.config.repo_url, self.config.repo_branch)
            self._app = importlib.import_module(APP_MODULE).SiteApp(config, limits, speedups, self.session, repo)
        self.app.config_early(config)

    def _config(self, config: MkDocsConfig) -> None:
        self.app.config(config)

    on_config = CombinedEvent(_config_early, _config)

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Count the edition's build."""
        self.app.pre_build(config)

    @event_priority(-110)  # after mkdocs-static-i18n has rebuilt the file list (-100)
    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        """Notebooks rendered by mkdocs-jupyter in each edition."""
        return self.app.files_after_i18n(files, config)

    @event_priority(-50)  # after mkdocs-jupyter has set a notebook's page up
    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page:
        """A guarded render (and under serve, a kept one)."""
        return self.app.pre_page(page, config, files)

    def on_page_markdown(self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Prose numbers, definitions and links."""
        del config, files
        return self.app.page_markdown(markdown, page)

    @event_priority(100)  # before the other steps and plugins see the page's HTML
    def _page_content_first(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        del page, config, files
        return self.app.page_content_first(html)

    def _page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        del files
        return self.app.page_content(html, page, config)

    on_page_content = CombinedEvent(_page_content_first, _page_content)

    def on_env(self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        """Templates compiled once per process."""
        del config, files
        return self.app.env(env)

    @event_priority(10)  # before Material's search plugin indexes the page (0)
    def on_page_context(self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any) -> Any:  # noqa: ANN401
        """Under serve, unchanged pages' search entries reused."""
        del page, nav
        self.app.page_context(config)
        return context

    def _post_page_first(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        del config
        return self.app.post_page_first(output, page)

    @event_priority(-100)
    def _post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        del config
        return self.app.post_page(output, page)

    on_post_page = CombinedEvent(_post_page_first, _post_page)

    @event_priority(-100)
    def on_post_template(self, output_content: str, /, *, template_name: str, config: MkDocsConfig) -> str:
        """The 404 page's language links."""
        return self.app.post_template(output_content, template_name, config)

    def _post_build_pack(self, *, config: MkDocsConfig) -> None:
        del config
        self.app.pack_live_core()

    @event_priority(-150)  # after mkdocs-static-i18n has built the other edition (-100)
    def _post_build_stop(self, *, config: MkDocsConfig) -> None:
        self.app.post_build(config)

    @event_priority(-200)
    def _post_build_finish(self, *, config: MkDocsConfig) -> None:
        self.app.finish_site(config)
        if self.app.build.depth == 0:
            self._app = None

    on_post_build = CombinedEvent(_post_build_pack, _post_build_stop, _post_build_finish)

    def on_build_error(self, *, error: Exception) -> None:
        """Drop the failed build, so that the next one starts clean."""
        del error
        if self._app is not None:
            self._app.build_error()
        self._app = None

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:  # noqa: ANN401 - MkDocs' server
        """Rebuild only on a change of content, with the edited modules forgotten, and never get stuck."""
        del builder
        if self.session is None:
            return server
        from ascend_dsa.site import serve  # noqa: PLC0415 - only under serve

        return serve.install(server, config, self.session)
