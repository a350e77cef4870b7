"""Checks for the arguments of public functions: one line naming the argument and what was expected.

A wrong kind of value raises `TypeError`, a value of the right kind outside its range `ValueError`;
a result that would be infinite or not a number raises [`OutOfRange`][] instead of being
returned. NumPy scalars count as numbers (``np.int64(32)`` is a whole number); ``bool`` never does. Standard
library only: the check of NumPy arrays is ``ascend_dsa.models.arrays.require_array``.

One door per function ([`door`][]): a public function checks its arguments and calls its work, a private function
of the same module; the package's own callers that already hold checked values (a frozen record checked by its
constructor, a number checked at their own door) call ``public_function.trusted``, the same work under the public
name, so that no value is checked twice on one path and no private name is imported from another module.
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
import operator
import reprlib
from collections.abc import Callable, Iterable, Sized
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Generic, ParamSpec, TypeVar

from ascend_dsa.errors import OutOfRange, typed_items

T = TypeVar("T")
R = TypeVar("R")
# The parameters of a door (the public function) and of the work it calls (its trusted form).
P = ParamSpec("P")
Q = ParamSpec("Q")
#: A number already checked: an ``int`` or a ``float``.
Number = TypeVar("Number", int, float)

#: The largest whole number a float64 holds exactly (IEEE 754 binary64: a 53-bit significand). Counts beyond it
#: lose their last digits as soon as they meet a float (a clock rate, a bandwidth), so inputs stop there.
LARGEST_EXACT_WHOLE: Final = 2**53

# Limits on the work one call may be asked for. Each is far above what the pages and the report use and low enough
# that a call within it answers in about a second and a few hundred MiB, so a typo (or a hostile caller) gets a
# one-line refusal naming the limit and the number asked instead of a hang or a MemoryError.

#: Most points a grid may ask for (head_roofline_sweep's heads x topk, a design sweep): the report's grids have a
#: few dozen, and 2^16 points take about a second.
MAX_GRID_POINTS: Final = 2**16
#: Most rows a rendered table may have (a page block's tokens, an ND2NZ example's pieces): the site's longest table
#: has a few dozen rows, and a page of thousands is unreadable.
MAX_TABLE_ROWS: Final = 4096
#: Most elements an array a model copies or converts may have: 2^28 (1 GiB in float32), above a 262,144-token
#: cache of 576 dims; the forwards gather the rows they use and never convert a whole cache.
MAX_ARRAY_ELEMENTS: Final = 2**28

#: Most characters of a value quoted back in an error message, the API's and the command line's: a longer one is cut
#: and its length given, so that a megabyte argument makes a one-line error, not a megabyte one.
QUOTED_CHARS_MAX: Final = 80


def shorten(text: str) -> str:
    """``text``, cut to ``QUOTED_CHARS_MAX`` characters with its full length when longer."""
    if len(text) <= QUOTED_CHARS_MAX:
        return text
    return f"{text[:QUOTED_CHARS_MAX]}... ({len(text)} characters)"


def quoted(text: str) -> str:
    """``text`` as Python would quote it, cut to ``QUOTED_CHARS_MAX`` characters with its full length when longer."""
    if len(text) <= QUOTED_CHARS_MAX:
        return repr(text)
    return f"{text[:QUOTED_CHARS_MAX]!r}... ({len(text)} characters)"


def _short_repr() -> reprlib.Repr:
    """A ``reprlib.Repr`` that shows a few items of a container and cuts long strings and numbers as it goes."""
    short = reprlib.Repr()
    short.maxstring = short.maxlong = short.maxother = QUOTED_CHARS_MAX
    return short


_SHORT_REPR: Final = _short_repr()


def shown(value: object) -> str:
    """``value`` as an error message echoes it: ``repr(value)`` when short, else cut (a string with its length).

    A short value reads exactly as ``repr`` writes it; a long string is cut as [`quoted`][] cuts it, and a long
    container shows its first items (``['x', 'x', ...]``), so a message stays one short line whatever was passed.
    """
    if isinstance(value, str):
        return quoted(value)
    try:
        text = _SHORT_REPR.repr(value)
    except ValueError:  # an int past Python's 4,300 digits for str(): it cannot be written out at all
        return f"a whole number of {value.bit_length() if isinstance(value, int) else 'many'} bits"
    text = " ".join(text.split())  # a NumPy array's repr spans lines; a message is one
    return text if len(text) <= QUOTED_CHARS_MAX else f"{text[:QUOTED_CHARS_MAX]}..."


@dataclass(frozen=True)
class Plausible:
    """The range ``[low, high]`` (in ``unit``) a physical input may take: generous, but physical.

    Where each range is defined a comment says why its bounds are what they are. A value outside is refused naming
    the range, so that a typo (a clock of 1e308 Hz) is not computed into figures hundreds of digits long; the command
    line's options check the same ranges (``cli.options.within``).
    """

    low: float
    high: float
    unit: str = ""

    def __post_init__(self) -> None:
        """Reject bounds that are not finite, positive and in order."""
        if not (math.isfinite(self.low) and math.isfinite(self.high) and 0 <= self.low <= self.high):
            raise ValueError(f"a plausible range needs 0 <= low <= high, both finite, got {self.low!r}, {self.high!r}")

    def text(self) -> str:
        """The range as a message names it: ``1e8 to 1e10 Hz``, ``1 to 4,096``."""
        low, high = self.bounds_text()
        unit = f" {self.unit}" if self.unit else ""
        return f"{low} to {high}{unit}"

    def bounds_text(self) -> tuple[str, str]:
        """The two bounds as a message writes them (``1e8``, ``4,096``), for a message in another language."""
        return _bound_text(self.low), _bound_text(self.high)

    def holds(self, value: float) -> bool:
        """Whether ``value`` lies in the range, bounds included."""
        return self.low <= value <= self.high


def _bound_text(value: float) -> str:
    """A bound as written: a count with its digits (``4,096``, ``1,048,576``), a rate as ``1e8`` or ``2.5e9``."""
    if isinstance(value, int):
        return f"{value:,}"
    mantissa, exponent = f"{value:.15e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"


def require_plausible(name: str, value: Number, plausible: Plausible) -> Number:
    """``value`` (a number already checked) when it lies in ``plausible``, else a `ValueError` naming the range."""
    require_instance("plausible", plausible, Plausible)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {shown(value)} ({type(value).__name__})")
    if not plausible.holds(value):
        raise ValueError(f"{name} must lie in the plausible range {plausible.text()}, got {shown(value)}")
    return value


class Choice(StrEnum):
    """A ``StrEnum`` whose failed lookup echoes the value cut by [`shown`][] (Python's repeats it whole).

    ``Mode("train")`` still says ``'train' is not a valid Mode``, as Python does.
    """

    @classmethod
    def _missing_(cls, value: object) -> None:
        raise ValueError(f"{shown(value)} is not a valid {cls.__qualname__}")


def require_int(name: str, value: object, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a Python ``int``: any integer-like value but a ``bool``, within ``[minimum, maximum]`` when given.

    Integer-like is what ``operator.index`` takes (``np.int8(5)`` too); the caller computes with the ``int``
    returned, never with ``value``, so that a NumPy integer cannot wrap or overflow in its narrow type.
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a whole number, got {shown(value)} ({type(value).__name__})")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be a whole number, got {shown(value)} ({type(value).__name__})") from None
    if minimum is not None and number < minimum:
        wanted = {0: "a non-negative integer", 1: "a positive integer"}.get(minimum, f"at least {minimum}")
        raise ValueError(f"{name} must be {wanted}, got {shown(number)}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {shown(number)}")
    return number


def require_real(name: str, value: object, expected: str = "a real number") -> float:
    """``value`` as a ``float`` (infinities and NaN included): any real number type but ``bool``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {expected}, got {shown(value)} ({type(value).__name__})")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be {expected}, got one too large for a float ({shown(value)})") from None


