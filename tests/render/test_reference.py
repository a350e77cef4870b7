"""The algorithm chapters' tables: both languages, the trace's numbers, and the guard on exp terms."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from ascend_dsa import SHIPPED_KERNEL, FigureMismatch
from ascend_dsa.models.reference import BF16_UNIT_ROUNDOFF, FP32_UNIT_ROUNDOFF, output_tolerance
from ascend_dsa.render import reference as render
from ascend_dsa.render.reference import (
    render_forward_comparison,
    render_forward_shapes,
    render_index_example,
    render_online_softmax_trace,
)


@pytest.mark.parametrize(
    "renderer", [render_forward_shapes, render_index_example, render_online_softmax_trace, render_forward_comparison]
)
def test_tables_in_both_languages(renderer: object) -> None:
    """Each renderer returns a Markdown table in Chinese and in English, the same on every call."""
    zh, en = renderer(lang="zh"), renderer(lang="en")  # type: ignore[operator]
    assert zh.startswith("| ")
    assert en.startswith("| ")
    assert zh != en
    assert renderer(lang="en") == en  # type: ignore[operator]


def test_shapes_are_read_off_a_run() -> None:
    """The shapes table shows the kernel's 64 heads and 512 dims."""
    text = render_forward_shapes(lang="en")
    assert f"[2, {SHIPPED_KERNEL.heads_per_core}, 512]" in text


def test_index_example_numbers() -> None:
    """Invalid indices get weight 0 and the duplicated index 2 its weight twice; lse = 3.3946."""
    text = render_index_example(lang="en")
    assert text.count("| 0.4088 |") == 2
    assert text.count("| 0.0000 |") == 2
    assert "lse = 3.3946" in text


def test_trace_reaches_the_bound_at_a_strict_skip() -> None:
    """The trace's largest exp term is exp(6) = 403.43 and block 1's move of exactly 6 is called out."""
    text = render_online_softmax_trace(lang="en")
    assert "largest unnormalised exp term is 403.43" in text
    assert "Block 1 moves by exactly 6" in text
    assert text.count("**rescale**") == 2


def test_trace_lists_break_only_between_heads() -> None:
    """Each head's list of logits is one unbreakable run; a line may break only after the slash between heads."""
    text = render_online_softmax_trace(lang="en")
    row = next(line for line in text.splitlines() if line.startswith("| 0 |"))
    logits = row.split("|")[2].strip()
    heads = logits.split("\u00a0/ ")
    assert len(heads) == 2
    assert all(" " not in head and "\u00a0" in head for head in heads), logits


def test_trace_guard_fires(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the blocked forward let an exp term past exp(threshold), the trace would refuse to render."""
    real = render.blocked_sparse_attn_fwd

    def broken(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - stands in for the real function
        out, max_logits, lse, stats = real(*args, **kwargs)
        return out, max_logits, lse, dataclasses.replace(stats, max_exp_term=stats.max_exp_term * 2)

    monkeypatch.setattr(render, "blocked_sparse_attn_fwd", broken)
    with pytest.raises(FigureMismatch, match="report \\(zh\\) line 67"):
        render_online_softmax_trace(lang="en")


def test_the_stated_tolerance_is_the_one_the_check_uses() -> None:
    """The caption's formula has the two bf16 roundings output_tolerance allows (S, then out), not one."""
    kv = np.zeros((2, 1, 8), dtype=np.float32)
    kv[0, 0, 5] = 4.0
    assert output_tolerance(kv, 8, 1) == (2 * BF16_UNIT_ROUNDOFF + 2 * (8 + 1) * FP32_UNIT_ROUNDOFF) * 4.0
    for lang in ("zh", "en"):
        assert "(2·2⁻⁸ + 2·(d_qk + topk)·2⁻²⁴) × max|V|" in render_forward_comparison(lang)
