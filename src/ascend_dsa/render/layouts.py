"""Tiny worked examples for the optimisation chapters: gather2 requests, KV token formats, ND2NZ with padding."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from ascend_dsa.errors import AscendDsaError
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import (
    KV_TOKEN_FORMATS,
    MODEL1_FP8,
    MTE2_ROW_ALIGN_BYTES,
    PUBLISHED_TOKEN_BYTES,
    PUBLISHED_TOKEN_BYTES_SOURCE,
    bits_per_value,
    check_token_bytes,
)
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.gather2 import BF16_TOKEN_BYTES, check_gather2_fills_queue, gather2_plan
from ascend_dsa.models.kv_quant import dequantize_tokens, quantize_tokens, roundtrip_error_bound
from ascend_dsa.models.mte2 import copies_per_token, token_byte_ranges
from ascend_dsa.models.nd2nz_stride import UB_VECTOR_BYTES, nz_block_bytes, ub_nz_stride_bytes
from ascend_dsa.models.nz_layout import block_bytes, check_nz_padding, nd2nz_store_slots, nd_to_nz
from ascend_dsa.render.format import count_word, group_digits
from ascend_dsa.render.markdown import NO_VALUE, Align, citation, number, table
from ascend_dsa.report.scenarios import ND2NZ_EXAMPLE_DIMS, ND2NZ_EXAMPLE_TOKENS
from ascend_dsa.validate import MAX_TABLE_ROWS, bounded_items, require_finite, require_int, require_within, shown

if TYPE_CHECKING:
    from collections.abc import Iterable

#: Largest token magnitude of the round-trip example: a float32 normal sample times it stays finite (float32 tops
#: out at 3.4e38; samples reach about 6 standard deviations).
ROUNDTRIP_MAGNITUDE_MAX: Final = 1e37

#: The gather2 example: one block's indices into a cache of 100 tokens, a few of them invalid.
_GATHER2_S_KV = 100
_GATHER2_SEED = 3


def _gather2_example_indices() -> np.ndarray:
    rng = np.random.default_rng(_GATHER2_SEED)
    indices = rng.integers(0, _GATHER2_S_KV, SHIPPED_KERNEL.b_topk)
    indices[[5, 12, 13]] = [-1, _GATHER2_S_KV, -1]  # one pair with one invalid index, one pair with none valid
    return indices


def render_gather2_example(lang: Lang = "zh") -> str:
    """VECTOR Core 0's 16 requests for its 32 tokens of one block, with the descriptors the VF computes."""
    requests = check_gather2_fills_queue()
    plan = gather2_plan(_gather2_example_indices(), _GATHER2_S_KV)
    rows = []
    for request, copy in enumerate(plan.per_vector_core[0]):
        rows.append(
            (
                request,
                f"({copy.first}, {copy.second})",
                NO_VALUE if copy.smaller is None else copy.smaller,
                NO_VALUE if copy.larger is None else copy.larger,
                NO_VALUE if copy.base_bytes is None else number(copy.base_bytes, group_digits(copy.base_bytes)),
                number(copy.stride_bytes, group_digits(copy.stride_bytes)),
                copy.burst_count,
            )
        )
    headers = [
        pick(lang, "请求", "request"),
        pick(lang, "位置 2p、2p+1 的 index", "indices at 2p, 2p+1"),
        pick(lang, "先拷（UB 位置 0）", "copied first (UB slot 0)"),
        pick(lang, "后拷（UB 位置 1）", "copied second (UB slot 1)"),
        pick(lang, "源地址偏移 (B)", "source offset (B)"),
        "src_stride (B)",
        "burst_count",
    ]
    per_core = plan.requests_per_vector_core
    caption = pick(
        lang,
        f"s_kv = {_GATHER2_S_KV}，每个 bf16 token {BF16_TOKEN_BYTES} B。这是第一个 VECTOR Core 的一半块"
        f"（{SHIPPED_KERNEL.b_topk_per_vector_core} 个 token）。"
        f"{len(per_core)} 个 VECTOR Core 各发 {per_core[0]} 个请求，"
        f"不用 gather2 则各要 {plan.requests_without_gather2[0]} 个；MTE2 队列深 "
        f"{ASCEND_950.ascend.mte2_outstanding_requests}，一块的请求正好 {requests} 个（报告 (zh) 第 138 行）。"
        f"一对 index 全都无效的请求不搬数据（本块共 {plan.skipped} 个）。",
        f"s_kv = {_GATHER2_S_KV}, {BF16_TOKEN_BYTES} B per bf16 token. This is the first VECTOR Core's half of the "
        f"block ({SHIPPED_KERNEL.b_topk_per_vector_core} tokens). "
        f"Each VECTOR Core issues {per_core[0]} requests instead of {plan.requests_without_gather2[0]}; "
        f"the MTE2 queue holds {ASCEND_950.ascend.mte2_outstanding_requests}, and "
        f"one block needs exactly {requests} (report (zh) line 138). A request with both indices invalid "
        f"moves nothing ({plan.skipped} in this block).",
    )
    aligns: tuple[Align, ...] = ("right", "left") + ("right",) * 5
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


