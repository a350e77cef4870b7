"""Quantised KV cache token formats for decoding: FP8 (528 B) and FP4 (288 B), data and scales side by side.

Report (zh) lines 218-220; kv_cache_format.h lines 5-19. A V4.1 token has ``d_qk = 512`` values (RoPE dims
included). FP8 stores them as 512 e4m3 bytes plus one ue8m0 scale (a power of two) per 32 dims: 16 B of scales,
528 B in all. FP4 stores two e2m1 values per byte (even dim in the low nibble) plus one e4m3 scale per 16 dims:
256 + 32 = 288 B. The kernel keeps a token's data and its scales adjacent, so one MTE2 copy fetches both; the
older FlashMLA layout put all tokens' data of a page block first and all scales after, two copies per token.

The quantiser here is ours: each group's scale is the smallest one that keeps the group's largest magnitude
representable (a power of two for ue8m0, an e4m3 value for FP4), then every value is rounded to nearest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.model import DSA_V41
from ascend_dsa.provenance import KV_CACHE_FORMAT_PATH, Source, code_line

if TYPE_CHECKING:
    from collections.abc import Mapping

KV_CACHE_FORMAT_H = KV_CACHE_FORMAT_PATH.rsplit("/", 1)[-1]
#: MTE2 copies into UB in rows of whole 32 B blocks, so a token's UB slot is rounded up (FP8: 528 -> 544 B).
MTE2_ROW_ALIGN_BYTES: Final = 32
MTE2_ROW_ALIGN_SOURCE: Final = Source(
    "config.h: FP8_UB_TOKEN_BYTES = 544 for a 528 B token", "code", note="UB token slots are multiples of 32 B"
)

#: Our quantiser's smallest ue8m0 scale, used by all-zero and near-zero groups (an assumption, like FlashMLA's
#: test quantiser, which floors ``amax / 448`` at 1e-4 before rounding the scale up to a power of two).
_UE8M0_SCALE_FLOOR: Final = 2.0**-13

E4M3 = np.dtype(ml_dtypes.float8_e4m3fn)
E2M1 = np.dtype(ml_dtypes.float4_e2m1fn)
UE8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)
ElementKind = Literal["e4m3", "e2m1"]
ScaleKind = Literal["ue8m0", "e4m3"]
_ELEMENT_DTYPES: Final = {"e4m3": E4M3, "e2m1": E2M1}
_BITS: Final = {"e4m3": 8, "e2m1": 4}


def _nonnegative_grid(dtype: np.dtype[Any], bits: int) -> NDArray[np.float64]:
    """Every finite value >= 0 of a small float type of ``bits`` bits (one code per byte), ascending."""
    values = np.arange(2**bits, dtype=np.uint8).view(dtype).astype(np.float64)
    return np.unique(values[np.isfinite(values) & (values >= 0)])


_E4M3_GRID: Final = _nonnegative_grid(E4M3, _BITS["e4m3"])
_E2M1_GRID: Final = _nonnegative_grid(E2M1, _BITS["e2m1"])
_GRIDS: Final = {"e4m3": _E4M3_GRID, "e2m1": _E2M1_GRID}


@dataclass(frozen=True)
class KvTokenFormat:
    """How one KV token is stored: element type, dims per scale, scale type; sizes are computed, not stored."""

    name: str
    dims: int
    element: ElementKind
    dims_per_scale: int
    scale: ScaleKind
    sources: Mapping[str, Source] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        """Reject dims that the scale groups or the packing do not divide."""
        if self.dims <= 0 or self.dims_per_scale <= 0 or self.dims % self.dims_per_scale:
            raise ValueError(
                f"dims must be a positive multiple of dims_per_scale = {self.dims_per_scale}, got {self.dims}"
            )
        if self.dims * _BITS[self.element] % 8:
            raise ValueError(f"dims x element bits must fill whole bytes, got {self.dims} x {_BITS[self.element]}")
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))

    @property
    def bits_per_element(self) -> int:
        """Bits of one quantised value: 8 for e4m3, 4 for e2m1."""
        return _BITS[self.element]

    @property
    def data_bytes(self) -> int:
        """Bytes of the quantised values of one token."""
        return self.dims * _BITS[self.element] // 8

    @property
    def scale_count(self) -> int:
        """Scales per token, one per ``dims_per_scale`` dims."""
        return self.dims // self.dims_per_scale

    @property
    def scale_bytes(self) -> int:
        """Bytes of the scales of one token (one byte each)."""
        return self.scale_count

    @property
    def token_bytes(self) -> int:
        """Bytes of one token in the cache: data then scales."""
        return self.data_bytes + self.scale_bytes

    @property
    def ub_token_bytes(self) -> int:
        """Bytes one token occupies in UB after MTE2: ``token_bytes`` rounded up to 32 B."""
        return -(-self.token_bytes // MTE2_ROW_ALIGN_BYTES) * MTE2_ROW_ALIGN_BYTES

    @property
    def element_max(self) -> float:
        """Largest finite magnitude of the element type (448 for e4m3, 6 for e2m1)."""
        return float(_GRIDS[self.element][-1])


FP8_V41 = KvTokenFormat(
    name="FP8",
    dims=DSA_V41.d_qk,
    element="e4m3",
    dims_per_scale=32,
    scale="ue8m0",
    sources={
        "dims": code_line(KV_CACHE_FORMAT_H, 11),
        "element": code_line(KV_CACHE_FORMAT_H, 5, 6),
        "dims_per_scale": code_line(KV_CACHE_FORMAT_H, 16),
        "scale": code_line(KV_CACHE_FORMAT_H, 6),
    },
)
FP4_V41 = KvTokenFormat(
    name="FP4",
    dims=DSA_V41.d_qk,
    element="e2m1",
    dims_per_scale=16,
    scale="e4m3",
    sources={
        "dims": code_line(KV_CACHE_FORMAT_H, 11),
        "element": code_line(KV_CACHE_FORMAT_H, 5, 6),
        "dims_per_scale": code_line(KV_CACHE_FORMAT_H, 16),
        "scale": code_line(KV_CACHE_FORMAT_H, 6),
    },
)
KV_TOKEN_FORMATS: Final = (FP8_V41, FP4_V41)

#: Token sizes as kv_cache_format.h states them (line 19, ``BYTES_PER_TOKEN``: "528 / 288").
PUBLISHED_TOKEN_BYTES: Final = MappingProxyType({"FP8": 528, "FP4": 288})
PUBLISHED_TOKEN_BYTES_SOURCE: Final = code_line(KV_CACHE_FORMAT_H, 19)


def check_token_bytes(formats: tuple[KvTokenFormat, ...] = KV_TOKEN_FORMATS) -> None:
    """Raise `FigureMismatch` if a format's computed size differs from the one kv_cache_format.h states."""
    for fmt in formats:
        published = PUBLISHED_TOKEN_BYTES.get(fmt.name)
        if published is not None and published != fmt.token_bytes:
            raise FigureMismatch(
                f"{PUBLISHED_TOKEN_BYTES_SOURCE.citation}: a {fmt.name} token is {published} B; "
                f"ours is {fmt.data_bytes} + {fmt.scale_bytes} = {fmt.token_bytes} B"
            )


