"""The site's one rule for "did it change": a file changed when the digest of its content changed.

Modification times are not used anywhere: an editor's save of an unchanged buffer, ``touch`` or a checkout that
writes the same bytes changes no digest, so it rebuilds, re-renders and reloads nothing. A `Digests` reads each
file at most once: one is made per build (files may change between builds), and every check of that build shares
it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterable

#: What a file that cannot be read (gone since it was listed) digests to: never equal to a real digest.
UNREADABLE: Final = "unreadable"
#: Folders never part of an input: Python's byte-code caches.
SKIPPED_FOLDERS: Final = frozenset({"__pycache__"})


def digest_bytes(data: bytes) -> str:
    """A short digest of ``data`` (BLAKE2b, 16 bytes, as hexadecimal)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass
class Digests:
    """Content digests and folder listings, each read once for the life of this object (one build)."""

    _files: dict[Path, str] = field(default_factory=dict)
    _folders: dict[Path, tuple[Path, ...]] = field(default_factory=dict)

    def file(self, path: Path) -> str:
        """The digest of one file's content (``UNREADABLE`` if it cannot be read)."""
        if path not in self._files:
            try:
                self._files[path] = digest_bytes(path.read_bytes())
            except OSError:
                self._files[path] = UNREADABLE
        return self._files[path]

    def listing(self, path: Path) -> tuple[Path, ...]:
        """The files ``path`` names: itself, or every file below the folder in sorted order (caches left out)."""
        if path not in self._folders:
            if path.is_dir():
                found = (p for p in path.rglob("*") if p.is_file() and not SKIPPED_FOLDERS.intersection(p.parts))
                self._folders[path] = tuple(sorted(found))
            else:
                self._folders[path] = (path,) if path.is_file() else ()
        return self._folders[path]

    def of(self, paths: Iterable[Path]) -> str:
        """One digest of the names and contents of every file ``paths`` name (files, or folders walked in order)."""
        digest = hashlib.blake2b(digest_size=16)
        for path in paths:
            for file in self.listing(path):
                digest.update(str(file).encode("utf-8", "surrogateescape") + b"\0")
                digest.update(self.file(file).encode() + b"\0")
        return digest.hexdigest()

    def changed(self, before: dict[Path, str], paths: Iterable[Path]) -> set[Path]:
        """The files under ``paths`` whose digest differs from ``before`` (added and removed files included)."""
        now = self.snapshot(paths)
        return {p for p in now.keys() | before.keys() if now.get(p) != before.get(p)}

    def snapshot(self, paths: Iterable[Path]) -> dict[Path, str]:
        """Every file under ``paths`` and its digest."""
        return {file: self.file(file) for path in paths for file in self.listing(path)}
