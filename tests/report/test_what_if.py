"""The what-if variants: half the L2 bandwidth, fewer cores, and the heads that stay compute-bound."""

from __future__ import annotations

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.design_point import KvCache
from ascend_dsa.report.what_if import FEWER_AI_CORES, WHAT_IF_TOPK, compute_bound_heads, with_fewer_cores, with_half_l2


def test_half_l2_needs_96_to_144_heads() -> None:
    """With half the L2 bandwidth the compute-bound head count runs from 96 (topk 2048) to 144 (topk 512)."""
    heads = compute_bound_heads(with_half_l2())
    assert heads == {512: 144, 1024: 112, 2048: 96}


def test_fewer_cores_is_marked_and_needs_fewer_heads() -> None:
    """24 cores: the change is a what-if assumption, and 48 heads suffice at every topk."""
    spec = with_fewer_cores()
    assert spec.cores == FEWER_AI_CORES
    assert spec.sources["cores"].kind == "assumed"
    assert set(compute_bound_heads(spec).values()) == {48}


def test_fp8_needs_32_heads() -> None:
    """FP8 KV on the 950 is compute-bound from 32 heads at every topk of the notebook."""
    assert compute_bound_heads(ASCEND_950, KvCache.FP8) == dict.fromkeys(WHAT_IF_TOPK, 32)
