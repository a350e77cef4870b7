"""Every chapter exists in both languages with the same sections and the same exec blocks, and keeps its markers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ascend_dsa.site.fences import blank_fences, fences

DOCS = Path(__file__).resolve().parents[2] / "docs"
CHINESE = sorted(p for p in DOCS.rglob("*.md") if not p.name.endswith(".en.md"))


def outline(path: Path) -> tuple[int, list[str], list[str]]:
    """Number of `##` sections, exec block ids in order, and the explanation/figures markers in order."""
    text = path.read_text(encoding="utf-8")
    sections = len(re.findall(r"^## ", blank_fences(text), flags=re.MULTILINE))
    ids = [fence.block_id for fence in fences(text) if fence.executed]
    markers = re.findall(r"^<!-- (explanation|figures) -->$", text, flags=re.MULTILINE)
    return sections, ids, markers


@pytest.mark.parametrize("page", CHINESE, ids=[str(p.relative_to(DOCS)) for p in CHINESE])
def test_english_twin_matches(page: Path) -> None:
    """The .en.md twin has the same number of ## sections, the same block ids and the same markers."""
    twin = page.with_name(page.name.removesuffix(".md") + ".en.md")
    assert twin.is_file(), twin
    assert outline(twin) == outline(page)


def test_block_ids_unique_per_page() -> None:
    """No page reuses a block id."""
    for page in DOCS.rglob("*.md"):
        _, ids, _ = outline(page)
        assert len(ids) == len(set(ids)), page
