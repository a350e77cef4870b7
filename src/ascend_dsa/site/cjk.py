"""Drop the line breaks of the Markdown source between two Chinese characters.

Chapters wrap long Chinese lines in the source. A browser shows each such line break as a space, so a sentence
reads "个输出、 每个输出做". `join_cjk_lines` removes a newline (and the indentation after it) when the characters on
both sides are CJK ideographs or full-width punctuation, everywhere except in ``pre``, ``code``, ``script``, ``style``
and math, whose text must stay as written. A break between Chinese and Latin text stays a space.
"""

from __future__ import annotations

import re
from typing import Final

#: CJK punctuation, ideographs, full-width forms.
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
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
