"""KV cache token formats (bf16, FP8, FP4) and the two modes of the kernel that read them.

A token stores its ``d_qk`` values and, when quantised, one 1-byte scale per tile of dimensions right after the
data, so one MTE2 copy fetches both (report (zh) line 220). In UB a token row is padded to 32 B because MTE2
destination rows must be 32 B aligned (config.h:48-50).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, TypeVar

from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import Source
from ascend_dsa.models.kv_quant import FP4_V41, FP8_V41

if TYPE_CHECKING:
    from collections.abc import Mapping

#: MTE2 writes UB rows in multiples of this many bytes (config.h:48-50, ``ku::ceil(BYTES_PER_TOKEN, 32u)``).
MTE2_ROW_ALIGN_BYTES: Final = 32
#: Bytes of one quantisation scale (ue8m0 for FP8, e4m3 for FP4; kv_cache_format.h:5-6).
SCALE_BYTES: Final = 1

_BITS_PER_BYTE: Final = 8


class Mode(StrEnum):
    """The kernel's two forward modes: prefill reads a bf16 KV cache, decode a quantised one (config.h:76)."""

    PREFILL = "prefill"
    DECODE = "decode"


class KvFormat(StrEnum):
    """How one KV token is stored in the cache."""

    BF16 = "bf16"
    FP8 = "fp8"
    FP4 = "fp4"


@dataclass(frozen=True)
class KvTokenLayout:
    """Bits per value and dimensions per scale of one cache format; sizes follow from the model's ``d_qk``."""

    kv_format: KvFormat
    bits_per_value: int
    dims_per_scale: int | None  # None: not quantised, no scales
    source: Source

    def data_bytes(self, model: ModelShape = DSA_V41) -> int:
        """Bytes of the token's values: 1024 (bf16), 512 (FP8), 256 (FP4) at ``d_qk = 512``."""
        return _model(model).d_qk * self.bits_per_value // _BITS_PER_BYTE

    def scales_per_token(self, model: ModelShape = DSA_V41) -> int:
        """Scales stored after the data: 0 (bf16), 16 (FP8, one per 32 dims), 32 (FP4, one per 16 dims)."""
        return 0 if self.dims_per_scale is None else _model(model).d_qk // self.dims_per_scale

    def bytes_per_token(self, model: ModelShape = DSA_V41) -> int:
        """Bytes of one token in the cache, data and scales together: 1024, 528, 288."""
        return self.data_bytes(model) + self.scales_per_token(model) * SCALE_BYTES

    def ub_row_bytes(self, model: ModelShape = DSA_V41) -> int:
        """Bytes of one token's row in UB, padded to 32 B: 1024, 544, 288."""
        return -(-self.bytes_per_token(model) // MTE2_ROW_ALIGN_BYTES) * MTE2_ROW_ALIGN_BYTES


KV_TOKEN_LAYOUTS: Final[Mapping[KvFormat, KvTokenLayout]] = MappingProxyType(
    {
        KvFormat.BF16: KvTokenLayout(
            KvFormat.BF16, 16, None, Source("report (zh) line 152; config.h:76 (bf16 KV in prefill)", "code")
        ),
        KvFormat.FP8: KvTokenLayout(
            KvFormat.FP8, FP8_V41.bits_per_element, FP8_V41.dims_per_scale, FP8_V41.sources["dims_per_scale"]
        ),
        KvFormat.FP4: KvTokenLayout(
            KvFormat.FP4, FP4_V41.bits_per_element, FP4_V41.dims_per_scale, FP4_V41.sources["dims_per_scale"]
        ),
    }
)


_E = TypeVar("_E", bound=StrEnum)


def _member(name: str, value: object, kind: type[_E]) -> _E:
    """``value`` as a member of ``kind`` (a member or its string value); TypeError or ValueError otherwise."""
    names = ", ".join(m.value for m in kind)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {names}, got {type(value).__name__} {value!r}")
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"{name} must be one of {names}, got {value!r}") from None


def _model(model: object) -> ModelShape:
    if not isinstance(model, ModelShape):
        raise TypeError(f"model must be a ModelShape, got {type(model).__name__}")
    return model


def kv_bytes_per_token(kv_format: KvFormat | str, model: ModelShape = DSA_V41) -> int:
    """Bytes one cached token of ``kv_format`` occupies, data and scales together."""
    return KV_TOKEN_LAYOUTS[_member("kv_format", kv_format, KvFormat)].bytes_per_token(_model(model))


def default_main_cache(mode: Mode | str) -> KvFormat:
    """The main cache format each mode reads: bf16 in prefill, FP8 in decode (config.h:76)."""
    return KvFormat.BF16 if _member("mode", mode, Mode) is Mode.PREFILL else KvFormat.FP8
