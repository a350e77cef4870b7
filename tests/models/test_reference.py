"""The plain and the blocked forwards: FlashMLA's semantics, agreement within the bf16 bound, and skip-scale."""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_dsa import SHIPPED_KERNEL
from ascend_dsa.models.blocked_forward import blocked_sparse_attn_fwd, skip_scale_decision
from ascend_dsa.models.reference import output_tolerance, sparse_attn_fwd, sparse_attn_fwd_float64, sparse_attn_weights
from tests.helpers.strategies import anything

BF16 = ml_dtypes.bfloat16


@dataclass
class Case:
    """One set of forward inputs."""

    q: np.ndarray
    kv: np.ndarray
    indices: np.ndarray
    sm_scale: float
    d_v: int
    attn_sink: np.ndarray | None = None
    topk_length: np.ndarray | None = None

    def args(self) -> tuple[Any, ...]:
        return (self.q, self.kv, self.indices, self.sm_scale, self.d_v, self.attn_sink, self.topk_length)


def random_case(
    seed: int,
    s_q: int = 3,
    h_q: int = 4,
    d_qk: int = 32,
    d_v: int = 24,
    s_kv: int = 50,
    topk: int = 40,
    *,
    invalid: bool = True,
    sink: bool = False,
    lengths: bool = False,
    spread: float = 1.0,
) -> Case:
    rng = np.random.default_rng(seed)
    q = (rng.standard_normal((s_q, h_q, d_qk)) * spread).astype(BF16)
    kv = rng.standard_normal((s_kv, 1, d_qk)).astype(BF16)
    low, high = (-5, s_kv + 5) if invalid else (0, s_kv)
    indices = rng.integers(low, high, (s_q, 1, topk)).astype(np.int32)
    attn_sink = rng.standard_normal(h_q).astype(np.float32) if sink else None
    topk_length = rng.integers(0, topk + 1, s_q).astype(np.int32) if lengths else None
    return Case(q, kv, indices, d_qk**-0.5, d_v, attn_sink, topk_length)


