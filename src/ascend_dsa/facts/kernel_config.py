"""The kernel's compile-time configuration (config.h), each constant with its source line.

``KernelConfig`` is the design point as the kernel ships it; what-if variants come from
[`KernelConfig.with_overrides`][]. Quantities derived from it (``mma_m``, the per-VECTOR-Core block) are
properties, not fields.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from ascend_dsa.facts.hardware import PER_CORE_COUNT_RANGE, AscendSpec, require_ascend
from ascend_dsa.facts.model_shape import ModelShape
from ascend_dsa.facts.provenance import Source, check_sources, code_line, report_lines, what_if_source
from ascend_dsa.validate import (
    LARGEST_EXACT_WHOLE,
    Plausible,
    door,
    require_finite,
    require_instance,
    require_int,
    require_plausible,
    shown,
)

#: Rows of the MMA are padded to a multiple of this (config.h:28, ``ku::ceil(H_Q, 32u)``).
MMA_M_GRANULE_ROWS = 32
#: Tokens one gather2 request copies: ``burst_count = 2`` (report (zh) line 216).
GATHER2_TOKENS_PER_REQUEST = 2

#: Plausible q heads per AI Core, from 1 to 4,096: one MMA row each. The kernel ships 64 (report (zh) line 168) and
#: the report's grid reaches 128 (line 94); FlashMLA's sparse decoding shape has 128 q heads and packs s_q = 2 query
#: tokens per head into the rows (``facts.hopper_figures.SPARSE_DECODE_SHAPE``): 4,096 rows is 16 times the 256
#: that makes.
HEADS_RANGE: Final = Plausible(1, 4096, "heads")
#: Plausible counts of KV tokens (topk, B_TOPK, INDEX_BLOCK_SIZE), from 1 to 2^20: a query attends to at most its
#: context, and 2^20 = 1,048,576 tokens is a million-token context, the longest served, 512 times the topk of 2,048 in
#: FlashMLA's sparse decoding shape. It is also the largest value a design sweep's int64 products take safely
#: (``models.design_sweep.LARGEST_GRID_VALUE``).
TOKENS_RANGE: Final = Plausible(1, 2**20, "tokens")

#: The plausible range of each configuration field a what-if changes (the others are the kernel's constants, any
#: positive whole number).
CONFIG_RANGES: Final = MappingProxyType(
    {
        "heads_per_core": HEADS_RANGE,
        "b_topk": TOKENS_RANGE,
        "index_block_size": TOKENS_RANGE,
        "vector_cores_per_cube": PER_CORE_COUNT_RANGE,
    }
)


def require_heads(name: str, value: object) -> int:
    """``value`` as q heads per AI Core: a whole number in ``HEADS_RANGE`` (TypeError or ValueError naming it)."""
    return require_plausible(name, require_int(name, value, minimum=1, maximum=LARGEST_EXACT_WHOLE), HEADS_RANGE)


def require_tokens(name: str, value: object) -> int:
    """``value`` as a count of KV tokens: a whole number in ``TOKENS_RANGE`` (TypeError or ValueError naming it)."""
    return require_plausible(name, require_int(name, value, minimum=1, maximum=LARGEST_EXACT_WHOLE), TOKENS_RANGE)


def _override_sources(config: KernelConfig, changes: Mapping[str, object]) -> dict[str, Source]:
    """``config``'s sources with each changed field marked as a what-if assumption."""
    sources = dict(config.sources)
    for name, value in changes.items():
        sources[name] = what_if_source(f"{name} set to {value!r}")
    return sources


def _with_checked_overrides(config: KernelConfig, **changes: int) -> KernelConfig:
    """[`KernelConfig.with_overrides`][] for whole numbers already checked as its fields would be (a DesignPoint's).

    The copy is the one ``with_overrides`` makes, without checking the fourteen fields once more.
    """
    clone = copy.copy(config)  # no __init__, so no __post_init__: its fields are config's, checked already
    for name, value in changes.items():
        object.__setattr__(clone, name, value)
    object.__setattr__(clone, "sources", MappingProxyType(_override_sources(config, changes)))
    return clone


