"""Rescale frequency on synthetic scores: agrees with the blocked forward, orders behave, copies saved add up."""

from __future__ import annotations

import contextlib
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_dsa import SHIPPED_KERNEL, blocked_sparse_attn_fwd
from ascend_dsa.models.skip_scale import (
    DEFAULT_SM_SCALE,
    SWEEP_SM_SCALE_FACTORS,
    SWEEP_TOPK,
    fixpipe_cycles_per_block_with,
    measure_rescales,
    rescale_counts,
    rescale_sweep,
    synthetic_logits,
)
from tests.helpers.strategies import anything


def test_counts_match_the_blocked_forward() -> None:
    """On real q and kv, counting rescales from the logits gives the blocked forward's own count per token."""
    rng = np.random.default_rng(0)
    q = (rng.standard_normal((6, 16, 32)) * 6).astype(ml_dtypes.bfloat16)
    kv = rng.standard_normal((500, 1, 32)).astype(ml_dtypes.bfloat16)
    indices = np.sort(rng.integers(0, 500, (6, 1, 300)), axis=2).astype(np.int32)
    sm_scale = 32**-0.5
    stats = blocked_sparse_attn_fwd(q, kv, indices, sm_scale, 32, b_topk=16)[3]
    logits = np.einsum("thd,tkd->thk", q.astype(np.float32), kv[indices[:, 0, :], 0, :].astype(np.float32))
    blocks, rescales, cores = rescale_counts(
        logits, sm_scale=sm_scale, b_topk=16, threshold=SHIPPED_KERNEL.rescale_threshold, heads_per_core=8
    )
    stats = blocked_sparse_attn_fwd(q, kv, indices, sm_scale, 32, b_topk=16, heads_per_core=8)[3]
    assert blocks == 19
    assert rescales.tolist() == stats.rescales.tolist()
    assert cores.tolist() == stats.core_rescales.tolist()
    assert cores.shape == (6, 2)
    assert rescales.sum() > 0  # the comparison is not vacuous


def test_descending_order_never_rescales_at_the_usual_scale() -> None:
    """Indices sorted by descending score put the largest logits first: no rescale at sm_scale 1/sqrt(512)."""
    for topk in SWEEP_TOPK:
        assert measure_rescales("descending", DEFAULT_SM_SCALE, topk).mean_rescales == 0


def test_ascending_rescales_more_than_random_and_descending() -> None:
    """At 4 / sqrt(512) and topk 2048: ascending > random > descending in rescales per token."""
    scale = 4 * DEFAULT_SM_SCALE
    rescales = {
        order: measure_rescales(order, scale, 2048).mean_rescales for order in ("ascending", "random", "descending")
    }
    assert rescales["ascending"] > rescales["random"] > rescales["descending"]


def test_measurement_arithmetic() -> None:
    """Copies with skip-scale = rescales + 1, without = blocks, saved = 1 - with / without."""
    m = measure_rescales("ascending", 8 * DEFAULT_SM_SCALE, 1024)
    assert m.blocks == 1024 // SHIPPED_KERNEL.b_topk
    assert m.o_copies_with_skip_scale == pytest.approx(m.mean_rescales + 1)
    assert m.o_copies_without_skip_scale == m.blocks
    assert m.copies_saved == pytest.approx(1 - (m.mean_rescales + 1) / m.blocks)
    assert m.rescale_rate == pytest.approx(m.mean_rescales / (m.blocks - 1))
    assert m.logit_spread == pytest.approx(8.0)


def test_fixpipe_cycles_interpolate_between_p_only_and_every_block() -> None:
    """One O copy per token at 32 blocks, at the assumed 1C2V rate of 256 B/cycle: 64 + 512 / 32 = 80 cycles."""
    m = measure_rescales("descending", DEFAULT_SM_SCALE, 2048)
    assert float(fixpipe_cycles_per_block_with(m)) == pytest.approx(80.0)


def test_sweep_is_deterministic_and_complete() -> None:
    """The sweep has one point per (order, factor, topk) and repeats exactly."""
    first = rescale_sweep()
    assert len(first) == 3 * len(SWEEP_SM_SCALE_FACTORS) * len(SWEEP_TOPK)
    measure_rescales.cache_clear()
    assert rescale_sweep() == first


