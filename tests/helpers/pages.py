"""The executed Python blocks of the pages, read and run as markdown-exec runs them."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_dsa.render.fences import fences
from tests.helpers.project import DOCS

if TYPE_CHECKING:
    from pathlib import Path


@dataclass(frozen=True)
class PageBlock:
    """One executed block of a page: the page (relative to docs/), the block's id and its code, dedented."""

    page: str
    block_id: str
    code: str

    def run(self) -> str:
        """Execute the block as markdown-exec does, in fresh globals; return what it printed."""
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(self.code, f"docs/{self.page}#{self.block_id}", "exec"), {"__name__": "__main__"})  # noqa: S102 - the page's own block, as the build runs it
        return printed.getvalue()


def page_blocks(page: Path, docs: Path = DOCS) -> list[PageBlock]:
    """The executed Python blocks of one markdown page below ``docs``, in order."""
    relative = page.relative_to(docs).as_posix()
    return [
        PageBlock(relative, fence.block_id, fence.code)
        for fence in fences(page.read_text(encoding="utf-8"))
        if fence.language == "python" and fence.executed
    ]


def all_page_blocks() -> list[PageBlock]:
    """Every executed block of every page of both languages."""
    pages = sorted(p for p in DOCS.rglob("*.md") if "vendor" not in p.parts)
    return [block for page in pages for block in page_blocks(page)]