def naive_forward(case: Case) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The definition, one token and one head at a time, in float64 (only for tiny cases)."""
    q = case.q.astype(np.float64)
    kv = case.kv[:, 0, :].astype(np.float64)
    s_q, h_q, _ = q.shape
    topk = case.indices.shape[2]
    out = np.zeros((s_q, h_q, case.d_v))
    max_logits = np.full((s_q, h_q), -np.inf)
    lse = np.full((s_q, h_q), np.inf)
    for t in range(s_q):
        length = topk if case.topk_length is None else int(case.topk_length[t])
        chosen = [int(i) for i in case.indices[t, 0, :length] if 0 <= i < kv.shape[0]]
        if not chosen:
            continue
        keys = kv[chosen]
        for h in range(h_q):
            logits = keys @ q[t, h] * case.sm_scale
            top = logits.max()
            weights = np.exp(logits - top)
            max_logits[t, h] = top
            lse[t, h] = math.log(weights.sum()) + top
            out[t, h] = weights @ keys[:, : case.d_v] / weights.sum()
            if case.attn_sink is not None:
                out[t, h] /= 1.0 + math.exp(float(case.attn_sink[h]) - lse[t, h])
    return out, max_logits, lse


def assert_same_infinities(a: np.ndarray, b: np.ndarray) -> None:
    assert np.array_equal(np.isposinf(a), np.isposinf(b))
    assert np.array_equal(np.isneginf(a), np.isneginf(b))


def assert_close_finite(a: np.ndarray, b: np.ndarray, atol: float) -> None:
    assert_same_infinities(a, b)
    finite = np.isfinite(b)
    assert np.abs(a[finite] - b[finite]).max(initial=0.0) <= atol


def assert_blocked_matches_plain(case: Case, **knobs: Any) -> Any:  # noqa: ANN401 - the stats object
    """Blocked vs plain: out within the stated bf16 tolerance, max_logits and lse to float32 precision."""
    out, max_logits, lse = sparse_attn_fwd(*case.args())
    out_b, max_b, lse_b, stats = blocked_sparse_attn_fwd(*case.args(), **knobs)
    assert out_b.dtype == BF16
    assert out.dtype == max_b.dtype == lse_b.dtype == np.float32
    assert np.abs(out_b.astype(np.float32) - out).max() <= output_tolerance(case.kv, case.d_v, case.indices.shape[2])
    assert_close_finite(max_b, max_logits, 1e-5 * (1 + np.abs(max_logits[np.isfinite(max_logits)]).max(initial=0)))
    assert_close_finite(lse_b, lse, 1e-4 * (1 + np.abs(lse[np.isfinite(lse)]).max(initial=0)))
    return stats


@pytest.mark.parametrize(
    ("seed", "sink", "lengths"), [(0, False, False), (1, True, False), (2, False, True), (3, True, True)]
)
def test_plain_matches_the_definition(seed: int, *, sink: bool, lengths: bool) -> None:
    """sparse_attn_fwd equals a token-by-token, head-by-head float64 softmax, including sink and topk_length."""
    case = random_case(seed, sink=sink, lengths=lengths)
    out, max_logits, lse = sparse_attn_fwd(*case.args())
    ref_out, ref_max, ref_lse = naive_forward(case)
    assert out.shape == (3, 4, 24)
    assert max_logits.shape == lse.shape == (3, 4)
    assert np.abs(out - ref_out).max() <= 1e-5
    assert_close_finite(max_logits, ref_max, 1e-5)
    assert_close_finite(lse, ref_lse, 1e-5)


def test_float32_plain_matches_float64_oracle() -> None:
    """The float32 plain forward is within 1e-5 of the same maths in float64."""
    case = random_case(4, topk=200, s_kv=300, sink=True)
    out, max_logits, lse = sparse_attn_fwd(*case.args())
    out64, max64, lse64 = sparse_attn_fwd_float64(*case.args())
    assert out64.dtype == np.float64
    assert np.abs(out - out64).max() <= 1e-5
    assert_close_finite(max_logits, max64, 1e-5)
    assert_close_finite(lse, lse64, 1e-5)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("b_topk", [1, 7, 16, 64])
def test_blocked_agrees_with_plain_on_random_inputs(seed: int, b_topk: int) -> None:
    """On random inputs (invalid indices included) the blocked forward stays within the stated bf16 tolerance."""
    case = random_case(seed, topk=150, s_kv=200, sink=seed % 2 == 0, lengths=seed >= 2, spread=4.0)
    assert_blocked_matches_plain(case, b_topk=b_topk)


def ramp_case(blocks: int, b_topk: int, step: float, *, ascending: bool = True) -> Case:
    """Key j has logit ``step * j`` on every head (``sm_scale`` 1): each block's max is ``step * b_topk`` higher."""
    d_qk = 16
    topk = blocks * b_topk
    kv = np.zeros((topk, 1, d_qk), dtype=np.float32)
    kv[:, 0, 0] = step * np.arange(topk)
    kv[:, 0, 1:] = np.random.default_rng(0).standard_normal((topk, d_qk - 1))
    q = np.zeros((2, 3, d_qk), dtype=np.float32)
    q[:, :, 0] = 1.0
    order = np.arange(topk) if ascending else np.arange(topk)[::-1]
    indices = np.broadcast_to(order, (2, 1, topk)).astype(np.int32)
    return Case(q.astype(BF16), kv.astype(BF16), indices, 1.0, d_qk)


def test_rising_logits_rescale_every_block() -> None:
    """Logits that rise by more than the threshold every block make every block after the first rescale."""
    case = ramp_case(blocks=6, b_topk=4, step=2.0)  # the max rises by 8 > 6 per block
    stats = assert_blocked_matches_plain(case, b_topk=4)
    assert stats.blocks.tolist() == [6, 6]
    assert stats.rescales.tolist() == [5, 5]
    assert stats.rescaled[:, 0].tolist() == [False, False]
    assert stats.o_copies.tolist() == [6, 6]


def test_huge_first_logit_means_no_rescale() -> None:
    """When the largest logit comes first, no later block rescales and the largest exp term is exp(0) = 1."""
    case = ramp_case(blocks=6, b_topk=4, step=2.0, ascending=False)
    stats = assert_blocked_matches_plain(case, b_topk=4)
    assert stats.rescales.tolist() == [0, 0]
    assert stats.max_exp_term.tolist() == [1.0, 1.0]


