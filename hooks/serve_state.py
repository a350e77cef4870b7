"""What the hooks keep from one build to the next while ``mkdocs serve`` runs: not itself a hook.

Before each rebuild ``mkdocs serve`` loads mkdocs.yml again, which executes every hook module afresh, and calls
``on_startup`` only once: state kept in a hook module lasts one build. The hooks import this module by name
(MkDocs puts hooks/ on the import path while a hook loads), so Python keeps one copy of it in ``sys.modules`` for the
life of the process, and with it:

- whether the process serves the site (failures then show in the pages and the build goes on);
- the package's files as the last build saw them (hooks/reload_package.py);
- the digest of every watched input after the last build (hooks/serve_cache.py skips a rebuild when it is the same);
- each markdown-exec block's output, keyed by the block and checked against the files it depends on
  (hooks/build_guard.py);
- each page's rendered HTML, table of contents and cross-reference anchors, keyed by its Markdown and checked
  against the files it depends on (hooks/serve_cache.py);
- the digest of each file read for those checks, computed once per build (``begin_build`` forgets them).

Under ``mkdocs build`` nothing here outlives the build, and no block output is cached: every block runs.
"""

from __future__ import annotations

import hashlib
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator


@dataclass
class ServeState:
    """The state the hooks share across the builds of one process."""

    serving: bool = False
    package_mtimes: dict[str, int] = field(default_factory=dict)
    inputs_digest: str | None = None
    blocks: dict[tuple[str, ...], tuple[str, tuple[Path, ...], str]] = field(default_factory=dict)
    #: By page (source and destination): see hooks/serve_cache.py.
    pages: dict[tuple[str, ...], Any] = field(default_factory=dict)
    reading: list[Path] | None = None
    #: Files the page being rendered depends on beyond its own source (its blocks' and notebook's), or None.
    page_depends: set[Path] | None = None
    #: Failures hooks/build_guard.py has reported in this process (a page that had one is not kept).
    failures: int = 0
    #: Warnings MkDocs and its plugins have logged in this process (a page that logged one is not kept).
    warnings: int = 0
    digests: dict[Path, str] = field(default_factory=dict)
    listings: dict[Path, tuple[Path, ...]] = field(default_factory=dict)
    audit_installed: bool = False
    signature_formatter_wrapped: bool = False
    warning_counter_installed: bool = False
    pages_rendered: int = 0
    pages_reused: int = 0
    #: The notebook style sheet pruned to a page's classes, by sheet and classes (hooks/notebook_css.py).
    pruned_css: dict[tuple[str, frozenset[str]], str] = field(default_factory=dict)
    #: Material's search entries for each page, by URL, with what they were made from (hooks/serve_cache.py).
    search_entries: dict[str, tuple[tuple[str, ...], list[Any]]] = field(default_factory=dict)
    #: Compiled Jinja templates (the theme's, mkdocstrings'), by template name and checksum (hooks/serve_cache.py).
    templates: dict[str, Any] = field(default_factory=dict)
    #: The theme's files MkDocs copies, by theme folders and filter (hooks/serve_cache.py; the theme is not watched).
    theme_files: dict[tuple[Any, ...], list[str]] = field(default_factory=dict)
    #: The digest of src/ and the modules (and source lines) griffe loaded from it (hooks/serve_cache.py).
    griffe: tuple[str, Any, Any] | None = None


STATE = ServeState()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """Note each file opened while ``STATE.reading`` is a list (an audit hook: installed once, never removed)."""
    if event == "open" and STATE.reading is not None and isinstance(args[0], str | Path):
        STATE.reading.append(Path(args[0]))


@contextmanager
def recording_reads(*, active: bool) -> Iterator[list[Path]]:
    """The files opened inside the ``with`` block, noted only while ``active`` (the list stays empty otherwise)."""
    reads: list[Path] = []
    STATE.reading = reads if active else None
    try:
        yield reads
    finally:
        STATE.reading = None


def watch_reads() -> None:
    """Install the audit hook that lets a block's file reads be noted (once per process)."""
    if not STATE.audit_installed:
        sys.addaudithook(_audit)
        STATE.audit_installed = True


def begin_build() -> None:
    """Forget the digests and folder listings of the last build: files may have changed since."""
    STATE.digests.clear()
    STATE.listings.clear()


def files_in(path: Path) -> tuple[Path, ...]:
    """The files ``path`` names: itself, or every file of the folder in sorted order (``__pycache__`` left out)."""
    if STATE.serving and path in STATE.listings:
        return STATE.listings[path]
    if path.is_dir():
        files = tuple(sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts))
    else:
        files = (path,) if path.is_file() else ()
    if STATE.serving:
        STATE.listings[path] = files
    return files


def file_digest(file: Path) -> str:
    """A digest of one file's content (under serve, read once per build)."""
    if STATE.serving and file in STATE.digests:
        return STATE.digests[file]
    try:
        digest = hashlib.blake2b(file.read_bytes(), digest_size=16).hexdigest()
    except OSError:
        digest = "unreadable"  # gone since it was listed: the next build, which its removal starts, lists again
    if STATE.serving:
        STATE.digests[file] = digest
    return digest


def files_digest(paths: list[Path]) -> str:
    """A digest of the names and contents of every file in ``paths`` (files, or folders walked in sorted order)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in paths:
        for file in files_in(path):
            digest.update(str(file).encode("utf-8", "surrogateescape") + b"\0")
            digest.update(file_digest(file).encode() + b"\0")
    return digest.hexdigest()
