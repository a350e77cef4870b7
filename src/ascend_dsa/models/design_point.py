"""A design point of the kernel and every hardware limit it must respect, side by side.

A design point fixes q heads per AI Core, topk, B_TOPK, VECTOR Cores per CUBE Core (1 or 2), the KV cache it reads
(bf16 in prefill, FP8 or FP8 + an FP4 extra cache in decode), the attention sink and INDEX_BLOCK_SIZE. Each limit
compares a demand with a capacity in the same unit:

============================  =====================================  ==========================================
limit                         demand                                  capacity
============================  =====================================  ==========================================
L2 roofline                   L2 cycles per query token               CUBE cycles per query token
FixPipe, O every block        FixPipe cycles per block, O and P       MMA cycles per block
FixPipe, P only (skip-scale)  FixPipe cycles per block, P only        MMA cycles per block
L0C                           bytes of O and P                        L0C size
UB                            bytes of the UB plan                    UB size per VECTOR Core
MTE2 queue                    gather2 requests per block, per core    outstanding MTE2 requests
L1 bank                       bytes in the fuller bank                bytes per bank
============================  =====================================  ==========================================

The limit with the largest demand / capacity binds; a design point whose every ratio is at most 1 fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from ascend_dsa.facts.assumptions import FIXPIPE_1C2V, FIXPIPE_1C2V_SPEEDUP, FP4_EXTRA_ROOFLINE, based_on
from ascend_dsa.facts.hardware import AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import (
    SHIPPED_KERNEL,
    KernelConfig,
    require_heads,
    require_spec_config_model,
    require_tokens,
)
from ascend_dsa.facts.kernel_rules import check_kernel_rules
from ascend_dsa.facts.kv_formats import KvFormat, Mode, kv_bytes_per_token
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import ReportLines, Source, report_lines
from ascend_dsa.models.block_cycles import fixpipe_cycles_per_block, mma_cycles_per_block
from ascend_dsa.models.memory_plans import l0c_used_bytes, l1_plan, ub_plan
from ascend_dsa.models.mte2 import requests_per_block
from ascend_dsa.models.roofline import REPORT_TOPK, cube_cycles, l2_cycles
from ascend_dsa.validate import (
    Choice,
    door,
    finite_result,
    require_bool,
    require_instance,
    require_int,
    shown,
)

#: How FixPipe bandwidth grows with VECTOR Cores (an assumption: the report gives the 1C1V rate only).
FIXPIPE_SCALING_SOURCE: Final = FIXPIPE_1C2V.source
#: The roofline of an FP8 + FP4 design counts every token at the FP8 size: an upper bound on its L2 traffic.
FP4_EXTRA_ROOFLINE_SOURCE: Final = FP4_EXTRA_ROOFLINE.source


class KvCache(Choice):
    """The KV cache a design point reads: its mode follows (bf16 in prefill; FP8, with or without FP4, in decode)."""

    BF16 = "bf16"
    FP8 = "fp8"
    FP8_FP4 = "fp8+fp4"

    @property
    def mode(self) -> Mode:
        """Prefill for bf16, decode for the quantised caches."""
        return Mode.PREFILL if self is KvCache.BF16 else Mode.DECODE

    @property
    def main_cache(self) -> KvFormat:
        """The main cache's token format."""
        return KvFormat.BF16 if self is KvCache.BF16 else KvFormat.FP8

    @property
    def fp4_extra(self) -> bool:
        """True when an FP4 extra cache sits next to the main one."""
        return self is KvCache.FP8_FP4


class Limit(Choice):
    """The hardware limits a design point is checked against, in the order ties are broken."""

    L2_ROOFLINE = "l2-roofline"
    FIXPIPE_O_EVERY_BLOCK = "fixpipe-o-every-block"
    FIXPIPE_P_ONLY = "fixpipe-p-only"
    L0C = "l0c"
    UB = "ub"
    MTE2_QUEUE = "mte2-queue"
    L1_BANK = "l1-bank"


#: Every limit, in tie-break order.
LIMITS: Final = tuple(Limit)

#: Unit of demand and capacity for each limit.
LIMIT_UNITS: Final = {
    Limit.L2_ROOFLINE: "cycles/token",
    Limit.FIXPIPE_O_EVERY_BLOCK: "cycles/block",
    Limit.FIXPIPE_P_ONLY: "cycles/block",
    Limit.L0C: "B",
    Limit.UB: "B",
    Limit.MTE2_QUEUE: "requests",
    Limit.L1_BANK: "B",
}

#: Where each limit's demand and capacity come from.
LIMIT_SOURCES: Final = {
    Limit.L2_ROOFLINE: Source(report_lines(85, 99), "report"),
    Limit.FIXPIPE_O_EVERY_BLOCK: based_on(FIXPIPE_1C2V, "the report's formula of line 142 at 1C1V"),
    Limit.FIXPIPE_P_ONLY: based_on(
        FIXPIPE_1C2V, "with skip-scale O leaves L0C only on a rescale (kernel_body.h run_scale_o), so P alone crosses"
    ),
    Limit.L0C: Source(report_lines(116), "report"),
    Limit.UB: Source("config.h:77-125", "code"),
    Limit.MTE2_QUEUE: Source(ReportLines(((138, 138), (216, 216))), "report"),
    Limit.L1_BANK: Source((report_lines(242), "kernel_body.h l1_*_buf"), "code"),
}


