"""The computation chapter's tables: B_TOPK against the index groups, and the rescale threshold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.rescale_bound import illustrative_sm_scale, raw_logit_threshold, rescale_factor_bound
from ascend_dsa.models.schedule import (
    index_group_remainder,
)
from ascend_dsa.render.markdown import NO_VALUE, mark_cell, number, table
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.validate import require_iterable

if TYPE_CHECKING:
    from collections.abc import Iterable


def render_b_topk_divisibility(
    b_topks: Iterable[int] = (64, 96), design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """Whether each B_TOPK cuts a group of indices into whole blocks (config.h:57 requires it)."""
    check_claims(design, ids=("b-topk-choices",))
    rows = []
    for b_topk in require_iterable("b_topks", b_topks):
        config = design.config.with_overrides(b_topk=b_topk)
        remainder = index_group_remainder(config)
        rows.append(
            [
                b_topk,
                f"{config.index_block_size} mod {b_topk} = {remainder}",
                number(config.index_block_size / b_topk, f"{config.index_block_size / b_topk:.3g}"),
                pick(lang, "能编译", "compiles")
                if remainder == 0
                else pick(lang, "static_assert 失败", "static_assert fails"),
                mark_cell(term("status:shipped", lang), passed=True) if b_topk == design.config.b_topk else NO_VALUE,
            ]
        )
    headers = [
        "B_TOPK",
        "INDEX_BLOCK_SIZE mod B_TOPK",
        pick(lang, "每组块数", "blocks per group"),
        "config.h:57",
        pick(lang, "源码所用", "shipped"),
    ]
    return table(headers, rows, ("right", "left", "right", "left", "left")) + "\n"


def render_rescale_threshold(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """The threshold, its exp bound, and the same threshold on raw logits for an illustrative sm_scale."""
    check_claims(design, ids=("rescale-threshold", "rescale-factor-bound"))
    threshold = design.config.rescale_threshold
    sm_scale = illustrative_sm_scale(design.model)
    rows = [
        [
            pick(lang, "阈值（作用在乘过 sm_scale 的 logit 上）", "threshold (on logits times sm_scale)"),
            number(threshold, f"{threshold:g}"),
        ],
        [
            pick(lang, "不 rescale 时因子的上界 exp(阈值)", "bound on the factor without a rescale, exp(threshold)"),
            number(rescale_factor_bound(threshold), f"{rescale_factor_bound(threshold):.4f}"),
        ],
        [
            pick(
                lang,
                f"示例 sm_scale = 1/√{design.model.d_qk}（假设）",
                f"illustrative sm_scale = 1/sqrt({design.model.d_qk}) (assumed)",
            ),
            number(sm_scale, f"{sm_scale:.5f}"),
        ],
        [
            pick(
                lang, "同一阈值换算到原始 logit：阈值 / sm_scale", "same threshold on raw logits: threshold / sm_scale"
            ),
            number(raw_logit_threshold(threshold, sm_scale), f"{raw_logit_threshold(threshold, sm_scale):.2f}"),
        ],
    ]
    return table([term("column:quantity", lang), term("column:value", lang)], rows, ("left", "right")) + "\n"
