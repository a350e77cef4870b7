"""KV cache token formats (bf16, FP8, FP4), the two modes of the kernel that read them, and their sizes.

Report (zh) lines 218-220; kv_cache_format.h lines 5-19. A V4.1 token has ``d_qk = 512`` values (RoPE dims
included). Prefill reads them as bf16 (1024 B). FP8 stores them as 512 e4m3 bytes plus one ue8m0 scale (a power of
two) per 32 dims: 16 B of scales, 528 B in all. FP4 stores two e2m1 values per byte (even dim in the low nibble)
plus one e4m3 scale per 16 dims: 256 + 32 = 288 B. The kernel keeps a token's data and its scales adjacent, so one
MTE2 copy fetches both (report (zh) line 220); upstream's earlier ``MODEL1_FP8Sparse`` format (`MODEL1_FP8`,
584 B) put all tokens' data of a page block first and all scales after, two copies per token. In UB a token row is
padded to 32 B because MTE2 destination rows must be 32 B aligned (config.h:48-50).

Standard library only: the quantiser that writes these bytes is ``ascend_dsa.models.kv_quant``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal, TypeVar

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import KV_CACHE_FORMAT_PATH, Source, code_line, report_lines
from ascend_dsa.validate import Choice, shown

if TYPE_CHECKING:
    from collections.abc import Mapping

KV_CACHE_FORMAT_H = KV_CACHE_FORMAT_PATH.rsplit("/", 1)[-1]

#: MTE2 writes UB rows in multiples of this many bytes, so a token's UB slot is rounded up (FP8: 528 -> 544 B;
#: config.h:48-50, ``ku::ceil(BYTES_PER_TOKEN, 32u)``).
MTE2_ROW_ALIGN_BYTES: Final = 32
#: Bytes of one quantisation scale (ue8m0 for FP8, e4m3 for FP4; kv_cache_format.h:5-6).
SCALE_BYTES: Final = 1

_BITS_PER_BYTE: Final = 8

ElementKind = Literal["bf16", "e4m3", "e2m1"]
ScaleKind = Literal["ue8m0", "e4m3"]

#: Bits of one stored value of each element type.
ELEMENT_BITS: Final[Mapping[str, int]] = MappingProxyType({"bf16": 16, "e4m3": 8, "e2m1": 4})
#: Largest finite magnitude of each element type: bf16 ``(2 - 2^-7) x 2^127``; e4m3 (the ``fn`` variant, no
#: infinities) 448; e2m1 6. tests/facts/test_kv_formats.py checks each against ``ml_dtypes.finfo``.
ELEMENT_MAX: Final[Mapping[str, float]] = MappingProxyType({"bf16": (2 - 2**-7) * 2.0**127, "e4m3": 448.0, "e2m1": 6.0})
ELEMENT_MAX_SOURCE: Final = Source(
    "OCP 8-bit Floating Point Specification (OFP8) 1.0, table 1 (E4M3 max 448); "
    "OCP Microscaling Formats (MX) 1.0, section 5.3.3 (FP4 E2M1 max 6.0)",
    "derived",
    note="the largest finite value of each type, as ml_dtypes also computes it",
)


class Mode(Choice):
    """The kernel's two forward modes: prefill reads a bf16 KV cache, decode a quantised one (config.h:76)."""

    PREFILL = "prefill"
    DECODE = "decode"


class KvFormat(Choice):
    """How one KV token is stored in the cache."""

    BF16 = "bf16"
    FP8 = "fp8"
    FP4 = "fp4"