def render_kv_token_formats(lang: Lang = "zh") -> str:
    """The FP8 and FP4 token formats: sizes computed from their parts, checked against kv_cache_format.h."""
    check_token_bytes()
    headers = [
        term("column:format", lang),
        pick(lang, "数据", "data"),
        pick(lang, "scale", "scales"),
        pick(lang, "每 token 字节", "bytes per token"),
        "kv_cache_format.h",
        pick(lang, f"UB 中（{MTE2_ROW_ALIGN_BYTES} B 对齐）", f"in UB ({MTE2_ROW_ALIGN_BYTES} B aligned)"),
        pick(lang, "每个值的位数", "bits per value"),
        pick(lang, "每 token 的 MTE2 拷贝", "MTE2 copies per token"),
    ]
    rows = [
        (
            fmt.name,
            f"{fmt.dims} × {fmt.element} = {fmt.data_bytes} B",
            pick(
                lang,
                f"{fmt.scale_count} 个 {fmt.scale}（每 {fmt.dims_per_scale} 维一个）= {fmt.scale_bytes} B",
                f"{fmt.scale_count} × {fmt.scale} (one per {fmt.dims_per_scale} dims) = {fmt.scale_bytes} B",
            ),
            fmt.token_bytes,
            PUBLISHED_TOKEN_BYTES[fmt.name],
            fmt.ub_token_bytes,
            number(bits_per_value(fmt), f"{bits_per_value(fmt):g}"),
            copies_per_token(fmt),
        )
        for fmt in KV_TOKEN_FORMATS
    ]
    caption = pick(
        lang,
        f"“kv_cache_format.h”一列是源码写明的大小（{citation(PUBLISHED_TOKEN_BYTES_SOURCE, lang)}）；"
        "构建时与左边算出的值比对。",
        f"The kv_cache_format.h column is the size the source states ({PUBLISHED_TOKEN_BYTES_SOURCE.citation}); the "
        "build compares it with the size computed on its left.",
    )
    aligns: tuple[Align, ...] = ("left", "left", "left", "right", "right", "right", "right", "center")
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"


def render_kv_block_layout(lang: Lang = "zh", block_tokens: int = 4) -> str:
    """Byte ranges of each token of a small page block: upstream's earlier MODEL1 FP8 layout and the kernel's FP8."""
    block_tokens = require_int("block_tokens", block_tokens, minimum=1, maximum=MAX_TABLE_ROWS)
    fmt, old = KV_TOKEN_FORMATS[0], MODEL1_FP8
    rows = []
    for token in range(block_tokens):
        split = token_byte_ranges(old, token, block_tokens)
        adjacent = token_byte_ranges(fmt, token, block_tokens)
        rows.append(
            (
                token,
                " + ".join(f"[{r.offset}, {r.offset + r.length})" for r in split),
                " + ".join(f"[{r.offset}, {r.offset + r.length})" for r in adjacent),
            )
        )
    headers = [
        "token",
        pick(
            lang,
            f"旧布局 {old.name}（{old.token_bytes} B）：先全部数据，后全部 scale",
            f"old layout {old.name} ({old.token_bytes} B): all data, then all scales",
        ),
        pick(
            lang,
            f"本算子 {fmt.name}（{fmt.token_bytes} B）：数据与 scale 相邻",
            f"this kernel, {fmt.name} ({fmt.token_bytes} B): data and scales adjacent",
        ),
    ]
    split_copies, adjacent_copies = (count_word(copies_per_token(layout), lang) for layout in (old, fmt))
    caption = pick(
        lang,
        f"一个 {block_tokens} token 的 page block，字节区间为 [起, 止)。旧布局是上游先前的 MODEL1 FP8 格式"
        f"（{old.source.citation}）：每个 token {old.data_bytes} B 数据（{old.nope_dims} 个 e4m3 加 {old.rope_dims} "
        f"维 bf16 RoPE），{old.scale_bytes} B scale（{old.nope_dims // old.dims_per_scale} 个 ue8m0 加 "
        f"{old.scale_pad_bytes} B 填充）放在整块数据之后，要{split_copies}次 MTE2 拷贝；"
        f"本算子的格式里是一段，{adjacent_copies}次拷贝。",
        f"A page block of {block_tokens} tokens, byte ranges as [start, end). The old layout is upstream's earlier "
        f"MODEL1 FP8 format ({old.source.citation}): per token {old.data_bytes} B of data ({old.nope_dims} e4m3 plus "
        f"{old.rope_dims} bf16 RoPE dims) and {old.scale_bytes} B of scales ({old.nope_dims // old.dims_per_scale} "
        f"ue8m0 plus {old.scale_pad_bytes} B of padding) after the whole block's data: {split_copies} MTE2 copies. "
        f"In the kernel's format a token is one range and {adjacent_copies} copy.",
    )
    return table(headers, rows, ("right", "left", "left")) + "\n\n" + caption + "\n"


