"""Argument types that turn a bad value into one line naming it and what was expected."""

from __future__ import annotations

import argparse
import math


def positive_int(text: str) -> int:
    """A whole number greater than zero."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """A finite number greater than zero (``4e12`` is fine)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive finite number, got {text!r}")
    return value


def positive_int_list(text: str) -> tuple[int, ...]:
    """A comma-separated, non-empty list of positive integers, such as ``16,32,64``."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of positive integers, got {text!r}")
    values = []
    for part in parts:
        try:
            values.append(positive_int(part))
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(
                f"expected a comma-separated list of positive integers, got {text!r} ({part!r} is not one)"
            ) from None
    return tuple(values)


def unit_fraction(text: str) -> float:
    """A number in [0, 1)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a fraction in [0, 1), got {text!r}") from None
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a fraction in [0, 1), got {text!r}")
    return value
