"""Hover definitions on every page: the glossary's terms appended to a page's Markdown as abbreviations.

Python-Markdown's ``abbr`` extension then wraps each use of a term in ``<abbr title="...">``. Only a term's first
use on a page stays wrapped (`keep_first_titles`), as a term is linked at its first mention: the definition is
there once per page, and a page that names UB dozens of times does not carry its definition dozens of times.
"""

from __future__ import annotations

import re
from typing import Final

from ascend_dsa.lang import Lang
from ascend_dsa.render.glossary import abbreviations

#: The glossary page itself: its terms are the definitions, not uses.
GLOSSARY_PAGES: Final = ("reference/glossary.md", "reference/glossary.en.md")

_ABBR: Final = re.compile(r'<abbr title="([^"]*)">([^<]*)</abbr>')


def with_abbreviations(markdown: str, src_uri: str, lang: Lang) -> str:
    """``markdown`` with the glossary's abbreviations for ``lang`` appended (the glossary page stays as it is)."""
    if src_uri in GLOSSARY_PAGES:
        return markdown
    return f"{markdown.rstrip()}\n\n{abbreviations(lang=lang)}"


def keep_first_titles(html: str) -> str:
    """``html`` with each term's first ``<abbr>`` kept and every later one unwrapped to its plain text."""
    seen: set[str] = set()

    def one(match: re.Match[str]) -> str:
        term = match.group(2)
        if term in seen:
            return term
        seen.add(term)
        return match.group(0)

    return _ABBR.sub(one, html)
