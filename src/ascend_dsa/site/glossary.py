"""Hover definitions on every page: the glossary's terms appended to a page's Markdown as abbreviations.

Python-Markdown's ``abbr`` extension then wraps each use of a term in ``<abbr title="...">``. Only a term's first
use on a page stays wrapped (`keep_first_titles`), as a term is linked at its first mention: the definition is
there once per page, and a page that names UB dozens of times does not carry its definition dozens of times.
"""

from __future__ import annotations

import re
from html import escape
from typing import Final

from ascend_dsa.facts.glossary import GLOSSARY_TERMS
from ascend_dsa.lang import Lang, pick
from ascend_dsa.render.glossary import abbreviations

#: The glossary page itself: its terms are the definitions, not uses.
GLOSSARY_PAGES: Final = ("reference/glossary.md", "reference/glossary.en.md")

_ABBR: Final = re.compile(r'<abbr title="([^"]*)">([^<]*)</abbr>')

#: Pages that get no pointer to the AI Core figure: the figure's own page, the home page (which draws its sketch and
#: links to it) and the reference section.
_NO_UNIT_LINK: Final = re.compile(r"^(?:algorithm/model|index\.|reference/)")
#: A hardware unit named in a page's prose.
_UNIT: Final = re.compile(r"\b(?:" + "|".join(re.escape(e.term) for e in GLOSSARY_TERMS if e.unit) + r")\b")
#: The page's title and opening quote ("Covers report (zh) lines ..."), up to the quote's last line (under
#: ``mkdocs serve`` an error box may stand before the title).
_OPENING_QUOTE: Final = re.compile(r"^(# [^\n]*\n+(?:>[^\n]*\n)+)", re.MULTILINE)


def with_unit_link(markdown: str, src_uri: str, lang: Lang) -> str:
    """A chapter that names a hardware unit points to the AI Core figure and the glossary from its opening quote."""
    if _NO_UNIT_LINK.match(src_uri) or not src_uri.endswith(".md") or not _UNIT.search(markdown):
        return markdown
    up = "../" * src_uri.count("/")
    figure, glossary = f"{up}algorithm/model.md#ai-core", f"{up}reference/glossary.md"
    sentence = pick(
        lang,
        f"本章提到的硬件单元画在 [AI Core 图]({figure})里，定义见[术语表]({glossary})。",
        f"The hardware units named here are drawn in [the AI Core figure]({figure}) and defined in the "
        f"[glossary]({glossary}).",
    )
    opening = _OPENING_QUOTE.search(markdown)
    if opening is None:  # a chapter without an opening quote: tests/site/test_see_the_machine.py names it
        return markdown
    head, tail = markdown[: opening.end()], markdown[opening.end() :]
    # Out of the search index: the same sentence on every chapter would answer no query and weigh on every page.
    return f"{head}>\n> {sentence}\n> {{ data-search-exclude }}\n{tail}"


def with_abbreviations(markdown: str, src_uri: str, lang: Lang) -> str:
    """``markdown`` with the glossary's abbreviations for ``lang`` appended (not the glossary page, not a notebook)."""
    if src_uri in GLOSSARY_PAGES or not src_uri.endswith(".md"):
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


#: Elements whose text is not prose: code, scripts, links, headings, form controls and drawings get no definition.
_NOT_PROSE: Final = frozenset(
    {
        "pre",
        "code",
        "script",
        "style",
        "svg",
        "a",
        "abbr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "button",
        "label",
        "select",
        "textarea",
        "form",
    }
)
_TAG: Final = re.compile(r"(<[^>]*>)")
_TAG_NAME: Final = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)")
#: Any glossary term as a whole word, the longest first (ND2NZ before ND).
_TERM: Final = re.compile(
    r"(?<![\w-])("
    + "|".join(re.escape(e.term) for e in sorted(GLOSSARY_TERMS, key=lambda e: -len(e.term)))
    + r")(?![\w-])"
)


def with_first_definitions(html: str, lang: Lang) -> str:
    """``html`` (a notebook page, which Python-Markdown's ``abbr`` never sees) with each term's first prose use defined.

    The same ``<abbr title>`` the Markdown pages get; text inside code, links, headings, forms and figures is left
    alone.
    """
    definitions = {e.term: e.text(lang) for e in GLOSSARY_TERMS}
    seen: set[str] = set()
    depth = 0
    pieces = _TAG.split(html)
    for index, piece in enumerate(pieces):
        if index % 2:  # a tag
            name = _TAG_NAME.match(piece)
            if name and name.group(2).lower() in _NOT_PROSE and not piece.endswith("/>"):
                depth += -1 if name.group(1) else 1
            continue
        if depth or not piece.strip():
            continue

        def define(match: re.Match[str]) -> str:
            term = match.group(1)
            if term in seen:
                return term
            seen.add(term)
            return f'<abbr title="{escape(definitions[term], quote=True)}">{term}</abbr>'

        pieces[index] = _TERM.sub(define, piece)
    return "".join(pieces)
