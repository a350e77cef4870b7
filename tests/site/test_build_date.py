"""ascend_dsa.site.build_date: the build's date is the last commit's, so builds on different days are identical."""

from __future__ import annotations

import os
import subprocess
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site import build_date

if TYPE_CHECKING:
    from pathlib import Path

#: Two commit dates a day apart (2026-01-01 and 2026-01-02, 12:00 UTC).
FIRST_DAY_EPOCH, SECOND_DAY_EPOCH = 1767268800, 1767355200


def _commit(repo: Path, epoch: int) -> None:
    """Commit everything in ``repo`` with author and committer dated ``epoch``."""
    env = {**os.environ, "GIT_AUTHOR_DATE": f"@{epoch} +0000", "GIT_COMMITTER_DATE": f"@{epoch} +0000"}
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True, env=env)  # noqa: S607
    subprocess.run(["git", "-C", str(repo), *identity, "commit", "-qm", "x"], check=True, env=env)  # noqa: S607


def _unset_date(monkeypatch: pytest.MonkeyPatch) -> None:
    """Remove SOURCE_DATE_EPOCH so that the build sets it, and have it removed again after the test.

    ``delenv`` of a variable that is not set records nothing to undo, so the value it sets would leak into the
    next test of the worker (and date its site build 2026-01-01); setting it first records its absence.
    """
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    monkeypatch.delenv("SOURCE_DATE_EPOCH")


def test_the_date_is_the_last_commits_not_todays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a checkout, SOURCE_DATE_EPOCH becomes HEAD's committer date; a later commit moves it, a later day does not."""
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # noqa: S607
    _commit(tmp_path, FIRST_DAY_EPOCH)
    _unset_date(monkeypatch)
    build_date.date_the_build(tmp_path)
    assert os.environ["SOURCE_DATE_EPOCH"] == str(FIRST_DAY_EPOCH)
    (tmp_path / "page.md").write_text("# x\n", encoding="utf-8")
    _commit(tmp_path, SECOND_DAY_EPOCH)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    build_date.date_the_build(tmp_path)
    assert os.environ["SOURCE_DATE_EPOCH"] == str(SECOND_DAY_EPOCH)


def test_a_date_given_by_the_caller_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SOURCE_DATE_EPOCH set by the caller (a packager, CI) wins."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    build_date.date_the_build(tmp_path)
    assert os.environ["SOURCE_DATE_EPOCH"] == "86400"


def test_outside_a_checkout_the_newest_input_dates_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the project without .git is dated by its newest input file, not by the day it is built."""
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    page = tmp_path / "docs" / "index.md"
    page.parent.mkdir()
    page.write_text("# x\n", encoding="utf-8")
    os.utime(tmp_path / "mkdocs.yml", (FIRST_DAY_EPOCH, FIRST_DAY_EPOCH))
    os.utime(page, (SECOND_DAY_EPOCH, SECOND_DAY_EPOCH))
    _unset_date(monkeypatch)
    monkeypatch.setattr(build_date, "last_commit_epoch", lambda _root: None)  # /tmp may sit inside some checkout
    build_date.date_the_build(tmp_path)
    assert os.environ["SOURCE_DATE_EPOCH"] == str(SECOND_DAY_EPOCH)
