"""``mkdocs serve``'s rebuilds: only on a change of content, with the edited modules forgotten, never stuck.

MkDocs' watcher rebuilds on any file event, and a rebuild that raises leaves the server waiting for a good build
before it answers any request ("The server will appear stuck until build errors are resolved"). The server's
builder is wrapped (`install`):

- a save that leaves every watched file's content as it was (``touch``, an editor's save of an unchanged buffer)
  builds nothing;
- the package modules an edit made stale are forgotten before the build loads anything (`ascend_dsa.site.reload`),
  so the build, its blocks and the site's own steps run the current code;
- a build that raises anyway (mkdocs.yml that does not load, a module the site's steps need that does not import)
  is one ERROR line, and every page of the last site shows it in a banner (a page that is gone shows the banner
  alone); the server answers on, and the next good save builds the site again.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ascend_dsa.site import failures, reload
from ascend_dsa.site.editions import ENGLISH_PREFIX
from ascend_dsa.site.failures import Failure
from ascend_dsa.site.files import Digests
from ascend_dsa.site.sources import SourceTree

if TYPE_CHECKING:
    from collections.abc import Callable

    from mkdocs.config.defaults import MkDocsConfig

    from ascend_dsa.site.state import ServeSession

log = logging.getLogger(failures.REPORT_LOGGER)


def watched(config: MkDocsConfig) -> list[Path]:
    """The inputs ``mkdocs serve`` watches: the docs folder, mkdocs.yml and the ``watch:`` entries."""
    paths = [Path(config.docs_dir)]
    if config.config_file_path:
        paths.append(Path(config.config_file_path))
    paths.extend(Path(p) for p in config.watch)
    return [p.resolve() for p in paths]


def install(server: Any, config: MkDocsConfig, session: ServeSession) -> Any:  # noqa: ANN401 - MkDocs' server
    """Wrap ``server``'s builder as this module's docstring says; return the server."""
    paths = watched(config)
    root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
    site_dir = Path(config.site_dir)
    session.inputs_digest = Digests().of(paths)  # the first build has just run on these files
    build: Callable[..., None] = server.builder

    def rebuild(*args: Any, **kwargs: Any) -> None:  # noqa: ANN401 - MkDocs' builder's arguments
        digests = Digests()
        digest = digests.of(paths)
        if digest == session.inputs_digest:
            log.info("No watched file changed its content: not rebuilding")
            return
        session.inputs_digest = digest
        src = root / "src"
        changed = digests.changed(session.sources, [src])
        if changed:
            forgotten = reload.forget(reload.stale_modules(SourceTree(src, digests, session.parsed), changed))
            session.sources = digests.snapshot([src])
            log.debug("Forgot %d modules: %s", len(forgotten), ", ".join(forgotten))
        try:
            build(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - a failed rebuild must never leave the server stuck
            show_failed_build(site_dir, root, error)

    server.builder = rebuild
    return server


def show_failed_build(site_dir: Path, root: Path, error: BaseException) -> None:
    """Report a build that raised in one line, and put its banner on every page of ``site_dir``."""
    zh, en = (Failure("", "the build", error, lang) for lang in ("zh", "en"))
    log.error("%s", zh.line(root))
    pages = sorted(site_dir.rglob("*.html")) if site_dir.is_dir() else []
    for page in pages:
        failure = en if page.relative_to(site_dir).as_posix().startswith(ENGLISH_PREFIX) else zh
        text = page.read_text(encoding="utf-8", errors="replace")
        page.write_text(failures.with_boxes(text, [failure]), encoding="utf-8")
    for name in ("index.html", "404.html"):
        target = site_dir / name
        if not target.is_file():
            site_dir.mkdir(parents=True, exist_ok=True)
            target.write_text(failures.banner_page([zh, en]), encoding="utf-8")