def _magnitudes(magnitudes: Iterable[float]) -> tuple[float, float]:
    """``(low, high)``: two finite numbers ``0 <= low <= high`` whose random tokens stay finite in float32."""
    expected = f"two numbers 0 <= low <= high <= {ROUNDTRIP_MAGNITUDE_MAX:g}"
    pair = bounded_items("magnitudes", magnitudes, 2)
    if len(pair) != 2:  # noqa: PLR2004 - a pair
        raise ValueError(f"magnitudes must be {expected}, got {shown(magnitudes)}")
    low, high = (require_finite("magnitudes", value) for value in pair)
    if not 0 <= low <= high <= ROUNDTRIP_MAGNITUDE_MAX:
        raise ValueError(f"magnitudes must be {expected}, got {shown(magnitudes)}")
    return low, high


def render_kv_roundtrip(lang: Lang = "zh", tokens: int = 64, magnitudes: tuple[float, float] = (0.01, 10.0)) -> str:
    """Quantise random tokens and back: the largest error and the bound it must stay under (checked first)."""
    tokens = require_int("tokens", tokens, minimum=1, maximum=MAX_TABLE_ROWS)
    low, high = _magnitudes(magnitudes)
    rng = np.random.default_rng(0)
    scale = rng.uniform(low, high, (tokens, 1))
    values = (rng.standard_normal((tokens, KV_TOKEN_FORMATS[0].dims)) * scale).astype(np.float32)
    rows = []
    for fmt in KV_TOKEN_FORMATS:
        restored = dequantize_tokens(quantize_tokens(values, fmt), fmt)
        error = np.abs(restored - values)
        bound = roundtrip_error_bound(values, fmt)
        if np.any(error > bound):
            msg = f"{fmt.name} round trip exceeds its error bound by {float((error - bound).max()):.3g}"
            raise AscendDsaError(msg)
        relative = error.sum() / np.abs(values).sum()
        rows.append(
            (
                fmt.name,
                number(error.max(), f"{float(error.max()):.4f}"),
                number(bound.max(), f"{float(bound.max()):.4f}"),
                number(100 * relative, f"{relative:.2%}", "%"),
                "✓",
            )
        )
    headers = [
        term("column:format", lang),
        pick(lang, "最大误差", "largest error"),
        pick(lang, "最大上界", "largest bound"),
        pick(lang, "平均相对误差", "mean relative error"),
        pick(lang, "每个值都在上界内", "every value within bound"),
    ]
    caption = pick(
        lang,
        f"{tokens} 个随机 token（每个 token 的幅度在 {low:g} 到 {high:g} 之间）。上界逐值计算："
        "把值除以所在组的 scale 后，到最近的可表示值的距离不超过相邻两个可表示值间距的一半，再乘回 scale。",
        f"{tokens} random tokens (magnitudes from {low:g} to {high:g} per token). The bound is per value: divided by "
        "its group's scale, a value is at most half the gap between its two neighbouring representable values away "
        "from the nearest one; times the scale again.",
    )
    return table(headers, rows, ("left", "right", "right", "right", "center")) + "\n\n" + caption + "\n"


