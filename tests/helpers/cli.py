"""Run the command line inside the test process: faster than a subprocess, and the same ``main``."""

from __future__ import annotations

import contextlib
import io
from typing import TYPE_CHECKING

from ascend_dsa import cli
from ascend_dsa.render.live import LIVE_FORMS

if TYPE_CHECKING:
    from collections.abc import Sequence


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    """``main(argv)`` with stdout and stderr captured: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def form_defaults(command: str) -> list[str]:
    """The command-line options the command's "Run live" form gives before the reader changes anything."""
    argv = []
    for item in LIVE_FORMS[command]:
        if item.hidden or not item.value:
            continue
        argv += [f"--{item.option}"] if item.flag else [f"--{item.option}", item.value]
    return argv
