"""A NumPy port of FlashMLA's test quantiser, the oracle our KV bytes are compared with (our code, not upstream's).

Ported from ``tests/quant.py`` of deepseek-ai/FlashMLA at 9a7d253aba9afe75ebbcda14d2ffe020951663b4:
``_cast_scale_inv_to_ue8m0`` (lines 26-27), ``_quantize_to_e2m1`` (lines 31-51) and the ``V41_FP8Sparse`` /
``V41_FP4Sparse`` branches of ``quantize_k_cache`` (lines 72-130), for the non-Ascend path and one token per row
(``[tokens, 512]`` in, ``[tokens, bytes_per_token]`` uint8 out). torch's casts to ``float8_e4m3fn`` round to nearest,
ties to even, as ``ml_dtypes`` does. This file is a test oracle: the package must not import it.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

D, D_NOPE, D_ROPE = 512, 448, 64
FP8_TILE, FP8_TILES = 32, 16  # get_meta, V41_FP8Sparse (line 15)
FP4_TILE, FP4_TILES = 16, 32  # get_meta, V41_FP4Sparse (line 16)
_E2M1_MAGNITUDES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=np.float32)  # line 29


def cast_scale_inv_to_ue8m0(scales_inv: NDArray[np.float32]) -> NDArray[np.float32]:
    """``2 ** ceil(log2(max(scales_inv, 1e-4)))`` in float32 (line 27)."""
    floored = np.maximum(scales_inv.astype(np.float32), np.float32(1e-4))
    return np.power(np.float32(2), np.ceil(np.log2(floored))).astype(np.float32)


def quantize_to_e2m1(x: NDArray[np.float32]) -> NDArray[np.uint8]:
    """Nearest e2m1 code, ties to the even code, saturating at +-6; the sign in bit 3 (lines 31-51)."""
    x = x.astype(np.float32)
    sign = np.signbit(x).astype(np.uint8) << np.uint8(3)
    a = np.minimum(np.nan_to_num(np.abs(x), nan=0.0, posinf=6.0), np.float32(6.0))
    mids = (_E2M1_MAGNITUDES[:-1] + _E2M1_MAGNITUDES[1:]) / 2
    code = np.searchsorted(mids, a, side="right")  # torch.bucketize(a, mids, right=True)
    on_tie = (a[..., None] == mids).any(axis=-1)
    tie_code = np.searchsorted(mids, a, side="left")  # the lower of the two candidates
    code = np.where(on_tie, tie_code + (tie_code & 1), code)
    return np.asarray(sign | code.astype(np.uint8), dtype=np.uint8)


def quantize_fp8(tokens: NDArray[np.floating]) -> NDArray[np.uint8]:
    """``V41_FP8Sparse``: 512 e4m3 bytes, then 16 ue8m0 scale bytes (lines 72-96)."""
    count = tokens.shape[0]
    out = np.empty((count, D_NOPE + D_ROPE + FP8_TILES), dtype=np.uint8)
    for tile in range(FP8_TILES):
        part = tokens[:, tile * FP8_TILE : (tile + 1) * FP8_TILE]
        scale_inv = np.abs(part).max(axis=-1).astype(np.float32) / np.float32(448.0)
        scale_inv = cast_scale_inv_to_ue8m0(scale_inv)
        out[:, D + tile] = (scale_inv.view(np.int32) >> 23).astype(np.uint8)  # the e8m0 byte: the float's exponent
        quantized = (part.astype(np.float32) / scale_inv[:, None]).astype(ml_dtypes.float8_e4m3fn)
        out[:, tile * FP8_TILE : (tile + 1) * FP8_TILE] = quantized.view(np.uint8)
    return out


def quantize_fp4(tokens: NDArray[np.floating]) -> NDArray[np.uint8]:
    """``V41_FP4Sparse``: 256 bytes of e2m1 pairs (even dim low), then 32 e4m3 scales (lines 98-130)."""
    count = tokens.shape[0]
    x = tokens.astype(np.float32)
    amax = np.nan_to_num(np.abs(x), nan=np.inf).reshape(count, FP4_TILES, FP4_TILE).max(axis=-1)
    scale = np.clip(amax / np.float32(6.0), np.float32(2.0**-9), np.float32(448.0)).astype(ml_dtypes.float8_e4m3fn)
    normalized = x.reshape(count, FP4_TILES, FP4_TILE) / scale.astype(np.float32)[..., None]
    codes = quantize_to_e2m1(normalized).reshape(count, D)
    out = np.empty((count, D // 2 + FP4_TILES), dtype=np.uint8)
    out[:, : D // 2] = codes[:, 0::2] | (codes[:, 1::2] << np.uint8(4))
    out[:, D // 2 :] = scale.view(np.uint8)
    return out
