"""What the hooks keep from one build to the next while ``mkdocs serve`` runs: not itself a hook.

Before each rebuild ``mkdocs serve`` loads mkdocs.yml again, which executes every hook module afresh, and calls
``on_startup`` only once: state kept in a hook module lasts one build. The hooks import this module by name
(MkDocs puts hooks/ on the import path while a hook loads), so Python keeps one copy of it in ``sys.modules`` for the
life of the process, and with it:

- whether the process serves the site (failures then show in the pages and the build goes on);
- the package's files as the last build saw them (hooks/reload_package.py);
- the digest of every watched input after the last build (hooks/serve_cache.py skips a rebuild when it is the same);
- each markdown-exec block's output, keyed by the block and a digest of ``src/`` (hooks/build_guard.py).

Under ``mkdocs build`` nothing here outlives the build, and no block output is cached: every block runs.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class ServeState:
    """The state the hooks share across the builds of one process."""

    serving: bool = False
    package_mtimes: dict[str, int] = field(default_factory=dict)
    inputs_digest: str | None = None
    blocks: dict[tuple[str, ...], str] = field(default_factory=dict)
    reading: list[Path] | None = None
    audit_installed: bool = False
    signature_formatter_wrapped: bool = False


STATE = ServeState()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """Note each file opened while ``STATE.reading`` is a list (an audit hook: installed once, never removed)."""
    if event == "open" and STATE.reading is not None and isinstance(args[0], str | Path):
        STATE.reading.append(Path(args[0]))


def watch_reads() -> None:
    """Install the audit hook that lets a block's file reads be noted (once per process)."""
    if not STATE.audit_installed:
        sys.addaudithook(_audit)
        STATE.audit_installed = True


def files_digest(paths: list[Path]) -> str:
    """A digest of the names and contents of every file in ``paths`` (files, or folders walked in sorted order)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in paths:
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path] if path.is_file() else []
        for file in files:
            if "__pycache__" in file.parts:
                continue
            digest.update(str(file).encode("utf-8", "surrogateescape") + b"\0")
            digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()