def test_synthetic_logits_have_the_stated_spread() -> None:
    """Scaled logits have standard deviation sm_scale x sqrt(d_qk); sorted orders are sorted in the shared part."""
    logits = synthetic_logits(4, 64, 2048, sm_scale=2 * DEFAULT_SM_SCALE, order="ascending")
    assert logits.shape == (4, 64, 2048)
    assert logits.std() == pytest.approx(2.0, rel=0.05)
    head_mean = logits.mean(axis=1)  # the per-head parts average out, the shared part remains
    quarters = head_mean.reshape(4, 4, 512).mean(axis=2)  # [tokens, quarter of the indices]
    assert np.all(np.diff(quarters, axis=1) > 0)
    reverse = synthetic_logits(4, 64, 2048, sm_scale=2 * DEFAULT_SM_SCALE, order="descending").mean(axis=1)
    assert np.all(np.diff(reverse.reshape(4, 4, 512).mean(axis=2), axis=1) < 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"order": "sideways"}, "order must be one of random, ascending, descending, got 'sideways'"),
        ({"sm_scale": 0.0}, "sm_scale must be positive, got 0.0"),
        ({"tokens": 0}, "tokens must be a positive integer, got 0"),
        ({"tokens": 10**6, "heads": 10**6}, "tokens x heads x topk must be at most"),
        ({"shared": 1.5}, r"shared must lie in \[0, 1\], got 1.5"),
    ],
)
def test_bad_input(kwargs: dict[str, object], message: str) -> None:
    """Unknown orders, a non-positive scale and empty shapes raise ValueError."""
    arguments: dict[str, object] = {"tokens": 1, "heads": 1, "topk": 8, "sm_scale": 1.0, "order": "random"}
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        synthetic_logits(**arguments)  # type: ignore[arg-type]


def test_joint_rule_copies_o_less_often_than_the_kernels() -> None:
    """Per-core decisions never copy O less often than the joint variant on the same scores."""
    logits = synthetic_logits(8, 64, 2048, sm_scale=1.0, order="ascending")
    scale = 4 * DEFAULT_SM_SCALE
    _, kernel, cores = rescale_counts(logits, sm_scale=scale, b_topk=64, threshold=6.0)
    _, joint, _ = rescale_counts(logits, sm_scale=scale, b_topk=64, threshold=6.0, heads_per_core=64)
    assert cores.shape == (8, 2)
    assert np.all(kernel >= cores.max(axis=1))
    assert kernel.sum() > joint.sum()  # the difference is real on these scores


def test_measurement_keeps_per_core_counts() -> None:
    """A measurement records each VECTOR Core's rescales; either core's rescale is one O copy."""
    m = measure_rescales("ascending", 4 * DEFAULT_SM_SCALE, 2048)
    assert m.heads_per_core == SHIPPED_KERNEL.mma_m_per_vector_core
    assert len(m.mean_core_rescales) == SHIPPED_KERNEL.vector_cores_per_cube
    assert max(m.mean_core_rescales) <= m.mean_rescales <= sum(m.mean_core_rescales)


_ANYTHING = anything(np.zeros((1, 1, 2), dtype=np.float32), np.zeros((1, 1, 2), dtype=np.int32))


@settings(max_examples=100, deadline=None)
@given(slot=st.integers(0, 13), value=_ANYTHING)
def test_property_bad_arguments_raise_only_type_or_value_errors(slot: int, value: object) -> None:
    """Any value in any argument of the public functions gives a result or a TypeError / ValueError."""
    synthetic: dict[str, Any] = {"tokens": 1, "heads": 2, "topk": 4, "sm_scale": 1.0, "order": "random", "seed": 0}
    counts: dict[str, Any] = {"logits": np.zeros((1, 2, 4), dtype=np.float32), "b_topk": 2, "threshold": 6.0}
    counts.update(heads_per_core=1, sm_scale=0.5)
    names = [*synthetic, *counts]
    target = synthetic if slot < len(synthetic) else counts
    if slot < len(names):
        target[names[slot]] = value
    with contextlib.suppress(TypeError, ValueError):
        synthetic_logits(**synthetic)
    with contextlib.suppress(TypeError, ValueError):
        logits = counts.pop("logits")
        rescale_counts(logits, **counts)
    with contextlib.suppress(TypeError, ValueError):
        fixpipe_cycles_per_block_with(value)  # type: ignore[arg-type]
    with contextlib.suppress(TypeError, ValueError):
        measure_rescales(value, DEFAULT_SM_SCALE, 128, tokens=1)  # type: ignore[arg-type]
    with contextlib.suppress(TypeError, ValueError):
        measure_rescales("random", value, 128, tokens=1)  # type: ignore[arg-type]
    with contextlib.suppress(TypeError, ValueError):
        rescale_sweep(topks=(value,), sm_scale_factors=(1.0,), orders=("random",))  # type: ignore[arg-type]


