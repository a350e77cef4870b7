"""Ctrl-C ends ``ascend-dsa`` with status 130 and one line on stderr at any moment, the start-up included.

Python turns SIGINT into ``KeyboardInterrupt``; arriving while the modules are still being imported (before
``main`` can catch it), it would print a traceback. ``cli/__init__.py`` imports this leaf first (after the facade,
which loads no module of ours); it imports only modules the interpreter has loaded already, and does nothing in a
library's process. When the process is the program itself (the ``ascend-dsa`` script or ``python -m ascend_dsa``,
not a test importing the package), it installs ``on_interrupt``: while ``main`` runs (``MainRunning``), that raises
``KeyboardInterrupt`` so that ``main`` ends cleanly and what was printed is flushed; before and after, it writes
the line itself and exits at once. Before the interpreter runs the first line of the package, Ctrl-C is Python's.
"""

from __future__ import annotations

import itertools
import os
import signal
import sys

#: The exit status after Ctrl-C: 128 + SIGINT, what a shell reports (``cli.exit_status.ExitStatus.INTERRUPTED``).
INTERRUPTED_STATUS = 130
#: What Ctrl-C prints, alone on stderr.
INTERRUPTED_LINE = "ascend-dsa: interrupted"


class _State:
    """Whether ``main`` is running, so that Ctrl-C can be left to it."""

    main_running = False


def on_interrupt(signum: int, frame: object) -> None:  # noqa: ARG001 - a signal handler's signature
    """Leave Ctrl-C to ``main`` while it runs; otherwise print the one line and exit with status 130."""
    if _State.main_running:
        raise KeyboardInterrupt
    try:  # noqa: SIM105 - contextlib is not loaded yet at start-up
        os.write(2, f"{INTERRUPTED_LINE}\n".encode())
    except OSError:
        pass  # stderr closed or full: the status still says it
    os._exit(INTERRUPTED_STATUS)


def running_as_program(argv0: str, orig_argv: list[str]) -> bool:
    """Whether this is the ``ascend-dsa`` script (``argv0``) or ``python -m ascend_dsa`` (the interpreter's argv)."""
    if os.path.basename(argv0) == "ascend-dsa":  # noqa: PTH119 - pathlib is not loaded yet at start-up
        return True
    return any(flag == "-m" and name == "ascend_dsa" for flag, name in itertools.pairwise(orig_argv))


if running_as_program(sys.argv[0], sys.orig_argv):
    signal.signal(signal.SIGINT, on_interrupt)


class MainRunning:
    """A ``with`` block within which Ctrl-C raises ``KeyboardInterrupt`` for ``main`` to catch."""

    def __enter__(self) -> None:
        """Leave Ctrl-C to the block."""
        _State.main_running = True

    def __exit__(self, *exc_info: object) -> None:
        """Take Ctrl-C back: from here on it exits at once."""
        _State.main_running = False
