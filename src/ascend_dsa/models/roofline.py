"""How many q heads one AI Core should own: CUBE cycles against L2 cycles for one query token.

Any chip will do (a [`ChipSpec`][], the Ascend 950 or the H800): "CUBE" is then its matrix unit and "L2" the
bandwidth that bounds it (the H800's HBM), each core drawing an even share.

Per query token and per AI Core (report (zh) lines 85-100):

- the CUBE does two GEMMs, ``Q @ K^T`` and ``S @ V``, each ``heads x topk x d`` multiply-adds;
- the L2 delivers Q and receives O once for the block of heads, and delivers the ``topk`` gathered KV rows once,
  shared by all heads.

More heads per core reuse the same KV rows for more work, so the ratio of CUBE to L2 cycles grows with heads.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import OutOfRange
from ascend_dsa.facts.hardware import AnyChip, ChipSpec
from ascend_dsa.facts.kernel_config import require_heads, require_tokens
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.lang import Text
from ascend_dsa.units import MiB
from ascend_dsa.validate import (
    LARGEST_EXACT_WHOLE,
    MAX_GRID_POINTS,
    Choice,
    Plausible,
    bounded_items,
    door,
    finite_result,
    require_instance,
    require_int,
    require_plausible,
    require_within,
    shown,
)

if TYPE_CHECKING:
    from collections.abc import Iterable


#: The report's grid of q heads per AI Core (report (zh) line 94).
REPORT_HEADS: Final = (16, 32, 64, 128)
#: The report's grid of topk (report (zh) line 95).
REPORT_TOPK: Final = (512, 1024)


class Verdict(Choice):
    """Which side of the roofline a design point sits on."""

    COMPUTE_BOUND = "compute-bound"
    MEMORY_BOUND = "memory-bound"
    BALANCED = "balanced"


@dataclass(frozen=True)
class RooflinePoint:
    """CUBE and L2 cycles of one (heads, topk) design point on one AI Core, for one query token."""

    heads: int
    topk: int
    cube_cycles: int
    l2_cycles: float

    def __post_init__(self) -> None:
        """Reject L2 cycles that are not positive and finite, or a ratio too large to be a number."""
        counts = (self.heads, self.topk, self.cube_cycles)
        if not all(isinstance(n, numbers.Integral) and not isinstance(n, bool) for n in counts):
            raise TypeError(f"heads, topk and cube_cycles must be whole numbers, got {counts!r:.80}")
        finite_result("L2 cycles", self.l2_cycles, positive=True)
        try:
            ratio = self.cube_cycles / self.l2_cycles
        except OverflowError:  # an int beyond any float over a finite float
            ratio = math.inf
        finite_result("CUBE/L2 cycle ratio", ratio)

    @property
    def ratio(self) -> float:
        """CUBE cycles over L2 cycles: above 1 the CUBE is the bottleneck."""
        return self.cube_cycles / self.l2_cycles

    def verdict(self, balanced_within: float = 0.0) -> Verdict:
        """Compute- or memory-bound; balanced when the ratio lies within ``balanced_within`` of 1."""
        if not math.isfinite(balanced_within) or balanced_within < 0:
            raise ValueError(f"balanced_within must be a non-negative fraction, got {shown(balanced_within)}")
        if abs(self.ratio - 1.0) <= balanced_within:
            return Verdict.BALANCED
        return Verdict.COMPUTE_BOUND if self.ratio > 1.0 else Verdict.MEMORY_BOUND


#: Plausible bytes of one KV token, from 1 B to 1 MiB: a bf16 token of d = 512 is 1,024 B (report (zh) lines 88, 97),
#: an FP8 one of FlashMLA's 656 B; 1 MiB is a token of 512 Ki bf16 values, a thousand times the widest head.
KV_TOKEN_BYTES_RANGE: Final = Plausible(1, 1 * MiB, "B")


def _kv_token_bytes(model: ModelShape, kv_bytes_per_token: int | None) -> int:
    """``kv_bytes_per_token`` checked, or ``d_qk`` elements of the model's element size when it is None."""
    if kv_bytes_per_token is None:
        return model.d_qk * model.element_bytes
    checked = require_int("kv_bytes_per_token", kv_bytes_per_token, minimum=1, maximum=LARGEST_EXACT_WHOLE)
    return require_plausible("kv_bytes_per_token", checked, KV_TOKEN_BYTES_RANGE)


