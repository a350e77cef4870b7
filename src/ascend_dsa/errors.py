"""The errors ``ascend_dsa`` raises: one base class, one subclass per kind of failure."""

from __future__ import annotations


class AscendDsaError(Exception):
    """Base of every error raised by this package."""


class FigureMismatch(AscendDsaError):  # noqa: N818 - the name says what it is; "Error" would add nothing
    """A figure we computed differs from the one the report published."""


class ForbiddenDesign(AscendDsaError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """A design point the kernel's code rules out; the message names the rule and where the code states it."""
