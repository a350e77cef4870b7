"""MkDocs hook: under ``mkdocs serve``, a file saved without a change of content triggers no rebuild.

MkDocs' watcher rebuilds on any file event (an editor's save of an unchanged buffer, ``touch``, a checkout that
rewrites the same bytes); each rebuild used to take both editions and every block, about ten seconds. This hook wraps
the server's builder: it digests the watched inputs (the docs, mkdocs.yml, the ``watch:`` folders) and skips the
build when the digest equals the last build's. The block output cache is in hooks/build_guard.py. Also under serve,
mkdocstrings' signature formatter (a ``ruff format`` process per long signature, a few hundred per build) keeps its
results for the life of the process: a pure function of its text. ``mkdocs build`` is untouched.
"""

from __future__ import annotations

import importlib
import logging
from pathlib import Path
from typing import Any

from serve_state import STATE, files_digest

#: mkdocstrings-python's module whose ``_get_formatter`` returns the signature formatter.
SIGNATURE_RENDERING = "mkdocstrings_handlers.python._internal.rendering"

log = logging.getLogger("mkdocs.hooks.serve_cache")


def on_startup(command: str, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Remember, for the whole process, whether it serves the site."""
    STATE.serving = command == "serve"


def on_config(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Under serve, make mkdocstrings' signature formatter remember what it formatted (once per process)."""
    if not STATE.serving or STATE.signature_formatter_wrapped:
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
        digest = files_digest(paths)
        if digest == STATE.inputs_digest:
            log.info("No watched file changed its content: not rebuilding")
            return
        build(*args, **kwargs)
        STATE.inputs_digest = digest

    server.builder = build_if_changed
    return server
