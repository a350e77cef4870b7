"""ND and NZ layouts of a KV tile, and the extra row that keeps the ND2NZ stores free of UB bank conflicts.

Report (zh) lines 222-234. A gathered KV tile arrives in ND order: token after token, each a row of ``d_qk`` bf16.
The CUBE reads its operands as 16 x 16 fractals (config.h:71-72) laid out "NZ": the columns are cut into blocks
of 16 (32 B per row), and each column block stores all rows one after another before the next column block
starts. The kernel's SIMD VF converts ND to NZ by loading 256 B of a token (8 column blocks) and storing each
32 B piece with a stride of one column block. With one padding row per column block that stride is 33 x 32 B
instead of 32 x 32 B, and the 8 pieces of one store land in 8 different 32 B slots of a 256 B bank group
(report (zh) line 228; kernel_body.h ``kv_nd2nz_for_prefill_vf``, ``block_stride = B_TOPK_PER_V + 1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.models.nd2nz_stride import UB_VECTOR_BYTES, bank_slots, nz_block_bytes
from ascend_dsa.units import BF16_BYTES
from ascend_dsa.validate import LARGEST_EXACT_WHOLE, MAX_ARRAY_ELEMENTS, require_instance, require_int, require_within


def block_bytes(config: KernelConfig = SHIPPED_KERNEL) -> int:
    """Bytes of one row of one fractal: 16 bf16 = 32 B, the piece an ND2NZ store moves."""
    config = require_instance("config", config, KernelConfig)
    return nz_block_bytes(config)


def _check_tile(tile: NDArray[Any], config: KernelConfig) -> None:
    if not isinstance(tile, np.ndarray):
        raise TypeError(f"tile must be a NumPy array, got {type(tile).__name__}")
    if tile.ndim != 2 or tile.shape[0] < 1 or tile.shape[1] < 1 or tile.shape[1] % config.fractal_cols:  # noqa: PLR2004
        raise ValueError(
            f"tile must have shape [tokens >= 1, d] with d a multiple of {config.fractal_cols}, got shape {tile.shape}"
        )


def _check_pad(pad_rows: int, config: KernelConfig) -> int:
    # Padding of a whole fractal or more repeats the bank slots of a smaller one: stop there.
    return require_int("pad_rows", pad_rows, minimum=0, maximum=config.fractal_rows)


def nd_to_nz(tile: NDArray[Any], *, pad_rows: int = 0, config: KernelConfig = SHIPPED_KERNEL) -> NDArray[Any]:
    """The NZ buffer of an ND tile ``[tokens, d]``: ``[d / 16, tokens + pad_rows, 16]``, padding rows zero.

    Flattened in C order this is the buffer's memory order: column block after column block, and inside one
    column block every token's 16 values in token order, then the padding rows. With ``tokens`` a multiple of 16
    each column block is a stack of whole 16 x 16 fractals.
    """
    config = require_instance("config", config, KernelConfig)
    _check_tile(tile, config)
    pad_rows = _check_pad(pad_rows, config)
    tokens, d = tile.shape
    require_within(f"tile {tile.shape}", (tokens + pad_rows) * d, MAX_ARRAY_ELEMENTS, "NZ buffer elements")
    nz = np.zeros((d // config.fractal_cols, tokens + pad_rows, config.fractal_cols), dtype=tile.dtype)
    nz[:, :tokens, :] = tile.reshape(tokens, d // config.fractal_cols, config.fractal_cols).transpose(1, 0, 2)
    return nz


def nz_to_nd(nz: NDArray[Any], tokens: int) -> NDArray[Any]:
    """The ND tile ``[tokens, d]`` back from an NZ buffer ``[d / 16, tokens + pad_rows, 16]``; padding is dropped."""
    if not isinstance(nz, np.ndarray):
        raise TypeError(f"nz must be a NumPy array, got {type(nz).__name__}")
    tokens = require_int("tokens", tokens)
    if nz.ndim != 3 or not 1 <= tokens <= nz.shape[1]:  # noqa: PLR2004 - three axes
        raise ValueError(
            f"nz must have shape [column blocks, rows >= tokens, 16] with 1 <= tokens = {tokens} <= rows, "
            f"got shape {nz.shape}"
        )
    column_blocks, _, width = nz.shape
    return np.ascontiguousarray(nz[:, :tokens, :].transpose(1, 0, 2)).reshape(tokens, column_blocks * width)


def nd_offset_bytes(token: int, dim: int, *, dims: int = DSA_V41.d_qk) -> int:
    """Byte offset in an ND tile of element ``(token, dim)``: row-major, ``dims`` bf16 values per token.

    The order the KV cache has in global memory (report (zh) line 150: shape ``[s_kv, d_qk]``, stride ``[d_qk, 1]``);
    ``dim`` must lie in ``[0, dims)``. [`nz_offset_bytes`][] gives the same element's place after ND2NZ.
    """
    token, dim = require_int("token", token, minimum=0), require_int("dim", dim, minimum=0)
    width = require_int("dims", dims, minimum=1, maximum=LARGEST_EXACT_WHOLE)
    if dim >= width:
        raise ValueError(f"dim must lie in [0, dims = {width}), got {dim}")
    require_within(f"token {token}", (token + 1) * width, LARGEST_EXACT_WHOLE, "elements before it")
    return (token * width + dim) * BF16_BYTES


def nz_offset_bytes(
    token: int,
    dim: int,
    tokens: int,
    *,
    pad_rows: int = 0,
    config: KernelConfig = SHIPPED_KERNEL,
    dims: int = DSA_V41.d_qk,
) -> int:
    """Byte offset in the NZ buffer of element ``(token, dim)`` of a tile of ``tokens`` rows of ``dims`` values.

    ``dims`` is the tile's width d: by default a KV token's d = 512 bf16 (report (zh) line 88, config.h:41), a
    multiple of the fractal's 16 columns; ``dim`` must lie in ``[0, dims)``.
    """
    config = require_instance("config", config, KernelConfig)
    pad_rows = _check_pad(pad_rows, config)
    token, dim, tokens = require_int("token", token), require_int("dim", dim), require_int("tokens", tokens)
    width = require_int("dims", dims, minimum=1, maximum=LARGEST_EXACT_WHOLE)
    if width % config.fractal_cols:
        raise ValueError(f"dims must be a multiple of the fractal's {config.fractal_cols} columns, got {width}")
    if not (0 <= token < tokens and 0 <= dim < width):
        raise ValueError(
            f"token must lie in [0, tokens = {tokens}) and dim in [0, dims = {width}), got token {token}, dim {dim}"
        )
    rows = tokens + pad_rows
    column_block, within = divmod(dim, config.fractal_cols)
    return ((column_block * rows + token) * config.fractal_cols + within) * BF16_BYTES


@dataclass(frozen=True)
class StoreSlots:
    """Where the 32 B pieces of one 256 B ND2NZ store land: one bank slot per piece."""

    tokens: int
    pad_rows: int
    stride_bytes: int  # distance between consecutive pieces: one column block of tokens + pad_rows rows
    slots: tuple[int, ...]

    @property
    def conflicts(self) -> int:
        """Pieces that share a slot with an earlier piece of the same store (0 means one pass)."""
        return len(self.slots) - len(set(self.slots))

    @property
    def passes(self) -> int:
        """Bank passes the store needs: the most pieces that fall into any one slot."""
        return max(self.slots.count(s) for s in set(self.slots))


def nd2nz_store_slots(tokens: int, pad_rows: int, config: KernelConfig = SHIPPED_KERNEL) -> StoreSlots:
    """The bank slots of one 256 B store of the ND2NZ conversion, for an NZ buffer of ``tokens + pad_rows`` rows.

    The store writes 8 consecutive 32 B pieces of one token into 8 consecutive column blocks, so piece ``j`` goes
    to ``j x (tokens + pad_rows) x 32 B``; its slot is that address mod 256, divided by 32.
    """
    config = require_instance("config", config, KernelConfig)
    pad_rows = _check_pad(pad_rows, config)
    tokens = require_int("tokens", tokens, minimum=1, maximum=LARGEST_EXACT_WHOLE)
    stride = (tokens + pad_rows) * block_bytes(config)
    slots = bank_slots(stride, block_bytes(config), UB_VECTOR_BYTES)
    return StoreSlots(tokens=tokens, pad_rows=pad_rows, stride_bytes=stride, slots=slots)


def check_nz_padding(config: KernelConfig = SHIPPED_KERNEL) -> StoreSlots:
    """Raise [`FigureMismatch`][] unless one padding row makes the kernel's ND2NZ stores conflict-free.

    Checks report (zh) line 228 for the shipped tile of ``B_TOPK / 2`` tokens per VECTOR Core (32): without the
    row the 8 pieces of a store share one slot, with it they use all 8. Returns the padded case.
    """
    config = require_instance("config", config, KernelConfig)
    tokens = config.b_topk_per_vector_core
    plain, padded = nd2nz_store_slots(tokens, 0, config), nd2nz_store_slots(tokens, 1, config)
    if padded.conflicts or not plain.conflicts:
        raise FigureMismatch(
            f"report (zh) line 228 says one padding row removes the UB bank conflicts of ND2NZ; for {tokens} tokens "
            f"ours gives {plain.conflicts} conflicts without it and {padded.conflicts} with it"
        )
    return padded
