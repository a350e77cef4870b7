"""The browser-test guard: a missing Chromium skips with a message on a user's machine and fails in CI."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import CHROMIUM, require_chromium, running_in_ci

if TYPE_CHECKING:
    from pathlib import Path


def test_missing_chromium_skips_for_a_user(tmp_path: Path) -> None:
    """Outside CI the browser tests are skipped, and the reason names the packages to install."""
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium fonts-noto-cjk"):
        require_chromium(tmp_path / "no-chromium", ci=False)


def test_missing_chromium_fails_in_ci(tmp_path: Path) -> None:
    """In CI the same absence is a failure."""
    with pytest.raises(pytest.fail.Exception, match="CI requires them"):
        require_chromium(tmp_path / "no-chromium", ci=True)


def test_present_chromium_passes(tmp_path: Path) -> None:
    """An executable at the path lets the tests run."""
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    require_chromium(browser, ci=True)


@pytest.mark.parametrize(
    ("value", "expected"), [("true", True), ("1", True), ("TRUE", True), ("", False), ("0", False)]
)
def test_ci_variable(monkeypatch: pytest.MonkeyPatch, value: str, *, expected: bool) -> None:
    """CI=true (as the CI runner sets it) and CI=1 count as CI; empty or 0 do not."""
    monkeypatch.setenv("CI", value)
    assert running_in_ci() is expected


def test_chromium_is_debians() -> None:
    """The tests drive the Chromium that apt installs, never a downloaded browser build."""
    assert str(CHROMIUM) == "/usr/bin/chromium"
