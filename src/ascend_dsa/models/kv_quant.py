"""The quantiser of the decode KV cache: tokens to FP8 or FP4 cache bytes and back, with the round trip's error bound.

The formats themselves (sizes, scales, layouts) are [`KvTokenFormat`][] and its presets in
``ascend_dsa.facts.kv_formats``; this module adds the NumPy that writes and reads their bytes.

The quantiser produces the bytes of FlashMLA's test quantiser (tests/quant.py @ 9a7d253, ``quantize_k_cache``), the
cache a reader of upstream's tests compares with. In float32, per group: FP8's scale is
``2^ceil(log2(max(amax / 448, 1e-4)))`` (lines 26-27, 81-83); FP4's is ``amax / 6`` rounded to the nearest e4m3 and
clamped to ``[2^-9, 448]`` (line 114), so values may saturate at ``+-6 x scale`` (lines 29-51). Every value is then
``x / scale`` rounded to nearest, ties to even.
"""

from __future__ import annotations

from typing import Any, Final

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascend_dsa.facts.kv_formats import ELEMENT_BITS, ELEMENT_MAX, KvTokenFormat, token_format
from ascend_dsa.facts.provenance import Source
from ascend_dsa.models.arrays import require_array

#: FlashMLA's floor on ``amax / 448`` before the ue8m0 scale is rounded up to a power of two (tests/quant.py:27).
UE8M0_SCALE_INV_FLOOR: Final = 1e-4
#: FlashMLA's clamp of the FP4 e4m3 scale: the smallest e4m3 subnormal and the largest e4m3 (tests/quant.py:114).
E4M3_SCALE_RANGE: Final = (2.0**-9, ELEMENT_MAX["e4m3"])
QUANT_PY_SOURCE: Final = Source("FlashMLA tests/quant.py @ 9a7d253, quantize_k_cache (lines 58-133)", "code")

E4M3 = np.dtype(ml_dtypes.float8_e4m3fn)
E2M1 = np.dtype(ml_dtypes.float4_e2m1fn)
UE8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)
_ELEMENT_DTYPES: Final = {"e4m3": E4M3, "e2m1": E2M1}


def _nonnegative_grid(dtype: np.dtype[Any], bits: int) -> NDArray[np.float64]:
    """Every finite value >= 0 of a small float type of ``bits`` bits (one code per byte), ascending."""
    values = np.arange(2**bits, dtype=np.uint8).view(dtype).astype(np.float64)
    return np.unique(values[np.isfinite(values) & (values >= 0)])


_E4M3_GRID: Final = _nonnegative_grid(E4M3, ELEMENT_BITS["e4m3"])
_E2M1_GRID: Final = _nonnegative_grid(E2M1, ELEMENT_BITS["e2m1"])
_GRIDS: Final = {"e4m3": _E4M3_GRID, "e2m1": _E2M1_GRID}


def _quantised(fmt: object) -> KvTokenFormat:
    """``fmt`` as a quantised format (see ``token_format``); ValueError for one without scales (bf16)."""
    fmt = token_format(fmt)
    if fmt.scale is None or fmt.element not in _ELEMENT_DTYPES:
        raise ValueError(f"fmt must be a quantised format (e4m3 or e2m1 values with scales), got {fmt.name}")
    return fmt


def _check_values(values: object, fmt: KvTokenFormat) -> NDArray[np.float32]:
    expected = f"a float array (bfloat16 or a numpy float) of shape [tokens, {fmt.dims}]"
    array = require_array("values", values, expected)
    if array.dtype.kind != "f" and array.dtype != np.dtype(ml_dtypes.bfloat16):
        raise TypeError(f"values must be {expected}, got dtype {array.dtype}")
    if array.ndim != 2 or array.shape[1] != fmt.dims:  # noqa: PLR2004 - two axes
        raise ValueError(f"values must be {expected}, got shape {array.shape}")
    with np.errstate(over="ignore", invalid="ignore"):  # a float64 beyond float32 becomes inf: rejected below
        converted = array.astype(np.float32)
    if not np.isfinite(converted).all():
        raise ValueError("values must be finite in float32, got a NaN or an infinity")
    return converted


def _scales(amax: NDArray[np.float32], fmt: KvTokenFormat) -> NDArray[np.float32]:
    """Per group, FlashMLA's scale in float32 arithmetic (tests/quant.py:27, 82-83 for ue8m0; 114 for e4m3)."""
    inv = amax.astype(np.float32) / np.float32(fmt.element_max)
    if fmt.scale == "ue8m0":
        floored = np.maximum(inv, np.float32(UE8M0_SCALE_INV_FLOOR))
        return np.asarray(np.exp2(np.ceil(np.log2(floored))), dtype=np.float32)
    low, high = E4M3_SCALE_RANGE
    clamped = np.clip(inv, np.float32(low), np.float32(high))
    return np.asarray(clamped.astype(E4M3), dtype=np.float32)  # round to nearest e4m3, ties to even


