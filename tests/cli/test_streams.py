"""Issue 31 (14, 15): stdout carries data only and all of it, whatever state stderr and stdout are in.

Each case runs the program in its own process: the streams' state (closed, non-blocking, unbuffered) is the
process's, which the in-process runner cannot give.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

#: The command line, as a shell would start it.
CLI = f"{sys.executable} -m ascend_dsa"


def _with_stderr_closed(arguments: str) -> subprocess.CompletedProcess[str]:
    """``ascend-dsa ARGUMENTS 2>&-`` under ``sh -c``."""
    return subprocess.run(["/bin/sh", "-c", f"{CLI} {arguments} 2>&-"], capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    ("arguments", "status"),
    [
        ("--bogus", 2),
        ("", 2),  # no COMMAND: the program's own check, not argparse's
        ("head-roofline --bogus", 2),
        ("claims --bogus", 2),
        ("ub-plan --bogus", 2),
        ("design-point --bogus", 2),
        ("ub-plan --mode prefill --main-cache fp8", 2),  # a rule the kernel forbids, found by the command
        ("ub-plan --mode decode --chip h800", 2),
    ],
)
def test_an_error_with_stderr_closed_keeps_its_status_and_stdout_empty(arguments: str, status: int) -> None:
    """`2>&-`: the error line is dropped, never written to stdout, and the status is the error's (not 70)."""
    completed = _with_stderr_closed(arguments)
    assert (completed.returncode, completed.stdout) == (status, "")


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ("claims --clock 1e9", "differ"),
        ("head-roofline --clock 1e9 --assert-report", "MISMATCH"),
    ],
)
def test_findings_with_stderr_closed_stay_off_stdout(arguments: str, words: str) -> None:
    """A finding's lines belong on stderr: with it closed they are dropped and the status (1) says it."""
    completed = _with_stderr_closed(arguments)
    assert completed.returncode == 1
    assert words not in completed.stdout
    assert "error" not in completed.stdout