def test_rise_equal_to_threshold_does_not_rescale() -> None:
    """The trigger is strict: a max that moved by exactly the threshold does not rescale."""
    running = np.array([[6.0, 0.0]], dtype=np.float32)
    used = np.zeros((1, 2), dtype=np.float32)
    triggered, kept = skip_scale_decision(running, used, 6.0)
    assert triggered.tolist() == [[False]]
    assert kept.tolist() == [[0.0, 0.0]]
    triggered, moved = skip_scale_decision(running + np.float32(0.5), used, 6.0)
    assert triggered.tolist() == [[True]]
    assert moved.tolist() == [[6.5, 0.5]]  # both heads belong to one VECTOR Core: both adopt their running max


def test_all_indices_invalid() -> None:
    """A token whose indices are all invalid gets out 0, max_logits -inf and lse +inf from both forwards."""
    case = random_case(5, sink=True)
    case.indices[1] = -1
    case.indices[2] = 50  # == s_kv: also invalid
    for out, max_logits, lse in (sparse_attn_fwd(*case.args()), blocked_sparse_attn_fwd(*case.args())[:3]):
        assert np.all(out[1:] == 0.0)
        assert np.all(np.isneginf(max_logits[1:]))
        assert np.all(np.isposinf(lse[1:]))
        assert np.all(np.isfinite(lse[0]))
    assert_blocked_matches_plain(case)


def test_duplicated_indices_count_twice() -> None:
    """An index listed twice weighs twice, as in the definition; both forwards agree."""
    case = random_case(6, topk=30, invalid=False)
    case.indices[:, :, 15:] = case.indices[:, :, :15]
    out, _, _ = sparse_attn_fwd(*case.args())
    ref_out, _, _ = naive_forward(case)
    assert np.abs(out - ref_out).max() <= 1e-5
    assert_blocked_matches_plain(case, b_topk=8)


@pytest.mark.parametrize(("topk", "b_topk", "blocks"), [(65, 64, 2), (5, 64, 1), (100, 7, 15)])
def test_topk_not_a_multiple_of_b_topk(topk: int, b_topk: int, blocks: int) -> None:
    """A partial last block is padded with invalid slots and changes nothing."""
    case = random_case(7, topk=topk, s_kv=120)
    stats = assert_blocked_matches_plain(case, b_topk=b_topk)
    assert stats.blocks.tolist() == [blocks] * 3
    assert stats.rescaled.shape == (3, blocks)


def test_topk_length_zero_and_partial() -> None:
    """topk_length 0 empties a token (one block still runs, as in the kernel); shorter lengths cut indices."""
    case = random_case(8, topk=40, invalid=False)
    case.topk_length = np.array([0, 17, 40], dtype=np.int32)
    stats = assert_blocked_matches_plain(case, b_topk=8)
    out, _, lse = sparse_attn_fwd(*case.args())
    assert np.all(out[0] == 0.0)
    assert np.all(np.isposinf(lse[0]))
    assert stats.blocks.tolist() == [1, 3, 5]
    shorter = Case(case.q[1:2], case.kv, case.indices[1:2, :, :17].copy(), case.sm_scale, case.d_v)
    assert np.abs(sparse_attn_fwd(*shorter.args())[0] - out[1:2]).max() <= 1e-6


def test_attn_sink_infinities() -> None:
    """A sink of +inf zeroes out, -inf changes nothing; neither touches lse or max_logits."""
    case = random_case(9, h_q=2)
    plain = sparse_attn_fwd(*case.args())
    case.attn_sink = np.array([np.inf, -np.inf], dtype=np.float32)
    for out, max_logits, lse in (sparse_attn_fwd(*case.args()), blocked_sparse_attn_fwd(*case.args())[:3]):
        assert np.all(out[:, 0] == 0.0)
        assert np.abs(out[:, 1].astype(np.float32) - plain[0][:, 1]).max() <= output_tolerance(case.kv, case.d_v, 40)
        assert_close_finite(lse, plain[2], 1e-5)
        assert_close_finite(max_logits, plain[1], 1e-5)
    assert_blocked_matches_plain(case)


