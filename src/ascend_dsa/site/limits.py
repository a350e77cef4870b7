"""The time and size limits a page's code runs under: a block that never ends, or prints megabytes, is a failure.

``mkdocs serve`` runs every build in its main thread, and so does ``mkdocs build``; a block that looped forever
held that thread, so no page was served again until a restart. Each block and notebook cell now runs under
`time_limit`: an interval timer interrupts it with `TimeLimitExceeded` (a ``BaseException``, so that neither the
block's own ``except Exception`` nor markdown-exec's can swallow it) and its place in the page shows the failure.
The limits are options of the site's plugin in mkdocs.yml (`ascend_dsa.site.plugin.SiteConfig`).
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import FrameType

#: Seconds a block or cell may run when mkdocs.yml says nothing: the slowest block of the site takes under one.
DEFAULT_TIME_LIMIT_S: Final = 60.0
#: Bytes of HTML a block or cell may produce when mkdocs.yml says nothing: the largest today is about a ninth of it
#: (the design page's feasibility map), and a page must stay under 1 MB with its assets.
DEFAULT_OUTPUT_LIMIT_BYTES: Final = 1_000_000


#: The longest time limit accepted, in seconds (about eleven days): anything above is a typo, not a limit.
_LONGEST_LIMIT_S: Final = 1e6


class TimeLimitExceeded(BaseException):
    """A block or cell ran past its time limit (raised inside it by the interval timer)."""


class OutputLimitExceeded(Exception):  # noqa: N818 - same
    """A block or cell produced more output than its limit allows."""


@dataclass(frozen=True)
class Limits:
    """How long a block or cell may run and how many bytes of HTML it may produce."""

    time_s: float = DEFAULT_TIME_LIMIT_S
    output_bytes: int = DEFAULT_OUTPUT_LIMIT_BYTES

    def __post_init__(self) -> None:
        """Refuse limits that are not positive numbers."""
        if isinstance(self.time_s, bool) or not isinstance(self.time_s, int | float):
            raise TypeError(f"block time limit must be a number of seconds, got {self.time_s!r}")
        if not 0 < self.time_s < _LONGEST_LIMIT_S:
            raise ValueError(f"block time limit must be in (0, {_LONGEST_LIMIT_S:g}) seconds, got {self.time_s!r}")
        if isinstance(self.output_bytes, bool) or not isinstance(self.output_bytes, int):
            raise TypeError(f"block output limit must be a whole number of bytes, got {self.output_bytes!r}")
        if self.output_bytes <= 0:
            raise ValueError(f"block output limit must be a positive number of bytes, got {self.output_bytes!r}")

    def check_output(self, output: str, what: str) -> None:
        """Raise `OutputLimitExceeded` when ``output`` (UTF-8) is over the limit."""
        size = len(output.encode("utf-8", "surrogateescape"))
        if size > self.output_bytes:
            raise OutputLimitExceeded(
                f"{what} produced {size} bytes of output, over the limit of {self.output_bytes} bytes "
                "(block_output_limit_bytes of the ascend-dsa plugin in mkdocs.yml)"
            )


def can_time_out() -> bool:
    """Whether `time_limit` can interrupt code here: only in the main thread (where MkDocs builds)."""
    return threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    """Run the ``with`` body for at most ``seconds``; past them, raise `TimeLimitExceeded` inside it.

    Outside the main thread the body runs without a limit (see `can_time_out`). The previous alarm handler and
    timer are restored on the way out.
    """
    if not can_time_out():
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        del signum, frame
        message = (
            f"{what} ran for more than its time limit of {seconds:g} s "
            "(block_time_limit_s of the ascend-dsa plugin in mkdocs.yml) and was stopped"
        )
        raise TimeLimitExceeded(message)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
