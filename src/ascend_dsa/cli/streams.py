"""The program's stdout writes all its data, whatever the state of the file it was given.

A pipe another program set non-blocking (``O_NONBLOCK``) takes only what fits while its reader is slow. Python's
buffered stdout then raises ``BlockingIOError``, and its unbuffered one (``PYTHONUNBUFFERED=1``, common in
containers and CI) drops the rest without a word and exits 0 with the output cut. While a command runs, stdout is
therefore a stream whose every write waits until the file takes the bytes, as a blocking pipe would; an error
other than "would block" (a closed reader, a full disk) still raises, for ``main`` to turn into its status.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from _typeshed import ReadableBuffer


class WholeWrites(io.RawIOBase):
    """A raw stream over file descriptor ``fd`` whose ``write`` returns only once every byte is written.

    A partial write is continued, and a write refused because it would block waits for the file to take more.
    Once ``dropping``, it writes nothing (after a failure, so that the closing flush cannot fail a second time).
    """

    def __init__(self, fd: int) -> None:
        """Write to ``fd``, which stays open when this stream is closed."""
        super().__init__()
        self._fd = fd
        self.dropping = False

    @property
    def name(self) -> str:
        """The name the text stream shows, as Python names its standard output."""
        return "<stdout>"

    def fileno(self) -> int:
        """The file descriptor written to."""
        return self._fd

    def isatty(self) -> bool:
        """Whether the file is a terminal."""
        return os.isatty(self._fd)

    def read(self, size: int = -1, /) -> bytes:
        """Refused: this stream only writes."""
        raise io.UnsupportedOperation(f"read of {size} bytes: this stream only writes")

    def writable(self) -> bool:
        """Always: this stream only writes."""
        return True

    def write(self, data: ReadableBuffer, /) -> int:
        """Write all of ``data``, waiting as long as the file would block; return its length."""
        view = memoryview(data).cast("B")
        if self.dropping:
            return len(view)
        done = 0
        while done < len(view):
            try:
                done += os.write(self._fd, view[done:])
            except BlockingIOError:
                wait_until_writable(self._fd)
        return len(view)


def wait_until_writable(fd: int) -> None:
    """Block until ``fd`` can take more bytes (a slow reader emptied some of its pipe)."""
    import select  # noqa: PLC0415 - only reached on a non-blocking file; the browser's Python need not have it

    select.select([], [fd], [])


@contextlib.contextmanager
def whole_stdout() -> Iterator[None]:
    """Within the block, ``sys.stdout`` writes all its data (`WholeWrites`), buffered as the process's stdout was.

    Only the process's own stdout is replaced: a stream put in its place (a test's or the browser's capture) is
    left alone. At the end the data is flushed, the process's stdout is back, and a flush that fails raises once.
    """
    original = sys.stdout
    if original is None or original is not sys.__stdout__ or not isinstance(original, io.TextIOWrapper):
        yield
        return
    try:
        fd = original.fileno()
    except (OSError, ValueError):
        yield
        return
    original.flush()
    raw = WholeWrites(fd)
    # Unbuffered (``-u``, PYTHONUNBUFFERED) stays unbuffered: each write reaches the file before print returns.
    layer: WholeWrites | io.BufferedWriter = (
        raw if isinstance(original.buffer, io.RawIOBase) else io.BufferedWriter(raw)
    )
    stream = io.TextIOWrapper(
        layer,
        encoding=original.encoding,
        errors=original.errors,
        line_buffering=original.line_buffering,
        write_through=original.write_through,
    )
    sys.stdout = stream
    finished = False
    try:
        yield
        finished = True
    finally:
        sys.stdout = original
        try:
            if finished:
                stream.flush()
            else:  # the block's own error (Ctrl-C, a closed pipe) is what the status reports
                with contextlib.suppress(OSError, ValueError):
                    stream.flush()
        finally:
            raw.dropping = True
            stream.close()
