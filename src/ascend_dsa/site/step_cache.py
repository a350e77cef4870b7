"""Under ``mkdocs serve``: a page step's result kept by the digest of everything it reads, for the next rebuild.

MkDocs runs every page event for every page on every rebuild, including the pages whose rendering was reused
(`ascend_dsa.site.page_cache`). The steps that follow a page's rendering (its tables' downloads, the Chinese lines
joined, the edition's links, the notebook styles pruned, white space folded) are pure functions of the page's HTML,
its address and the package's code, so a rebuild looks their result up by a digest of those instead of computing it
again: about half a second of a rebuild that renders three pages. A rebuild keeps only the results it used, so the
cache holds one site's worth. ``mkdocs build`` keeps nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")

#: Bytes that give each part's length in a key, so that no two different lists of parts make the same key.
_LENGTH_BYTES: Final = 8


@dataclass
class StepCache:
    """The results a rebuild may reuse (``previous``) and those it computed or reused (``current``)."""

    #: What the last rebuild used (`ascend_dsa.site.state.ServeSession.step_results`), or None: keep nothing.
    previous: dict[str, object] | None
    current: dict[str, object] = field(default_factory=dict)
    #: How many results were reused.
    hits: int = 0

    def result(self, parts: tuple[str, ...], compute: Callable[[], tuple[T, bool]]) -> T:
        """The result of the step whose inputs are ``parts``: kept, or ``compute()``'s.

        ``compute`` returns the result and whether it may be kept (a step that recorded a failure must run again on
        the next build, so that its box and its log line come back).
        """
        if self.previous is None:
            return compute()[0]
        key = _key(parts)
        if key in self.previous:
            found: T = self.previous[key]  # type: ignore[assignment]  # stored by this key's step, of its type
            self.current[key] = found
            self.hits += 1
            return found
        value, keep = compute()
        if keep:
            self.current[key] = value
        return value


def _key(parts: tuple[str, ...]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(_LENGTH_BYTES, "little"))
        digest.update(data)
    return digest.hexdigest()
