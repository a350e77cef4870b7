"""The one place where the site reaches into a dependency's private attribute, and why: nowhere else does.

mkdocstrings-python formats every signature longer than the line with the formatter that
``rendering._get_formatter()`` chooses: Black in process, else one ``ruff format`` process per signature (about
5 ms each, about 215 a build: more than a second of every build and of every ``mkdocs serve`` rebuild that renders
an API page). It offers no public option for this saving.

**Signature formats, remembered.** `remember_signature_formats` makes it format each distinct signature once, and
keeps what it formatted in a small file of the user's cache folder (`signature_cache_file`) for the next build. The
text is the same: the formatter is a pure function of the code and the line length, and the file is keyed by the
formatter and its version.

With ``signature_crossrefs`` (off here) mkdocstrings-python would stand random names in for the signature's
cross-references before formatting it: every signature would then be new to the memo, which would still be right,
only no faster.

tests/site/test_internals.py fails, naming the attribute, when a new mkdocstrings-python release renames or drops
it: update this module then, or delete the saving.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

#: mkdocstrings-python's module whose ``_get_formatter`` returns the signature formatter.
SIGNATURE_RENDERING: Final = "mkdocstrings_handlers.python._internal.rendering"
#: The formatter chooser's attribute in that module.
FORMATTER_CHOOSER: Final = "_get_formatter"
#: Marks a chooser this module installed, and holds the one it replaced.
_ORIGINAL: Final = "_ascend_dsa_original"
Formatter = Callable[[str, int], str]


def remember_signature_formats(kept: dict[str, str], used: set[str] | None = None) -> None:
    """Make mkdocstrings-python format each signature once while ``kept`` (key -> formatted text) lives.

    ``used`` collects the keys this build looked up. Raises AttributeError naming the attribute if
    mkdocstrings-python no longer has it.
    """
    rendering = importlib.import_module(SIGNATURE_RENDERING)
    chooser = getattr(rendering, FORMATTER_CHOOSER)
    original: Callable[[], Formatter] = getattr(chooser, _ORIGINAL, chooser)

    def remembered(code: str, line_length: int) -> str:
        key = f"{line_length}\n{code}"
        if used is not None:
            used.add(key)
        if key not in kept:
            kept[key] = original()(code, line_length)
        return kept[key]

    def choose() -> Formatter:
        return remembered

    setattr(choose, _ORIGINAL, original)
    setattr(rendering, FORMATTER_CHOOSER, choose)


def formatter_name() -> str:
    """Which formatter mkdocstrings-python uses, with its version: Black if installed, else Ruff (its order)."""
    for package in ("black", "ruff"):
        try:
            return f"{package}-{importlib.metadata.version(package)}"
        except importlib.metadata.PackageNotFoundError:
            continue
    return "none"


def signature_cache_file(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the formatted signatures are kept between builds: the user's cache folder, per formatter and version.

    ``$XDG_CACHE_HOME``, else ``~/.cache``; the temporary folder for a user without a home.
    """
    base = environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # no HOME and no password entry
            base = tempfile.gettempdir()
    return Path(base) / "ascend-dsa" / f"signatures-{formatter_name()}.json"


def read_signature_cache(path: Path) -> dict[str, str]:
    """The formatted signatures kept at ``path``; none if it is missing or unreadable (it is only a cache)."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(found, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in found.items()):
        return {}
    return found


#: The file keeps every signature known while it holds at most this many times those the last build used; past
#: that, only those (the rest are old versions of signatures since edited).
_KEPT_PER_USED: Final = 4


def write_signature_cache(path: Path, kept: dict[str, str], used: set[str]) -> None:
    """Keep ``kept`` at ``path`` for the next build (atomically; a folder that cannot be written is skipped)."""
    if len(kept) > _KEPT_PER_USED * max(len(used), 1):
        kept = {key: text for key, text in kept.items() if key in used}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(kept, ensure_ascii=False, sort_keys=True), encoding="utf-8")
        partial.replace(path)
    except OSError:
        return
