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

from typing import TYPE_CHECKING, Any, Final

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascend_dsa.facts.kv_formats import ELEMENT_BITS, ELEMENT_MAX, KvTokenFormat, token_format
from ascend_dsa.facts.provenance import Source
from ascend_dsa.models.arrays import require_array, require_elements, row_chunks
from ascend_dsa.validate import require_bool

if TYPE_CHECKING:
    from collections.abc import Iterator

#: FlashMLA's floor on ``amax / 448`` before the ue8m0 scale is rounded up to a power of two (tests/quant.py:27).
UE8M0_SCALE_INV_FLOOR: Final = 1e-4
#: FlashMLA's clamp of the FP4 e4m3 scale: the smallest e4m3 subnormal and the largest e4m3 (tests/quant.py:114).
E4M3_SCALE_RANGE: Final = (2.0**-9, ELEMENT_MAX["e4m3"])
QUANT_PY_SOURCE: Final = Source("FlashMLA tests/quant.py @ 9a7d253, quantize_k_cache (lines 58-133)", "code")
FLOAT32_MAX: Final = float(np.finfo(np.float32).max)

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


def _check_values(values: object, fmt: KvTokenFormat) -> NDArray[Any]:
    """``values`` as an array ``[tokens, dims]`` of a float type, finite in float32 (not yet converted)."""
    expected = f"a float array (bfloat16 or a numpy float) of shape [tokens, {fmt.dims}]"
    array = require_array("values", values, expected)
    if array.dtype.kind != "f" and array.dtype != np.dtype(ml_dtypes.bfloat16):
        raise TypeError(f"values must be {expected}, got dtype {array.dtype}")
    if array.ndim != 2 or array.shape[1] != fmt.dims:  # noqa: PLR2004 - two axes
        raise ValueError(f"values must be {expected}, got shape {array.shape}")
    require_elements("values", array)
    return array


def _float32_chunk(array: NDArray[Any], rows: slice) -> NDArray[np.float32]:
    """Tokens ``rows`` of checked ``values`` in float32; ValueError naming the first one not finite there."""
    with np.errstate(over="ignore", invalid="ignore"):  # a float64 beyond float32 becomes inf: rejected below
        converted = np.asarray(array[rows], dtype=np.float32)
    finite = np.isfinite(converted)
    if not finite.all():
        token, dim = (int(i) for i in np.argwhere(~finite)[0])
        shown = array[rows.start + token, dim]
        raise ValueError(f"values must be finite in float32, got {shown!r} at [{rows.start + token}, {dim}]")
    return converted


def _token_chunks(tokens: int, dims: int) -> Iterator[slice]:
    """Consecutive slices of tokens whose float64 temporaries (``[chunk, dims]``) stay within ``arrays.CHUNK_BYTES``."""
    return row_chunks(tokens, dims * np.dtype(np.float64).itemsize)


def _check_representable(
    amax: NDArray[np.float32], scales: NDArray[np.float32], fmt: KvTokenFormat, first_token: int
) -> None:
    """Raise unless each group's ``amax``, rounded to the element type and times its scale, is finite in float32.

    FP8's power-of-two scale rounds ``amax / 448`` up, so a value near float32's top can round to an element whose
    product with the scale overflows (3.4e38 -> 256 x 2^120); the bytes would then decode to inf.
    """
    top = amax / scales  # [tokens, scale_count]
    if fmt.element == "e2m1":
        np.minimum(top, np.float32(fmt.element_max), out=top)  # saturates, as the quantiser does
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = top.astype(_ELEMENT_DTYPES[fmt.element]).astype(np.float64)
        decoded = rounded * scales
    bad = ~(decoded <= FLOAT32_MAX)
    if bad.any():
        token, group = (int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"values of token {first_token + token}, group {group} (largest {float(amax[token, group]):.6g}) cannot "
            f"be stored in {fmt.name}: their scale {float(scales[token, group]):.6g} times the rounded element "
            f"{float(rounded[token, group]):g} decodes beyond float32's largest {FLOAT32_MAX:.6g}"
        )


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


def _scaled_groups(
    array: NDArray[Any], fmt: KvTokenFormat
) -> Iterator[tuple[slice, NDArray[np.float32], NDArray[np.float32]]]:
    """Per chunk of checked ``values``: its tokens, their float32 groups and each group's scale, amax taken once.

    The groups are ``[n, scale_count, dims_per_scale]``, the scales ``[n, scale_count]``; ValueError for a value not
    finite in float32 or not storable in ``fmt`` (see ``_check_representable``).
    """
    for rows in _token_chunks(array.shape[0], fmt.dims):
        x = _float32_chunk(array, rows)
        groups = x.reshape(x.shape[0], fmt.scale_count, -1)
        amax = np.abs(groups).max(axis=2, initial=0.0)  # [n, scale_count]
        scales = _scales(amax, fmt)
        _check_representable(amax, scales, fmt, rows.start)
        yield rows, groups, scales