def render_nd2nz_example(lang: Lang = "zh", tokens: int = ND2NZ_EXAMPLE_TOKENS, dims: int = ND2NZ_EXAMPLE_DIMS) -> str:
    """A 3-token, 48-dim tile: which 32 B piece sits where, in ND and in NZ with one padding row."""
    piece = SHIPPED_KERNEL.fractal_cols
    tokens = require_int("tokens", tokens, minimum=1, maximum=MAX_TABLE_ROWS)
    dims = require_int("dims", dims, minimum=piece, maximum=MAX_TABLE_ROWS * piece)
    if dims % piece:
        raise ValueError(f"dims must be a multiple of {piece}, got {dims}")
    require_within("tokens x dims", (tokens + 1) * (dims // piece), MAX_TABLE_ROWS, "table rows")
    labels = np.array([[f"t{t}:{c}-{c + piece - 1}" for c in range(0, dims, piece)] for t in range(tokens)])
    tile = np.repeat(labels, piece, axis=1)  # [tokens, dims], each element labelled by its 32 B piece
    pad = ub_nz_stride_bytes(SHIPPED_KERNEL) // nz_block_bytes(SHIPPED_KERNEL) - SHIPPED_KERNEL.b_topk_per_vector_core
    nz = nd_to_nz(tile, pad_rows=pad)  # [dims / 16, tokens + pad, 16]
    nd_order = [labels[t, c] for t in range(tokens) for c in range(dims // piece)]
    nz_order = [
        str(nz[c, r, 0]) or pick(lang, "（填充）", "(pad)") for c in range(nz.shape[0]) for r in range(nz.shape[1])
    ]
    rows = []
    for position in range(len(nz_order)):
        nd = nd_order[position] if position < len(nd_order) else ""
        rows.append((position, position * block_bytes(), nd, nz_order[position]))
    headers = [
        pick(lang, f"第几个 {block_bytes()} B", f"{block_bytes()} B piece"),
        pick(lang, "偏移 (B)", "offset (B)"),
        pick(lang, "ND：逐 token 存", "ND: token after token"),
        pick(
            lang,
            f"NZ：逐列块存，每列块后加 {pad} 行填充",
            f"NZ: column block after column block, plus {pad} pad row",
        ),
    ]
    second = f"{piece}-{2 * piece - 1}"  # the dims of a token's second piece, as the labels write them
    token = min(1, tokens - 1)  # the caption's example token: the second one (t1) when the tile has it
    caption = pick(
        lang,
        f"`t{token}:{second}` 表示 token {token} 的第 {second} 维（{piece} 个 bf16 = {block_bytes()} B）。真实的块是 "
        f"{SHIPPED_KERNEL.b_topk_per_vector_core} 个 token × {DSA_V41.d_qk} 维，规则相同。",
        f"`t{token}:{second}` is dims {second} of token {token} ({piece} bf16 = {block_bytes()} B). The real tile is "
        f"{SHIPPED_KERNEL.b_topk_per_vector_core} tokens × {DSA_V41.d_qk} dims; the rule is the same.",
    )
    return table(headers, rows, ("right", "right", "left", "left")) + "\n\n" + caption + "\n"


def render_nd2nz_bank_slots(lang: Lang = "zh") -> str:
    """Where the 8 pieces of one 256 B ND2NZ store land, without and with the padding row; checked first."""
    check_nz_padding()
    tokens = SHIPPED_KERNEL.b_topk_per_vector_core
    rows = []
    for pad in (0, 1):
        slots = nd2nz_store_slots(tokens, pad)
        rows.append(
            (
                pad,
                f"{tokens + pad} × {block_bytes()} = {group_digits(slots.stride_bytes)}",
                slots.stride_bytes % UB_VECTOR_BYTES,
                ", ".join(str(s) for s in slots.slots),
                slots.passes,
            )
        )
    headers = [
        pick(lang, "填充行", "pad rows"),
        pick(lang, "相邻两段的距离 (B)", "distance between pieces (B)"),
        pick(lang, f"距离 mod {UB_VECTOR_BYTES}", f"distance mod {UB_VECTOR_BYTES}"),
        pick(lang, f"每段落入的 {block_bytes()} B 槽", f"{block_bytes()} B slot of each piece"),
        pick(lang, "需要的轮数", "passes needed"),
    ]
    plain, padded = nd2nz_store_slots(tokens, 0), nd2nz_store_slots(tokens, 1)
    pieces = len(padded.slots)
    caption = pick(
        lang,
        f"每个 VECTOR Core 一次转换 {tokens} 个 token。一条 {UB_VECTOR_BYTES} B 的写入把一个 token 的 {pieces} 段"
        f"（各 {block_bytes()} B）写到 {pieces} 个相邻的列块里；没有填充时要排 {plain.passes} 轮，"
        f"多 {padded.pad_rows} 行填充后各占一个槽，{padded.passes} 轮写完（报告 (zh) 第 228 行）。",
        f"Each VECTOR Core converts {tokens} tokens at a time. One {UB_VECTOR_BYTES} B store writes a token's "
        f"{pieces} pieces ({block_bytes()} B each) into {pieces} neighbouring column blocks; without padding they take "
        f"{plain.passes} passes, with one padding row each piece has its own slot and {padded.passes} pass suffices "
        "(report (zh) line 228).",
    )
    return table(headers, rows, ("right", "right", "right", "left", "right")) + "\n\n" + caption + "\n"
