"""The shared test helpers (tests/helpers): the browser-test guard (a missing Chromium skips on a user's machine,
fails in CI), wait_for_text, which waits for a served page to show a text or to lose it, and computed_once, which
shares a value between the workers of one run."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest

from tests.helpers.browser import CHROMIUM, require_chromium, running_in_ci
from tests.helpers.project import computed_once
from tests.helpers.serving import free_port, serving, wait_for_text

if TYPE_CHECKING:
    from collections.abc import Iterator
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


@pytest.fixture
def served_page(tmp_path: Path) -> Iterator[str]:
    """The URL of a page reading "built", served from ``tmp_path`` on 127.0.0.1."""
    (tmp_path / "index.html").write_text("built", encoding="utf-8")
    with serving(tmp_path) as url:
        yield url


def test_wait_for_text_returns_the_body_once_the_text_shows_or_is_gone(served_page: str) -> None:
    """The body comes back as soon as it holds the text, or, with ``absent``, as soon as it does not."""
    assert wait_for_text(served_page, "built", timeout_s=5) == "built"
    assert wait_for_text(served_page, "error", timeout_s=5, absent=True) == "built"
    with pytest.raises(pytest.fail.Exception, match="still showed 'built' within 1 s"):
        wait_for_text(served_page, "built", timeout_s=1, absent=True)


def test_wait_for_text_never_takes_a_refused_request_for_an_absent_text() -> None:
    """A server that does not answer (yet) shows nothing: waiting for a text to go keeps waiting."""
    with pytest.raises(pytest.fail.Exception, match="still showed 'error' within 1 s"):
        wait_for_text(f"http://127.0.0.1:{free_port()}/", "error", timeout_s=1, absent=True)


def _worker_config(tmp_path: Path) -> Any:  # noqa: ANN401 - a stand-in for pytest's config under xdist
    return SimpleNamespace(option=SimpleNamespace(basetemp=str(tmp_path / "gw0")), workerinput={})


def test_computed_once_computes_for_the_first_worker_and_reads_for_the_others(tmp_path: Path) -> None:
    """Under xdist the first call computes and leaves the value; a later call (another worker) only reads it."""
    calls: list[int] = []

    def compute() -> dict[str, list[int]]:
        calls.append(1)
        return {"a": [1, 2]}

    config = _worker_config(tmp_path)
    assert computed_once(config, "x", compute) == {"a": [1, 2]}
    assert computed_once(config, "x", compute) == {"a": [1, 2]}
    assert calls == [1]


def test_computed_once_reports_the_first_workers_failure_to_the_others(tmp_path: Path) -> None:
    """A compute that raises fails its own worker, and the others fail naming the error instead of waiting."""

    def compute() -> None:
        raise ValueError("no blocks")

    config = _worker_config(tmp_path)
    with pytest.raises(ValueError, match="no blocks"):
        computed_once(config, "y", compute)
    with pytest.raises(pytest.fail.Exception, match=r"another worker: ValueError: no blocks"):
        computed_once(config, "y", compute)