def _equality_case(nudge: int) -> tuple[np.ndarray, float]:
    """Raw logits of one token whose head 0 rises, at block 1, by ``6 / sm_scale`` (float32) moved by ``nudge`` ulps."""
    sm_scale = DEFAULT_SM_SCALE  # here the scaled rise at equality rounds above 6: scaled and raw rules part ways
    limit = np.float32(SHIPPED_KERNEL.rescale_threshold) / np.float32(sm_scale)
    rise = limit
    for _ in range(abs(nudge)):
        rise = np.nextafter(rise, np.float32(np.inf if nudge > 0 else -np.inf), dtype=np.float32)
    logits = np.zeros((1, 2, 4), dtype=np.float32)
    logits[0, 0, 2:] = rise  # block 0 holds [0, 0]; block 1 holds [rise, rise]
    return logits, sm_scale


@pytest.mark.parametrize(("nudge", "rescales"), [(-1, 0), (0, 0), (1, 1)])
def test_threshold_is_strict_on_raw_logits_as_the_kernel(nudge: int, rescales: int) -> None:
    """A raw rise of exactly float32(6) / float32(sm_scale) does not rescale, one ulp more does, one less does not."""
    logits, sm_scale = _equality_case(nudge)
    _, counted, _ = rescale_counts(logits, sm_scale=sm_scale, b_topk=2, threshold=SHIPPED_KERNEL.rescale_threshold)
    assert counted.tolist() == [rescales]
    if nudge == 0:  # comparing scaled logits with 6 would have rescaled here
        assert logits[0, 0, 2] * np.float32(sm_scale) > np.float32(SHIPPED_KERNEL.rescale_threshold)


@pytest.mark.parametrize("nudge", [-1, 0, 1])
def test_threshold_agrees_with_the_blocked_forward_at_equality(nudge: int) -> None:
    """The blocked forward, fed keys whose raw logits are those of the equality case, makes the same decision."""
    logits, sm_scale = _equality_case(nudge)
    q = np.zeros((1, 2, 1), dtype=np.float32)
    q[0, 0, 0] = 1.0
    kv = np.zeros((4, 1, 1), dtype=np.float32)
    kv[:, 0, 0] = logits[0, 0]
    indices = np.arange(4, dtype=np.int32)[None, None, :]
    stats = blocked_sparse_attn_fwd(q, kv, indices, sm_scale, 1, b_topk=2)[3]
    _, counted, _ = rescale_counts(logits, sm_scale=sm_scale, b_topk=2, threshold=SHIPPED_KERNEL.rescale_threshold)
    assert stats.rescales.tolist() == counted.tolist()


def test_thirty_two_heads_split_sixteen_and_sixteen() -> None:
    """At 32 heads each VECTOR Core decides for 16 heads (kernel_body.h:506-508), by default in both functions."""
    logits = np.zeros((1, 32, 4), dtype=np.float32)
    logits[0, 0, 2:] = 100.0  # only head 0 (core 0) rises
    _, rescales, cores = rescale_counts(logits, sm_scale=1.0, b_topk=2, threshold=6.0)
    assert cores.tolist() == [[1, 0]]
    assert rescales.tolist() == [1]
    q = np.zeros((1, 32, 1), dtype=np.float32)
    q[0, 0, 0] = 1.0
    kv = np.zeros((4, 1, 1), dtype=np.float32)
    kv[:, 0, 0] = logits[0, 0]
    stats = blocked_sparse_attn_fwd(q, kv, np.arange(4, dtype=np.int32)[None, None, :], 1.0, 1, b_topk=2)[3]
    assert stats.heads_per_core == 16
    assert stats.core_rescales.tolist() == [[1, 0]]


def test_no_shared_variance_is_allowed() -> None:
    """shared = 0 (every head on its own) is inside [0, 1]."""
    assert synthetic_logits(1, 2, 64, sm_scale=0.1, order="random", shared=0.0).shape == (1, 2, 64)


@pytest.mark.parametrize(("topk", "b_topk", "blocks"), [(3, 1, 3), (0, 64, 1), (65, 64, 2), (64, 64, 1)])
def test_blocks_are_topk_over_b_topk_rounded_up(topk: int, b_topk: int, blocks: int) -> None:
    """3 keys in blocks of 1 are 3 blocks; 65 in blocks of 64 are 2; no key at all is still the one (empty) block."""
    logits = np.zeros((1, 2, topk), np.float32)
    assert rescale_counts(logits, sm_scale=1.0, b_topk=b_topk, threshold=6.0)[0] == blocks