def quantize_tokens(values: NDArray[Any], fmt: KvTokenFormat | str) -> NDArray[np.uint8]:
    """Tokens ``[tokens, 512]`` as cache bytes ``[tokens, token_bytes]``: the data, then the scales of that token.

    The bytes equal FlashMLA's ``quantize_k_cache`` for ``V41_FP8Sparse`` and ``V41_FP4Sparse`` (module docstring);
    FP4 values beyond ``6 x scale`` saturate, as upstream's e2m1 conversion does.
    """
    fmt = _quantised(fmt)
    array = _check_values(values, fmt)
    out = np.empty((array.shape[0], fmt.token_bytes), dtype=np.uint8)
    for rows, groups, scales in _scaled_groups(array, fmt):
        n = groups.shape[0]
        scaled = groups / scales[:, :, None]
        if fmt.element == "e2m1":
            np.clip(scaled, -fmt.element_max, fmt.element_max, out=scaled)  # saturate, as cvt.rn.satfinite does
        codes = scaled.astype(_ELEMENT_DTYPES[fmt.element]).view(np.uint8).reshape(n, fmt.dims)
        if fmt.element == "e2m1":
            nibbles = codes & np.uint8(0x0F)
            codes = nibbles[:, 0::2] | (nibbles[:, 1::2] << np.uint8(4))  # even dim in the low nibble
        out[rows, : fmt.data_bytes] = codes
        out[rows, fmt.data_bytes :] = _scale_codes(scales, fmt)
    return out


def dequantize_tokens(
    raw: NDArray[Any], fmt: KvTokenFormat | str, *, allow_nonfinite: bool = False
) -> NDArray[np.float32]:
    """Cache bytes ``[tokens, token_bytes]`` back to values ``[tokens, 512]`` (exact in bf16 as well).

    Some bytes decode to NaN or infinity: the ue8m0 scale code 0xFF is NaN (upstream's FP8 quantiser writes it for
    a group holding a NaN or an infinity: tests/quant.py:82-83 keeps the exponent bits of a NaN scale), the e4m3
    codes 0x7F and 0xFF are NaN (as FP4 scales or FP8 elements), and a large ue8m0 scale times a large element
    overflows float32. By default such bytes raise a ValueError naming the token, the group and the scale byte;
    ``allow_nonfinite=True`` returns them as NaN or inf, as a reader of upstream's cache would get them.
    """
    fmt = _quantised(fmt)
    allow = require_bool("allow_nonfinite", allow_nonfinite)
    expected = f"a uint8 array of shape [tokens, {fmt.token_bytes}] for {fmt.name}"
    data = require_array("raw", raw, expected)
    if data.dtype != np.uint8:
        raise TypeError(f"raw must be {expected}, got dtype {data.dtype}")
    if data.ndim != 2 or data.shape[1] != fmt.token_bytes:  # noqa: PLR2004
        raise ValueError(f"raw must be {expected}, got shape {data.shape}")
    require_elements("raw", data)
    tokens = data.shape[0]
    out = np.empty((tokens, fmt.dims), dtype=np.float32)
    for rows in _token_chunks(tokens, fmt.dims):
        chunk = data[rows]
        n = chunk.shape[0]
        codes = chunk[:, : fmt.data_bytes]
        if fmt.element == "e2m1":
            codes = np.stack([codes & np.uint8(0x0F), codes >> np.uint8(4)], axis=2).reshape(n, fmt.dims)
        elements = np.ascontiguousarray(codes).view(_ELEMENT_DTYPES[fmt.element]).astype(np.float32)
        scales = _scale_values(np.ascontiguousarray(chunk[:, fmt.data_bytes :]), fmt)  # [n, scale_count]
        groups = out[rows].reshape(n, fmt.scale_count, -1)  # [n, scale_count, dims_per_scale]
        with np.errstate(over="ignore", invalid="ignore"):  # reported just below unless allowed
            np.multiply(elements.reshape(groups.shape), scales[:, :, None], out=groups)
        if not allow:
            _check_decoded(groups, chunk, fmt, rows.start)
    return out


def _check_decoded(groups: NDArray[np.float32], raw: NDArray[np.uint8], fmt: KvTokenFormat, first_token: int) -> None:
    """Raise naming the first token and group whose bytes decode to NaN or an infinity."""
    finite = np.isfinite(groups).all(axis=2)  # [n, scale_count]
    if finite.all():
        return
    token, group = (int(i) for i in np.argwhere(~finite)[0])
    scale_byte = int(raw[token, fmt.data_bytes + group * fmt.scale_bytes // fmt.scale_count])
    raise ValueError(
        f"raw token {first_token + token}, group {group} of {fmt.name} decodes to NaN or an infinity "
        f"(scale byte {scale_byte:#04x}); pass allow_nonfinite=True to decode such bytes as upstream does"
    )


def roundtrip_error_bound(values: NDArray[Any], fmt: KvTokenFormat | str) -> NDArray[np.float32]:
    """Per value, the most a quantise / dequantise round trip may move it: half the local grid step, times scale.

    With ``y = x / scale``, rounding to nearest moves ``y`` by at most half the gap between the two representable
    values around ``|y|``, and saturation by ``|y| - element_max`` beyond the top; the scale multiplies that back.
    A relative 2^-23 covers the float32 division.
    """
    fmt = _quantised(fmt)
    array = _check_values(values, fmt)
    out = np.empty((array.shape[0], fmt.dims), dtype=np.float32)
    grid = _GRIDS[fmt.element]
    for rows, groups, scales in _scaled_groups(array, fmt):
        y = np.abs(groups.astype(np.float64)) / scales[:, :, None]
        upper = np.minimum(np.searchsorted(grid, y, side="left"), grid.size - 1)
        lower = np.maximum(upper - 1, 0)
        half_gap = np.maximum((grid[upper] - grid[lower]) / 2, y - grid[-1])  # beyond the top: saturation
        bound = half_gap * scales[:, :, None] + np.abs(groups) * 2.0**-23
        out[rows] = bound.reshape(-1, fmt.dims)
    if not np.isfinite(out).all():  # a saturation error beyond float32 (FP4 of values near its top)
        raise ValueError(f"values' round-trip error bound in {fmt.name} is beyond float32: scale the values down")
    return out
