"""Every computed table downloadable: the data comments the renderers leave become links and files.

[`ascend_dsa.render.markdown.table`][] leaves ``<!-- ascend-data:table:<base64 CSV>:<base64 JSON> -->`` after each
table, and the claims ledger one ``json`` comment for all its claims. `take_downloads` replaces each comment with its
links and returns the files to write next to the page (``table-1.csv`` and ``table-1.json``, ``claims-1.json`` ...),
numbered in page order.
"""

from __future__ import annotations

import base64
import re
from typing import Final

from ascend_dsa.lang import Lang, pick
from ascend_dsa.render.markdown import DATA_MARKER

#: Class of the paragraph that holds a download link (assets/stylesheets/reader.css sets it small, on the right).
DOWNLOAD_CLASS: Final = "ascend-download"

_COMMENT: Final = re.compile(rf"(?:<p>)?<!-- {DATA_MARKER}:(csv|json|table):([A-Za-z0-9+/=:]*) -->(?:</p>)?")
#: Each kind of comment: the stem of its files' names and the extension of each payload, in the comment's order.
_FILES: Final = {"csv": ("table", ("csv",)), "json": ("claims", ("json",)), "table": ("table", ("csv", "json"))}


def _link(name: str, kind: str, lang: Lang) -> str:
    label = pick(lang, f"下载 {kind.upper()}", f"Download {kind.upper()}")
    return f'<a href="{name}" download>{label}</a>'


def take_downloads(html: str, lang: Lang) -> tuple[str, dict[str, bytes]]:
    """``html`` with each data comment made download links, and the files by name, to write beside the page."""
    files: dict[str, bytes] = {}
    counts: dict[str, int] = {}

    def one(match: re.Match[str]) -> str:
        stem, extensions = _FILES[match.group(1)]
        payloads = match.group(2).split(":")
        if len(payloads) != len(extensions):
            raise ValueError(f"a {match.group(1)} comment must carry {len(extensions)} files, got {len(payloads)}")
        counts[stem] = counts.get(stem, 0) + 1
        links = []
        for extension, payload in zip(extensions, payloads, strict=True):
            name = f"{stem}-{counts[stem]}.{extension}"
            files[name] = base64.b64decode(payload)
            links.append(_link(name, extension, lang))
        return f'<p class="{DOWNLOAD_CLASS}" data-search-exclude>{" · ".join(links)}</p>'

    return _COMMENT.sub(one, html), files