def test_finite_sink_scales_by_lse() -> None:
    """A finite sink multiplies out by exp(lse) / (exp(lse) + exp(sink))."""
    case = random_case(10)
    out, _, lse = sparse_attn_fwd(*case.args())
    case.attn_sink = np.array([0.5, -1.0, 2.0, 30.0], dtype=np.float32)
    sunk, _, _ = sparse_attn_fwd(*case.args())
    factor = np.exp(lse) / (np.exp(lse) + np.exp(case.attn_sink))
    assert np.abs(sunk - out * factor[:, :, None]).max() <= 1e-6


def test_skip_scale_changes_nothing_but_the_work() -> None:
    """Threshold 0 (rescale whenever the max moves) and the shipped 6 give the same result within the bf16 bound."""
    case = random_case(11, topk=256, s_kv=300, spread=6.0)
    eager = blocked_sparse_attn_fwd(*case.args(), b_topk=16, rescale_threshold=0.0)
    lazy = blocked_sparse_attn_fwd(*case.args(), b_topk=16)
    assert lazy[3].rescales.sum() < eager[3].rescales.sum()
    assert np.abs(eager[0].astype(np.float32) - lazy[0].astype(np.float32)).max() <= 2 * output_tolerance(
        case.kv, case.d_v, 256
    )
    assert np.abs(eager[2] - lazy[2]).max() <= 1e-4


def test_defaults_come_from_the_shipped_kernel() -> None:
    """Without knobs the blocked forward uses B_TOPK and RESCALE_THRESHOLD of config.h."""
    case = random_case(12, topk=3 * SHIPPED_KERNEL.b_topk + 1, s_kv=300)
    stats = blocked_sparse_attn_fwd(*case.args())[3]
    assert stats.b_topk == SHIPPED_KERNEL.b_topk
    assert stats.rescale_threshold == SHIPPED_KERNEL.rescale_threshold
    assert stats.blocks.tolist() == [4, 4, 4]


def test_float32_and_float64_inputs_are_accepted() -> None:
    """float32 and float64 arrays work as well as bfloat16 and give float32 results."""
    case = random_case(13)
    for dtype in (np.float32, np.float64):
        wide = Case(case.q.astype(dtype), case.kv.astype(dtype), case.indices.astype(np.int64), 0.2, 8)
        out, _, _ = sparse_attn_fwd(*wide.args())
        assert out.dtype == np.float32
        assert out.shape == (3, 4, 8)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    s_q=st.integers(1, 3),
    h_q=st.integers(1, 5),
    topk=st.integers(0, 70),
    b_topk=st.integers(1, 20),
    threshold=st.sampled_from([0.0, 1.0, 6.0, 20.0]),
    spread=st.sampled_from([0.5, 3.0, 12.0]),
    sink=st.booleans(),
    lengths=st.booleans(),
)
def test_property_blocked_equals_plain_and_bounds_exp(
    seed: int,
    s_q: int,
    h_q: int,
    topk: int,
    b_topk: int,
    threshold: float,
    spread: float,
    *,
    sink: bool,
    lengths: bool,
) -> None:
    """For any shapes, block size and threshold: same result within the bf16 bound, exp terms <= exp(threshold)."""
    case = random_case(seed, s_q, h_q, 16, 8, 30, topk, sink=sink, lengths=lengths, spread=spread)
    stats = assert_blocked_matches_plain(case, b_topk=b_topk, rescale_threshold=threshold)
    assert np.all(stats.max_exp_term <= np.exp(np.float32(threshold)))
    assert np.all(stats.rescales <= stats.blocks - 1)
    assert np.all(stats.blocks >= 1)


