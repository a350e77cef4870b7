"""The report's published figures, kept as published, with their citations, and the checks against them.

The head-roofline table is stored as the text the report prints (report (zh) lines 104-111). Markdown ate the
leading blank of its first row, so rows are compared by the numbers they contain, never as raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.provenance import REPORT_COMMIT, REPORT_ZH_PATH, Citation

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.roofline import RooflinePoint

HEAD_ROOFLINE_CITATION: Final = Citation(REPORT_ZH_PATH, REPORT_COMMIT, 104, 111)

#: Report (zh) lines 104-111, character for character (the first row lost its leading blank upstream).
HEAD_ROOFLINE_PUBLISHED_TEXT: Final = (
    "16, topk= 512, cube_cycles=  2048, mem_cycles=  5883",
    " 16, topk=1024, cube_cycles=  4096, mem_cycles= 11419",
    " 32, topk= 512, cube_cycles=  4096, mem_cycles=  6229",
    " 32, topk=1024, cube_cycles=  8192, mem_cycles= 11765",
    " 64, topk= 512, cube_cycles=  8192, mem_cycles=  6921",
    " 64, topk=1024, cube_cycles= 16384, mem_cycles= 12457",
    "128, topk= 512, cube_cycles= 16384, mem_cycles=  8305",
    "128, topk=1024, cube_cycles= 32768, mem_cycles= 13841",
)

_ROW_PATTERN: Final = re.compile(
    r"^\s*(?P<heads>\d+),\s*topk=\s*(?P<topk>\d+),\s*cube_cycles=\s*(?P<cube>\d+),\s*mem_cycles=\s*(?P<mem>\d+)\s*$"
)


@dataclass(frozen=True)
class HeadRooflineRow:
    """One row of the head-roofline table as numbers; ``mem_cycles`` is rounded as the report prints it."""

    heads: int
    topk: int
    cube_cycles: int
    mem_cycles: int
    line: int | None = None  # report (zh) line, for published rows

    def values(self) -> tuple[int, int, int, int]:
        """The four numbers that must agree."""
        return (self.heads, self.topk, self.cube_cycles, self.mem_cycles)

    def describe(self) -> str:
        """The row's numbers in one short phrase."""
        return f"h_q={self.heads}, topk={self.topk}, cube_cycles={self.cube_cycles}, mem_cycles={self.mem_cycles}"


def parse_head_roofline_row(text: str, line: int | None = None) -> HeadRooflineRow:
    """Read the four numbers of one printed row, whatever its leading blanks."""
    match = _ROW_PATTERN.match(text)
    if match is None:
        raise ValueError(
            f"row text must look like 'H, topk=K, cube_cycles=C, mem_cycles=M' with whole numbers, got {text!r}"
        )
    return HeadRooflineRow(
        heads=int(match["heads"]),
        topk=int(match["topk"]),
        cube_cycles=int(match["cube"]),
        mem_cycles=int(match["mem"]),
        line=line,
    )


def published_head_roofline(
    text: Iterable[str] = HEAD_ROOFLINE_PUBLISHED_TEXT, citation: Citation = HEAD_ROOFLINE_CITATION
) -> tuple[HeadRooflineRow, ...]:
    """The published rows as numbers, each with its report line."""
    rows = tuple(parse_head_roofline_row(t, citation.first_line + i) for i, t in enumerate(text))
    expected = citation.last_line - citation.first_line + 1
    if len(rows) != expected:
        raise ValueError(f"published table must have {expected} rows for {citation.short}, got {len(rows)}")
    return rows


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
        ours = "not computed" if self.ours is None else self.ours.describe()
        where = f"report (zh) line {self.published.line}" if self.published.line else "published row"
        return f"{where}: ours {ours}; report {self.published.describe()}"


def head_roofline_differences(
    points: Iterable[RooflinePoint], published: Iterable[HeadRooflineRow] | None = None
) -> tuple[RowDifference, ...]:
    """Every published row whose numbers we do not reproduce (compared by their (heads, topk) key)."""
    ours = {(p.heads, p.topk): computed_row(p) for p in points}
    rows = published_head_roofline() if published is None else tuple(published)
    differences = []
    for row in rows:
        mine = ours.get((row.heads, row.topk))
        if mine is None or mine.values() != row.values():
            differences.append(RowDifference(published=row, ours=mine))
    return tuple(differences)


def check_head_roofline(points: Iterable[RooflinePoint], published: Iterable[HeadRooflineRow] | None = None) -> None:
    """Raise :class:`FigureMismatch` listing every row of the report's table that ``points`` do not reproduce."""
    differences = head_roofline_differences(points, published)
    if differences:
        rows = "; ".join(d.describe() for d in differences)
        raise FigureMismatch(
            f"{len(differences)} of the rows of {HEAD_ROOFLINE_CITATION.short} differ from ours "
            f"({HEAD_ROOFLINE_CITATION.full}): {rows}"
        )


# --- FixPipe under 1C1V (report (zh) line 142) -------------------------------------------------------------------

FIXPIPE_BREAK_EVEN_CITATION: Final = Citation(REPORT_ZH_PATH, REPORT_COMMIT, 142, 142)
#: "B_TOPK > 73.14": the B_TOPK above which MMA outlasts FixPipe when O leaves L0C every block, as printed.
FIXPIPE_BREAK_EVEN_PUBLISHED: Final = "73.14"


def check_fixpipe_break_even(b_topk: float, published: str = FIXPIPE_BREAK_EVEN_PUBLISHED) -> None:
    """Raise :class:`FigureMismatch` unless ``b_topk``, printed to the report's two decimals, equals its figure."""
    decimals = len(published.split(".")[1]) if "." in published else 0
    ours = f"{b_topk:.{decimals}f}"
    if ours != published:
        raise FigureMismatch(
            f"{FIXPIPE_BREAK_EVEN_CITATION.short} differs from ours ({FIXPIPE_BREAK_EVEN_CITATION.full}): "
            f"ours B_TOPK > {ours}; report B_TOPK > {published}"
        )


# --- The pipeline's slack (report (zh) line 184) -----------------------------------------------------------------

P_READY_TO_USED_CITATION: Final = Citation(REPORT_ZH_PATH, REPORT_COMMIT, 184, 184)
#: "about 1024 cycles" between P[i] ready and P[i] used.
P_READY_TO_USED_PUBLISHED_CYCLES: Final = 1024
#: "About": we accept a model within this fraction of the report's figure.
P_READY_TO_USED_TOLERANCE: Final = 0.01


def check_p_ready_to_used(cycles: float, published: int = P_READY_TO_USED_PUBLISHED_CYCLES) -> None:
    """Raise :class:`FigureMismatch` unless ``cycles`` is within 1% of the report's "about 1024 cycles"."""
    if abs(cycles - published) > P_READY_TO_USED_TOLERANCE * published:
        raise FigureMismatch(
            f"{P_READY_TO_USED_CITATION.short} differs from ours ({P_READY_TO_USED_CITATION.full}): "
            f"ours {cycles:.1f} cycles between P[i] ready and used; report about {published}"
        )
