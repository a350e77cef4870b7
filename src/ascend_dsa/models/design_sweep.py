"""Every limit of [`ascend_dsa.models.design_point`][] over a whole grid of design points at once, with NumPy.

Each parameter is one axis of the grid. A quantity is computed at the shape of the axes it depends on (the UB
plan never sees topk, the roofline never sees B_TOPK) and NumPy broadcasting combines them; only the per-limit
utilisation, the binding limit and the verdict have the full shape. There is no Python loop over points.

The arithmetic repeats the scalar model's formulas term by term (same integer sums, same final division), so
a point of the sweep equals [`ascend_dsa.models.design_point.evaluate`][] of the same point; the tests check it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ascend_dsa.errors import OutOfRange
from ascend_dsa.facts.hardware import AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import (
    GATHER2_TOKENS_PER_REQUEST,
    MMA_M_GRANULE_ROWS,
    SHIPPED_KERNEL,
    KernelConfig,
    require_heads,
    require_tokens,
)
from ascend_dsa.facts.kernel_rules import TILE_RULES, VECTOR_BYTES
from ascend_dsa.facts.kv_formats import KvFormat, kv_bytes_per_token, kv_token_format
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.models.design_point import LIMITS, DesignPoint, KvCache, Limit, fixpipe_bytes_per_cycle
from ascend_dsa.models.memory_plans import (
    INT64_BYTES,
    JOB_PARITY_BUFFERS,
    ROW_COPIES,
    ROW_MAX_MAX_DELTA_SHAPE,
    ROW_SCALE_VECTORS,
)
from ascend_dsa.units import BF16_BYTES, FP32_BYTES
from ascend_dsa.validate import (
    MAX_GRID_POINTS,
    bounded_items,
    require_bool,
    require_instance,
    require_int,
    shown,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


#: Largest value on a grid axis: the sweep multiplies two axes by ``d_qk + d_v`` and by 4 B in int64, and
#: 2**20 keeps every such product far below 2**63.
LARGEST_GRID_VALUE: Final = 2**20
#: The axes of a grid, in order.
AXES: Final = ("heads", "topk", "b_topk", "vector_cores", "kv_cache", "sink", "index_block_size")
#: An axis whose DesignPoint field has another name.
_POINT_FIELD: Final = {"heads": "heads_per_core"}
#: Code of "no rule broken" in the `rule` and of "forbidden" in the `binding` of a [`SweepResult`][].
NONE: Final = -1

_KV_ORDER: Final = tuple(KvCache)


def _axis(name: str, values: Iterable[Any]) -> tuple[Any, ...]:
    # No axis can be longer than a whole grid may be: refused before a range(10**7) is turned into a tuple.
    values = bounded_items(name, values, MAX_GRID_POINTS)
    if not values:
        raise ValueError(f"{name} must list at least one value, got an empty axis")
    return values


@dataclass(frozen=True)
class DesignGrid:
    """The Cartesian product of the values on each axis (defaults: the shipped value alone)."""

    heads: tuple[int, ...] = (SHIPPED_KERNEL.heads_per_core,)
    topk: tuple[int, ...] = (512,)
    b_topk: tuple[int, ...] = (SHIPPED_KERNEL.b_topk,)
    vector_cores: tuple[int, ...] = (SHIPPED_KERNEL.vector_cores_per_cube,)
    kv_cache: tuple[KvCache, ...] = (KvCache.BF16,)
    sink: tuple[bool, ...] = (False,)
    index_block_size: tuple[int, ...] = (SHIPPED_KERNEL.index_block_size,)

    def __post_init__(self) -> None:
        """Turn every axis into a non-empty tuple; check values are positive and VECTOR Cores are 1 or 2."""
        for name in AXES:
            object.__setattr__(self, name, _axis(name, getattr(self, name)))
        object.__setattr__(self, "kv_cache", tuple(KvCache(k) for k in self.kv_cache))
        object.__setattr__(self, "sink", tuple(require_bool("sink", s) for s in self.sink))
        # The same checks as a DesignPoint's: heads and tokens in their plausible ranges, whose bounds stay within
        # LARGEST_GRID_VALUE (tests/models/test_design_sweep.py checks it).
        object.__setattr__(self, "heads", tuple(require_heads("heads", v) for v in self.heads))
        for name in ("topk", "b_topk", "index_block_size"):
            object.__setattr__(self, name, tuple(require_tokens(name, v) for v in getattr(self, name)))
        cores = tuple(require_int("vector_cores", v, minimum=1, maximum=LARGEST_GRID_VALUE) for v in self.vector_cores)
        object.__setattr__(self, "vector_cores", cores)
        bad_cores = [v for v in self.vector_cores if v not in (1, 2)]
        if bad_cores:
            raise ValueError(f"vector_cores must list 1 or 2 (VECTOR Cores per CUBE Core), got {shown(bad_cores[0])}")

    @property
    def shape(self) -> tuple[int, ...]:
        """Points along each axis, in [`AXES`][] order."""
        return tuple(len(getattr(self, name)) for name in AXES)

    @property
    def size(self) -> int:
        """Number of design points."""
        return int(np.prod(self.shape))

    def point(self, index: tuple[int, ...]) -> DesignPoint:
        """The design point at ``index`` (one position per axis)."""
        if len(index) != len(AXES):
            raise ValueError(f"index must have {len(AXES)} positions, one per axis, got {len(index)}")
        values = {_POINT_FIELD.get(name, name): getattr(self, name)[i] for name, i in zip(AXES, index, strict=True)}
        return DesignPoint(**values)

    def axis_array(self, name: str) -> np.ndarray:
        """One axis as an int64 array shaped to broadcast against the grid (kv_cache as its position)."""
        position = AXES.index(name)
        values = getattr(self, name)
        if name == "kv_cache":
            values = tuple(_KV_ORDER.index(k) for k in values)
        shape = [1] * len(AXES)
        shape[position] = len(values)
        return np.asarray(values, dtype=np.int64).reshape(shape)


@dataclass(frozen=True)
class SweepResult:
    """Demand and capacity of every limit over a grid, the utilisation, the binding limit and the verdict.

    ``demand``, ``capacity`` and ``utilisation`` map each limit to an array at the shape of the axes it depends
    on (it broadcasts against the grid); ``binding`` holds an index into [`LIMITS`][] ([`NONE`][] where a
    kernel rule forbids the point); ``rule`` an index into [`TILE_RULES`][]
    ([`NONE`][] where no rule is broken); ``binding``, ``rule`` and ``fits`` have the grid's shape.
    """

    grid: DesignGrid
    demand: Mapping[Limit, np.ndarray] = field(repr=False)
    capacity: Mapping[Limit, np.ndarray] = field(repr=False)
    utilisation: Mapping[Limit, np.ndarray] = field(repr=False)
    binding: np.ndarray = field(repr=False)
    rule: np.ndarray = field(repr=False)
    fits: np.ndarray = field(repr=False)

    def utilisation_at(self, index: tuple[int, ...]) -> tuple[float, ...]:
        """Every limit's utilisation at ``index``, in [`LIMITS`][] order."""
        return tuple(float(np.broadcast_to(self.utilisation[limit], self.grid.shape)[index]) for limit in LIMITS)

    def binding_limit(self, index: tuple[int, ...]) -> Limit | None:
        """The binding limit at ``index``, or None where a kernel rule forbids the point."""
        code = int(self.binding[index])
        return None if code == NONE else LIMITS[code]


