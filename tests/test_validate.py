import math

import numpy as np
import pytest

from ascend_dsa.errors import OutOfRange
from ascend_dsa.validate import (
    LARGEST_EXACT_WHOLE,
    Door,
    door,
    finite_result,
    require_bool,
    require_finite,
    require_instance,
    require_int,
    require_iterable,
)


class _Index:
    """An integer-like object that is not a ``numbers.Integral``: it has ``__index__`` only."""

    def __index__(self) -> int:
        return 32


@pytest.mark.parametrize("value", [32, np.int64(32), np.uint8(32), np.int8(32), _Index()])
def test_require_int_takes_any_integer_type(value: object) -> None:
    """Python and NumPy integers, and anything ``operator.index`` takes, are whole numbers returned as int."""
    result = require_int("heads", value, minimum=1)
    assert result == 32
    assert type(result) is int


def test_a_narrow_numpy_integer_is_computed_with_as_a_python_int() -> None:
    """Issue 31 (17): ``np.int8(5)`` as an address was divided in int8 and raised OverflowError."""
    from ascend_dsa import ASCEND_950, l1_bank_of  # noqa: PLC0415 - the model this validator's result feeds

    assert l1_bank_of(np.int8(5), ASCEND_950) == 0
    assert l1_bank_of(np.int32(300_000), ASCEND_950) == 1


@pytest.mark.parametrize("value", [True, np.True_, 32.0, math.nan, math.inf, "32", None, np.float64(32)])
def test_require_int_rejects_other_types_naming_the_argument(value: object) -> None:
    """A bool, a float (even a whole one), a string or None is a TypeError naming the argument."""
    with pytest.raises(TypeError, match="heads must be a whole number"):
        require_int("heads", value)


def test_require_int_bounds() -> None:
    """Values outside [minimum, maximum] are a ValueError saying the bound."""
    with pytest.raises(ValueError, match="heads must be a positive integer, got 0"):
        require_int("heads", 0, minimum=1)
    with pytest.raises(ValueError, match="pad must be a non-negative integer, got -1"):
        require_int("pad", -1, minimum=0)
    with pytest.raises(ValueError, match=f"at most {LARGEST_EXACT_WHOLE}"):
        require_int("heads", 10**400, maximum=LARGEST_EXACT_WHOLE)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 10**400])
def test_require_finite_rejects_non_finite(value: object) -> None:
    """NaN, infinities and ints beyond any float are a ValueError naming the argument."""
    with pytest.raises(ValueError, match="clock_hz must be a finite number"):
        require_finite("clock_hz", value)


def test_require_finite_positive_and_types() -> None:
    """Zero is not positive; a bool or a string is a TypeError; NumPy floats are fine."""
    with pytest.raises(ValueError, match="clock_hz must be positive, got 0"):
        require_finite("clock_hz", 0, positive=True)
    with pytest.raises(TypeError, match="clock_hz must be a real number"):
        require_finite("clock_hz", True)  # noqa: FBT003 - the bool is the point
    with pytest.raises(TypeError, match="clock_hz must be a real number"):
        require_finite("clock_hz", "1e9")
    assert require_finite("clock_hz", np.float32(2.0)) == 2.0


@pytest.mark.parametrize("value", ["no", 0, 1, None, np.True_])
def test_require_bool_takes_only_true_or_false(value: object) -> None:
    """'no' is not False: anything but a bool is a TypeError naming the argument."""
    with pytest.raises(TypeError, match="sink must be True or False"):
        require_bool("sink", value)
    assert require_bool("sink", False) is False  # noqa: FBT003 - the bool is the point


def test_require_instance() -> None:
    """The wrong class is a TypeError naming the argument and the class expected."""
    with pytest.raises(TypeError, match="spec must be a int, got 'x'"):
        require_instance("spec", "x", int)
    assert require_instance("spec", 3, int) == 3


@pytest.mark.parametrize("value", [math.inf, math.nan, 10**400])
def test_finite_result_raises_out_of_range(value: float) -> None:
    """An infinite or NaN figure raises OutOfRange (a ValueError) naming the figure."""
    with pytest.raises(OutOfRange, match="L2 cycles comes out as"):
        finite_result("L2 cycles", value)
    with pytest.raises(ValueError, match="L2 cycles"):
        finite_result("L2 cycles", value)


