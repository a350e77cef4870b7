"""The build is dated by the last commit, so that builds of one commit are identical on any day.

MkDocs dates every page with ``SOURCE_DATE_EPOCH`` when it is set, and with the day of the build otherwise: the
sitemap's ``<lastmod>`` and the timestamp in ``sitemap.xml.gz`` were the only bytes that changed from one day to the
next. Unless the variable is set, `date_the_build` sets it to the committer date of the project's last commit; outside a
git checkout (a copy of the project), to the newest modification time of ``mkdocs.yml``, ``docs/`` and ``src/``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Final

#: The variable MkDocs (and the reproducible-builds convention) reads the build's date from, in seconds since 1970.
SOURCE_DATE_EPOCH: Final = "SOURCE_DATE_EPOCH"
#: What the date falls back to outside a git checkout: the newest of these files and folders' files.
DATED_INPUTS: Final = ("mkdocs.yml", "docs", "src")


def last_commit_epoch(root: Path) -> int | None:
    """The committer date of ``root``'s last commit in seconds since 1970, or None outside a git checkout."""
    try:
        completed = subprocess.run(  # noqa: S603 - fixed arguments; the folder is the project's
            ["git", "-C", str(root), "log", "-1", "--format=%ct"],  # noqa: S607 - git from PATH, as a user runs it
            capture_output=True,
            text=True,
            check=False,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = completed.stdout.strip()
    return int(text) if completed.returncode == 0 and text.isdigit() else None


def newest_input_epoch(root: Path) -> int:
    """The newest modification time, in whole seconds, of the site's inputs under ``root``."""
    times = [0]
    for name in DATED_INPUTS:
        path = root / name
        paths = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else []
        times.extend(int(p.stat().st_mtime) for p in paths)
    return max(times)


def date_the_build(root: Path) -> None:
    """Set ``SOURCE_DATE_EPOCH`` to the last commit's date (or the newest input's) unless it is set already."""
    if os.environ.get(SOURCE_DATE_EPOCH, "").strip():
        return
    epoch = last_commit_epoch(root)
    os.environ[SOURCE_DATE_EPOCH] = str(epoch if epoch is not None else newest_input_epoch(root))