def test_largest_exp_term_never_exceeds_exp_threshold_on_a_ramp() -> None:
    """Even when logits climb just under the threshold per block, no unnormalised term exceeds exp(6)."""
    case = ramp_case(blocks=10, b_topk=8, step=5.9 / 8)
    stats = blocked_sparse_attn_fwd(*case.args(), b_topk=8)[3]
    bound = np.exp(np.float32(SHIPPED_KERNEL.rescale_threshold))
    assert np.all(stats.max_exp_term <= bound)
    assert np.all(stats.max_exp_term > bound / 2)  # the bound is nearly reached: the test can fail


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"q": np.zeros((2, 3), dtype=np.float32)}, r"q must have shape \[s_q, h_q, d_qk\].*got shape \(2, 3\)"),
        ({"kv": np.zeros((50, 2, 32), dtype=np.float32)}, r"kv must have shape \[s_kv >= 1, 1, d_qk = 32\]"),
        ({"kv": np.zeros((50, 1, 16), dtype=np.float32)}, r"got shape \(50, 1, 16\)"),
        ({"indices": np.zeros((2, 1, 4), dtype=np.int32)}, r"indices must have shape \[s_q = 3, 1, topk\]"),
        ({"sm_scale": 0.0}, "sm_scale must be a positive number finite and nonzero in float32, got 0.0"),
        ({"sm_scale": float("nan")}, "sm_scale must be a positive number .*, got nan"),
        ({"sm_scale": 1e-50}, "sm_scale must be a positive number finite and nonzero in float32, got 1e-50"),
        ({"d_v": 33}, r"d_v must be at most 32, got 33"),
        ({"d_v": 0}, r"d_v must be a positive integer, got 0"),
        (
            {"attn_sink": np.zeros(3, dtype=np.float32)},
            r"attn_sink must be .*shape \[h_q\] = \(4,\), got shape \(3,\)",
        ),
        (
            {"topk_length": np.zeros(2, dtype=np.int32)},
            r"topk_length must have shape \[s_q\] = \(3,\), got shape \(2,\)",
        ),
        ({"topk_length": np.array([0, 1, 41])}, r"topk_length must lie in \[0, topk = 40\], got values from 0 to 41"),
    ],
)
def test_bad_input_names_argument_and_expectation(change: dict[str, Any], message: str) -> None:
    """Each bad argument raises ValueError naming it, what it got and what was expected."""
    case = random_case(14)
    for name, value in change.items():
        setattr(case, name, value)
    with pytest.raises(ValueError, match=message):
        sparse_attn_fwd(*case.args())
    with pytest.raises(ValueError, match=message):
        blocked_sparse_attn_fwd(*case.args())


def test_non_finite_inputs_are_rejected() -> None:
    """A NaN in q or kv is bad input, not a NaN result."""
    case = random_case(15)
    case.kv = case.kv.astype(np.float32)
    case.kv[3, 0, 5] = np.nan
    with pytest.raises(ValueError, match="kv must hold finite values of float32 in the rows the indices name"):
        sparse_attn_fwd(*case.args())


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"b_topk": 0}, "b_topk must be a positive integer, got 0"),
        ({"heads_per_core": 0}, "heads_per_core must be a positive integer, got 0"),
        ({"rescale_threshold": -1.0}, r"rescale_threshold must be a number in \[0, 64\].*, got -1.0"),
        ({"rescale_threshold": float("inf")}, r"rescale_threshold must be a number in \[0, 64\].*, got inf"),
        ({"rescale_threshold": 100.0}, r"rescale_threshold must be a number in \[0, 64\].*, got 100.0"),
    ],
)
def test_bad_knobs(knobs: dict[str, Any], message: str) -> None:
    """b_topk <= 0 and a negative or infinite threshold raise ValueError with the value received."""
    with pytest.raises(ValueError, match=message):
        blocked_sparse_attn_fwd(*random_case(16).args(), **knobs)


def two_core_token(b_topk: int = 2) -> Case:
    """One token, 64 heads: heads 0-31 jump by 7 at block 1; heads 32-63 climb by 4 at blocks 1 and 2."""
    jumps = np.zeros((3 * b_topk, 1, 4), dtype=np.float32)  # key j: (logit of heads 0-31, of heads 32-63, 0, 1)
    jumps[:, 0, 3] = 1.0
    jumps[b_topk, 0, :2] = (7.0, 4.0)
    jumps[2 * b_topk, 0, :2] = (0.0, 8.0)
    q = np.zeros((1, 64, 4), dtype=np.float32)
    q[0, :32, 0] = 1.0
    q[0, 32:, 1] = 1.0
    indices = np.arange(3 * b_topk, dtype=np.int32)[None, None, :]
    return Case(q.astype(BF16), jumps.astype(BF16), indices, 1.0, 4)