def test_finite_result_positive() -> None:
    """A figure that must be positive may not come out as zero."""
    with pytest.raises(OutOfRange, match=r"comes out as 0\.0"):
        finite_result("L2 bytes per cycle", 0.0, positive=True)
    assert finite_result("L2 bytes per cycle", 1.5, positive=True) == 1.5


def test_require_iterable_names_the_argument() -> None:
    """A list passes as given; None or a string is refused naming the argument and the value."""
    values = [1, 2]
    assert require_iterable("b_topks", values) is values
    with pytest.raises(TypeError, match=r"^b_topks must be an iterable of values, got NoneType None$"):
        require_iterable("b_topks", None)
    with pytest.raises(TypeError, match=r"^pad_rows must be an iterable of values, got str '01'$"):
        require_iterable("pad_rows", "01")


def test_require_elements_takes_exactly_the_limit() -> None:
    """An array of exactly ``limit`` elements passes; one more is refused with both counts and the shape."""
    from ascend_dsa.models.arrays import require_elements  # noqa: PLC0415 - NumPy-side helper, kept off this module's imports

    exact = np.zeros(4)
    assert require_elements("kv", exact, limit=4) is exact
    with pytest.raises(ValueError, match=r"^kv has 5 elements, more than the limit of 4 \(\(5,\)\)$"):
        require_elements("kv", np.zeros(5), limit=4)


def test_shown_cuts_a_long_value_as_the_command_line_does() -> None:
    """Issue 31 (18): a short value reads as ``repr`` writes it; a long one is cut, a string with its length."""
    from ascend_dsa.cli.options import quoted  # noqa: PLC0415 - the command line's helper, now the same function
    from ascend_dsa.validate import QUOTED_CHARS_MAX, shown  # noqa: PLC0415

    assert quoted is __import__("ascend_dsa.validate", fromlist=["quoted"]).quoted
    assert [shown(v) for v in (5, 1.5, "fp8", (0.01, 10.0), np.int64(3))] == [
        "5",
        "1.5",
        "'fp8'",
        "(0.01, 10.0)",
        "np.int64(3)",
    ]
    assert shown("x" * 10**6) == f"{'x' * QUOTED_CHARS_MAX!r}... (1000000 characters)"
    for value in (["x" * 10**6], [0] * 10**6, 10**400, 10**5000, np.ones((1000, 1000))):
        text = shown(value)
        assert len(text) <= QUOTED_CHARS_MAX + 3
        assert "\n" not in text


def test_a_failed_lookup_of_our_enums_is_cut() -> None:
    """``Mode("x" * 10**6)`` said the whole megabyte; it now says what Python says, with the value cut."""
    from ascend_dsa import Mode  # noqa: PLC0415

    with pytest.raises(ValueError, match=r"^'train' is not a valid Mode$"):
        Mode("train")
    with pytest.raises(ValueError, match=r"^'x{80}'\.\.\. \(1000000 characters\) is not a valid Mode$"):
        Mode("x" * 10**6)


def _halved(heads: int) -> int:
    return heads // 2


@door(_halved)
def halved(heads: int) -> int:
    """Half of a positive whole number of heads."""
    return _halved(require_int("heads", heads, minimum=1))


class _Ring:
    def __init__(self, size: int) -> None:
        self.size = size

    def _grown(self, extra: int) -> int:
        return self.size + extra

    @door(_grown)
    def grown(self, extra: int) -> int:
        """The size with ``extra`` more slots."""
        return self._grown(require_int("extra", extra, minimum=0))


def test_a_door_checks_and_its_trusted_form_does_not() -> None:
    """Calling the public function checks its argument; ``trusted`` is the same work without the check."""
    assert halved(64) == 32
    with pytest.raises(ValueError, match=r"^heads must be a positive integer, got 0$"):
        halved(0)
    assert halved.trusted(0) == 0
    assert isinstance(halved, Door)
    assert (halved.__name__, halved.__doc__) == ("halved", "Half of a positive whole number of heads.")


def test_a_door_on_a_method_binds_both_forms_to_the_instance() -> None:
    """On an instance the door and ``trusted`` are bound like the method; on the class the door is itself."""
    ring = _Ring(4)
    assert ring.grown(2) == 6
    with pytest.raises(ValueError, match=r"^extra must be a non-negative integer, got -1$"):
        ring.grown(-1)
    assert ring.grown.trusted(-1) == 3
    assert _Ring.grown(ring, 1) == 5
