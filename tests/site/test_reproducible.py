"""Builds of the same commit are dated by it, so they give the same files, byte for byte, on any day.

The only dated bytes, the sitemap's ``<lastmod>`` and the timestamp in ``sitemap.xml.gz``, come from
``SOURCE_DATE_EPOCH``, which ascend_dsa.site.build_date sets to the last commit's date when the caller did not.
That two builds give the same bytes is tests/site/test_serve.py's last check: the site `mkdocs serve` ends with,
built afresh at its start and then partly rebuilt, equals the session's strict build file for file.
"""

from __future__ import annotations

import gzip
import re
import struct
import subprocess
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest

from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from pathlib import Path

LASTMOD = re.compile(r"<lastmod>([^<]*)</lastmod>")


def last_commit_epoch() -> int:
    """The committer date of the working tree's HEAD, in seconds since 1970."""
    command = ["git", "-C", str(ROOT), "log", "-1", "--format=%ct"]
    return int(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


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
