"""Two builds of the same commit give the same files, byte for byte, apart from the dates the sitemap carries."""

from __future__ import annotations

import gzip
import re
from typing import TYPE_CHECKING

import pytest

from tests.conftest import ROOT, build_site

if TYPE_CHECKING:
    from pathlib import Path

#: The theme writes the build date into the sitemap; nothing else may differ.
LASTMOD = re.compile(rb"<lastmod>[^<]*</lastmod>")


def normalised(path: Path) -> bytes:
    """The file's bytes, with the sitemap's dates blanked (decompressed first for sitemap.xml.gz)."""
    data = path.read_bytes()
    if path.name == "sitemap.xml.gz":
        data = gzip.decompress(data)
    if path.name.startswith("sitemap.xml"):
        data = LASTMOD.sub(b"<lastmod/>", data)
    return data


@pytest.mark.build
def test_two_builds_are_identical(built_site: Path, tmp_path: Path) -> None:
    """A second strict build into another folder has the same files with the same content."""
    result = build_site(ROOT, tmp_path / "again")
    assert result.returncode == 0, result.output[-3000:]
    first = {p.relative_to(built_site): p for p in built_site.rglob("*") if p.is_file()}
    second = {p.relative_to(tmp_path / "again"): p for p in (tmp_path / "again").rglob("*") if p.is_file()}
    assert sorted(first) == sorted(second)
    differing = [str(name) for name in sorted(first) if normalised(first[name]) != normalised(second[name])]
    assert differing == []


def test_normalisation_only_blanks_dates(tmp_path: Path) -> None:
    """Blanking touches the sitemap's <lastmod> only, so a real difference elsewhere still shows."""
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_bytes(b"<url><loc>a</loc><lastmod>2026-01-01</lastmod></url>")
    other = tmp_path / "sitemap.xml.gz"
    other.write_bytes(gzip.compress(b"<url><loc>a</loc><lastmod>2027-12-31</lastmod></url>"))
    assert normalised(sitemap) == normalised(other)
    page = tmp_path / "index.html"
    page.write_bytes(b"<lastmod>2026-01-01</lastmod>")
    assert normalised(page) == page.read_bytes()