def _cube_cycles(spec: AnyChip, heads: int, topk: int, model: ModelShape) -> int:
    """[`cube_cycles`][] of values already checked (the package's own callers)."""
    macs = heads * topk * (model.d_qk + model.d_v)
    rate = spec.matrix_fma_per_cycle_per_core
    cycles = macs // rate
    if cycles == 0:
        raise OutOfRange(
            Text(
                f"CUBE 周期算出来是 0：matrix_fma_per_cycle_per_core = {rate} 超过了 {heads} 个 head x topk {topk} "
                f"的 {macs} 次乘加",
                f"CUBE cycles come out as 0: matrix_fma_per_cycle_per_core = {rate} exceeds the {macs} "
                f"multiply-adds of {heads} heads x topk {topk}",
            )
        )
    return cycles


@door(_cube_cycles)
def cube_cycles(spec: AnyChip, heads: int, topk: int, model: ModelShape = DSA_V41) -> int:
    """CUBE cycles of ``Q @ K^T`` plus ``S @ V``: MACs over FMA/cycle, floored as the report does (line 96)."""
    spec = require_instance("spec", spec, ChipSpec)
    model = require_instance("model", model, ModelShape)
    return _cube_cycles(spec, require_heads("heads", heads), require_tokens("topk", topk), model)


def _l2_bytes(heads: int, topk: int, model: ModelShape, kv_token_bytes: int) -> int:
    """[`l2_bytes`][] of values already checked (the package's own callers)."""
    return heads * (model.d_qk + model.d_v) * model.element_bytes + topk * kv_token_bytes


@door(_l2_bytes)
def l2_bytes(heads: int, topk: int, model: ModelShape = DSA_V41, kv_bytes_per_token: int | None = None) -> int:
    """Bytes through L2: Q in and O out once per block of heads, plus each gathered KV token once (lines 97-98).

    ``kv_bytes_per_token`` defaults to ``d_qk`` elements of the model's element size (bf16: 1024 B).
    """
    model = require_instance("model", model, ModelShape)
    kv_token = _kv_token_bytes(model, kv_bytes_per_token)
    return _l2_bytes(require_heads("heads", heads), require_tokens("topk", topk), model, kv_token)


def _l2_cycles(spec: AnyChip, heads: int, topk: int, model: ModelShape, kv_token_bytes: int) -> float:
    """[`l2_cycles`][] of values already checked (the package's own callers)."""
    cycles = _l2_bytes(heads, topk, model, kv_token_bytes) / spec.bandwidth_bytes_per_cycle_per_core
    return finite_result("L2 cycles", cycles, positive=True)


@door(_l2_cycles)
def l2_cycles(
    spec: AnyChip, heads: int, topk: int, model: ModelShape = DSA_V41, kv_bytes_per_token: int | None = None
) -> float:
    """Cycles the per-core L2 share needs to move [`l2_bytes`][] (line 99)."""
    spec = require_instance("spec", spec, ChipSpec)
    model = require_instance("model", model, ModelShape)
    kv_token = _kv_token_bytes(model, kv_bytes_per_token)
    return _l2_cycles(spec, require_heads("heads", heads), require_tokens("topk", topk), model, kv_token)


#: Floating-point operations in one fused multiply-add (a multiply and an add).
FLOP_PER_FMA: Final = 2


