"""The what-if notebook's variants of the Ascend 950, kept here so that its prose can quote their numbers.

Each variant changes one hardware constant with
[`ChipSpec.with_overrides`][ascend_dsa.facts.hardware.ChipSpec.with_overrides], which marks it as a what-if
assumption; `compute_bound_heads` answers, per topk, how many heads per AI Core stay compute-bound.
"""

from __future__ import annotations

from typing import Final

from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.models.design_point import KvCache, smallest_compute_bound_heads

#: The topk values the notebook asks about: the report's two and one larger.
WHAT_IF_TOPK: Final = (512, 1024, 2048)
#: AI Cores in the "fewer cores" variant.
FEWER_AI_CORES: Final = 24


def with_half_l2(spec: AscendSpec = ASCEND_950) -> AscendSpec:
    """``spec`` with half its L2 bandwidth."""
    spec = require_ascend("spec", spec)
    return spec.with_overrides(bandwidth_bytes_per_s=spec.bandwidth_bytes_per_s / 2)


def with_fewer_cores(spec: AscendSpec = ASCEND_950, ai_cores: int = FEWER_AI_CORES) -> AscendSpec:
    """``spec`` with ``ai_cores`` AI Cores sharing the same L2."""
    spec = require_ascend("spec", spec)
    return spec.with_overrides(cores=ai_cores)


def compute_bound_heads(spec: AscendSpec, kv_cache: KvCache = KvCache.BF16) -> dict[int, int | None]:
    """For each topk of `WHAT_IF_TOPK`, the fewest heads per AI Core that are compute-bound on ``spec``."""
    return {topk: smallest_compute_bound_heads(spec, topk, kv_cache) for topk in WHAT_IF_TOPK}
