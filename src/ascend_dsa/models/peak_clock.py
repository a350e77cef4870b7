"""Which clock the report's "theoretical peak performance" assumes (report (zh) lines 5 and 252).

The report never states its peak. With the 950's 4096 FMA per cycle on 32 AI Cores, a percentage rounded to a
whole number pins the clock to a narrow interval; line 252 adds that skip-scale can let the chip clock higher.
"""

from __future__ import annotations

from ascend_dsa.facts.hardware import AscendSpec, require_ascend
from ascend_dsa.validate import finite_result, require_finite, require_int


def flops_per_cycle(spec: AscendSpec) -> int:
    """Chip-wide FLOP per cycle at full CUBE rate: FMA per cycle x 2 x AI Cores."""
    spec = require_ascend("spec", spec)
    return spec.matrix_fma_per_cycle_per_core * 2 * spec.cores


def clock_range_for_percent(achieved_flops: float, percent: int, spec: AscendSpec) -> tuple[float, float]:
    """The clocks (Hz, low to high) at which ``achieved_flops`` rounds to ``percent`` % of peak.

    ``round(100 x achieved / (flops_per_cycle x clock)) == percent`` holds for a fraction in
    ``[percent - 0.5, percent + 0.5]`` %, hence for clocks between ``achieved / ((percent + 0.5) % x F)`` and
    ``achieved / ((percent - 0.5) % x F)``.
    """
    achieved = require_finite("achieved_flops", achieved_flops, positive=True)
    whole_percent = require_int("percent", percent, minimum=1, maximum=100)
    per_cycle = flops_per_cycle(spec)
    return (
        finite_result("lowest clock", achieved / ((whole_percent + 0.5) / 100 * per_cycle), positive=True),
        finite_result("highest clock", achieved / ((whole_percent - 0.5) / 100 * per_cycle), positive=True),
    )


def intersect(*ranges: tuple[float, float]) -> tuple[float, float] | None:
    """The common part of closed intervals, or None when they do not overlap."""
    if not ranges:
        raise ValueError("ranges must list at least one interval, got none")
    for low, high in ranges:
        if require_finite("low end of a range", low) > require_finite("high end of a range", high):
            raise ValueError(f"each range must be (low, high) with low <= high, got ({low!r}, {high!r})")
    low = max(r[0] for r in ranges)
    high = min(r[1] for r in ranges)
    return (low, high) if low <= high else None
