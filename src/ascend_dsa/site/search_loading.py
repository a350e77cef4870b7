"""The search index is fetched when a reader first opens the search, not by every page as it loads.

Material's bundle requests its edition's index (tens of kB gzipped) on every page load, which took the heaviest
pages over the weight budget, for readers who may never search. `defer_index_request` rewrites that
one request in the built bundle so that the request is made on the first focus of the search box or toggle, and at
once when the page opens from a search result (its ``?h=`` highlight needs the index's configuration). The index is then
in the browser's cache for every later page. The rewrite fails the build if Material's bundle no longer has the request
it expects, rather than leaving the index eager without anyone noticing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from pathlib import Path

#: Material's request of the index over HTTP in its minified bundle, ``ze(new URL("search/search_index.json",Or.base))``
#: (names vary by release; the file: protocol's branch beside it loads ``search_index.js`` and is left alone).
INDEX_REQUEST: Final = re.compile(r'(?<![\w$.])([\w$]+)\(new URL\("search/search_index\.json",([\w$]+)\.base\)\)')
#: Marks a bundle rewritten already (both editions' builds write into the same site).
DEFERRED_MARK: Final = "/*ascend-dsa: index on first search*/"
#: Wraps Material's cold request (an RxJS observable) in one of the same class that subscribes to it only on the first
#: focus of the search box, or change of the search toggle, or at once under ``?h=``; the request is shared, so every
#: subscriber waits for the same single fetch.
_DEFER: Final = (
    "(o=>new o.constructor(s=>{let u=null;"
    'const q=document.querySelector("[data-md-component=search-query]"),t=document.getElementById("__search"),'
    'stop=()=>{q&&q.removeEventListener("focus",go);t&&t.removeEventListener("change",go)},'
    "go=()=>{if(!u){stop();u=o.subscribe(s)}};"
    'if(new URLSearchParams(location.search).has("h")||(q&&document.activeElement===q))go();'
    'else{q&&q.addEventListener("focus",go);t&&t.addEventListener("change",go)}'
    "return()=>{stop();u&&u.unsubscribe()}}))"
)


def deferred(code: str, name: str) -> str:
    """Bundle ``code`` with its one index request made on first search; ``name`` (the file's) goes into the error."""
    if DEFERRED_MARK in code:
        return code
    requests = INDEX_REQUEST.findall(code)
    if len(requests) != 1:
        message = (
            f"{name}: expected Material's bundle to request search/search_index.json once over HTTP, "
            f"found {len(requests)} requests (did Material change?)"
        )
        raise RuntimeError(message)
    return INDEX_REQUEST.sub(lambda match: f"{DEFERRED_MARK}{_DEFER}({match[0]})", code)


def defer_index_request(site: Path) -> None:
    """Rewrite the built site's Material bundle so that a page fetches the search index on first search only."""
    for bundle in (site / "assets" / "javascripts").glob("bundle.*.min.js"):
        code = bundle.read_text(encoding="utf-8")
        rewritten = deferred(code, bundle.name)
        if rewritten != code:
            bundle.write_text(rewritten, encoding="utf-8")
