"""Issue 31 (14, 15): stdout carries data only and all of it, whatever state stderr and stdout are in.

Each case runs the program in its own process: the streams' state (closed, non-blocking, unbuffered) is the
process's, which the in-process runner cannot give.
"""

from __future__ import annotations

import array
import fcntl
import os
import subprocess
import sys
import termios
import time

import pytest

from tests.helpers.cli import run_cli as run

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


#: Bytes a pipe holds in these tests (the smallest Linux allows, a page): output far longer than it must wait.
PIPE_BYTES = 4096
needs_pipe_size = pytest.mark.skipif(not hasattr(fcntl, "F_SETPIPE_SZ"), reason="the pipe's size is set on Linux only")


def _through_a_slow_non_blocking_pipe(argv: list[str], env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """Run the program into a small pipe whose write end is ``O_NONBLOCK``, read only once the pipe is full.

    The reader waits for a state (the pipe at least half full: a small write that does not fit whole is refused,
    so it may never be quite full; or the program gone), then a moment longer so that a program which mishandles
    "would block" meets it before the reader makes room; a program that writes all its data gives all of it
    whatever the timing.
    """
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    os.set_blocking(write_end, False)
    with subprocess.Popen(
        [sys.executable, "-m", "ascend_dsa", *argv], stdout=write_end, stderr=subprocess.PIPE, env=env
    ) as process:
        os.close(write_end)
        deadline = time.monotonic() + 60
        while process.poll() is None and _waiting_bytes(read_end) < PIPE_BYTES // 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)
        chunks = []
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
        os.close(read_end)
        _, err = process.communicate(timeout=60)
    return process.returncode, b"".join(chunks), err


def _waiting_bytes(fd: int) -> int:
    """Bytes waiting to be read in pipe ``fd``."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


@needs_pipe_size
@pytest.mark.parametrize(
    ("argv", "unbuffered"),
    [
        (["claims", "--source", "all", "--lang", "zh"], True),
        (["claims", "--source", "all", "--lang", "zh"], False),
        (["head-roofline", "--heads", ",".join(str(h) for h in range(1, 200))], True),
    ],
)
def test_a_non_blocking_pipe_with_a_slow_reader_gets_all_the_data(argv: list[str], unbuffered: bool) -> None:  # noqa: FBT001
    """`PYTHONUNBUFFERED=1` used to exit 0 after 4,096 bytes, and buffered output exit 74: now all of it, and 0."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    status, out, err = _through_a_slow_non_blocking_pipe(argv, env)
    expected_status, expected, _ = run(argv)
    assert (status, err) == (expected_status, b"")
    assert len(out) > PIPE_BYTES
    assert out == expected.encode()
