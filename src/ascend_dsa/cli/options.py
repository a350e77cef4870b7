"""Argument types that accept plain ASCII numbers only and turn a bad value into one line saying what was expected.

Python's ``int`` and ``float`` also read full-width and Arabic-Indic digits, ``1_000``, ``inf`` and ``nan``; a
command line that accepted those would take typos for numbers, so these types match ASCII digits first.
"""

from __future__ import annotations

import argparse
import math
import re

from ascend_dsa.validate import LARGEST_EXACT_WHOLE

_WHOLE = re.compile(r"[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def positive_int(text: str) -> int:
    """A whole number from 1 to 2**53 written in ASCII digits (``64``; not ``６４``, ``1_000`` or ``+64``)."""
    expected = f"expected a whole number from 1 to {LARGEST_EXACT_WHOLE} in plain digits, got {text!r}"
    if not _WHOLE.fullmatch(text) or len(text.lstrip("0")) > len(str(LARGEST_EXACT_WHOLE)):
        raise argparse.ArgumentTypeError(expected)
    value = int(text)
    if not 1 <= value <= LARGEST_EXACT_WHOLE:
        raise argparse.ArgumentTypeError(expected)
    return value


def _decimal(text: str, expected: str) -> float:
    if not _DECIMAL.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{expected}, got {text!r}")
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{expected}, got {text!r} (too large for a float)")
    return value


def positive_float(text: str) -> float:
    """A finite number greater than zero in ASCII digits, with an optional exponent (``4e12``, ``1.65e9``)."""
    expected = "expected a positive finite number such as 1.65e9"
    value = _decimal(text, expected)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{expected}, got {text!r}")
    return value


def positive_int_list(text: str) -> tuple[int, ...]:
    """A comma-separated list of distinct positive integers, such as ``16,32,64`` (no empty or repeated items)."""
    expected = "expected a comma-separated list of distinct positive integers such as 16,32,64"
    values: list[int] = []
    for part in text.split(","):
        item = part.strip()
        if not item:
            raise argparse.ArgumentTypeError(f"{expected}, got {text!r} (an empty item)")
        try:
            value = positive_int(item)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(f"{expected}, got {text!r} ({item!r} is not one)") from None
        if value in values:
            raise argparse.ArgumentTypeError(f"{expected}, got {text!r} ({item!r} twice)")
        values.append(value)
    return tuple(values)


def unit_fraction(text: str) -> float:
    """A number in [0, 1) in ASCII digits."""
    expected = "expected a fraction in [0, 1)"
    value = _decimal(text, expected)
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"{expected}, got {text!r}")
    return value
