"""Chinese text in the built pages: line breaks dropped between Chinese characters, and none left untranslated.

Chapters wrap long Chinese lines in the source. A browser shows each such line break as a space, so a sentence
reads "个输出、 每个输出做". `join_cjk_lines` removes a newline (and the indentation after it) when the characters on
both sides are CJK ideographs or full-width punctuation, everywhere except in ``pre``, ``code``, ``script``, ``style``
and math, whose text must stay as written. A break between Chinese and Latin text stays a space.

An English page may quote the Chinese report, but never without English beside it: `check_translated` fails the
page's build on Chinese words that no English follows.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Final

from ascend_dsa.lang import CJK_CHARACTERS as _CJK

BREAK: Final = re.compile(f"(?<=[{_CJK}])[ \\t]*\\n[ \\t]*(?=[{_CJK}])")
#: Elements whose text is kept exactly as written.
KEEP: Final = re.compile(
    r"<(pre|code|script|style|textarea)\b.*?</\1>|<(span|div)\b[^>]*class=\"arithmatex\"[^>]*>.*?</\2>",
    re.DOTALL,
)


def join_cjk_lines(html: str) -> str:
    """``html`` with source line breaks between two CJK characters removed outside kept elements."""
    parts = []
    position = 0
    for match in KEEP.finditer(html):
        parts.append(BREAK.sub("", html[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(BREAK.sub("", html[position:]))
    return "".join(parts)


class UntranslatedChinese(Exception):  # noqa: N818 - it names what the page holds, like offline.CdnDiagram
    """An English page shows Chinese words with no English beside them."""


#: Elements whose text a reader never sees as prose: code listings, scripts and styles.
_UNSEEN: Final = re.compile(r"<(pre|script|style|textarea)\b.*?</\1>", re.DOTALL)
_TAG: Final = re.compile(r"<[^>]*>")
#: Chinese words, with the Latin words between them (a few, without bracket, quote, punctuation or line break).
_CHINESE_RUN: Final = re.compile(f"[{_CJK}]+(?:[^\\n()（）“”.,;:!?{_CJK}]{{0,12}}[{_CJK}]+)*")
#: What follows Chinese words that are translated: the rest of their quotation, then ``(``, ``“`` or ``English
#: edition`` and English words (``“必须用两个 AIV” (“requires two AIVs”``, ```两` (2)``).
_TRANSLATION_AFTER: Final = re.compile(
    r"[^\n()（）“”`]{0,25}?[”’\"'`」]?\s*[,，:：]?\s*(?:English edition\s+|[(（“\"`]\s*[“\"'`]?)[A-Za-z0-9]"
)


def untranslated_chinese(html: str) -> list[str]:
    """The Chinese words of an English page's ``html`` that have no English beside them, in page order.

    Code listings, scripts and attribute values are not read; inline code is, as a page quotes the report in it.
    Chinese words are translated when their quotation is followed by English in parentheses or quotation marks.
    """
    text = unescape(_TAG.sub("", _UNSEEN.sub(" ", html)))
    return [m.group(0) for m in _CHINESE_RUN.finditer(text) if not _TRANSLATION_AFTER.match(text, m.end())]


def check_translated(html: str) -> None:
    """Raise `UntranslatedChinese` naming the first Chinese words of an English page with no English beside them."""
    found = untranslated_chinese(html)
    if found:
        more = f" and {len(found) - 1} more" if len(found) > 1 else ""
        raise UntranslatedChinese(
            f"English page quotes Chinese without a translation beside it: {found[0]!r}{more}; "
            "add the English in parentheses after it"
        )
