"""The blocked forward against an independent float64 oracle that rounds to bf16 where the kernel does.

The kernel rounds twice (report (zh) lines 41-73, kernel_body.h): the softmax weights ``S`` are cast to bf16 before
``S @ V`` (the CUBE multiplies bf16), and ``out`` is written in bf16 (``get_final_output_vf``, kernel_body.h:822-826).
The oracle below does the same maths in float64 with those two roundings and nothing else. The comparison is tight
enough that the model without either rounding fails it, which the last tests prove by taking each rounding away.

The threshold is at its largest accepted value (64), far above the logits' spread, so no VECTOR Core rescales after
block 0 and ``S = exp(scale x (P - max of block 0))`` in every block: the oracle needs no model of the skip-scale
rule (tests/models/test_reference.py covers that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np
import pytest

from ascend_dsa.models import blocked_forward

if TYPE_CHECKING:
    from numpy.typing import NDArray

BF16 = ml_dtypes.bfloat16
S_Q, H_Q, D_QK, D_V, S_KV, TOPK, B_TOPK = 16, 8, 64, 32, 256, 24, 8
SCALE = 1 / np.sqrt(D_QK)
#: Fraction of outputs the oracle may differ from the model in: float32 against float64 sums can move a value
#: across a bf16 rounding boundary now and then (1 of 4096 here); each missing rounding moves a third or more.
MISMATCH_ALLOWED = 0.01


def _to_bf16(values: NDArray[Any]) -> NDArray[np.float64]:
    """Round to bfloat16 (through float32, as the kernel holds the values) and widen to float64."""
    return values.astype(np.float32).astype(BF16).astype(np.float64)


def oracle(q: NDArray[Any], kv: NDArray[Any], indices: NDArray[Any]) -> NDArray[np.float64]:
    """``out`` in float64 with the kernel's two bf16 roundings, when no block after the first rescales."""
    keys = kv[:, 0].astype(np.float64)[indices[:, 0]]  # (s_q, topk, d_qk)
    logits = np.einsum("thd,tkd->thk", q.astype(np.float64), keys) * SCALE  # (s_q, h_q, topk)
    first_block_max = logits[:, :, :B_TOPK].max(axis=2, keepdims=True)  # (s_q, h_q, 1)
    weights = np.exp(logits - first_block_max)  # S, (s_q, h_q, topk)
    numerator = np.einsum("thk,tkd->thd", _to_bf16(weights), keys[:, :, :D_V])  # bf16(S) @ V, (s_q, h_q, d_v)
    return _to_bf16(numerator / weights.sum(axis=2, keepdims=True))  # row_sum of unrounded S; out in bf16


@pytest.fixture(scope="module")
def inputs() -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.int64]]:
    """Random q and kv, and distinct random indices: three blocks of eight per token."""
    rng = np.random.default_rng(20)
    q = rng.standard_normal((S_Q, H_Q, D_QK)).astype(np.float32)
    kv = rng.standard_normal((S_KV, 1, D_QK)).astype(np.float32)
    indices = np.stack([rng.permutation(S_KV)[:TOPK] for _ in range(S_Q)])[:, None, :]
    return q, kv, indices.astype(np.int64)


def _model_out(inputs: tuple[NDArray[Any], ...]) -> NDArray[np.float64]:
    out, *_, stats = blocked_forward.blocked_sparse_attn_fwd(
        *inputs, SCALE, D_V, b_topk=B_TOPK, rescale_threshold=blocked_forward.MAX_RESCALE_THRESHOLD
    )
    assert not stats.core_rescaled.any()  # the oracle's premise: no VECTOR Core rescales after block 0
    return np.asarray(out, dtype=np.float64)


def mismatch(inputs: tuple[NDArray[Any], ...]) -> float:
    """Fraction of the model's outputs that differ from the oracle's."""
    return float((_model_out(inputs) != oracle(*inputs)).mean())


def test_model_matches_the_rounding_oracle(inputs: tuple[NDArray[Any], ...]) -> None:
    """The model's bf16 ``out`` equals the oracle's nearly everywhere, and elsewhere is within a bf16 step of its row.

    A bf16 step is at most 2^-7 of a value (8 significant bits); an output that nearly cancels differs by sums in
    float32 against float64, which is small against the row's largest output, not against the output itself.
    """
    out, expected = _model_out(inputs), oracle(*inputs)
    assert float((out != expected).mean()) <= MISMATCH_ALLOWED
    row_step = np.abs(expected).max(axis=2, keepdims=True) * 2.0**-7
    assert (np.abs(out - expected) <= row_step).all()


def test_without_rounding_s_the_model_fails_the_oracle(
    inputs: tuple[NDArray[Any], ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Multiplying V by S in float32 instead of bf16 moves far more outputs than the comparison allows."""
    monkeypatch.setattr(blocked_forward, "_round_to_bf16", lambda values: values)
    assert mismatch(inputs) > 10 * MISMATCH_ALLOWED


def test_without_rounding_out_the_model_fails_the_oracle(
    inputs: tuple[NDArray[Any], ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing ``out`` in float32 instead of bf16 (S still rounded) moves nearly every output off the oracle's."""

    def round_s(values: NDArray[np.float32]) -> NDArray[np.float32]:
        return values.astype(BF16).astype(np.float32)

    monkeypatch.setattr(blocked_forward, "_round_to_bf16", round_s)
    monkeypatch.setattr(blocked_forward, "BFLOAT16", np.float32)
    assert mismatch(inputs) > 10 * MISMATCH_ALLOWED


def test_without_rounding_the_oracle_would_not_match(inputs: tuple[NDArray[Any], ...]) -> None:
    """The oracle's own roundings matter: the same maths with S unrounded differs from the model in a third or more."""
    q, kv, indices = inputs
    keys = kv[:, 0].astype(np.float64)[indices[:, 0]]
    logits = np.einsum("thd,tkd->thk", q.astype(np.float64), keys) * SCALE
    weights = np.exp(logits - logits[:, :, :B_TOPK].max(axis=2, keepdims=True))
    unrounded_s = _to_bf16(np.einsum("thk,tkd->thd", weights, keys[:, :, :D_V]) / weights.sum(axis=2, keepdims=True))
    assert float((_model_out(inputs) != unrounded_s).mean()) > 10 * MISMATCH_ALLOWED
