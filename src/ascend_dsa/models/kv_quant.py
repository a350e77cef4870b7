"""Quantised KV cache token formats for decoding: FP8 (528 B) and FP4 (288 B), data and scales side by side.

Report (zh) lines 218-220; kv_cache_format.h lines 5-19. A V4.1 token has ``d_qk = 512`` values (RoPE dims
included). FP8 stores them as 512 e4m3 bytes plus one ue8m0 scale (a power of two) per 32 dims: 16 B of scales,
528 B in all. FP4 stores two e2m1 values per byte (even dim in the low nibble) plus one e4m3 scale per 16 dims:
256 + 32 = 288 B. The kernel keeps a token's data and its scales adjacent, so one MTE2 copy fetches both; upstream's
earlier ``MODEL1_FP8Sparse`` format (`MODEL1_FP8`, 584 B) put all tokens' data of a page block first and all
scales after, two copies per token.

The quantiser produces the bytes of FlashMLA's test quantiser (tests/quant.py @ 9a7d253, ``quantize_k_cache``), the
cache a reader of upstream's tests compares with. In float32, per group: FP8's scale is
``2^ceil(log2(max(amax / 448, 1e-4)))`` (lines 26-27, 81-83); FP4's is ``amax / 6`` rounded to the nearest e4m3 and
clamped to ``[2^-9, 448]`` (line 114), so values may saturate at ``+-6 x scale`` (lines 29-51). Every value is then
``x / scale`` rounded to nearest, ties to even.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.facts.provenance import KV_CACHE_FORMAT_PATH, Source, code_line
from ascend_dsa.validate import require_array, require_int

if TYPE_CHECKING:
    from collections.abc import Mapping

KV_CACHE_FORMAT_H = KV_CACHE_FORMAT_PATH.rsplit("/", 1)[-1]
#: MTE2 copies into UB in rows of whole 32 B blocks, so a token's UB slot is rounded up (FP8: 528 -> 544 B).
MTE2_ROW_ALIGN_BYTES: Final = 32
MTE2_ROW_ALIGN_SOURCE: Final = Source(
    "config.h: FP8_UB_TOKEN_BYTES = 544 for a 528 B token", "code", note="UB token slots are multiples of 32 B"
)

#: FlashMLA's floor on ``amax / 448`` before the ue8m0 scale is rounded up to a power of two (tests/quant.py:27).
UE8M0_SCALE_INV_FLOOR: Final = 1e-4
#: FlashMLA's clamp of the FP4 e4m3 scale: the smallest e4m3 subnormal and the largest e4m3 (tests/quant.py:114).
E4M3_SCALE_RANGE: Final = (2.0**-9, 448.0)
QUANT_PY_SOURCE: Final = Source("FlashMLA tests/quant.py @ 9a7d253, quantize_k_cache (lines 58-133)", "code")

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
    """Raise [`FigureMismatch`][] if a format's computed size differs from the one kv_cache_format.h states."""
    if not isinstance(formats, tuple) or not all(isinstance(f, KvTokenFormat) for f in formats):
        raise TypeError(f"formats must be a tuple of KvTokenFormat, got {formats!r}")
    if MODEL1_FP8.token_bytes != PUBLISHED_MODEL1_TOKEN_BYTES:
        raise FigureMismatch(
            f"{MODEL1_FP8.source.citation}: a MODEL1 token is {PUBLISHED_MODEL1_TOKEN_BYTES} B; "
            f"ours is {MODEL1_FP8.data_bytes} + {MODEL1_FP8.scale_bytes} = {MODEL1_FP8.token_bytes} B"
        )
    for fmt in formats:
        published = PUBLISHED_TOKEN_BYTES.get(fmt.name)
        if published is not None and published != fmt.token_bytes:
            raise FigureMismatch(
                f"{PUBLISHED_TOKEN_BYTES_SOURCE.citation}: a {fmt.name} token is {published} B; "
                f"ours is {fmt.data_bytes} + {fmt.scale_bytes} = {fmt.token_bytes} B"
            )


def token_format(fmt: object) -> KvTokenFormat:
    """``fmt`` itself, or the format of that name (``"fp8"``, ``"FP4"``); TypeError or ValueError otherwise."""
    if isinstance(fmt, KvTokenFormat):
        return fmt
    names = ", ".join(f.name for f in KV_TOKEN_FORMATS)
    if not isinstance(fmt, str):
        raise TypeError(f"fmt must be a KvTokenFormat or one of the names {names}, got {type(fmt).__name__}")
    for known in KV_TOKEN_FORMATS:
        if known.name.lower() == fmt.lower():
            return known
    raise ValueError(f"fmt must be a KvTokenFormat or one of the names {names}, got {fmt!r}")


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
    fmt = token_format(fmt)
    x = _check_values(values, fmt)
    tokens = x.shape[0]
    groups = x.reshape(tokens, fmt.scale_count, fmt.dims_per_scale)
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
    fmt = token_format(fmt)
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
    fmt = token_format(fmt)
    x = _check_values(values, fmt)
    tokens = x.shape[0]
    groups = x.reshape(tokens, fmt.scale_count, fmt.dims_per_scale)
    scales = _scales(np.abs(groups).max(axis=2), fmt)[:, :, None]
    grid = _GRIDS[fmt.element]
    y = np.abs(groups.astype(np.float64)) / scales
    upper = np.minimum(np.searchsorted(grid, y, side="left"), grid.size - 1)
    lower = np.maximum(upper - 1, 0)
    half_gap = np.maximum((grid[upper] - grid[lower]) / 2, y - grid[-1])  # beyond the top: saturation
    bound = half_gap * scales + np.abs(groups) * 2.0**-23
    return np.asarray(bound.reshape(tokens, fmt.dims), dtype=np.float32)


