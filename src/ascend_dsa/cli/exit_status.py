"""The exit statuses of every ``ascend-dsa`` command, the help epilog that documents them, and the one error line.

An error is one line, ``ascend-dsa [COMMAND]: error: ...`` (``ascend-dsa [COMMAND]：错误：...`` under ``--lang zh``):
``fail`` prints it whoever finds the error, the program around a command or the command itself (argparse's own errors
take the same form through ``error_line``).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import textwrap
from enum import IntEnum
from typing import Final

from ascend_dsa.errors import AscendDsaError
from ascend_dsa.interrupt import INTERRUPTED_LINE, INTERRUPTED_STATUS
from ascend_dsa.lang import Lang, Text, pick
from ascend_dsa.validate import QUOTED_CHARS_MAX

#: The program's name, which begins every error line.
PROG = "ascend-dsa"
#: Most characters of an error line (what the user typed may be long; each quoted value is cut already).
ERROR_LINE_CHARS_MAX = 20 * QUOTED_CHARS_MAX
#: Columns the epilog is wrapped to (argparse prints it as written).
EPILOG_WIDTH = 76


class ExitStatus(IntEnum):
    """What the program's exit status means; the same numbers for every subcommand."""

    OK = 0
    FINDING = 1  # what the command checks does not hold: a claim differs, a plan does not fit
    USAGE = 2  # argparse's status for bad usage
    OUTSIDE_MODEL = 3  # valid values the model cannot represent
    INTERNAL = 70  # EX_SOFTWARE of sysexits.h: a bug in this program
    OUTPUT_FAILED = 74  # EX_IOERR of sysexits.h: stdout was closed or full, so the output could not be written
    INTERRUPTED = INTERRUPTED_STATUS  # 130 = 128 + SIGINT, what a shell reports after Ctrl-C
    OUTPUT_CLOSED = 141  # 128 + SIGPIPE, what a shell reports when the reader of a pipe has gone


def epilog(finding: str, usage: str = "") -> str:
    """The ``exit status`` block of a command's ``--help``: ``finding`` says what status 1 means for it."""
    lines = [
        (ExitStatus.OK, "success"),
        (ExitStatus.FINDING, finding),
        (
            ExitStatus.USAGE,
            "bad usage: an unknown, repeated or malformed option, or a value so small or large that a figure "
            "would be infinite or zero" + usage,
        ),
        (ExitStatus.OUTSIDE_MODEL, "the model cannot represent this what-if (one line says why)"),
        (ExitStatus.INTERNAL, "internal error, a bug in ascend-dsa (one line names it)"),
        (
            ExitStatus.OUTPUT_FAILED,
            "the output could not be written: stdout closed or the disk full (one line on stderr says which)",
        ),
        (ExitStatus.INTERRUPTED, "interrupted (Ctrl-C); one line on stderr says so"),
        (ExitStatus.OUTPUT_CLOSED, "the output was closed early, as by `| head -1`"),
    ]
    rows = [
        textwrap.fill(meaning, EPILOG_WIDTH, initial_indent=f"  {int(status):>3}  ", subsequent_indent=" " * 7)
        for status, meaning in lines
    ]
    return "exit status:\n" + "\n".join(rows)


#: An error line around its program and message, in both languages.
ERROR_LINE: Final = Text("{prog}：错误：{message}", "{prog}: error: {message}")
#: What Ctrl-C prints while a command runs, in both languages (``interrupt`` prints the English before ``main``).
INTERRUPTED: Final = Text(f"{PROG}：已中断", INTERRUPTED_LINE)


def error_line(prog: str, message: str, *, lang: Lang) -> str:
    """``prog: error: message`` in ``lang``, the message on one line (``one_line``)."""
    return ERROR_LINE.in_(lang).format(prog=prog, message=one_line(message))


def error_text(error: BaseException, *, lang: Lang) -> str:
    """What ``error`` says in ``lang``: its `Text` when it was raised with one (our errors), else ``str(error)``."""
    text = error.text if isinstance(error, AscendDsaError) else None
    return str(error) if text is None else pick(lang, text.zh, text.en)


def error_message(error: BaseException) -> Text:
    """What ``error`` (one that says something) says, in both languages (``error_text``)."""
    return Text(error_text(error, lang="zh"), error_text(error, lang="en"))


def fail(status: ExitStatus, message: Text, command: str | None = None, *, lang: Lang) -> int:
    """Print ``ascend-dsa [COMMAND]: error: message`` in ``lang`` on one line and return ``status``."""
    prog = PROG if command is None else f"{PROG} {command}"
    say(error_line(prog, message.in_(lang), lang=lang))
    return status


def one_line(text: str) -> str:
    """``text`` on one line: unprintable characters as escapes, cut to ``ERROR_LINE_CHARS_MAX`` characters."""
    line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text.strip())
    if len(line) > ERROR_LINE_CHARS_MAX:
        return f"{line[:ERROR_LINE_CHARS_MAX]}... ({len(line)} characters)"
    return line


def say(line: str) -> None:
    """Print ``line`` on stderr; if stderr is closed or full, drop it (the status still says what happened).

    Never on stdout, which holds data only: started with stderr closed (``2>&-``), Python's ``sys.stderr`` is
    ``None``, and ``print(file=None)`` would print to stdout.
    """
    stream = sys.stderr
    if stream is None:
        return
    try:
        print(line, file=stream, flush=True)
    except (OSError, ValueError, AttributeError):
        quiet(2)


def quiet(fd: int) -> None:
    """Point file descriptor ``fd`` at /dev/null, so that Python's final flush of its stream cannot fail again."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