def _ceil_div(a: np.ndarray, b: int | np.ndarray) -> np.ndarray:
    return -(-a // b)


def _ub_bytes(g: DesignGrid, config: KernelConfig, model: ModelShape) -> np.ndarray:
    """``sizeof(UnifiedBufferMemoryPlan)`` over the grid, the sum [`ascend_dsa.models.memory_plans.ub_plan`][] makes."""
    nv, b_topk = g.axis_array("vector_cores"), g.axis_array("b_topk")
    kv, sink, ib = g.axis_array("kv_cache"), g.axis_array("sink"), g.axis_array("index_block_size")
    m = _ceil_div(g.axis_array("heads"), MMA_M_GRANULE_ROWS) * MMA_M_GRANULE_ROWS // nv
    b = b_topk // nv
    v = VECTOR_BYTES // FP32_BYTES
    decode = kv != _KV_ORDER.index(KvCache.BF16)
    fp4_extra = kv == _KV_ORDER.index(KvCache.FP8_FP4)
    fp8, fp4 = kv_token_format(KvFormat.FP8, model), kv_token_format(KvFormat.FP4, model)
    main_row_bytes = np.where(decode, fp8.ub_token_bytes, model.d_v * BF16_BYTES)
    pairs = ib // GATHER2_TOKENS_PER_REQUEST
    rows = JOB_PARITY_BUFFERS * (
        3 * np.maximum(ROW_COPIES * m, v) + np.maximum(m, v) + ROW_SCALE_VECTORS * v
    )  # row_max, row_max_for_o, row_sum; row_denorm; row_scales
    total = (
        config.ub_kv_buffers * b * main_row_bytes
        + np.where(decode, b * fp8.scale_count * BF16_BYTES, 0)
        + (b + 1) * model.d_v * BF16_BYTES
        + m * model.d_v * FP32_BYTES
        + config.output_frag_buffers * m * config.output_frag_d_vo * FP32_BYTES
        + m * b_topk * FP32_BYTES
        + sink * m * FP32_BYTES
        + rows * FP32_BYTES
        + ib * FP32_BYTES
        + 2 * pairs * INT64_BYTES
        + 2 * config.index_buffers * pairs * FP32_BYTES
        + np.where(
            fp4_extra,
            config.ub_kv_buffers * b * fp4.ub_token_bytes + b * fp4.scale_count * BF16_BYTES,
            0,
        )
        + int(np.prod(ROW_MAX_MAX_DELTA_SHAPE)) * FP32_BYTES
    )
    return _ceil_div(total, INT64_BYTES) * INT64_BYTES


def sweep(
    spec: AscendSpec, grid: DesignGrid, model: ModelShape = DSA_V41, base: KernelConfig = SHIPPED_KERNEL
) -> SweepResult:
    """Evaluate every point of ``grid`` against every limit of ``spec`` in one vectorised pass."""
    spec = require_ascend("spec", spec)
    model = require_instance("model", model, ModelShape)
    base = require_instance("base", base, KernelConfig)
    grid = require_instance("grid", grid, DesignGrid)
    heads, topk, b_topk = grid.axis_array("heads"), grid.axis_array("topk"), grid.axis_array("b_topk")
    nv, kv, ib = grid.axis_array("vector_cores"), grid.axis_array("kv_cache"), grid.axis_array("index_block_size")
    mma_m = _ceil_div(heads, MMA_M_GRANULE_ROWS) * MMA_M_GRANULE_ROWS
    d_sum = model.d_qk + model.d_v
    token_bytes = np.asarray([kv_bytes_per_token(k.main_cache, model) for k in _KV_ORDER], dtype=np.int64)[kv]
    mma = mma_m * b_topk * d_sum / spec.matrix_fma_per_cycle_per_core
    p_bytes = mma_m * b_topk * FP32_BYTES
    o_bytes = mma_m * model.d_v * FP32_BYTES
    one_v, two_v = fixpipe_bytes_per_cycle(spec, 1), fixpipe_bytes_per_cycle(spec, 2)
    fixpipe_rate = one_v + (nv - 1) * (two_v - one_v)
    l1_bank = np.sum(
        [
            _ceil_div(t, spec.ascend.l1_banks)
            for t in np.broadcast_arrays(
                base.l1_q_buffers * mma_m * model.d_qk * BF16_BYTES,
                base.l1_kv_buffers * b_topk * model.d_qk * BF16_BYTES,
                mma_m * b_topk * BF16_BYTES,
            )
        ],
        axis=0,
    )
    demand: dict[Limit, np.ndarray] = {
        Limit.L2_ROOFLINE: (heads * d_sum * model.element_bytes + topk * token_bytes)
        / spec.bandwidth_bytes_per_cycle_per_core,
        Limit.FIXPIPE_O_EVERY_BLOCK: (p_bytes + o_bytes) / fixpipe_rate,
        Limit.FIXPIPE_P_ONLY: p_bytes / fixpipe_rate,
        Limit.L0C: o_bytes + p_bytes,
        Limit.UB: _ub_bytes(grid, base, model),
        Limit.MTE2_QUEUE: _ceil_div(b_topk // nv, GATHER2_TOKENS_PER_REQUEST),
        Limit.L1_BANK: l1_bank,
    }
    capacity: dict[Limit, np.ndarray] = {
        Limit.L2_ROOFLINE: heads * topk * d_sum // spec.matrix_fma_per_cycle_per_core,
        Limit.FIXPIPE_O_EVERY_BLOCK: mma,
        Limit.FIXPIPE_P_ONLY: mma,
        Limit.L0C: np.asarray(spec.accumulator_bytes_per_core),
        Limit.UB: np.asarray(spec.staging_bytes_per_core),
        Limit.MTE2_QUEUE: np.asarray(spec.ascend.mte2_outstanding_requests),
        Limit.L1_BANK: np.asarray(spec.ascend.l1_bytes // spec.ascend.l1_banks),
    }
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        utilisation = {limit: np.true_divide(demand[limit], capacity[limit]) for limit in LIMITS}
    for limit in LIMITS:
        if not np.isfinite(utilisation[limit]).all():
            raise OutOfRange(
                f"the {limit.value} utilisation comes out infinite or not a number somewhere in the grid: "
                f"its capacity rounds to 0 (spec {spec.name})"
            )
    rule = np.full(np.broadcast_shapes(b_topk.shape, nv.shape, ib.shape), NONE, dtype=np.int8)
    for k in reversed(range(len(TILE_RULES))):  # the first broken rule wins, as in the scalar check
        rule[np.broadcast_to(TILE_RULES[k].broken(b_topk, nv, ib, base.fractal_cols), rule.shape)] = k
    # Running maximum over the limits, smallest arrays first so that broadcasting widens them as late as
    # possible; on a tie the limit earlier in LIMITS wins, as max() does for one point. The largest array only
    # takes part through comparisons, so no full-size float array is ever written.
    order = sorted(range(len(LIMITS)), key=lambda k: utilisation[LIMITS[k]].size)
    worst = utilisation[LIMITS[order[0]]]
    binding = np.full(worst.shape, order[0], dtype=np.int8)
    for k in order[1:-1]:
        u = utilisation[LIMITS[k]]
        wins = (u > worst) | ((u == worst) & (k < binding))
        worst = np.where(wins, u, worst)
        binding = np.where(wins, np.int8(k), binding)
    last = order[-1]
    u = utilisation[LIMITS[last]]
    wins = (u > worst) | ((u == worst) & (last < binding))
    forbidden = rule != NONE
    binding = np.where(forbidden, np.int8(NONE), np.where(wins, np.int8(last), binding))
    fits = (worst <= 1.0) & (u <= 1.0) & ~forbidden
    return SweepResult(
        grid=grid,
        demand=MappingProxyType(demand),
        capacity=MappingProxyType(capacity),
        utilisation=MappingProxyType(utilisation),
        binding=binding,
        rule=np.broadcast_to(rule, grid.shape),
        fits=np.broadcast_to(fits, grid.shape),
    )
