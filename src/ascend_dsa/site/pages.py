"""What a hook needs to speak a page's language: which language a page file is in, and the words of the error box.

hooks/build_guard.py shows a failing block as a box in the page's language; its words are glossary terms here, so
the hook keeps no table of its own.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Final

from ascend_dsa.lang import Lang, term

#: The error box's table columns, in order: the glossary names after ``error-box:``.
ERROR_BOX_COLUMNS: Final = ("what", "report line", "ours", "report", "rule")


def page_lang(page: str) -> Lang:
    """``en`` for an English twin (``x.en.md``, ``x.en.ipynb``), else ``zh``."""
    return "en" if PurePosixPath(page).stem.endswith(".en") else "zh"


def error_box_words(page: str) -> tuple[str, ...]:
    """The error box's title, then its table's headings (``ERROR_BOX_COLUMNS``), in ``page``'s language."""
    lang = page_lang(page)
    return (term("error-box:title", lang), *(term(f"error-box:{column}", lang) for column in ERROR_BOX_COLUMNS))
