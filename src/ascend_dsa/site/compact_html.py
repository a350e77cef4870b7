"""Fold the white space between tags that page templates leave, outside the elements where it shows.

Material's templates indent the navigation tree and the page's frame; a run of blanks and line breaks between two
tags renders as one blank, so it can be one line break. Inside ``<pre>``, ``<textarea>``, ``<script>`` and
``<style>`` white space can matter, and those elements are left as they are.
"""

from __future__ import annotations

import re
from typing import Final

#: An element whose white space is kept (group 1), or a run of white space between two tags.
_TOKEN: Final = re.compile(
    r"(<(pre|textarea|script|style)\b.*?</\2>)|(?<=>)[ \t\r\n]{2,}(?=<)", re.DOTALL | re.IGNORECASE
)


def compact_html(html: str) -> str:
    """``html`` with every run of two or more white-space characters between tags made one line break."""
    return _TOKEN.sub(lambda match: match.group(1) or "\n", html)
