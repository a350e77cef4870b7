"""The site's forward cases: each one agrees, and the guard fires when a comparison strays."""

from __future__ import annotations

import contextlib
import dataclasses
import math

import pytest
from hypothesis import given, settings

from ascend_dsa import SHIPPED_KERNEL, AscendDsaError
from ascend_dsa.models.reference import sparse_attn_fwd
from ascend_dsa.report.forward_cases import (
    check_forwards_agree,
    compare_forwards,
    forward_cases,
    ramp_case,
    random_case,
    trace_case,
    two_core_case,
)
from tests.helpers.strategies import anything


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


_ANYTHING = anything(SHIPPED_KERNEL)


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


def test_the_cases_are_small_and_their_edges_sit_where_the_kernel_turns() -> None:
    """4 tokens x 8 heads x 64 dims over 400 keys, d_v 48; topk_length 0, one short of a block, one past, three."""
    cases = {c.name: c for c in forward_cases()}
    base = cases["random"]
    assert (base.q.shape, base.kv.shape, base.d_v) == ((4, 8, 64), (400, 1, 64), 48)
    assert cases["topk-length"].topk_length.tolist() == [0, 63, 65, 192]  # B_TOPK = 64 (config.h:55)
    assert cases["partial-block"].indices.shape[2] == 2 * 64 + 7


def test_ramp_case_needs_a_block() -> None:
    """No block at all is refused naming the value."""
    with pytest.raises(ValueError, match=r"^blocks must be a positive integer, got 0$"):
        ramp_case("none", 0, 1.0, 64, ascending=True)


def test_two_core_case_jumps_past_the_threshold_and_climbs_by_two_thirds() -> None:
    """At the threshold of 6: core 0's logit jumps to 7 at block 1, core 1's climbs to 4 and then 8 (docstring)."""
    case = two_core_case()
    keys = case.kv.astype("float32")[:, 0, :2]
    assert keys[4].tolist() == [7.0, 4.0]
    assert keys[8].tolist() == [0.0, 8.0]
    assert case.indices.shape == (1, 1, 12)


#: The trace the page walks through (render_online_softmax_trace), written out: head 0 and head 1, five blocks of 4.
TRACE = (
    ((0, 1, 3, 2), (2, 9, 1, 0), (4, 10, 1, 2), (5, 5, 5, 5), (11, 0, 0, 0)),
    ((1, 1, 1, 1), (0, 0, 0, 0), (0, 0, 0, 0), (8, 0, 0, 0), (0, 0, 0, 0)),
)


def test_trace_case_holds_the_written_logits_and_its_lse() -> None:
    """The case's logits are the trace above; each head's lse is log sum exp of its 20 logits, in float64."""
    case = trace_case()
    kv = case.kv.astype("float32")[:, 0, :]
    for head, blocks in enumerate(TRACE):
        logits = [x for block in blocks for x in block]
        assert kv[:, head].tolist() == logits
        _, _, lse = sparse_attn_fwd(*case.args())
        assert float(lse[0, head]) == pytest.approx(math.log(sum(math.exp(x) for x in logits)), rel=1e-6)


def test_agrees_holds_exactly_at_the_exp_bound() -> None:
    """A largest exp term equal to exp(threshold) agrees; one float above does not."""
    at = dataclasses.replace(compare_forwards(random_case()), max_exp_term=math.exp(6.0), exp_bound=math.exp(6.0))
    assert at.agrees
    assert not dataclasses.replace(at, max_exp_term=math.nextafter(math.exp(6.0), math.inf)).agrees


def test_no_finite_lse_means_no_lse_difference() -> None:
    """When every index of every token is invalid, both lse are -inf everywhere and the difference is 0, not less."""
    base = random_case()
    none = dataclasses.replace(base, name="none", indices=base.indices * 0 - 1)
    assert compare_forwards(none).lse_difference == 0.0