def _check_values(values: NDArray[Any], fmt: KvTokenFormat) -> NDArray[np.float32]:
    array = np.asarray(values)
    if array.ndim != 2 or array.shape[1] != fmt.dims or array.dtype.kind != "f":  # noqa: PLR2004 - two axes
        raise ValueError(f"values must be a float array of shape [tokens, {fmt.dims}], got {array.dtype} {array.shape}")
    converted = array.astype(np.float32)
    if not np.isfinite(converted).all():
        raise ValueError("values must be finite, got a NaN or an infinity")
    return converted


def _scales(amax: NDArray[np.float32], fmt: KvTokenFormat) -> NDArray[np.float32]:
    """Per group: the smallest representable scale with ``amax / scale <= element_max``."""
    need = amax.astype(np.float64) / fmt.element_max
    if fmt.scale == "ue8m0":
        floor = _UE8M0_SCALE_FLOOR
        exponent = np.ceil(np.log2(np.maximum(need, floor)))
        return np.exp2(exponent).astype(np.float32)
    grid = _E4M3_GRID[_E4M3_GRID > 0]
    if need.size and need.max() > grid[-1]:
        raise ValueError(
            f"values must have |x| <= {grid[-1] * fmt.element_max:g} for {fmt.name}, got {float(amax.max()):g}"
        )
    return grid[np.searchsorted(grid, need, side="left")].astype(np.float32)  # smallest e4m3 >= need


def _scale_codes(scales: NDArray[np.float32], fmt: KvTokenFormat) -> NDArray[np.uint8]:
    if fmt.scale == "ue8m0":
        return (np.log2(scales).astype(np.int32) + 127).astype(np.uint8)  # e8m0: the biased exponent, bias 127
    return scales.astype(E4M3).view(np.uint8)


def _scale_values(codes: NDArray[np.uint8], fmt: KvTokenFormat) -> NDArray[np.float32]:
    dtype = UE8M0 if fmt.scale == "ue8m0" else E4M3
    return np.asarray(codes.view(dtype), dtype=np.float32)


