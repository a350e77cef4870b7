"""``ascend-dsa claims``: every quantitative claim of the report, ours beside theirs, with what-if overrides."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ascend_dsa.cli.head_roofline import check_shown_cycles
from ascend_dsa.cli.options import positive_float, positive_int
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.lang import Lang
from ascend_dsa.models.roofline import head_roofline_sweep
from ascend_dsa.render.claims import line_cell, ours_cell, rule_text, statement_text
from ascend_dsa.render.format import published_cell
from ascend_dsa.report.claims import evaluate_claims
from ascend_dsa.report.rules import CHAPTERS, ClaimContext

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable

    from ascend_dsa.report.claims import ClaimResult

NAME = "claims"
HELP = "List every figure of the report with ours, theirs, the rule and the status; exit 1 if any differs."
#: The same summary for the Chinese command-line reference page.
HELP_ZH = "列出报告的每一个数：我们算的、报告写的、比对规则和结论；有任何一个对不上就以状态 1 退出。"
FINDING = "a finding: at least one claim differs from the report (each is named on stderr)"

#: Option name -> hardware field it overrides.
_SPEC_OVERRIDES = {
    "clock": "clock_hz",
    "l2_bandwidth": "l2_bandwidth_bytes_per_s",
    "cores": "ai_cores",
    "cube_fma": "cube_fma_per_cycle",
    "fixpipe_rate": "fixpipe_bytes_per_cycle_1c1v",
}
#: Option name -> kernel configuration field it overrides.
_CONFIG_OVERRIDES = {"b_topk": "b_topk", "heads_per_core": "heads_per_core"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the options: language, chapter filter, hardware and kernel overrides."""
    parser.add_argument("--lang", choices=("zh", "en"), default="en", help="language of the claims (default en)")
    parser.add_argument("--chapter", choices=CHAPTERS, help="only the claims of this chapter (a site page)")
    parser.add_argument("--clock", type=positive_float, help="clock in Hz (preset 1.65e9)")
    parser.add_argument("--l2-bandwidth", type=positive_float, help="total L2 bandwidth in B/s (preset 5e12)")
    parser.add_argument("--cores", type=positive_int, help="AI Cores (preset 32)")
    parser.add_argument("--cube-fma", type=positive_int, help="CUBE FMA per cycle per AI Core (preset 4096)")
    parser.add_argument("--fixpipe-rate", type=positive_int, help="FixPipe B/cycle under 1C1V (preset 128)")
    parser.add_argument("--b-topk", type=positive_int, help="KV tokens per block (shipped 64)")
    parser.add_argument("--heads-per-core", type=positive_int, help="q heads per AI Core (shipped 64)")


def run(args: argparse.Namespace) -> int:
    """Print every selected claim; exit 1 naming each failing claim, else 0."""
    spec_changes = {f: getattr(args, o) for o, f in _SPEC_OVERRIDES.items() if getattr(args, o) is not None}
    config_changes = {f: getattr(args, o) for o, f in _CONFIG_OVERRIDES.items() if getattr(args, o) is not None}
    spec = ASCEND_950.with_overrides(**spec_changes) if spec_changes else ASCEND_950
    config = SHIPPED_KERNEL.with_overrides(**config_changes) if config_changes else SHIPPED_KERNEL
    check_shown_cycles(head_roofline_sweep(spec))  # the report's table, which several claims quote
    results = evaluate_claims(ClaimContext(spec=spec, config=config), chapter=args.chapter)
    for line in claim_lines(results, args.lang):
        print(line)
    failing = [r for r in results if not r.passed]
    print(f"\n{len(results) - len(failing)} of {len(results)} claims agree with the report ({spec.name}).")
    if failing:
        print(f"{len(failing)} claim(s) differ from the report:", file=sys.stderr)
        for result in failing:
            print(f"  {result.describe()}", file=sys.stderr)
        return 1
    return 0


def claim_lines(results: Iterable[ClaimResult], lang: Lang = "en") -> list[str]:
    """Plain-text lines for the command line: line, id, claim, ours, theirs, rule, status."""
    return [
        f"{line_cell(r, lang):<14} {'PASS' if r.passed else 'FAIL'}  {r.claim.claim_id}: {statement_text(r, lang)}\n"
        f"{'':<20} ours {ours_cell(r, lang)} | report {published_cell(r, lang)} | {rule_text(r.claim.rule, lang)}"
        for r in results
    ]


# --- tables behind the chapters -------------------------------------------------------------------------------
