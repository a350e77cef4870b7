"""The site's forward cases: each one agrees, and the guard fires when a comparison strays."""

from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_dsa import SHIPPED_KERNEL, AscendDsaError
from ascend_dsa.report.forward_cases import (
    check_forwards_agree,
    compare_forwards,
    forward_cases,
    ramp_case,
    random_case,
    trace_case,
    two_core_case,
)


def test_every_case_agrees_and_exercises_its_edge() -> None:
    """All cases agree within tolerance; rising rescales every block, huge-first never, lonely tokens exist."""
    comparisons = {c.name: compare_forwards(c) for c in forward_cases()}
    check_forwards_agree(tuple(comparisons.values()))
    rising, huge = comparisons["rising"], comparisons["huge-first"]
    assert rising.rescales == rising.tokens * (rising.blocks - 1)
    assert huge.rescales == 0
    assert huge.max_exp_term == 1.0
    assert comparisons["partial-block"].blocks == 3
    assert comparisons["random"].rescales > 0


def test_guard_names_the_straying_case() -> None:
    """A comparison outside its tolerance makes check_forwards_agree raise with the case's name."""
    good = compare_forwards(trace_case())
    bad = dataclasses.replace(good, out_difference=2 * good.out_tolerance)
    with pytest.raises(AscendDsaError, match="trace: \\|d out\\|"):
        check_forwards_agree((good, bad))


@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda: random_case(seed=-1), ValueError, "seed"),
        (lambda: random_case(topk=10**9), ValueError, "topk"),
        (lambda: random_case(spread="6"), TypeError, "spread"),  # type: ignore[arg-type]
        (lambda: ramp_case(1, 2, 1.0, 4, ascending=True), TypeError, "name"),  # type: ignore[arg-type]
        (lambda: ramp_case("r", 10**6, 1.0, 10**6, ascending=True), ValueError, "blocks x b_topk"),
        (lambda: forward_cases(None), TypeError, "config"),  # type: ignore[arg-type]
        (lambda: compare_forwards("random"), TypeError, "case"),  # type: ignore[arg-type]
        (lambda: check_forwards_agree([]), TypeError, "comparisons"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_name_themselves(call: object, error: type[Exception], name: str) -> None:
    """Wrong types raise TypeError, bad values ValueError, each naming the argument."""
    with pytest.raises(error, match=f"^{name}"):
        call()  # type: ignore[operator]


_ANYTHING = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(), st.text(max_size=3), st.just(SHIPPED_KERNEL)
)


@settings(max_examples=60, deadline=None)
@given(a=_ANYTHING, b=_ANYTHING, c=_ANYTHING)
def test_property_case_builders_raise_only_type_or_value_errors(a: object, b: object, c: object) -> None:
    """The case builders and comparisons give a result or a TypeError / ValueError for any argument."""
    for call in (
        lambda: random_case(a, b, c),  # type: ignore[arg-type]
        lambda: ramp_case("r", a, b, c, ascending=True),  # type: ignore[arg-type]
        lambda: two_core_case(a, b),  # type: ignore[arg-type]
        lambda: forward_cases(a),  # type: ignore[arg-type]
        lambda: compare_forwards(trace_case(), a),  # type: ignore[arg-type]
        lambda: check_forwards_agree(a),  # type: ignore[arg-type]
    ):
        with contextlib.suppress(TypeError, ValueError):
            call()