def _kernel_config(point: DesignPoint, base: KernelConfig = SHIPPED_KERNEL) -> KernelConfig:
    """[`DesignPoint.kernel_config`][] of a checked ``base``, trusting the values the point checked itself."""
    return base.with_overrides.trusted(
        heads_per_core=point.heads_per_core,
        b_topk=point.b_topk,
        vector_cores_per_cube=point.vector_cores,
        index_block_size=point.index_block_size,
    )


@dataclass(frozen=True)
class DesignPoint:
    """One choice of the kernel's free parameters (defaults: the shipped kernel, prefill)."""

    heads_per_core: int = SHIPPED_KERNEL.heads_per_core
    topk: int = min(REPORT_TOPK)
    b_topk: int = SHIPPED_KERNEL.b_topk
    vector_cores: int = SHIPPED_KERNEL.vector_cores_per_cube
    kv_cache: KvCache = KvCache.BF16
    sink: bool = False
    index_block_size: int = SHIPPED_KERNEL.index_block_size

    def __post_init__(self) -> None:
        """Reject heads and tokens outside their plausible ranges, and VECTOR Cores other than 1 or 2."""
        object.__setattr__(self, "heads_per_core", require_heads("heads_per_core", self.heads_per_core))
        for name in ("topk", "b_topk", "index_block_size"):
            object.__setattr__(self, name, require_tokens(name, getattr(self, name)))
        vector_cores = require_int("vector_cores", self.vector_cores)
        if vector_cores not in (1, 2):
            raise ValueError(f"vector_cores must be 1 or 2 (VECTOR Cores per CUBE Core), got {vector_cores}")
        object.__setattr__(self, "vector_cores", vector_cores)
        require_bool("sink", self.sink)
        object.__setattr__(self, "kv_cache", KvCache(self.kv_cache))

    @door(_kernel_config)
    def kernel_config(self, base: KernelConfig = SHIPPED_KERNEL) -> KernelConfig:
        """The kernel configuration of this point: ``base`` with heads, B_TOPK, VECTOR Cores and index block set."""
        return _kernel_config(self, require_instance("base", base, KernelConfig))

    def describe(self) -> str:
        """The point in one line."""
        return (
            f"{self.heads_per_core} heads, topk {self.topk}, B_TOPK {self.b_topk}, 1C{self.vector_cores}V, "
            f"{self.kv_cache.value}, {'sink' if self.sink else 'no sink'}, INDEX_BLOCK_SIZE {self.index_block_size}"
        )


#: The design the report settles on (report (zh) line 168), at topk 512 where its L2 margin is thinnest.
SHIPPED_DESIGN: Final = DesignPoint()
#: Utilisation of a limit whose demand equals its capacity: any more and the limit is exceeded.
FULL_UTILISATION: Final = 1


@dataclass(frozen=True)
class LimitCheck:
    """One limit at one design point: demand against capacity, in ``unit``."""

    limit: Limit
    demand: float
    capacity: float
    unit: str

    def __post_init__(self) -> None:
        """Reject a demand that is not finite and a capacity that is not positive (its utilisation has no value)."""
        if not isinstance(self.limit, Limit) or not isinstance(self.unit, str):  # built by the dozen per page
            raise TypeError(f"limit must be a Limit and unit a str, got {self.limit!r:.60} and {self.unit!r:.60}")
        finite_result(f"the {self.limit.value} demand", self.demand)
        finite_result(f"the {self.limit.value} capacity", self.capacity, positive=True)

    @property
    def headroom(self) -> float:
        """Capacity left (negative when the demand exceeds it)."""
        return self.capacity - self.demand

    @property
    def utilisation(self) -> float:
        """Demand over capacity: above [`FULL_UTILISATION`][] the limit is exceeded."""
        return self.demand / self.capacity

    @property
    def fits(self) -> bool:
        """True when the demand is within the capacity."""
        return self.demand <= self.capacity


@dataclass(frozen=True)
class DesignEvaluation:
    """Every limit of one design point on one hardware preset, and which one binds."""

    point: DesignPoint
    spec_name: str
    checks: tuple[LimitCheck, ...]

    def check(self, limit: Limit) -> LimitCheck:
        """The check of one limit."""
        for c in self.checks:
            if c.limit is limit:
                return c
        raise ValueError(f"limit must be one of {', '.join(LIMITS)}, got {shown(limit)}")

    @property
    def binding(self) -> Limit:
        """The limit with the largest utilisation (the first in [`LIMITS`][] on a tie)."""
        return max(self.checks, key=lambda c: c.utilisation).limit

    @property
    def fits(self) -> bool:
        """True when every limit holds."""
        return all(c.fits for c in self.checks)


