"""The one place where the site reaches into a dependency's private attribute, and why: nowhere else does.

mkdocstrings-python renders the API reference twice per build (once per edition) and again on every
``mkdocs serve`` rebuild that touches an API page, and offers no public option for this saving.

**Signature formatting.** Every signature longer than the line is formatted by the formatter that
``rendering._get_formatter()`` chooses (Black in process, else one ``ruff format`` process per signature: about 400
a build, 3 s). `remember_signature_formats` makes it format each distinct signature once per build (the second
edition formats the same signatures) and, under serve, once per process. The text is the same: the formatter is a
pure function of the code and the line length.

(Sharing griffe's loaded package between the editions' handlers would save about a second more, but it changes the
API inventory: aliases the first edition resolved become entries of the second's ``objects.inv``.)

tests/site/test_internals.py fails, naming the attribute, when a new mkdocstrings-python release renames or drops
it: update this module then, or delete the saving.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Final

#: mkdocstrings-python's module whose ``_get_formatter`` returns the signature formatter.
SIGNATURE_RENDERING: Final = "mkdocstrings_handlers.python._internal.rendering"
#: The formatter chooser's attribute in that module.
FORMATTER_CHOOSER: Final = "_get_formatter"
#: Marks a chooser this module installed, and holds the one it replaced.
_ORIGINAL: Final = "_ascend_dsa_original"

Formatter = Callable[[str, int], str]


def remember_signature_formats(kept: dict[tuple[str, int], str]) -> None:
    """Make mkdocstrings-python format each signature once while ``kept`` (code and line length -> text) lives.

    Raises AttributeError naming the attribute if mkdocstrings-python no longer has it.
    """
    rendering = importlib.import_module(SIGNATURE_RENDERING)
    chooser = getattr(rendering, FORMATTER_CHOOSER)
    original: Callable[[], Formatter] = getattr(chooser, _ORIGINAL, chooser)

    def remembered(code: str, line_length: int) -> str:
        key = (code, line_length)
        if key not in kept:
            kept[key] = original()(code, line_length)
        return kept[key]

    def choose() -> Formatter:
        return remembered

    setattr(choose, _ORIGINAL, original)
    setattr(rendering, FORMATTER_CHOOSER, choose)
