"""Ctrl-C ends ``ascend-dsa`` with status 130 and one line on stderr at any moment, the start-up included.

Python turns SIGINT into ``KeyboardInterrupt``; arriving while the modules are still being imported (before
``main`` can catch it), it would print a traceback. The facade (``ascend_dsa/__init__.py``) imports this leaf in
its first lines when the process may be the program (``cli/__init__.py`` imports it too, first); it imports only
small standard modules, and does nothing in a library's process. When the process is the program itself (the
``ascend-dsa`` script or ``python -m ascend_dsa``,
not a test importing the package), it installs ``on_interrupt``: while ``main`` runs (``MainRunning``), that raises
``KeyboardInterrupt`` so that ``main`` ends cleanly and what was printed is flushed; before and after, it writes
the line itself and exits at once. At exit, after every other exit function, Ctrl-C is ignored: while the
interpreter shuts down it would otherwise find Python's default handler back in place and end the process by the
signal, without the line, although the command had finished. Before the interpreter runs the first line of the
package (its start-up, ``site``, the ``ascend-dsa`` script's own ``import re``), Ctrl-C is Python's.
"""

from __future__ import annotations

import atexit
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


def ignore_from_now_on() -> None:
    """At exit, once the command's status stands, ignore Ctrl-C (Python would kill the process, without the line)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


if running_as_program(sys.argv[0], sys.orig_argv):
    signal.signal(signal.SIGINT, on_interrupt)
    atexit.register(ignore_from_now_on)  # registered first, so it runs last of the exit functions


class MainRunning:
    """A ``with`` block within which Ctrl-C raises ``KeyboardInterrupt`` for ``main`` to catch."""

    def __enter__(self) -> None:
        """Leave Ctrl-C to the block."""
        _State.main_running = True

    def __exit__(self, *exc_info: object) -> None:
        """Take Ctrl-C back: from here on it exits at once."""
        _State.main_running = False