def test_each_vector_core_decides_for_its_own_heads() -> None:
    """The constructed token rescales at blocks 1 and 2 per core (3 O copies), only at block 1 jointly (2 copies)."""
    case = two_core_token()
    kernel = assert_blocked_matches_plain(case, b_topk=2)
    assert kernel.heads_per_core == SHIPPED_KERNEL.mma_m_per_vector_core == 32
    assert kernel.core_rescaled[0].tolist() == [[False, False], [True, False], [False, True]]
    assert kernel.o_copies.tolist() == [3]
    assert kernel.core_rescales.tolist() == [[1, 1]]
    assert kernel.max_for_softmax[0, 1, :32].tolist() == [7.0] * 32  # core 0 adopted its new max ...
    assert kernel.max_for_softmax[0, 1, 32:].tolist() == [0.0] * 32  # ... core 1 kept its old one
    joint = assert_blocked_matches_plain(case, b_topk=2, heads_per_core=64)
    assert joint.core_rescaled[0].tolist() == [[False], [True], [False]]
    assert joint.o_copies.tolist() == [2]


def test_decision_splits_heads_into_cores() -> None:
    """skip_scale_decision reduces the gap over each core's heads; only a triggered core's heads move."""
    running = np.array([[7.0, 0.0, 4.0, 1.0, 9.0]], dtype=np.float32)
    used = np.zeros_like(running)
    triggered, new_max = skip_scale_decision(running, used, 6.0, heads_per_core=2)
    assert triggered.tolist() == [[True, False, True]]  # the last core holds one head
    assert new_max.tolist() == [[7.0, 0.0, 0.0, 0.0, 9.0]]


def test_decision_refuses_nan() -> None:
    """A NaN gap raises instead of reading as "no rescale"."""
    running = np.array([[np.nan, 0.0]], dtype=np.float32)
    with pytest.raises(ValueError, match="NaN"):
        skip_scale_decision(running, np.zeros_like(running), 6.0)


def test_blocked_out_is_bf16_like_the_kernel() -> None:
    """The blocked forward returns out in bfloat16; the plain one stays a float32 oracle."""
    case = random_case(20)
    assert blocked_sparse_attn_fwd(*case.args())[0].dtype == BF16
    assert sparse_attn_fwd(*case.args())[0].dtype == np.float32
    assert sparse_attn_fwd_float64(*case.args())[0].dtype == np.float64


@pytest.mark.parametrize(("q_scale", "kv_scale", "sm_scale"), [(1e20, 1e20, 0.1), (1.0, 1.0, 1e38), (1e19, 1e19, 1.0)])
def test_overflowing_logits_raise_instead_of_nan(q_scale: float, kv_scale: float, sm_scale: float) -> None:
    """Finite inputs whose logits overflow float32 raise a ValueError naming the overflow, not a NaN result."""
    case = random_case(21)
    case.q = (case.q.astype(np.float32) * np.float32(q_scale)).astype(np.float32)
    case.kv = (case.kv.astype(np.float32) * np.float32(kv_scale)).astype(np.float32)
    case.sm_scale = sm_scale
    for forward in (sparse_attn_fwd, lambda *a: blocked_sparse_attn_fwd(*a)[:3]):
        with pytest.raises(ValueError, match="overflows float32"):
            forward(*case.args())


def test_large_but_safe_logits_still_compute() -> None:
    """Near the limit, inputs whose logits stay finite give finite results (the overflow check is not a guess)."""
    case = random_case(22, d_qk=4, h_q=2, topk=6, s_kv=8)
    case.q = np.full(case.q.shape, 1e19, dtype=np.float32)
    case.q[..., 1::2] *= -1  # q . k = 0 although |q| |k| = 4e38 passes float32: the check must look, not guess
    case.kv = np.full(case.kv.shape, 1e19, dtype=np.float32)
    case.sm_scale, case.d_v = 1.0, 4
    out, max_logits, lse = sparse_attn_fwd(*case.args())
    assert np.isfinite(out).all()
    assert np.isfinite(max_logits[np.isfinite(lse)]).all()
    assert np.isfinite(blocked_sparse_attn_fwd(*case.args())[0].astype(np.float32)).all()


