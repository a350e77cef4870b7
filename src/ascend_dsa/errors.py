"""The errors ``ascend_dsa`` raises: one base class, one subclass per kind of failure."""

from __future__ import annotations


class AscendDsaError(Exception):
    """Base of every error raised by this package."""


class FigureMismatch(AscendDsaError):  # noqa: N818 - the name says what it is; "Error" would add nothing
    """A figure we computed differs from the one the report published."""


class ForbiddenDesign(AscendDsaError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """A design point the kernel's code rules out; the message names the rule and where the code states it."""


class OutOfRange(AscendDsaError, ValueError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """An input so small or so large that a figure computed from it would be infinite, zero or not a number."""


class OutsideModel(AscendDsaError, ValueError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """Valid inputs for which one of our formulas has no answer (say, no B_TOPK at which MMA outlasts FixPipe)."""
