"""Driving Debian's Chromium: where it is, how it starts, what a missing one means (a skip, or in CI a failure),
opening a page until it is ready to read, and recording what a page asked the network for."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Page, Request, Response

#: Debian's Chromium, installed by `.ci/run` (apt-get install chromium fonts-noto-cjk).
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def running_in_ci() -> bool:
    """Whether the CI environment variable says this run is CI (where skipping browser tests is not allowed)."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require_chromium(path: Path = CHROMIUM, *, ci: bool | None = None) -> None:
    """Skip the calling test when Chromium is not at ``path``, or fail it in CI, with a message naming the fix."""
    if path.is_file():
        return
    message = (
        f"browser tests need Chromium at {path}: install the Debian packages chromium and fonts-noto-cjk "
        "(sudo apt-get install -y chromium fonts-noto-cjk)"
    )
    if running_in_ci() if ci is None else ci:
        pytest.fail(f"{message}; CI requires them")
    pytest.skip(message)


class Traffic:
    """Every request a page made, and every failed response, console error and script error, during one test."""

    def __init__(self, site_url: str) -> None:
        self.site_url = site_url
        self.requests: list[str] = []
        self.failures: list[str] = []
        self.errors: list[str] = []

    def on_request(self, request: Request) -> None:
        self.requests.append(request.url)

    def on_request_failed(self, request: Request) -> None:
        # Leaving a page aborts what it still loads (net::ERR_ABORTED); any other failure counts.
        if request.failure != "net::ERR_ABORTED":
            self.failures.append(f"{request.failure} {request.url}")

    def on_response(self, response: Response) -> None:
        if response.status >= 400:
            self.failures.append(f"{response.status} {response.url}")

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.page.url if message.page else ''})")

    def external(self) -> list[str]:
        """Requests to anything but this server (data: and blob: URLs stay in the page)."""
        return [
            url
            for url in self.requests
            if not url.startswith(self.site_url) and urlsplit(url).scheme in {"http", "https", "ws", "wss", "ftp"}
        ]


#: JavaScript: the page is ready to be read: loaded, its fonts loaded, and every formula typeset by KaTeX with its
#: main font (katex-init.js loads KaTeX only on pages with a formula).
PAGE_READY = """() => document.readyState === "complete" && document.fonts.status === "loaded"
  && [...document.querySelectorAll(".arithmatex")].every(e => e.querySelector(".katex"))
  && (!document.querySelector(".arithmatex")
      || [...document.fonts].some(f => f.family.replaceAll('"', "") === "KaTeX_Main" && f.status === "loaded"))"""


def open_page(page: Page, site_url: str, path: str) -> Page:
    """Load ``path`` of the site and wait until it is ready to read (`PAGE_READY`).

    Not Playwright's "networkidle", which waits for half a second without a request after every load: over the
    few hundred pages the browser tests open, that was most of their time.
    """
    page.goto(site_url + path, wait_until="load")
    page.wait_for_function(PAGE_READY)
    return page


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
