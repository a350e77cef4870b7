import math

import pytest

from ascend_dsa.rescale_bound import illustrative_sm_scale, raw_logit_threshold, rescale_factor_bound, rescale_triggered


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
    ],
)
def test_bad_input_names_argument(call: object, name: str) -> None:
    """Non-finite or non-positive input raises ValueError naming the argument."""
    with pytest.raises(ValueError, match=name):
        call()  # type: ignore[operator]