@dataclass(frozen=True)
class KernelConfig:
    """Tile sizes, buffer counts and thresholds of one kernel instantiation."""

    heads_per_core: int
    b_topk: int
    vector_cores_per_cube: int
    index_block_size: int
    rescale_threshold: float
    output_frag_d_vo: int
    output_frag_buffers: int
    l0a_buffers: int
    l1_q_buffers: int
    l1_kv_buffers: int
    ub_kv_buffers: int
    index_buffers: int
    fractal_rows: int
    fractal_cols: int
    sources: Mapping[str, Source] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        """Reject missing or unknown sources, a float in a whole-number field and a value not positive and finite.

        Whole-number fields take any integer type (``np.int64(64)`` too) and are stored as ``int``; the rescale
        threshold takes any real number and is stored as ``float``. A field a what-if changes must also lie in its
        plausible range (``CONFIG_RANGES``).
        """
        if not isinstance(self.sources, Mapping):
            raise TypeError(f"sources must map field names to Source, got {shown(self.sources)}")
        names = config_fields()
        check_sources(self.sources, names, "config")
        for name in names:
            value = getattr(self, name)
            if name in whole_number_fields():
                checked: float = require_int(name, value, minimum=1, maximum=LARGEST_EXACT_WHOLE)
            else:
                checked = require_finite(name, value, positive=True)
            if name in CONFIG_RANGES:
                checked = require_plausible(name, checked, CONFIG_RANGES[name])
            object.__setattr__(self, name, checked)
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))

    @property
    def mma_m(self) -> int:
        """MMA rows: q heads per AI Core rounded up to a multiple of 32 (config.h:28)."""
        return -(-self.heads_per_core // MMA_M_GRANULE_ROWS) * MMA_M_GRANULE_ROWS

    @property
    def mma_m_per_vector_core(self) -> int:
        """Rows of P and O each VECTOR Core owns (config.h:54)."""
        return self.mma_m // self.vector_cores_per_cube

    @property
    def b_topk_per_vector_core(self) -> int:
        """KV tokens of one block each VECTOR Core gathers (config.h:56)."""
        return self.b_topk // self.vector_cores_per_cube

    @door(_with_checked_overrides)
    def with_overrides(self, **changes: Any) -> KernelConfig:  # noqa: ANN401 - checked by __post_init__
        """A copy with some fields changed, each marked as a what-if assumption."""
        unknown = sorted(set(changes) - set(config_fields()))
        if unknown:
            raise ValueError(f"cannot override {', '.join(unknown)}; expected one of {', '.join(config_fields())}")
        return dataclasses.replace(self, sources=_override_sources(self, changes), **changes)


def require_spec_config_model(
    spec: object, config: object, model: object
) -> tuple[AscendSpec, KernelConfig, ModelShape]:
    """The chip, kernel configuration and model a model function starts from, each checked to be of its class."""
    return (
        require_ascend("spec", spec),
        require_instance("config", config, KernelConfig),
        require_instance("model", model, ModelShape),
    )


def config_fields() -> tuple[str, ...]:
    """The names of the configuration fields that carry a value and a source."""
    return tuple(f.name for f in dataclasses.fields(KernelConfig) if f.name != "sources")


def whole_number_fields() -> tuple[str, ...]:
    """The configuration fields that count things (heads, tokens, buffers): whole numbers, never floats."""
    return tuple(f.name for f in dataclasses.fields(KernelConfig) if f.type == "int")


SHIPPED_KERNEL = KernelConfig(
    heads_per_core=64,
    b_topk=64,
    vector_cores_per_cube=2,
    index_block_size=640,
    rescale_threshold=6.0,
    output_frag_d_vo=128,
    output_frag_buffers=2,
    l0a_buffers=4,
    l1_q_buffers=2,
    l1_kv_buffers=4,
    ub_kv_buffers=3,
    index_buffers=4,
    fractal_rows=16,
    fractal_cols=16,
    sources={
        "heads_per_core": Source((report_lines(168), "H_Q = 64 in every instantiation"), "code"),
        "b_topk": code_line("config.h", 55),
        "vector_cores_per_cube": code_line("config.h", 53),
        "index_block_size": Source("INDEX_BLOCK_SIZE = 640 in all six instantiations", "code"),
        "rescale_threshold": Source(("config.h:43", report_lines(57)), "code"),
        "output_frag_d_vo": code_line("config.h", 59),
        "output_frag_buffers": code_line("config.h", 60),
        "l0a_buffers": code_line("config.h", 64),
        "l1_q_buffers": code_line("config.h", 66),
        "l1_kv_buffers": code_line("config.h", 67),
        "ub_kv_buffers": code_line("config.h", 68),
        "index_buffers": code_line("config.h", 69),
        "fractal_rows": code_line("config.h", 71),
        "fractal_cols": code_line("config.h", 72),
    },
)
