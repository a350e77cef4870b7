"""Every computed table downloadable: the data comments the renderers leave become links and files.

[`ascend_dsa.render.markdown.table`][] leaves ``<!-- ascend-data:csv:<base64> -->`` after each table, and the claims
ledger one ``json`` comment for all its claims. `take_downloads` replaces each comment with a link and returns the
files to write next to the page (``table-1.csv``, ``table-2.csv``, ``claims-1.json`` ...), numbered in page order.
"""

from __future__ import annotations

import base64
import re
from typing import Final

from ascend_dsa.lang import Lang, pick
from ascend_dsa.render.markdown import DATA_MARKER

#: Class of the paragraph that holds a download link (assets/stylesheets/reader.css sets it small, on the right).
DOWNLOAD_CLASS: Final = "ascend-download"

_COMMENT: Final = re.compile(rf"(?:<p>)?<!-- {DATA_MARKER}:(csv|json):([A-Za-z0-9+/=]*) -->(?:</p>)?")
_STEMS: Final = {"csv": "table", "json": "claims"}


def take_downloads(html: str, lang: Lang) -> tuple[str, dict[str, bytes]]:
    """``html`` with each data comment made a download link, and the files by name, to write beside the page."""
    files: dict[str, bytes] = {}
    counts = dict.fromkeys(_STEMS, 0)

    def one(match: re.Match[str]) -> str:
        kind = match.group(1)
        counts[kind] += 1
        name = f"{_STEMS[kind]}-{counts[kind]}.{kind}"
        files[name] = base64.b64decode(match.group(2))
        label = pick(lang, f"下载 {kind.upper()}", f"Download {kind.upper()}")
        return f'<p class="{DOWNLOAD_CLASS}" data-search-exclude><a href="{name}" download>{label}</a></p>'

    return _COMMENT.sub(one, html), files
