"""ND <-> NZ of a KV tile, with and without the padding row, and the bank slots of one ND2NZ store."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_dsa import SHIPPED_KERNEL, FigureMismatch
from ascend_dsa.models.nz_layout import (
    block_bytes,
    check_nz_padding,
    nd2nz_store_slots,
    nd_offset_bytes,
    nd_to_nz,
    nz_offset_bytes,
    nz_to_nd,
)


def kernel_tile(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.standard_normal((SHIPPED_KERNEL.b_topk_per_vector_core, 512)).astype(ml_dtypes.bfloat16)


@pytest.mark.parametrize("pad_rows", [0, 1])
def test_round_trip_of_the_kernel_tile(pad_rows: int) -> None:
    """A [32, 512] bf16 tile survives ND -> NZ -> ND bit for bit; the NZ buffer is [32, 32 + pad, 16]."""
    tile = kernel_tile()
    nz = nd_to_nz(tile, pad_rows=pad_rows)
    assert nz.shape == (32, 32 + pad_rows, 16)
    assert nz.dtype == tile.dtype
    assert np.array_equal(nz_to_nd(nz, 32).view(np.uint16), tile.view(np.uint16))
    if pad_rows:
        assert np.all(nz[:, 32, :].astype(np.float32) == 0.0)


def test_first_fractal_is_contiguous() -> None:
    """Without padding the first 256 elements of the NZ buffer are the 16 x 16 fractal at the tile's corner."""
    tile = kernel_tile(1)
    flat = nd_to_nz(tile).ravel()
    assert np.array_equal(flat[:256].reshape(16, 16).view(np.uint16), tile[:16, :16].view(np.uint16))


@settings(max_examples=30, deadline=None)
@given(tokens=st.integers(1, 40), blocks=st.integers(1, 6), pad=st.integers(0, 2), data=st.data())
def test_offsets_match_the_buffer(tokens: int, blocks: int, pad: int, data: st.DataObject) -> None:
    """nz_offset_bytes names where each element sits in the flattened NZ buffer."""
    tile = np.arange(tokens * blocks * 16, dtype=np.int32).reshape(tokens, blocks * 16)
    flat = nd_to_nz(tile, pad_rows=pad).ravel()
    token = data.draw(st.integers(0, tokens - 1))
    dim = data.draw(st.integers(0, blocks * 16 - 1))
    offset = nz_offset_bytes(token, dim, tokens, pad_rows=pad)
    assert offset % 2 == 0
    assert flat[offset // 2] == tile[token, dim]
    assert np.array_equal(nz_to_nd(nd_to_nz(tile, pad_rows=pad), tokens), tile)


def test_padding_row_spreads_a_store_over_all_slots() -> None:
    """32 rows: stride 1024 B puts 8 pieces in one slot (8 passes); 33 rows: 1056 B, 8 slots, 1 pass."""
    plain, padded = nd2nz_store_slots(32, 0), nd2nz_store_slots(32, 1)
    assert block_bytes() == 32
    assert (plain.stride_bytes, plain.slots, plain.passes, plain.conflicts) == (1024, (0,) * 8, 8, 7)
    assert (padded.stride_bytes, padded.slots, padded.passes, padded.conflicts) == (1056, tuple(range(8)), 1, 0)
    assert check_nz_padding() == padded


def test_check_fails_when_padding_would_not_help() -> None:
    """With 23 tokens per VECTOR Core the unpadded store has no conflict, so the check objects to the claim."""
    config = SHIPPED_KERNEL.with_overrides(b_topk=47)  # 47 // 2 = 23 rows: 736 B stride, 8 distinct slots
    with pytest.raises(FigureMismatch, match="report \\(zh\\) line 228"):
        check_nz_padding(config)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: nd_to_nz(np.zeros((4, 20))), r"tile must have shape \[tokens >= 1, d\] .*got shape \(4, 20\)"),
        (lambda: nd_to_nz(np.zeros((4, 16)), pad_rows=-1), "pad_rows must be a non-negative integer, got -1"),
        (lambda: nz_to_nd(np.zeros((2, 4, 16)), 5), r"1 <= tokens = 5 <= rows, got shape \(2, 4, 16\)"),
        (lambda: nz_offset_bytes(4, 0, 4), r"token must lie in \[0, tokens = 4\)"),
        # Issue 31 (18): a dim past the tile's d = 512 (report (zh) line 88) used to give an offset.
        (lambda: nz_offset_bytes(3, 600, 64), r"dim in \[0, dims = 512\), got token 3, dim 600$"),
        (lambda: nz_offset_bytes(3, 16, 64, dims=16), r"dim in \[0, dims = 16\), got token 3, dim 16$"),
        (lambda: nz_offset_bytes(0, 0, 4, dims=20), r"^dims must be a multiple of the fractal's 16 columns, got 20$"),
        (lambda: nd2nz_store_slots(0, 1), "tokens must be a positive integer, got 0"),
    ],
)
def test_bad_input(call: object, message: str) -> None:
    """Bad shapes and counts raise ValueError naming the argument and the value."""
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def test_many_padding_rows_on_a_small_tile_are_within_the_size_limit() -> None:
    """16 tokens with the most padding rows (16) need 32 rows of NZ buffer per column block: small, and accepted."""
    nz = nd_to_nz(np.ones((16, 512), ml_dtypes.bfloat16), pad_rows=16)
    assert nz.size == 32 * 512


def test_nd_offset_is_row_major() -> None:
    """Element (token, dim) of an ND tile sits at (token x dims + dim) x 2 B; the next token starts a row later."""
    assert nd_offset_bytes(0, 0) == 0
    assert nd_offset_bytes(1, 0) == 1024  # a KV token of 512 bf16 (report (zh) line 152)
    assert nd_offset_bytes(2, 16, dims=64) == (2 * 64 + 16) * 2
    for token, dim in ((0, 16), (3, 40)):
        assert nd_offset_bytes(token, dim, dims=64) // 32 == token * 4 + dim // 16


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((-1, 0, 64), r"^token must be"),
        ((0, 64, 64), r"^dim must lie in \[0, dims = 64\), got 64$"),
        ((0, 0, 0), r"^dims must be"),
    ],
)
def test_nd_offset_rejects_a_place_outside_the_tile(args: tuple[int, int, int], message: str) -> None:
    """A negative token, a dim past the width or an empty width is named in one line."""
    token, dim, dims = args
    with pytest.raises(ValueError, match=message):
        nd_offset_bytes(token, dim, dims=dims)
