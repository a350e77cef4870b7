"""Serving over HTTP on 127.0.0.1: a free port, a built folder served in-process, ``mkdocs serve``, waiting for text."""

from __future__ import annotations

import contextlib
import functools
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

import pytest

from tests.helpers.project import mkdocs_env

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def wait_for_text(url: str, text: str, timeout_s: float, *, absent: bool = False) -> str:
    """The body of ``url`` once it contains ``text`` (once it no longer does, if ``absent``).

    A request the server refuses, resets or lets time out while it (re)builds is tried again; the test fails after
    ``timeout_s`` seconds.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - our own server on 127.0.0.1
                body = response.read().decode("utf-8")
        except OSError:
            pass
        else:
            if (text in body) != absent:
                return body
        time.sleep(0.5)
    pytest.fail(f"{url} {'still showed' if absent else 'did not show'} {text!r} within {timeout_s} s")


@contextlib.contextmanager
def mkdocs_serve(project: Path, *extra_args: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run ``mkdocs serve`` on ``project`` at a free loopback port: yields (base URL, server); stops it after."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", *extra_args, "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=mkdocs_env(project),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}/", server
    finally:
        server.terminate()
        server.wait(timeout=30)


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without logging each request to stderr."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's parameter name
        """Log nothing."""


@contextlib.contextmanager
def serving(directory: Path) -> Iterator[str]:
    """``directory`` served over HTTP on 127.0.0.1 at an ephemeral port while the ``with`` block runs: its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
