"""Rescale frequency on synthetic scores: agrees with the blocked forward, orders behave, copies saved add up."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from ascend_dsa import SHIPPED_KERNEL, blocked_sparse_attn_fwd
from ascend_dsa.skip_scale import (
    DEFAULT_SM_SCALE,
    SWEEP_SM_SCALE_FACTORS,
    SWEEP_TOPK,
    fixpipe_cycles_per_block_with,
    measure_rescales,
    rescale_counts,
    rescale_sweep,
    synthetic_logits,
)


def test_counts_match_the_blocked_forward() -> None:
    """On real q and kv, counting rescales from the logits gives the blocked forward's own count per token."""
    rng = np.random.default_rng(0)
    q = (rng.standard_normal((6, 16, 32)) * 6).astype(ml_dtypes.bfloat16)
    kv = rng.standard_normal((500, 1, 32)).astype(ml_dtypes.bfloat16)
    indices = np.sort(rng.integers(0, 500, (6, 1, 300)), axis=2).astype(np.int32)
    sm_scale = 32**-0.5
    stats = blocked_sparse_attn_fwd(q, kv, indices, sm_scale, 32, b_topk=16)[3]
    logits = np.einsum(
        "thd,tkd->thk", q.astype(np.float32), kv[indices[:, 0, :], 0, :].astype(np.float32)
    ) * np.float32(sm_scale)
    blocks, rescales = rescale_counts(logits.astype(np.float32), b_topk=16, threshold=SHIPPED_KERNEL.rescale_threshold)
    assert blocks == 19
    assert rescales.tolist() == stats.rescales.tolist()
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
        ({"sm_scale": 0.0}, "sm_scale must be a positive finite number, got 0.0"),
        ({"tokens": 0}, "tokens must be a positive integer, got 0"),
    ],
)
def test_bad_input(kwargs: dict[str, object], message: str) -> None:
    """Unknown orders, a non-positive scale and empty shapes raise ValueError."""
    arguments: dict[str, object] = {"tokens": 1, "heads": 1, "topk": 8, "sm_scale": 1.0, "order": "random"}
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        synthetic_logits(**arguments)  # type: ignore[arg-type]
