"""The errors ``ascend_dsa`` raises: one base class, one subclass per kind of failure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class AscendDsaError(Exception):
    """Base of every error raised by this package.

    Every subclass is also a `ValueError`, so that a public function raises only `TypeError` (the wrong kind of
    argument) or `ValueError` (the right kind, a wrong value), whichever of ours it is.
    """


@dataclass(frozen=True)
class Mismatch:
    """One figure that differs from the report: what it is, where the report gives it, ours and the report's.

    The fields are plain text, so that a build can show them (a table in an error box) without parsing a message.
    """

    subject: str
    citation: str
    ours: str
    theirs: str
    rule: str = ""


class FigureMismatch(AscendDsaError, ValueError):  # noqa: N818 - the name says what it is; "Error" would add nothing
    """A figure we computed differs from the one the report published (a `ValueError`, like every error of ours).

    ``mismatches`` lists the differing figures one by one when the raiser knows them (empty otherwise); the message
    always says everything in one line.
    """

    def __init__(self, message: str, mismatches: Iterable[Mismatch] = ()) -> None:
        """Keep the one-line ``message`` and the structured ``mismatches``."""
        super().__init__(message)
        self.mismatches: tuple[Mismatch, ...] = tuple(mismatches)


class ForbiddenDesign(AscendDsaError, ValueError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """A design point the kernel's code rules out; the message names the rule and where the code states it."""


class OutOfRange(AscendDsaError, ValueError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """An input so small or so large that a figure computed from it would be infinite, zero or not a number."""


class OutsideModel(AscendDsaError, ValueError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """Valid inputs for which one of our formulas has no answer (say, no B_TOPK at which MMA outlasts FixPipe)."""
