"""Checks for the arguments of public functions: one line naming the argument and what was expected.

A wrong kind of value raises `TypeError`, a value of the right kind outside its range `ValueError`;
a result that would be infinite or not a number raises [`OutOfRange`][] instead of being
returned. NumPy scalars count as numbers (``np.int64(32)`` is a whole number); ``bool`` never does. Standard
library only: the check of NumPy arrays is ``ascend_dsa.models.arrays.require_array``.
"""

from __future__ import annotations

import itertools
import math
import numbers
import operator
from collections.abc import Iterable, Sized
from typing import Any, Final, TypeVar

from ascend_dsa.errors import OutOfRange, typed_items

T = TypeVar("T")

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


def require_int(name: str, value: object, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a Python ``int``: any integer-like value but a ``bool``, within ``[minimum, maximum]`` when given.

    Integer-like is what ``operator.index`` takes (``np.int8(5)`` too); the caller computes with the ``int``
    returned, never with ``value``, so that a NumPy integer cannot wrap or overflow in its narrow type.
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a whole number, got {value!r} ({type(value).__name__})")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be a whole number, got {value!r} ({type(value).__name__})") from None
    if minimum is not None and number < minimum:
        wanted = {0: "a non-negative integer", 1: "a positive integer"}.get(minimum, f"at least {minimum}")
        raise ValueError(f"{name} must be {wanted}, got {number}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {number}")
    return number


def require_real(name: str, value: object, expected: str = "a real number") -> float:
    """``value`` as a ``float`` (infinities and NaN included): any real number type but ``bool``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {expected}, got {value!r} ({type(value).__name__})")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be {expected}, got one too large for a float ({value!r})") from None


def require_finite(name: str, value: object, *, positive: bool = False, minimum: float | None = None) -> float:
    """``value`` as a finite ``float``, above zero when ``positive`` and at least ``minimum`` when given."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    number = require_real(name, value, "a finite number")
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if positive and number <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    if minimum is not None and number < require_finite("minimum", minimum):
        raise ValueError(f"{name} must be at least {minimum:g}, got {value!r}")
    return number


def require_bool(name: str, value: object) -> bool:
    """``value`` itself when it is ``True`` or ``False``; anything else (``"no"``, ``0``) is a `TypeError`."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
    return value


def require_instance(name: str, value: object, kind: type[T]) -> T:
    """``value`` when it is a ``kind``, else a `TypeError` naming the argument and the class expected."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a {kind.__name__}, got {value!r} ({type(value).__name__})")
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
        raise TypeError(f"{name} must be an iterable of values, got {type(value).__name__} {value!r:.60}")
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