@dataclass(frozen=True)
class SplitTokenLayout:
    """An earlier FlashMLA cache layout: a page block stores every token's data first and all their scales after.

    ``MODEL1_FP8Sparse`` (tests/quant.py @ 520fec6, lines 14 and 55-62): the 448 NoPE dims in e4m3, the 64 RoPE
    dims kept in bf16, then, after the data of the whole block, 7 ue8m0 scales (one per 64 NoPE dims) and 1 pad
    byte per token. Fetching one token takes two MTE2 copies, one per region.
    """

    name: str
    nope_dims: int
    rope_dims: int
    rope_bytes_per_dim: int
    dims_per_scale: int
    scale_pad_bytes: int
    source: Source

    @property
    def data_bytes(self) -> int:
        """Bytes of one token's data: NoPE in e4m3 plus RoPE in bf16 (448 + 128 = 576)."""
        return self.nope_dims + self.rope_dims * self.rope_bytes_per_dim

    @property
    def scale_bytes(self) -> int:
        """Bytes of one token's scales, padding included (7 + 1 = 8)."""
        return self.nope_dims // self.dims_per_scale + self.scale_pad_bytes

    @property
    def token_bytes(self) -> int:
        """Bytes of one token in the cache, counting both regions (584)."""
        return self.data_bytes + self.scale_bytes


MODEL1_FP8 = SplitTokenLayout(
    name="MODEL1 FP8",
    nope_dims=448,
    rope_dims=64,
    rope_bytes_per_dim=2,
    dims_per_scale=64,
    scale_pad_bytes=1,
    source=Source("FlashMLA tests/quant.py @ 520fec6, lines 14 and 55-62 (MODEL1_FP8Sparse)", "code"),
)
#: The earlier token size, as upstream computes it (``d_nope + 2 * d_rope + num_tiles + 1``, tests/quant.py:56).
PUBLISHED_MODEL1_TOKEN_BYTES: Final = 584


@dataclass(frozen=True)
class ByteRange:
    """``length`` bytes at ``offset`` inside a page block of the cache."""

    offset: int
    length: int


def token_byte_ranges(
    layout: KvTokenFormat | SplitTokenLayout, token: int, block_tokens: int, *, adjacent: bool = True
) -> tuple[ByteRange, ...]:
    """Where one token's bytes live in a page block of ``block_tokens`` tokens: one range per MTE2 copy.

    A [`KvTokenFormat`][] with ``adjacent`` is the kernel's layout (data and scales of a token together, one
    range). A [`SplitTokenLayout`][] stores the data of every token of the block first and all their scales
    after, as upstream's earlier MODEL1 format did. A [`KvTokenFormat`][] with ``adjacent=False`` is hypothetical:
    V4.1 sizes in that split arrangement, which no upstream format used.
    """
    if not isinstance(layout, KvTokenFormat | SplitTokenLayout):
        raise TypeError(f"layout must be a KvTokenFormat or a SplitTokenLayout, got {type(layout).__name__}")
    if not isinstance(adjacent, bool):
        raise TypeError(f"adjacent must be a bool, got {type(adjacent).__name__}")
    tokens = require_int("block_tokens", block_tokens, minimum=1)
    index = require_int("token", token, minimum=0)
    if index >= tokens:
        raise ValueError(f"token must lie in [0, block_tokens = {tokens}), got {index}")
    if isinstance(layout, KvTokenFormat) and adjacent:
        return (ByteRange(index * layout.token_bytes, layout.token_bytes),)
    data = ByteRange(index * layout.data_bytes, layout.data_bytes)
    scales = ByteRange(tokens * layout.data_bytes + index * layout.scale_bytes, layout.scale_bytes)
    return (data, scales)


def copies_per_token(layout: KvTokenFormat | SplitTokenLayout, *, adjacent: bool = True) -> int:
    """MTE2 copies one token needs: 1 with data and scales adjacent, 2 in a split layout."""
    return len(token_byte_ranges(layout, 0, 2, adjacent=adjacent))


def bits_per_value(fmt: KvTokenFormat | str) -> float:
    """Average storage per value, scales included (8.25 bits for FP8, 4.5 for FP4)."""
    fmt = token_format(fmt)
    return fmt.token_bytes * 8 / fmt.dims
