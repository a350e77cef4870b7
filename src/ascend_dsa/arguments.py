"""Checks of public arguments: a wrong type raises TypeError naming the argument, a bad value ValueError."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray


def as_array(name: str, value: object, expected: str) -> NDArray[Any]:
    """``np.asarray(value)``, or a TypeError naming ``name`` when numpy cannot make an array of it."""
    try:
        return np.asarray(value)
    except (TypeError, ValueError, OverflowError) as error:
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__} ({error})") from None


def check_real(name: str, value: object, expected: str) -> float:
    """``value`` as a float; TypeError unless it is a real number (bool excluded), ValueError if too large."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {value!r}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be {expected}, got {value!r}") from None


def check_finite(name: str, value: object, *, low: float | None = None, positive: bool = False) -> float:
    """``value`` as a finite float, at least ``low`` and, with ``positive``, above 0."""
    bounds = " > 0" if positive else ("" if low is None else f" >= {low:g}")
    expected = f"a finite number{bounds}"
    number = check_real(name, value, expected)
    if not math.isfinite(number) or (low is not None and number < low) or (positive and number <= 0):
        raise ValueError(f"{name} must be {expected}, got {value!r}")
    return number


def check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``[low, high]``; TypeError unless it is an integer (bool excluded)."""
    expected = f"an integer >= {low}" if high is None else f"an integer in [{low}, {high}]"
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {value!r}")
    number = int(value)
    if number < low or (high is not None and number > high):
        raise ValueError(f"{name} must be {expected}, got {number}")
    return number
