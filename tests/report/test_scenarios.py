"""The page inputs: the model chapter's by-eye example holds each kind of index it explains, and its scores."""

from __future__ import annotations

from ascend_dsa.report.scenarios import EXAMPLE_INDICES, EXAMPLE_KEYS, EXAMPLE_QUERY, EXAMPLE_S_KV


def test_the_example_has_every_kind_of_index() -> None:
    """Valid rows, the kernel's -1, one equal to s_kv (6, out of range) and a repeat (2, twice)."""
    assert EXAMPLE_S_KV == 6
    assert EXAMPLE_INDICES.count(-1) == 1
    assert EXAMPLE_INDICES.count(EXAMPLE_S_KV) == 1
    assert EXAMPLE_INDICES.count(2) == 2
    assert sorted(i for i in EXAMPLE_INDICES if 0 <= i < EXAMPLE_S_KV) == [0, 2, 2, 5]


def test_the_example_scores_by_eye() -> None:
    """q = (1, 0.5): key 2 = (2, 1) scores 2.5, key 5 = (1.5, -1) scores 1, key 0 = (1, 0) scores 1."""
    scores = {i: sum(q * k for q, k in zip(EXAMPLE_QUERY, EXAMPLE_KEYS[i], strict=True)) for i in (0, 2, 5)}
    assert scores == {0: 1.0, 2: 2.5, 5: 1.0}