def _fixpipe_bytes_per_cycle(spec: AscendSpec, vector_cores: int) -> int:
    """[`fixpipe_bytes_per_cycle`][] of a checked ``spec`` and a positive ``vector_cores`` (1 or 2, else ValueError)."""
    if vector_cores > 2:  # noqa: PLR2004 - one CUBE Core feeds one or two VECTOR Cores (report (zh) line 134)
        raise ValueError(f"vector_cores must be 1 or 2 (VECTOR Cores per CUBE Core), got {shown(vector_cores)}")
    one_v = spec.ascend.fixpipe_bytes_per_cycle_1c1v
    return one_v + (vector_cores - 1) * (FIXPIPE_1C2V_SPEEDUP - 1) * one_v


@door(_fixpipe_bytes_per_cycle)
def fixpipe_bytes_per_cycle(spec: AscendSpec, vector_cores: int) -> int:
    """FixPipe bytes per cycle per AI Core with ``vector_cores`` receivers (see [`FIXPIPE_SCALING_SOURCE`][])."""
    spec = require_ascend("spec", spec)
    return _fixpipe_bytes_per_cycle(spec, require_int("vector_cores", vector_cores, minimum=1))


def _fixpipe_cycles(spec: AscendSpec, config: KernelConfig, model: ModelShape, *, o_leaves: bool) -> Fraction:
    """[`fixpipe_cycles`][] of values already checked (the package's own callers)."""
    one_v = fixpipe_cycles_per_block.trusted(spec, config, model, o_leaves=o_leaves)
    return (
        one_v * spec.ascend.fixpipe_bytes_per_cycle_1c1v / _fixpipe_bytes_per_cycle(spec, config.vector_cores_per_cube)
    )


@door(_fixpipe_cycles)
def fixpipe_cycles(spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41, *, o_leaves: bool) -> Fraction:
    """FixPipe cycles per block at the rate of ``config``'s VECTOR Cores (the 1C1V cycles over their number)."""
    spec, config, model = require_spec_config_model(spec, config, model)
    return _fixpipe_cycles(spec, config, model, o_leaves=require_bool("o_leaves", o_leaves))


def evaluate(point: DesignPoint, spec: AscendSpec, model: ModelShape = DSA_V41) -> DesignEvaluation:
    """Check ``point`` against every limit of ``spec``.

    Raises [`ForbiddenDesign`][] naming the rule if the kernel rules the point out.
    """
    spec = require_ascend("spec", spec)
    model = require_instance("model", model, ModelShape)
    point = require_instance("point", point, DesignPoint)
    # Checked once above; everything below trusts spec, model, the point and the kernel configuration made of it.
    config = _kernel_config(point)
    kv = point.kv_cache
    check_kernel_rules.trusted(config, kv.mode, kv.main_cache, fp4_extra=kv.fp4_extra)
    mma = float(mma_cycles_per_block.trusted(spec, config, model))
    token_bytes = kv_bytes_per_token(kv.main_cache, model)
    plan = ub_plan.trusted(config, kv.mode, kv.main_cache, fp4_extra=kv.fp4_extra, sink=point.sink, model=model)
    values = {
        Limit.L2_ROOFLINE: (
            l2_cycles.trusted(spec, point.heads_per_core, point.topk, model, token_bytes),
            cube_cycles.trusted(spec, point.heads_per_core, point.topk, model),
        ),
        Limit.FIXPIPE_O_EVERY_BLOCK: (float(_fixpipe_cycles(spec, config, model, o_leaves=True)), mma),
        Limit.FIXPIPE_P_ONLY: (float(_fixpipe_cycles(spec, config, model, o_leaves=False)), mma),
        Limit.L0C: (l0c_used_bytes.trusted(config, model), spec.accumulator_bytes_per_core),
        Limit.UB: (plan.total_bytes, spec.staging_bytes_per_core),
        Limit.MTE2_QUEUE: (requests_per_block.trusted(config), spec.ascend.mte2_outstanding_requests),
        Limit.L1_BANK: (
            l1_plan.trusted(spec, config, model).bytes_per_bank,
            spec.ascend.l1_bytes // spec.ascend.l1_banks,
        ),
    }
    checks = tuple(
        LimitCheck(limit, float(values[limit][0]), float(values[limit][1]), LIMIT_UNITS[limit]) for limit in LIMITS
    )
    return DesignEvaluation(point=point, spec_name=spec.name, checks=checks)


def smallest_compute_bound_heads(
    spec: AscendSpec,
    topk: int,
    kv_cache: KvCache = KvCache.BF16,
    model: ModelShape = DSA_V41,
    candidates: tuple[int, ...] = tuple(range(16, 513, 16)),
) -> int | None:
    """The fewest heads per AI Core, among ``candidates``, at which CUBE cycles cover L2 cycles (None if none do)."""
    spec = require_ascend("spec", spec)
    model = require_instance("model", model, ModelShape)
    token_bytes = kv_bytes_per_token(KvCache(kv_cache).main_cache, model)
    candidates = tuple(require_heads("candidates", c) for c in candidates)
    if not candidates:
        return None
    topk = require_tokens("topk", topk)
    for heads in sorted(candidates):
        if l2_cycles.trusted(spec, heads, topk, model, token_bytes) <= cube_cycles.trusted(spec, heads, topk, model):
            return heads
    return None