def require_finite(name: str, value: object, *, positive: bool = False, minimum: float | None = None) -> float:
    """``value`` as a finite ``float``, above zero when ``positive`` and at least ``minimum`` when given."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {shown(value)} ({type(value).__name__})")
    number = require_real(name, value, "a finite number")
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {shown(value)}")
    if positive and number <= 0:
        raise ValueError(f"{name} must be positive, got {shown(value)}")
    if minimum is not None and number < require_finite("minimum", minimum):
        raise ValueError(f"{name} must be at least {minimum:g}, got {shown(value)}")
    return number


def require_bool(name: str, value: object) -> bool:
    """``value`` itself when it is ``True`` or ``False``; anything else (``"no"``, ``0``) is a `TypeError`."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {shown(value)} ({type(value).__name__})")
    return value


def require_instance(name: str, value: object, kind: type[T]) -> T:
    """``value`` when it is a ``kind``, else a `TypeError` naming the argument and the class expected."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a {kind.__name__}, got {shown(value)} ({type(value).__name__})")
    return value


def require_items(name: str, value: object, kind: type[T] | tuple[type[T], ...]) -> tuple[T, ...]:
    """``value`` as a tuple when it is an iterable (not a string) of ``kind`` items, else a `TypeError` naming it."""
    return typed_items(name, value, kind)


def require_within(name: str, asked: int, limit: int, what: str) -> int:
    """``asked`` when at most ``limit``, else a `ValueError` naming the limit and the number asked."""
    if asked > limit:
        raise ValueError(f"{name} asks for {asked:,} {what}, more than the limit of {limit:,}")
    return asked


def require_iterable(name: str, value: object) -> Iterable[Any]:
    """``value`` when it is an iterable that is not a string, else a `TypeError` naming the argument and the value."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be an iterable of values, got {type(value).__name__} {shown(value)}")
    return value


