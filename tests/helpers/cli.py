"""Run the command line inside the test process: faster than a subprocess, and the same ``main``."""

from __future__ import annotations

import contextlib
import io
from typing import TYPE_CHECKING

from ascend_dsa import cli

if TYPE_CHECKING:
    from collections.abc import Sequence


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    """``main(argv)`` with stdout and stderr captured: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()
