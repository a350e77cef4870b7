"""Two builds of the same commit give the same files, byte for byte, on any day (issue 17 item 7).

The only dated bytes, the sitemap's ``<lastmod>`` and the timestamp in ``sitemap.xml.gz``, come from
``SOURCE_DATE_EPOCH``, which hooks/build_date.py sets to the last commit's date when the caller did not.
"""

from __future__ import annotations

import gzip
import re
import struct
import subprocess
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest

from tests.conftest import ROOT, build_site

if TYPE_CHECKING:
    from pathlib import Path

LASTMOD = re.compile(r"<lastmod>([^<]*)</lastmod>")


def last_commit_epoch() -> int:
    """The committer date of the working tree's HEAD, in seconds since 1970."""
    command = ["git", "-C", str(ROOT), "log", "-1", "--format=%ct"]
    return int(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


@pytest.mark.build
def test_two_builds_are_identical(built_site: Path, tmp_path: Path) -> None:
    """A second strict build into another folder has the same files with the same bytes, the sitemap's included."""
    result = build_site(ROOT, tmp_path / "again")
    assert result.returncode == 0, result.output[-3000:]
    first = {p.relative_to(built_site): p for p in built_site.rglob("*") if p.is_file()}
    second = {p.relative_to(tmp_path / "again"): p for p in (tmp_path / "again").rglob("*") if p.is_file()}
    assert sorted(first) == sorted(second)
    differing = [str(name) for name in sorted(first) if first[name].read_bytes() != second[name].read_bytes()]
    assert differing == []


@pytest.mark.build
def test_the_sitemap_is_dated_by_the_last_commit(built_site: Path) -> None:
    """Every ``<lastmod>`` is the last commit's day, and the gzip header carries that day, whatever today is."""
    day = datetime.fromtimestamp(last_commit_epoch(), UTC)
    sitemap = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    dates = set(LASTMOD.findall(sitemap))
    assert dates == {day.strftime("%Y-%m-%d")}
    compressed = (built_site / "sitemap.xml.gz").read_bytes()
    (mtime,) = struct.unpack("<I", compressed[4:8])
    assert mtime == int(day.replace(hour=0, minute=0, second=0).timestamp())
    assert gzip.decompress(compressed).decode("utf-8") == sitemap
