"""The errors ``ascend_dsa`` raises: one base class, one subclass per kind of failure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

T = TypeVar("T")


class Bilingual(Protocol):
    """A message in both languages: what `ascend_dsa.lang.Text` is (this leaf cannot import it: lang is above it)."""

    @property
    def zh(self) -> str:
        """The Chinese text."""

    @property
    def en(self) -> str:
        """The English text."""


class AscendDsaError(ValueError):
    """Base of every error raised by this package.

    A `ValueError`, as every subclass is: a public function raises only `TypeError` (the wrong kind of argument)
    or `ValueError` (the right kind, a value or a result out of bounds), whichever of ours it is.

    Raised with a `Text` (both languages), ``str(error)`` is the English and ``text`` keeps both, so that the
    command line can print the page's language; raised with a plain string, ``text`` is ``None``.
    """

    def __init__(self, message: str | Bilingual) -> None:
        """Keep the English as the message, and both languages in ``text`` when ``message`` has them."""
        if isinstance(message, str):
            super().__init__(message)
            self.text: Bilingual | None = None
        elif isinstance(getattr(message, "zh", None), str) and isinstance(getattr(message, "en", None), str):
            super().__init__(message.en)
            self.text = message
        else:
            raise TypeError(f"message must be a str or a Text, got {type(message).__name__}")


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


class FigureMismatch(AscendDsaError):  # noqa: N818 - the name says what it is; "Error" would add nothing
    """A figure we computed differs from the one the report published, a `ValueError` like every error of ours.

    ``mismatches`` lists the differing figures one by one when the raiser knows them (empty otherwise); the message
    always says everything in one line.
    """

    def __init__(self, message: str, mismatches: Iterable[Mismatch] = ()) -> None:
        """Keep the one-line ``message`` and the structured ``mismatches``."""
        if not isinstance(message, str):
            raise TypeError(f"message must be a str, got {type(message).__name__}")
        super().__init__(message)
        self.mismatches: tuple[Mismatch, ...] = typed_items("mismatches", mismatches, Mismatch)


class ForbiddenDesign(AscendDsaError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """A design point the kernel's code rules out; the message names the rule and where the code states it."""


class OutOfRange(AscendDsaError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """An input so small or so large that a figure computed from it would be infinite, zero or not a number."""


class OutsideModel(AscendDsaError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """Valid inputs for which one of our formulas has no answer (say, no B_TOPK at which MMA outlasts FixPipe)."""


def typed_items(name: str, value: object, kind: type[T] | tuple[type[T], ...]) -> tuple[T, ...]:
    """``value`` as a tuple when it is an iterable (not a string) of ``kind`` items, else a `TypeError` naming it.

    It lives here, below every other module, so that an error's own arguments are checked by the same code as a
    public function's (``validate.require_items``).
    """
    kinds = kind if isinstance(kind, tuple) else (kind,)
    wanted = " or ".join(getattr(k, "__name__", repr(k)) for k in kinds)
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be an iterable of {wanted}, got {type(value).__name__} {value!r:.60}")
    items = []
    for item in value:  # stops at the first wrong item, before a long iterable is built
        if not isinstance(item, kinds):
            raise TypeError(f"{name} must hold {wanted} items only, got {type(item).__name__} {item!r:.60}")
        items.append(item)
    return tuple(items)


class BadTrace(AscendDsaError):  # noqa: N818 - named for what it reports, like FigureMismatch
    """A trace breaks the Chrome Trace Event format's rules (a key missing, a timestamp not a number, ...)."""
