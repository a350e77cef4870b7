"""The attention shapes of the model the kernel serves (DeepSeek V4.1 sparse attention)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from ascend_dsa.facts.provenance import Source, report_line, report_lines
from ascend_dsa.units import BF16_BYTES
from ascend_dsa.validate import LARGEST_EXACT_WHOLE, require_int

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class ModelShape:
    """Head dimensions and element size of the attention the kernel computes."""

    d_qk: int
    d_v: int
    element_bytes: int
    sources: Mapping[str, Source] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        """Reject non-positive sizes and a value head wider than the key head."""
        for name in ("d_qk", "d_v", "element_bytes"):
            object.__setattr__(
                self, name, require_int(name, getattr(self, name), minimum=1, maximum=LARGEST_EXACT_WHOLE)
            )
        if self.d_v > self.d_qk:
            raise ValueError(f"d_v must be at most d_qk = {self.d_qk}, got {self.d_v}")
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))


DSA_V41 = ModelShape(
    d_qk=512,
    d_v=512,
    element_bytes=BF16_BYTES,
    sources={
        "d_qk": Source((report_lines(88), "config.h:41"), "report"),
        "d_v": Source((report_lines(88), "config.h:42"), "report"),
        "element_bytes": report_line(97),
    },
)