def _matrix_flops(heads: int, topk: int, model: ModelShape) -> int:
    """[`matrix_flops`][] of values already checked (the package's own callers)."""
    return FLOP_PER_FMA * heads * topk * (model.d_qk + model.d_v)


@door(_matrix_flops)
def matrix_flops(heads: int, topk: int, model: ModelShape = DSA_V41) -> int:
    """FLOP of ``Q @ K^T`` plus ``S @ V`` for one query token: two per multiply-add of [`cube_cycles`][]."""
    model = require_instance("model", model, ModelShape)
    return _matrix_flops(require_heads("heads", heads), require_tokens("topk", topk), model)


def _arithmetic_intensity(heads: int, topk: int, model: ModelShape, kv_token_bytes: int) -> float:
    """[`arithmetic_intensity`][] of values already checked (the package's own callers)."""
    return _matrix_flops(heads, topk, model) / _l2_bytes(heads, topk, model, kv_token_bytes)


@door(_arithmetic_intensity)
def arithmetic_intensity(
    heads: int, topk: int, model: ModelShape = DSA_V41, kv_bytes_per_token: int | None = None
) -> float:
    """FLOP per byte through L2 for one query token: [`matrix_flops`][] over [`l2_bytes`][].

    Above the chip's ridge point (``facts.hardware.ridge_flop_per_byte``) the matrix unit takes longer than the
    bandwidth: its ratio to the ridge is [`RooflinePoint.ratio`][] before the report floors the CUBE cycles.
    """
    model = require_instance("model", model, ModelShape)
    kv_token = _kv_token_bytes(model, kv_bytes_per_token)
    return _arithmetic_intensity(require_heads("heads", heads), require_tokens("topk", topk), model, kv_token)


def _head_roofline(
    spec: AnyChip, heads: int, topk: int, model: ModelShape, kv_bytes_per_token: int | None
) -> RooflinePoint:
    """[`head_roofline`][] of a checked ``spec`` and ``model``; heads, topk and the token size are checked here."""
    checked_heads, checked_topk = require_heads("heads", heads), require_tokens("topk", topk)
    cube = _cube_cycles(spec, checked_heads, checked_topk, model)
    kv_token = _kv_token_bytes(model, kv_bytes_per_token)
    return RooflinePoint(
        heads=checked_heads,
        topk=checked_topk,
        cube_cycles=cube,
        l2_cycles=_l2_cycles(spec, checked_heads, checked_topk, model, kv_token),
    )


@door(_head_roofline)
def head_roofline(
    spec: AnyChip, heads: int, topk: int, model: ModelShape = DSA_V41, kv_bytes_per_token: int | None = None
) -> RooflinePoint:
    """The roofline point of one (heads, topk) pair."""
    spec = require_instance("spec", spec, ChipSpec)
    model = require_instance("model", model, ModelShape)
    return _head_roofline(spec, heads, topk, model, kv_bytes_per_token)


def head_roofline_sweep(
    spec: AnyChip,
    heads: Iterable[int] = REPORT_HEADS,
    topk: Iterable[int] = REPORT_TOPK,
    model: ModelShape = DSA_V41,
    kv_bytes_per_token: int | None = None,
) -> tuple[RooflinePoint, ...]:
    """Every (heads, topk) pair of the grid, heads outermost as in the report's loop (lines 94-95)."""
    spec = require_instance("spec", spec, ChipSpec)
    model = require_instance("model", model, ModelShape)
    heads_grid = bounded_items("heads", heads, MAX_GRID_POINTS)
    topk_grid = bounded_items("topk", topk, MAX_GRID_POINTS)
    if not heads_grid:
        raise ValueError("heads must list at least one value, got an empty grid")
    if not topk_grid:
        raise ValueError("topk must list at least one value, got an empty grid")
    require_within("the heads x topk grid", len(heads_grid) * len(topk_grid), MAX_GRID_POINTS, "points")
    return tuple(_head_roofline(spec, h, k, model, kv_bytes_per_token) for h in heads_grid for k in topk_grid)
