"""Where the 32-byte blocks of a KV token land when the ND2NZ conversion writes them (report (zh) lines 152, 228-232).

A KV token is ``d_qk`` bf16 values in a row (ND). The CUBE wants them in NZ order: 16-element (32 B) blocks of
consecutive tokens stacked together. The conversion therefore writes each 32 B block of a token at a fixed
distance (the stride) from the previous one. Two strides matter:

- in L1, had the copy from global memory done the conversion itself: ``B_TOPK x 32 B`` (line 152, rejected);
- in UB, where the kernel's SIMD VF does it: ``(B_TOPK per VECTOR Core + 1) x 32 B``, one row of padding (line 228).

Whether a write of one 256 B vector collides in UB depends on that stride modulo 256 B. We model UB as rows of
256 B made of eight 32 B slots; a 256 B vector's eight blocks can be written together only if they fall in eight
different slots.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from ascend_dsa.errors import OutsideModel
from ascend_dsa.facts.assumptions import UB_ROW_BYTES, UB_SLOTS
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import KernelConfig
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import Source, report_lines
from ascend_dsa.lang import Text
from ascend_dsa.validate import LARGEST_EXACT_WHOLE, require_instance, require_int, shown

#: Bytes of one SIMD vector register, and of one UB row in our bank model (config.h:10, ``256 / sizeof(bf16)``).
UB_VECTOR_BYTES: Final = UB_ROW_BYTES
#: Adjacent 256 B vectors the ND2NZ VF handles together, one per UB bank group.
UB_BANK_GROUPS: Final = 2

SOURCES: Final = {
    "UB_VECTOR_BYTES": Source(("config.h:10 (NUM_BF16_IN_VEC = 256 / sizeof(bf16))", report_lines(232)), "code"),
    "UB_BANK_GROUPS": Source(
        "kernel_body.h, kv_nd2nz_for_prefill_vf",
        "code",
        note="the VF processes two adjacent 256 B vectors so that two 256 B bank groups are interleaved",
    ),
    "slot model": UB_SLOTS.source,
}


def token_bytes(model: ModelShape = DSA_V41) -> int:
    """Bytes of one KV token in ND order: ``d_qk`` elements (512 bf16 = 1024 B)."""
    model = require_instance("model", model, ModelShape)
    return model.d_qk * model.element_bytes


def nz_block_bytes(config: KernelConfig, model: ModelShape = DSA_V41) -> int:
    """Bytes of one NZ block: a fractal row of ``fractal_cols`` elements (16 bf16 = 32 B)."""
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    return config.fractal_cols * model.element_bytes


def blocks_per_token(config: KernelConfig, model: ModelShape = DSA_V41) -> int:
    """32 B blocks in one token: 1024 B / 32 B = 32 (report (zh) line 152)."""
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    token, block = token_bytes(model), nz_block_bytes(config, model)
    if token % block:
        raise ValueError(f"token_bytes must be a multiple of the {block} B block, got {token}")
    return token // block


def l1_nz_stride_bytes(config: KernelConfig, model: ModelShape = DSA_V41) -> int:
    """Stride of a token's blocks had the copy into L1 converted on the way: ``B_TOPK x 32 B`` (line 152)."""
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    return config.b_topk * nz_block_bytes(config, model)


def ub_nz_stride_bytes(config: KernelConfig, model: ModelShape = DSA_V41, pad_rows: int = 1) -> int:
    """Stride of a token's blocks in UB's NZ buffer: (tokens per VECTOR Core + ``pad_rows``) x 32 B (1056 B)."""
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    pad_rows = require_int("pad_rows", pad_rows, minimum=0, maximum=LARGEST_EXACT_WHOLE)
    return (config.b_topk_per_vector_core + pad_rows) * nz_block_bytes(config, model)


def bank_slots(stride_bytes: int, block_bytes: int = 32, row_bytes: int = UB_VECTOR_BYTES) -> tuple[int, ...]:
    """The 32 B slot (0-7) each block of one 256 B vector lands in, consecutive blocks ``stride_bytes`` apart."""
    stride_bytes = require_int("stride_bytes", stride_bytes, minimum=1)
    block_bytes = require_int("block_bytes", block_bytes, minimum=1)
    row_bytes = require_int("row_bytes", row_bytes, minimum=1, maximum=ASCEND_950.staging_bytes_per_core)
    if row_bytes % block_bytes:
        raise ValueError(f"block_bytes must divide row_bytes = {row_bytes}, got {shown(block_bytes)}")
    return tuple((k * stride_bytes) % row_bytes // block_bytes for k in range(row_bytes // block_bytes))


def worst_slot_conflict(stride_bytes: int, block_bytes: int = 32, row_bytes: int = UB_VECTOR_BYTES) -> int:
    """Most blocks of one vector that share a slot: 1 means conflict-free, 8 means fully serialised."""
    return max(Counter(bank_slots(stride_bytes, block_bytes, row_bytes)).values())


def min_conflict_free_padding(config: KernelConfig, model: ModelShape = DSA_V41, limit: int = 16) -> int:
    """The fewest padding rows that make the ND2NZ write of one vector conflict-free (1 for the shipped kernel)."""
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    if config.b_topk_per_vector_core < 1:
        raise OutsideModel(
            Text(
                f"B_TOPK = {config.b_topk} 分给 {config.vector_cores_per_cube} 个 VECTOR Core，每个分不到一个 token，"
                "也就没有要填充的 ND2NZ 写",
                f"B_TOPK = {config.b_topk} leaves no token to each of {config.vector_cores_per_cube} VECTOR Cores, "
                "so there is no ND2NZ write to pad",
            )
        )
    block = nz_block_bytes(config, model)
    limit = require_int("limit", limit, minimum=0)
    period = UB_VECTOR_BYTES // block  # the slots repeat every ``period`` rows of padding: no more can help
    for pad in range(min(limit, period) + 1):
        if worst_slot_conflict(ub_nz_stride_bytes(config, model, pad), block) == 1:
            return pad
    raise ValueError(f"no padding up to limit = {limit} rows avoids conflicts for B_TOPK = {config.b_topk}")
