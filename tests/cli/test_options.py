"""The command line's argument types at their edges: the largest whole number, a fraction's closed and open ends."""

from __future__ import annotations

import argparse

import pytest

from ascend_dsa.cli.options import positive_int, unit_fraction

#: 2**53, the largest whole number a float holds exactly: 16 digits.
LARGEST = 9007199254740992


def test_positive_int_takes_two_to_the_53_and_not_one_more() -> None:
    """2**53 and its zero-padded spelling pass; 2**53 + 1 is refused, quoting the text."""
    assert positive_int(str(LARGEST)) == LARGEST
    assert positive_int("000" + str(LARGEST)) == LARGEST
    with pytest.raises(
        argparse.ArgumentTypeError, match=r"1 to 9007199254740992 in plain digits, got '9007199254740993'$"
    ):
        positive_int(str(LARGEST + 1))


def test_positive_int_refuses_thousands_of_digits_before_reading_them() -> None:
    """5000 digits are refused by their length (int() would raise its own ValueError past 4300 digits)."""
    with pytest.raises(argparse.ArgumentTypeError, match=r"in plain digits, got '1111.*\(5000 characters\)$"):
        positive_int("1" * 5000)


@pytest.mark.parametrize(("text", "value"), [("0", 0.0), ("0.5", 0.5), ("0.999", 0.999)])
def test_unit_fraction_takes_zero_up_to_but_not_one(text: str, value: float) -> None:
    """[0, 1): zero is in, anything below one is in."""
    assert unit_fraction(text) == value


@pytest.mark.parametrize("text", ["1", "1.0", "-0.001"])
def test_unit_fraction_refuses_one_and_below_zero(text: str) -> None:
    """One itself and anything below zero are refused, quoting the text."""
    with pytest.raises(argparse.ArgumentTypeError, match=rf"^expected a fraction in \[0, 1\), got '{text}'$"):
        unit_fraction(text)