def quantize_tokens(values: NDArray[Any], fmt: KvTokenFormat) -> NDArray[np.uint8]:
    """Tokens ``[tokens, 512]`` as cache bytes ``[tokens, token_bytes]``: the data, then the scales of that token."""
    x = _check_values(values, fmt)
    tokens = x.shape[0]
    groups = x.reshape(tokens, fmt.scale_count, fmt.dims_per_scale)
    scales = _scales(np.abs(groups).max(axis=2), fmt)  # [tokens, scale_count]
    scaled = groups / scales[:, :, None]
    codes = scaled.astype(_ELEMENT_DTYPES[fmt.element]).view(np.uint8).reshape(tokens, fmt.dims)
    if fmt.element == "e2m1":
        nibbles = codes & np.uint8(0x0F)
        codes = nibbles[:, 0::2] | (nibbles[:, 1::2] << np.uint8(4))  # even dim in the low nibble
    out = np.empty((tokens, fmt.token_bytes), dtype=np.uint8)
    out[:, : fmt.data_bytes] = codes
    out[:, fmt.data_bytes :] = _scale_codes(scales, fmt)
    return out


def dequantize_tokens(raw: NDArray[Any], fmt: KvTokenFormat) -> NDArray[np.float32]:
    """Cache bytes ``[tokens, token_bytes]`` back to values ``[tokens, 512]`` (exact in bf16 as well)."""
    data = np.asarray(raw)
    if data.ndim != 2 or data.shape[1] != fmt.token_bytes or data.dtype != np.uint8:  # noqa: PLR2004
        raise ValueError(
            f"raw must be a uint8 array of shape [tokens, {fmt.token_bytes}] for {fmt.name}, "
            f"got {data.dtype} {data.shape}"
        )
    tokens = data.shape[0]
    codes = data[:, : fmt.data_bytes]
    if fmt.element == "e2m1":
        codes = np.stack([codes & np.uint8(0x0F), codes >> np.uint8(4)], axis=2).reshape(tokens, fmt.dims)
    elements = np.ascontiguousarray(codes).view(_ELEMENT_DTYPES[fmt.element]).astype(np.float32)
    scales = _scale_values(np.ascontiguousarray(data[:, fmt.data_bytes :]), fmt)  # [tokens, scale_count]
    groups = elements.reshape(tokens, fmt.scale_count, fmt.dims_per_scale) * scales[:, :, None]
    return np.asarray(groups.reshape(tokens, fmt.dims), dtype=np.float32)


def roundtrip_error_bound(values: NDArray[Any], fmt: KvTokenFormat) -> NDArray[np.float32]:
    """Per value, the most a quantise / dequantise round trip may move it: half the local grid step, times scale.

    With ``y = x / scale``, rounding to nearest moves ``y`` by at most half the gap between the two representable
    values around ``|y|``; the scale multiplies that back. A relative 2^-23 covers the float32 division.
    """
    x = _check_values(values, fmt)
    tokens = x.shape[0]
    groups = x.reshape(tokens, fmt.scale_count, fmt.dims_per_scale)
    scales = _scales(np.abs(groups).max(axis=2), fmt)[:, :, None]
    grid = _GRIDS[fmt.element]
    y = np.abs(groups.astype(np.float64)) / scales
    upper = np.minimum(np.searchsorted(grid, y, side="left"), grid.size - 1)
    lower = np.maximum(upper - 1, 0)
    half_gap = (grid[upper] - grid[lower]) / 2
    bound = half_gap * scales + np.abs(groups) * 2.0**-23
    return np.asarray(bound.reshape(tokens, fmt.dims), dtype=np.float32)


@dataclass(frozen=True)
class ByteRange:
    """``length`` bytes at ``offset`` inside a page block of the cache."""

    offset: int
    length: int


def token_byte_ranges(
    fmt: KvTokenFormat, token: int, block_tokens: int, *, adjacent: bool = True
) -> tuple[ByteRange, ...]:
    """Where one token's bytes live in a page block of ``block_tokens`` tokens: one range per MTE2 copy.

    ``adjacent`` is the kernel's layout (data and scales of a token together); otherwise the older layout, with
    the data of every token of the block first and all their scales after it.
    """
    if not 0 <= token < block_tokens:
        raise ValueError(f"token must lie in [0, block_tokens = {block_tokens}), got {token}")
    if adjacent:
        return (ByteRange(token * fmt.token_bytes, fmt.token_bytes),)
    data = ByteRange(token * fmt.data_bytes, fmt.data_bytes)
    scales = ByteRange(block_tokens * fmt.data_bytes + token * fmt.scale_bytes, fmt.scale_bytes)
    return (data, scales)


def copies_per_token(fmt: KvTokenFormat, *, adjacent: bool) -> int:
    """MTE2 copies one token needs in a layout: 1 with data and scales adjacent, 2 otherwise."""
    return len(token_byte_ranges(fmt, 0, 2, adjacent=adjacent))


def bits_per_value(fmt: KvTokenFormat) -> float:
    """Average storage per value, scales included (8.25 bits for FP8, 4.5 for FP4)."""
    return fmt.token_bytes * 8 / fmt.dims
