"""``ascend-dsa head-roofline``: the report's table of CUBE against L2 cycles, with what-if overrides."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ascend_dsa.cli.exit_status import ExitStatus
from ascend_dsa.cli.options import LIST_ITEMS_MAX, positive_float, positive_int, positive_int_list, unit_fraction
from ascend_dsa.errors import OutOfRange
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.report_figures import HEAD_ROOFLINE_CITATION
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK, head_roofline_sweep
from ascend_dsa.render.roofline import seed_row, verdict_line
from ascend_dsa.report.checks import head_roofline_differences

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable

    from ascend_dsa.models.roofline import RooflinePoint

NAME = "head-roofline"
HELP = "CUBE vs L2 cycles per AI Core for each (q heads, topk), as in report (zh) lines 85-114."
#: The same summary for the Chinese command-line reference page.
HELP_ZH = "按 (q head 数, topk) 逐行算出每个 AI Core 的 CUBE 周期与 L2 周期，对应报告 (zh) 第 85-114 行。"
FINDING = "a finding: with --assert-report, the table differs from the report (the rows are named on stderr)"
#: Most (heads, topk) pairs one run computes and prints: a row each, twice.
GRID_POINTS_MAX = 4096
USAGE = f", or a grid of more than {GRID_POINTS_MAX} (heads, topk) pairs"

#: Option name -> hardware field it overrides.
_OVERRIDES = {
    "l2_bandwidth": "l2_bandwidth_bytes_per_s",
    "cores": "ai_cores",
    "clock": "clock_hz",
    "cube_fma": "cube_fma_per_cycle",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the options: grid, hardware overrides, the report check."""
    parser.add_argument(
        "--heads",
        type=positive_int_list,
        default=REPORT_HEADS,
        help=f"q heads per AI Core, e.g. 16,32,64,128 (at most {LIST_ITEMS_MAX} values)",
    )
    parser.add_argument(
        "--topk",
        type=positive_int_list,
        default=REPORT_TOPK,
        help=f"topk values, e.g. 512,1024 (at most {LIST_ITEMS_MAX} values, and {GRID_POINTS_MAX} pairs with --heads)",
    )
    parser.add_argument("--l2-bandwidth", type=positive_float, help="total L2 bandwidth in B/s (preset 5e12)")
    parser.add_argument("--cores", type=positive_int, help="AI Cores sharing the L2 (preset 32)")
    parser.add_argument("--clock", type=positive_float, help="clock in Hz (preset 1.65e9)")
    parser.add_argument("--cube-fma", type=positive_int, help="CUBE FMA per cycle per AI Core (preset 4096)")
    parser.add_argument(
        "--balanced-within",
        type=unit_fraction,
        default=0.0,
        help="call a ratio within this fraction of 1 balanced (default 0)",
    )
    parser.add_argument(
        "--assert-report",
        action="store_true",
        help=f"exit 1 with a row diff unless the table equals {HEAD_ROOFLINE_CITATION.short}",
    )


def check_shown_cycles(points: Iterable[RooflinePoint]) -> None:
    """Refuse a table whose L2 cycles would print as 0 (a bandwidth so large the model's figure is meaningless)."""
    for point in points:
        if round(point.l2_cycles) == 0:
            raise OutOfRange(
                f"L2 cycles per AI Core are {point.l2_cycles:.3g} at h_q={point.heads}, topk={point.topk}, "
                "which rounds to 0 cycles"
            )


def run(args: argparse.Namespace) -> int:
    """Print the table then the verdicts; with --assert-report, compare with the report and exit 1 on a difference."""
    pairs = len(args.heads) * len(args.topk)
    if pairs > GRID_POINTS_MAX:
        print(
            f"ascend-dsa {NAME}: error: --heads and --topk make a grid of {len(args.heads)} x {len(args.topk)} = "
            f"{pairs} pairs; at most {GRID_POINTS_MAX}",
            file=sys.stderr,
        )
        return ExitStatus.USAGE
    changes = {name: getattr(args, option) for option, name in _OVERRIDES.items() if getattr(args, option) is not None}
    spec = ASCEND_950.with_overrides(**changes)
    points = head_roofline_sweep(spec, args.heads, args.topk)
    check_shown_cycles(points)
    for point in points:
        print(seed_row(point))
    print()
    print(f"# verdict: CUBE cycles against L2 cycles per AI Core ({spec.name}; report (zh) line 114)")
    for point in points:
        print(verdict_line(point, args.balanced_within))
    if not args.assert_report:
        return 0
    differences = head_roofline_differences(points)
    if differences:
        print(f"\nMISMATCH with {HEAD_ROOFLINE_CITATION.full}:", file=sys.stderr)
        for difference in differences:
            print(f"  {difference.describe()}", file=sys.stderr)
        return 1
    print(f"\nOK: every row equals {HEAD_ROOFLINE_CITATION.full}")
    return 0