def bounded_items(name: str, value: Iterable[T], limit: int) -> tuple[T, ...]:
    """The items of iterable ``value`` as a tuple, refusing (before building it) more than ``limit`` of them."""
    require_iterable(name, value)
    if isinstance(value, Sized):
        require_within(name, len(value), limit, "values")
    items = tuple(itertools.islice(value, limit + 1))
    require_within(name, len(items), limit, "values or more")
    return items


def finite_result(name: str, value: float, *, positive: bool = False) -> float:
    """``value`` when finite (and above zero when ``positive``), else [`OutOfRange`][] naming the figure."""
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int beyond any float
        finite = False
    if not finite or (positive and value <= 0):
        shown = f"{value!r}" if finite or isinstance(value, float) else "a number too large for a float"
        raise OutOfRange(f"{name} comes out as {shown}: an input is too small or too large for this figure")
    return value


class Door(Generic[P, Q, R]):
    """A public function that checks its arguments, and ``trusted``: the work it calls once they are checked.

    Calling a Door calls the public function. ``trusted`` is for the package's own callers that hold values already
    checked: it skips the door, so a value is checked once on each path. Works on methods too (``trusted`` is then
    bound to the instance, like the method).
    """

    def __init__(self, checked: Callable[P, R], trusted: Callable[Q, R]) -> None:
        """Wrap ``checked`` (name, docstring and signature stay its own) with its work ``trusted``."""
        functools.update_wrapper(self, checked)
        self._checked = checked
        self.trusted = trusted
        self._bindable: tuple[Callable[..., R], Callable[..., R]] = (checked, trusted)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Check the arguments and do the work: the public function."""
        return self._checked(*args, **kwargs)

    def __get__(self, instance: object, owner: type | None = None) -> Door[..., ..., R]:
        """On an instance, the door and its work bound to it, as a method is."""
        if instance is None:
            return self
        checked, trusted = self._bindable
        return Door(functools.partial(checked, instance), functools.partial(trusted, instance))


def door(trusted: Callable[Q, R]) -> Callable[[Callable[P, R]], Door[P, Q, R]]:
    """Decorate a public function that checks its arguments and then calls ``trusted``, its work; see [`Door`][]."""

    def wrap(checked: Callable[P, R]) -> Door[P, Q, R]:
        return Door(checked, trusted)

    return wrap
