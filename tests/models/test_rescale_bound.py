import contextlib
import math

import pytest
from hypothesis import given, settings

from ascend_dsa.models.rescale_bound import (
    illustrative_sm_scale,
    raw_logit_threshold,
    rescale_factor_bound,
    rescale_triggered,
)
from tests.helpers.strategies import anything


def test_exp6_bound() -> None:
    """exp(6) = 403.43 to two decimals (report (zh) line 67)."""
    assert round(rescale_factor_bound(6), 2) == 403.43


def test_trigger_is_strict() -> None:
    """A gap of exactly the threshold does not trigger; a larger one does (the kernel's strict >)."""
    assert not rescale_triggered(6.0, 0.0, 6.0)
    assert rescale_triggered(6.5, 0.0, 6.0)


def test_raw_threshold_divides_by_sm_scale() -> None:
    """On raw logits the threshold is 6 / sm_scale: 6 x sqrt(512) = 135.76 for sm_scale = 1/sqrt(512)."""
    assert illustrative_sm_scale() == pytest.approx(1 / math.sqrt(512))
    assert raw_logit_threshold(6, illustrative_sm_scale()) == pytest.approx(135.7645, abs=1e-4)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: raw_logit_threshold(6, 0), "sm_scale"),
        (lambda: rescale_factor_bound(math.inf), "threshold"),
        (lambda: rescale_triggered(math.nan, 0, 6), "running_max"),
        (lambda: rescale_factor_bound(-1), "threshold"),
        (lambda: rescale_factor_bound(1000), "threshold"),
        (lambda: raw_logit_threshold(6, 1e-320), "sm_scale"),
        (lambda: rescale_triggered(1, 0, -0.5), "threshold"),
    ],
)
def test_bad_input_names_argument(call: object, name: str) -> None:
    """Non-finite, negative or overflowing input raises ValueError naming the argument."""
    with pytest.raises(ValueError, match=name):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: rescale_factor_bound("6"), "threshold"),
        (lambda: rescale_triggered(None, 0, 6), "running_max"),
        (lambda: raw_logit_threshold(6, True), "sm_scale"),  # noqa: FBT003 - the wrong type under test
        (lambda: illustrative_sm_scale(512), "model"),
    ],
)
def test_wrong_types_raise_type_error(call: object, name: str) -> None:
    """An argument of the wrong type raises TypeError naming it."""
    with pytest.raises(TypeError, match=f"^{name} must be"):
        call()  # type: ignore[operator]


_ANYTHING = anything(2**1100, -(2**1100))


@settings(max_examples=150, deadline=None)
@given(a=_ANYTHING, b=_ANYTHING, c=_ANYTHING)
def test_property_only_type_or_value_errors(a: object, b: object, c: object) -> None:
    """Any arguments give a result or a TypeError / ValueError, never another exception."""
    for call in (
        lambda: rescale_triggered(a, b, c),  # type: ignore[arg-type]
        lambda: rescale_factor_bound(a),  # type: ignore[arg-type]
        lambda: raw_logit_threshold(a, b),  # type: ignore[arg-type]
        lambda: illustrative_sm_scale(a),  # type: ignore[arg-type]
    ):
        with contextlib.suppress(TypeError, ValueError):
            call()


@pytest.mark.parametrize("sm_scale", [512**-0.5, 0.1, 0.3, 1.0, 2.5e-3, 7.0])
def test_raw_threshold_is_the_kernels_float32_quotient(sm_scale: float) -> None:
    """The raw threshold is float32(6) / float32(sm_scale), bit for bit (kernel_body.h:1661)."""
    import numpy as np  # noqa: PLC0415 - the module under test is stdlib-only; only this check needs NumPy

    assert raw_logit_threshold(6, sm_scale) == float(np.float32(6) / np.float32(sm_scale))