@dataclass(frozen=True)
class KvTokenFormat:
    """How one KV token is stored: element type, dims per scale, scale type; sizes are computed, not stored."""

    name: str
    dims: int
    element: ElementKind
    dims_per_scale: int | None  # None: not quantised, no scales
    scale: ScaleKind | None
    sources: Mapping[str, Source] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        """Reject an unknown element type and dims that the scale groups or the packing do not divide."""
        if self.element not in ELEMENT_BITS:
            raise ValueError(f"element must be one of {', '.join(ELEMENT_BITS)}, got {shown(self.element)}")
        if (self.dims_per_scale is None) != (self.scale is None):
            raise ValueError(
                f"dims_per_scale and scale must be both given or both None, got {self.dims_per_scale}, {self.scale}"
            )
        if self.dims <= 0 or (
            self.dims_per_scale is not None and (self.dims_per_scale <= 0 or self.dims % self.dims_per_scale)
        ):
            raise ValueError(
                f"dims must be a positive multiple of dims_per_scale = {self.dims_per_scale}, got {self.dims}"
            )
        if self.dims * self.bits_per_element % _BITS_PER_BYTE:
            raise ValueError(f"dims x element bits must fill whole bytes, got {self.dims} x {self.bits_per_element}")
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))

    @property
    def bits_per_element(self) -> int:
        """Bits of one stored value: 16 for bf16, 8 for e4m3, 4 for e2m1."""
        return ELEMENT_BITS[self.element]

    @property
    def data_bytes(self) -> int:
        """Bytes of the token's values: 1024 (bf16), 512 (FP8), 256 (FP4) at ``d_qk = 512``."""
        return self.dims * self.bits_per_element // _BITS_PER_BYTE

    @property
    def scale_count(self) -> int:
        """Scales per token, one per ``dims_per_scale`` dims: 0 (bf16), 16 (FP8), 32 (FP4)."""
        return 0 if self.dims_per_scale is None else self.dims // self.dims_per_scale

    @property
    def scale_bytes(self) -> int:
        """Bytes of the scales of one token (one byte each)."""
        return self.scale_count * SCALE_BYTES

    @property
    def token_bytes(self) -> int:
        """Bytes of one token in the cache, data then scales: 1024, 528, 288."""
        return self.data_bytes + self.scale_bytes

    @property
    def ub_token_bytes(self) -> int:
        """Bytes one token occupies in UB after MTE2: ``token_bytes`` rounded up to 32 B (1024, 544, 288)."""
        return -(-self.token_bytes // MTE2_ROW_ALIGN_BYTES) * MTE2_ROW_ALIGN_BYTES

    @property
    def element_max(self) -> float:
        """Largest finite magnitude of the element type (448 for e4m3, 6 for e2m1)."""
        return ELEMENT_MAX[self.element]

    def for_model(self, model: ModelShape) -> KvTokenFormat:
        """This format for a model whose tokens have ``model.d_qk`` values."""
        return dataclasses.replace(self, dims=_model(model).d_qk)


_QUANTISED_SOURCES: Final = {
    "dims": code_line(KV_CACHE_FORMAT_H, 11),
    "element": code_line(KV_CACHE_FORMAT_H, 5, 6),
    "dims_per_scale": code_line(KV_CACHE_FORMAT_H, 16),
    "scale": code_line(KV_CACHE_FORMAT_H, 6),
}

BF16_V41 = KvTokenFormat(
    name="BF16",
    dims=DSA_V41.d_qk,
    element="bf16",
    dims_per_scale=None,
    scale=None,
    sources={
        "dims": DSA_V41.sources["d_qk"],
        "element": Source((report_lines(152), "config.h:76 (bf16 KV in prefill)"), "code"),
    },
)
FP8_V41 = KvTokenFormat(
    name="FP8", dims=DSA_V41.d_qk, element="e4m3", dims_per_scale=32, scale="ue8m0", sources=_QUANTISED_SOURCES
)
FP4_V41 = KvTokenFormat(
    name="FP4", dims=DSA_V41.d_qk, element="e2m1", dims_per_scale=16, scale="e4m3", sources=_QUANTISED_SOURCES
)
#: The quantised formats a decode cache holds (what the quantiser writes).
KV_TOKEN_FORMATS: Final = (FP8_V41, FP4_V41)
#: The V4.1 token format of each cache format.
TOKEN_FORMATS: Final[Mapping[KvFormat, KvTokenFormat]] = MappingProxyType(
    {KvFormat.BF16: BF16_V41, KvFormat.FP8: FP8_V41, KvFormat.FP4: FP4_V41}
)

#: Token sizes as kv_cache_format.h states them (line 19, ``BYTES_PER_TOKEN``: "528 / 288").
PUBLISHED_TOKEN_BYTES: Final = MappingProxyType({"FP8": 528, "FP4": 288})
PUBLISHED_TOKEN_BYTES_SOURCE: Final = code_line(KV_CACHE_FORMAT_H, 19)


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


def check_token_bytes(formats: tuple[KvTokenFormat, ...] = KV_TOKEN_FORMATS) -> None:
    """Raise [`FigureMismatch`][] if a format's computed size differs from the one kv_cache_format.h states."""
    if not isinstance(formats, tuple) or not all(isinstance(f, KvTokenFormat) for f in formats):
        raise TypeError(f"formats must be a tuple of KvTokenFormat, got {shown(formats)}")
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
    """``fmt`` itself, or the quantised format named ``fmt`` (``"fp8"``, ``"FP4"``); TypeError or ValueError else."""
    if isinstance(fmt, KvTokenFormat):
        return fmt
    names = ", ".join(f.name for f in KV_TOKEN_FORMATS)
    if not isinstance(fmt, str):
        raise TypeError(f"fmt must be a KvTokenFormat or one of the names {names}, got {type(fmt).__name__}")
    for known in KV_TOKEN_FORMATS:
        if known.name.lower() == fmt.lower():
            return known
    raise ValueError(f"fmt must be a KvTokenFormat or one of the names {names}, got {shown(fmt)}")


def bits_per_value(fmt: KvTokenFormat | str) -> float:
    """Average storage per value, scales included (8.25 bits for FP8, 4.5 for FP4)."""
    fmt = token_format(fmt)
    return fmt.token_bytes * _BITS_PER_BYTE / fmt.dims


_E = TypeVar("_E", bound=StrEnum)


def _member(name: str, value: object, kind: type[_E]) -> _E:
    """``value`` as a member of ``kind`` (a member or its string value); TypeError or ValueError otherwise."""
    names = ", ".join(m.value for m in kind)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {names}, got {type(value).__name__} {shown(value)}")
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"{name} must be one of {names}, got {shown(value)}") from None


def _model(model: object) -> ModelShape:
    if not isinstance(model, ModelShape):
        raise TypeError(f"model must be a ModelShape, got {type(model).__name__}")
    return model


def kv_token_format(kv_format: KvFormat | str, model: ModelShape = DSA_V41) -> KvTokenFormat:
    """The token format of ``kv_format`` for ``model`` (``d_qk`` values per token)."""
    return TOKEN_FORMATS[_member("kv_format", kv_format, KvFormat)].for_model(_model(model))


def kv_bytes_per_token(kv_format: KvFormat | str, model: ModelShape = DSA_V41) -> int:
    """Bytes one cached token of ``kv_format`` occupies, data and scales together."""
    return kv_token_format(kv_format, model).token_bytes


def default_main_cache(mode: Mode | str) -> KvFormat:
    """The main cache format each mode reads: bf16 in prefill, FP8 in decode (config.h:76)."""
    return KvFormat.BF16 if _member("mode", mode, Mode) is Mode.PREFILL else KvFormat.FP8
