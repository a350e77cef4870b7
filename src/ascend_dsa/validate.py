"""Checks for the arguments of public functions: one line naming the argument and what was expected.

A wrong kind of value raises `TypeError`, a value of the right kind outside its range `ValueError`;
a result that would be infinite or not a number raises [`OutOfRange`][] instead of being
returned. NumPy scalars count as numbers (``np.int64(32)`` is a whole number); ``bool`` never does. Standard
library only: the check of NumPy arrays is ``ascend_dsa.models.arrays.require_array``.
"""

from __future__ import annotations

import math
import numbers
from typing import Final, TypeVar

from ascend_dsa.errors import OutOfRange

T = TypeVar("T")

#: The largest whole number a float64 holds exactly (IEEE 754 binary64: a 53-bit significand). Counts beyond it
#: lose their last digits as soon as they meet a float (a clock rate, a bandwidth), so inputs stop there.
LARGEST_EXACT_WHOLE: Final = 2**53


def require_int(name: str, value: object, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an ``int``: any whole-number type but ``bool``, within ``[minimum, maximum]`` when given."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number, got {value!r} ({type(value).__name__})")
    number = int(value)
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
