"""The fast ND2NZ chapter's tables: one token as 32 B blocks, and where a vector's blocks land in UB."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.nd2nz_stride import (
    UB_VECTOR_BYTES,
    bank_slots,
    blocks_per_token,
    l1_nz_stride_bytes,
    nz_block_bytes,
    token_bytes,
    ub_nz_stride_bytes,
    worst_slot_conflict,
)
from ascend_dsa.render.markdown import number, table
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.validate import MAX_TABLE_ROWS, bounded_items

if TYPE_CHECKING:
    from collections.abc import Iterable


def render_token_blocks(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """One token as 32 B blocks, and the L1 stride the rejected on-the-way conversion would have needed."""
    check_claims(design, ids=("token-as-blocks",))
    config, model = design.config, design.model
    block = nz_block_bytes(config, model)
    rows: list[list[object]] = [
        [pick(lang, "一个 token", "one token"), f"{model.d_qk} × {model.element_bytes} B = {token_bytes(model)} B"],
        [pick(lang, "NZ 数据块", "NZ block"), f"{config.fractal_cols} × {model.element_bytes} B = {block} B"],
        [pick(lang, "每 token 的块数", "blocks per token"), blocks_per_token(config, model)],
        [
            pick(
                lang,
                f"L1 中相邻两块的间距（B_TOPK × {block} B）",
                f"L1 distance between a token's blocks (B_TOPK x {block} B)",
            ),
            f"{config.b_topk} × {block} B = {l1_nz_stride_bytes(config, model)} B",
        ],
    ]
    return table([term("column:quantity", lang), term("column:value", lang)], rows, ("left", "right")) + "\n"


def render_nd2nz_banks(
    pad_rows: Iterable[int] = (0, 1), design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """Where the eight 32 B blocks of one 256 B vector land in UB, without and with the padded row."""
    check_claims(design, ids=("nz-padding-rows", "nd2nz-vector-pair"))
    config, model = design.config, design.model
    block = nz_block_bytes(config, model)
    slots = UB_VECTOR_BYTES // block  # the blocks of one vector, one slot each when conflict-free
    rows = []
    for pad in bounded_items("pad_rows", pad_rows, MAX_TABLE_ROWS):
        stride = ub_nz_stride_bytes(config, model, pad)
        rows.append(
            [
                pad,
                f"({config.b_topk_per_vector_core} + {pad}) × {block} = {stride} B",
                number(stride % UB_VECTOR_BYTES, f"{stride % UB_VECTOR_BYTES} B", "B"),
                " ".join(str(s) for s in bank_slots(stride, block)),
                worst_slot_conflict(stride, block),
            ]
        )
    headers = [
        pick(lang, "pad 行数", "padded rows"),
        pick(lang, "间距", "stride"),
        pick(lang, f"间距 mod {UB_VECTOR_BYTES}", f"stride mod {UB_VECTOR_BYTES}"),
        pick(lang, f"{slots} 个块落在的槽（0-{slots - 1}）", f"slot of each of the {slots} blocks (0-{slots - 1})"),
        pick(lang, "最多几块挤同一槽", "most blocks in one slot"),
    ]
    return table(headers, rows, ("right", "right", "right", "left", "right")) + "\n"
