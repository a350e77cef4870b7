"""The one reader of page sources (Markdown fences, notebook cells), for renderers, hooks (via `site`) and tests.

A fence opens with three or more backticks or tildes, possibly indented (inside an admonition or a tab), and
closes with the same marker at the same indentation. An executed block is one whose info string says
``exec="true"`` (or 1, yes, on), as markdown-exec reads it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

#: A whole fenced block: indentation, marker, info string, body and the closing marker.
FENCE: Final = re.compile(
    r"^(?P<indent>[ \t]*)(?P<marker>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=indent)(?P=marker)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
#: Inline code: a run of backticks, the code, and the same run closing it (CommonMark's code span).
CODE_SPAN: Final = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.DOTALL)
_EXEC: Final = re.compile(r"""\bexec=["']?(?:true|1|yes|on)\b""")
_ID: Final = re.compile(r"""\bid=["']?(?P<id>[^"'\s]+)""")


@dataclass(frozen=True)
class Fence:
    """One fenced block of a page: where it stands, its info string and its code, dedented."""

    start: int
    end: int
    indent: str
    marker: str
    info: str
    code: str

    @property
    def language(self) -> str:
        """The block's language: the first word of the info string (``python``), or ``""``."""
        words = self.info.split()
        return words[0] if words else ""

    @property
    def executed(self) -> bool:
        """Whether markdown-exec runs the block (``exec="true"``)."""
        return _EXEC.search(self.info) is not None

    @property
    def block_id(self) -> str:
        """The block's ``id`` option, or ``<no id>``."""
        found = _ID.search(self.info)
        return found["id"] if found else "<no id>"


def fences(markdown: str) -> list[Fence]:
    """Every fenced block of ``markdown``, in page order."""
    found = []
    for match in FENCE.finditer(markdown):
        indent = match["indent"]
        body = match["body"].removesuffix("\n")
        code = "\n".join(line.removeprefix(indent) for line in body.split("\n")) if body else ""
        found.append(Fence(match.start(), match.end(), indent, match["marker"], match["info"], code))
    return found


def outside_fences(markdown: str, change: Callable[[str], str]) -> str:
    """``markdown`` with ``change`` applied to the text between fenced blocks; the blocks stay as they are."""
    parts, position = [], 0
    for fence in fences(markdown):
        parts.append(change(markdown[position : fence.start]))
        parts.append(markdown[fence.start : fence.end])
        position = fence.end
    parts.append(change(markdown[position:]))
    return "".join(parts)


def blank_fences(markdown: str) -> str:
    """``markdown`` with every fenced block replaced by spaces, keeping line breaks (so line numbers hold)."""
    return FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), markdown)


def docs_pages(docs_dir: Path) -> list[Path]:
    """Every page source under ``docs_dir`` (Markdown pages and notebooks) in path order, vendored files left out."""
    return sorted(p for p in docs_dir.rglob("*") if p.suffix in (".md", ".ipynb") and "vendor" not in p.parts)


def notebook_cells(notebook: str, kind: Literal["code", "markdown"]) -> list[str]:
    """The sources of the cells of ``kind`` in ``notebook`` (the notebook file's JSON text), in order."""
    return ["".join(c["source"]) for c in json.loads(notebook)["cells"] if c["cell_type"] == kind]