def _scale_codes(scales: NDArray[np.float32], fmt: KvTokenFormat) -> NDArray[np.uint8]:
    if fmt.scale == "ue8m0":
        return (np.log2(scales).astype(np.int32) + 127).astype(np.uint8)  # e8m0: the biased exponent, bias 127
    return scales.astype(E4M3).view(np.uint8)


def _scale_values(codes: NDArray[np.uint8], fmt: KvTokenFormat) -> NDArray[np.float32]:
    dtype = UE8M0 if fmt.scale == "ue8m0" else E4M3
    return np.asarray(codes.view(dtype), dtype=np.float32)


def quantize_tokens(values: NDArray[Any], fmt: KvTokenFormat | str) -> NDArray[np.uint8]:
    """Tokens ``[tokens, 512]`` as cache bytes ``[tokens, token_bytes]``: the data, then the scales of that token.

    The bytes equal FlashMLA's ``quantize_k_cache`` for ``V41_FP8Sparse`` and ``V41_FP4Sparse`` (module docstring);
    FP4 values beyond ``6 x scale`` saturate, as upstream's e2m1 conversion does.
    """
    fmt = _quantised(fmt)
    x = _check_values(values, fmt)
    tokens = x.shape[0]
    groups = x.reshape(tokens, fmt.scale_count, -1)  # [tokens, scale_count, dims_per_scale]
    scales = _scales(np.abs(groups).max(axis=2, initial=0.0), fmt)  # [tokens, scale_count]
    scaled = groups / scales[:, :, None]
    if fmt.element == "e2m1":
        np.clip(scaled, -fmt.element_max, fmt.element_max, out=scaled)  # saturate, as cvt.rn.satfinite does
    codes = scaled.astype(_ELEMENT_DTYPES[fmt.element]).view(np.uint8).reshape(tokens, fmt.dims)
    if fmt.element == "e2m1":
        nibbles = codes & np.uint8(0x0F)
        codes = nibbles[:, 0::2] | (nibbles[:, 1::2] << np.uint8(4))  # even dim in the low nibble
    out = np.empty((tokens, fmt.token_bytes), dtype=np.uint8)
    out[:, : fmt.data_bytes] = codes
    out[:, fmt.data_bytes :] = _scale_codes(scales, fmt)
    return out


def dequantize_tokens(raw: NDArray[Any], fmt: KvTokenFormat | str) -> NDArray[np.float32]:
    """Cache bytes ``[tokens, token_bytes]`` back to values ``[tokens, 512]`` (exact in bf16 as well)."""
    fmt = _quantised(fmt)
    expected = f"a uint8 array of shape [tokens, {fmt.token_bytes}] for {fmt.name}"
    data = require_array("raw", raw, expected)
    if data.dtype != np.uint8:
        raise TypeError(f"raw must be {expected}, got dtype {data.dtype}")
    if data.ndim != 2 or data.shape[1] != fmt.token_bytes:  # noqa: PLR2004
        raise ValueError(f"raw must be {expected}, got shape {data.shape}")
    tokens = data.shape[0]
    codes = data[:, : fmt.data_bytes]
    if fmt.element == "e2m1":
        codes = np.stack([codes & np.uint8(0x0F), codes >> np.uint8(4)], axis=2).reshape(tokens, fmt.dims)
    elements = np.ascontiguousarray(codes).view(_ELEMENT_DTYPES[fmt.element]).astype(np.float32)
    scales = _scale_values(np.ascontiguousarray(data[:, fmt.data_bytes :]), fmt)  # [tokens, scale_count]
    groups = elements.reshape(tokens, fmt.scale_count, fmt.dims_per_scale) * scales[:, :, None]
    return np.asarray(groups.reshape(tokens, fmt.dims), dtype=np.float32)


def roundtrip_error_bound(values: NDArray[Any], fmt: KvTokenFormat | str) -> NDArray[np.float32]:
    """Per value, the most a quantise / dequantise round trip may move it: half the local grid step, times scale.

    With ``y = x / scale``, rounding to nearest moves ``y`` by at most half the gap between the two representable
    values around ``|y|``, and saturation by ``|y| - element_max`` beyond the top; the scale multiplies that back.
    A relative 2^-23 covers the float32 division.
    """
    fmt = _quantised(fmt)
    x = _check_values(values, fmt)
    tokens = x.shape[0]
    groups = x.reshape(tokens, fmt.scale_count, -1)  # [tokens, scale_count, dims_per_scale]
    scales = _scales(np.abs(groups).max(axis=2), fmt)[:, :, None]
    grid = _GRIDS[fmt.element]
    y = np.abs(groups.astype(np.float64)) / scales
    upper = np.minimum(np.searchsorted(grid, y, side="left"), grid.size - 1)
    lower = np.maximum(upper - 1, 0)
    half_gap = np.maximum((grid[upper] - grid[lower]) / 2, y - grid[-1])  # beyond the top: saturation
    bound = half_gap * scales + np.abs(groups) * 2.0**-23
    return np.asarray(bound.reshape(tokens, fmt.dims), dtype=np.float32)
