"""Checks of our figures against the published ones: each ``check_*`` raises [`FigureMismatch`][] and returns nothing.

The published figures are facts (``ascend_dsa.facts.report_figures`` for the report, ``ascend_dsa.facts.code_figures``
for the kernel's source); what they are compared with comes from the models. Renderers call these checks, so a page
that prints a figure the report disagrees with fails the strict build.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import FigureMismatch, Mismatch
from ascend_dsa.facts.code_figures import SHIPPED_UB_TOTALS, UB_PLAN_CITATION, ShippedUbTotal
from ascend_dsa.facts.report_figures import (
    HEAD_ROOFLINE_CITATION,
    HeadRooflineRow,
    published_figure,
    published_head_roofline,
    published_number,
)
from ascend_dsa.models.memory_plans import UbPlan
from ascend_dsa.models.roofline import RooflinePoint
from ascend_dsa.validate import require_finite, require_items, require_real

if TYPE_CHECKING:
    from collections.abc import Iterable


def computed_row(point: RooflinePoint) -> HeadRooflineRow:
    """Our point as the report would print it: L2 cycles rounded to a whole number (``:6.0f``)."""
    return HeadRooflineRow(point.heads, point.topk, point.cube_cycles, round(point.l2_cycles))


@dataclass(frozen=True)
class RowDifference:
    """A published row and what we computed for the same (heads, topk); ``ours`` is None when not computed."""

    published: HeadRooflineRow
    ours: HeadRooflineRow | None

    def describe(self) -> str:
        """One line: the row, ours, theirs."""
        row = self.mismatch()
        return f"{row.citation}: ours {row.ours}; report {row.theirs}"

    def mismatch(self) -> Mismatch:
        """The row as a [`Mismatch`][]: which row, where the report prints it, ours and the report's."""
        return Mismatch(
            subject=f"h_q={self.published.heads}, topk={self.published.topk}",
            citation=f"report (zh) line {self.published.line}" if self.published.line else "published row",
            ours="not computed" if self.ours is None else self.ours.describe(),
            theirs=self.published.describe(),
        )


def head_roofline_differences(
    points: Iterable[RooflinePoint], published: Iterable[HeadRooflineRow] | None = None
) -> tuple[RowDifference, ...]:
    """Every published row whose numbers we do not reproduce (compared by their (heads, topk) key)."""
    ours = {(p.heads, p.topk): computed_row(p) for p in require_items("points", points, RooflinePoint)}
    rows = published_head_roofline() if published is None else require_items("published", published, HeadRooflineRow)
    differences = []
    for row in rows:
        mine = ours.get((row.heads, row.topk))
        if mine is None or mine.values() != row.values():
            differences.append(RowDifference(published=row, ours=mine))
    return tuple(differences)


def check_head_roofline(points: Iterable[RooflinePoint], published: Iterable[HeadRooflineRow] | None = None) -> None:
    """Raise [`FigureMismatch`][] listing every row of the report's table that ``points`` do not reproduce."""
    differences = head_roofline_differences(points, published)
    if differences:
        rows = "; ".join(d.describe() for d in differences)
        raise FigureMismatch(
            f"{len(differences)} of the rows of {HEAD_ROOFLINE_CITATION.short} differ from ours "
            f"({HEAD_ROOFLINE_CITATION.full}): {rows}",
            [d.mismatch() for d in differences],
        )


#: "About" in the report: a simulated figure within this fraction of the published one agrees with it.
ABOUT_TOLERANCE: Final = 0.01


def check_fixpipe_break_even(b_topk: float) -> None:
    """Raise [`FigureMismatch`][] unless ``b_topk``, rounded as printed (two decimals), equals line 142's 73.14."""
    require_real("b_topk", b_topk)
    figure = published_figure("fixpipe-break-even-b-topk")
    published = published_number(figure.key)
    if round(b_topk, 2) != published:
        raise FigureMismatch(
            f"claim {figure.key} ({figure.citation.short}): ours B_TOPK > {b_topk:.2f}, "
            f"report B_TOPK > {published} ({figure.citation.full})"
        )


def check_p_ready_to_used(cycles: float) -> None:
    """Raise [`FigureMismatch`][] unless ``cycles`` is within 1% of line 184's "about 1024 cycles"."""
    cycles = require_finite("cycles", cycles)
    figure = published_figure("softmax-slack-cycles")
    published = published_number(figure.key)
    if abs(cycles - published) > ABOUT_TOLERANCE * published:
        raise FigureMismatch(
            f"claim {figure.key} ({figure.citation.short}): ours {cycles:.1f} cycles between P[i] ready and used, "
            f"report about {published:g} ({figure.citation.full})"
        )


def ub_total_differences(
    plans: Iterable[UbPlan], shipped: Iterable[ShippedUbTotal] = SHIPPED_UB_TOTALS
) -> tuple[str, ...]:
    """One line per shipped total that ``plans`` miss or do not reproduce."""
    ours = {(p.mode, p.fp4_extra, p.sink): p.total_bytes for p in require_items("plans", plans, UbPlan)}
    lines = []
    for figure in require_items("shipped", shipped, ShippedUbTotal):
        mine = ours.get(figure.key())
        if mine != figure.total_bytes:
            computed = "not computed" if mine is None else f"{mine} B"
            lines.append(f"{figure.instantiation}: ours {computed}; kernel {figure.total_bytes} B")
    return tuple(lines)


def check_ub_totals(plans: Iterable[UbPlan], shipped: Iterable[ShippedUbTotal] = SHIPPED_UB_TOTALS) -> None:
    """Raise [`FigureMismatch`][] naming every shipped UB total that ``plans`` do not reproduce."""
    differences = ub_total_differences(plans, shipped)
    if differences:
        raise FigureMismatch(
            f"{len(differences)} UB plan totals differ from sizeof(UnifiedBufferMemoryPlan) of "
            f"{UB_PLAN_CITATION.short} ({UB_PLAN_CITATION.full}): {'; '.join(differences)}"
        )