def test_huge_b_topk_allocates_for_topk_only() -> None:
    """b_topk = 10**9 over topk 4 runs one block and allocates memory that follows topk, not b_topk."""
    import tracemalloc  # noqa: PLC0415 - only this test measures allocations

    case = random_case(23, topk=4)
    tracemalloc.start()
    try:
        out, _, _, stats = blocked_sparse_attn_fwd(*case.args(), b_topk=10**9)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    assert stats.blocks.tolist() == [1, 1, 1]
    assert stats.b_topk == 10**9
    reference = blocked_sparse_attn_fwd(*case.args(), b_topk=4)[0]
    assert np.array_equal(out.astype(np.float32), reference.astype(np.float32))


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({"q": "not an array"}, "q"),
        ({"q": np.zeros((3, 4, 32), dtype=np.int32)}, "q"),
        ({"kv": [[["a"]]]}, "kv"),
        ({"indices": np.zeros((3, 1, 4), dtype=np.float32)}, "indices"),
        ({"sm_scale": "0.1"}, "sm_scale"),
        ({"sm_scale": True}, "sm_scale"),
        ({"d_v": 2.5}, "d_v"),
        ({"attn_sink": np.zeros(4, dtype=np.int32)}, "attn_sink"),
        ({"topk_length": np.zeros(3, dtype=np.float32)}, "topk_length"),
    ],
)
def test_wrong_types_raise_type_error_naming_argument(change: dict[str, Any], name: str) -> None:
    """An argument of the wrong type raises TypeError whose message starts with its name."""
    case = random_case(24)
    for key, value in change.items():
        setattr(case, key, value)
    for forward in (sparse_attn_fwd, sparse_attn_fwd_float64, blocked_sparse_attn_fwd):
        with pytest.raises(TypeError, match=f"^{name} must be"):
            forward(*case.args())


@pytest.mark.parametrize(("knob", "value"), [("b_topk", 2.5), ("b_topk", "64"), ("rescale_threshold", "6")])
def test_wrong_knob_types(knob: str, value: object) -> None:
    """A knob of the wrong type raises TypeError naming it."""
    with pytest.raises(TypeError, match=f"^{knob} must be"):
        blocked_sparse_attn_fwd(*random_case(25).args(), **{knob: value})  # type: ignore[arg-type]


_ANYTHING = anything(
    np.zeros((1, 1, 2), dtype=np.float32),
    np.full((1, 1, 2), 1e30, dtype=np.float32),
    np.zeros((1, 1, 1), dtype=np.int64),
    np.array([[[np.iinfo(np.uint64).max]]], dtype=np.uint64),
)


def _tiny_args() -> list[Any]:
    """q, kv, indices and sm_scale of a one-token, two-head case with one invalid index: the slots to spoil."""
    return [
        np.ones((1, 2, 2), dtype=np.float32),
        np.ones((3, 1, 2), dtype=np.float32),
        np.array([[[0, 2, -1]]], dtype=np.int32),
        0.5,
    ]


@settings(max_examples=150, deadline=None)
@given(slot=st.integers(0, 9), value=_ANYTHING)
def test_property_bad_arguments_raise_only_type_or_value_errors(slot: int, value: object) -> None:
    """Any value in any argument gives a result or a TypeError / ValueError, never another exception."""
    args: list[Any] = [*_tiny_args(), 2, None, None]  # d_v, attn_sink, topk_length
    knobs: dict[str, Any] = {"b_topk": 2, "rescale_threshold": 6.0, "heads_per_core": 1}
    if slot < len(args):
        args[slot] = value
    else:
        knobs[list(knobs)[slot - len(args)]] = value
    for call in (
        lambda: sparse_attn_fwd(*args),
        lambda: sparse_attn_fwd_float64(*args),
        lambda: blocked_sparse_attn_fwd(*args, **knobs),
    ):
        with contextlib.suppress(TypeError, ValueError):
            call()
    with contextlib.suppress(TypeError, ValueError):
        skip_scale_decision(np.zeros((1, 2)), np.zeros((1, 2)), value, value)  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(slot=st.integers(0, 4), value=_ANYTHING)
def test_property_weights_and_tolerance_raise_only_type_or_value_errors(slot: int, value: object) -> None:
    """sparse_attn_weights and output_tolerance give a result or a TypeError / ValueError for any argument."""
    args: list[Any] = [*_tiny_args(), None]  # topk_length
    args[slot] = value
    with contextlib.suppress(TypeError, ValueError):
        sparse_attn_weights(*args)
    tolerance_args: list[Any] = [np.ones((3, 1, 2), dtype=np.float32), 2, 3]
    tolerance_args[slot % 3] = value
    with contextlib.suppress(TypeError, ValueError):
        output_tolerance(*tolerance_args)
