"""``ascend-dsa claims``: every quantitative claim of the report, ours beside theirs, with what-if overrides."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.cli.exit_status import ExitStatus, fail, say
from ascend_dsa.cli.head_roofline import check_shown_cycles
from ascend_dsa.cli.options import (
    FIXPIPE_RATE,
    HARDWARE_OVERRIDES,
    KV_TOKENS,
    Q_HEADS,
    Within,
    add_hardware_options,
    given,
    hardware_of,
    positive_int,
)
from ascend_dsa.facts.hardware import ASCEND_950, DATAPATH_BYTES_PER_CYCLE_RANGE
from ascend_dsa.facts.kernel_config import HEADS_RANGE, SHIPPED_KERNEL, TOKENS_RANGE
from ascend_dsa.lang import Lang, Text, pick
from ascend_dsa.models.roofline import head_roofline_sweep
from ascend_dsa.render.claims import line_cell, ours_cell, rule_text, statement_text
from ascend_dsa.render.format import display_width, pad_to, published_cell
from ascend_dsa.render.markdown import status_word
from ascend_dsa.report.claims import evaluate_claims
from ascend_dsa.report.ledgers import ALL_LEDGERS, LEDGERS
from ascend_dsa.report.rules import CHAPTERS, ClaimContext

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable

    from ascend_dsa.report.claims import ClaimResult
    from ascend_dsa.report.ledgers import Ledger

NAME = "claims"
_DEFAULT, *_OTHERS = LEDGERS.values()
HELP = (
    f"List every figure of {_DEFAULT.documents.en} ("
    + "; ".join(f"or, with --source {ledger.key}, of {ledger.documents.en}" for ledger in _OTHERS)
    + f") with ours, theirs, the rule and the status; exit {ExitStatus.FINDING} if any differs."
)
FINDING = (
    f"a finding: at least one claim differs from {' or '.join(ledger.figures_name for ledger in LEDGERS.values())}, "
    "or a stated disagreement moved (each is named on stderr)"
)
#: The same summary for the Chinese command-line reference page.
HELP_ZH = (
    f"列出{_DEFAULT.documents.zh}（"
    + "；".join(f"或用 --source {ledger.key} 时 {ledger.documents.zh}" for ledger in _OTHERS)
    + f"）的每一个数：我们算的、对方写的、比对规则和结论；有任何一个对不上就以状态 {ExitStatus.FINDING} 退出。"
)

#: ``--source`` values: each ledger by its name, or all of them.
SOURCES = (*LEDGERS, ALL_LEDGERS)
#: Option name -> hardware field it overrides.
_SPEC_OVERRIDES = {**HARDWARE_OVERRIDES, "fixpipe_rate": "fixpipe_bytes_per_cycle_1c1v"}
#: Option name -> kernel configuration field it overrides.
_CONFIG_OVERRIDES = {"b_topk": "b_topk", "heads_per_core": "heads_per_core"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the options: chapter filter, hardware and kernel overrides."""
    parser.add_argument(
        "--source",
        choices=SOURCES,
        default=_DEFAULT.key,
        help=f"which ledger: {_DEFAULT.documents.en}'s (default), "
        + ", ".join(f"{ledger.documents.en}' ({ledger.key})" for ledger in _OTHERS)
        + f", or {'both' if len(_OTHERS) == 1 else 'all of them'} ({ALL_LEDGERS})",
    )
    parser.add_argument("--chapter", choices=CHAPTERS, help="only the claims of this chapter (a site page)")
    add_hardware_options(parser)
    parser.add_argument(
        "--fixpipe-rate",
        type=Within(positive_int, DATAPATH_BYTES_PER_CYCLE_RANGE, FIXPIPE_RATE),
        help=f"FixPipe B/cycle under 1C1V (preset {ASCEND_950.ascend.fixpipe_bytes_per_cycle_1c1v})",
    )
    parser.add_argument(
        "--b-topk",
        type=Within(positive_int, TOKENS_RANGE, KV_TOKENS),
        help=f"KV tokens per block (shipped {SHIPPED_KERNEL.b_topk})",
    )
    parser.add_argument(
        "--heads-per-core",
        type=Within(positive_int, HEADS_RANGE, Q_HEADS),
        help=f"q heads per AI Core (shipped {SHIPPED_KERNEL.heads_per_core})",
    )


def run(args: argparse.Namespace) -> int:
    """Print every selected claim; exit 1 naming each failing claim (or moved disagreement), else 0."""
    chosen = tuple(LEDGERS.values()) if args.source == ALL_LEDGERS else (LEDGERS[args.source],)
    design_options = given(args, _SPEC_OVERRIDES) or given(args, _CONFIG_OVERRIDES) or args.chapter is not None
    fixed = [ledger for ledger in chosen if not ledger.design_applies]
    if design_options and len(fixed) == len(chosen):
        return fail(
            ExitStatus.USAGE,
            Text(
                "--chapter 和硬件、内核选项改变的是报告的 Ascend 账本；"
                + "；".join(f"{ledger.documents.zh}的数是按 {ledger.preset} 预设算的" for ledger in fixed)
                + f"（请用 --source {ALL_LEDGERS}）",
                "--chapter and the hardware and kernel options change the report's Ascend ledger; "
                + "; ".join(f"the {ledger.noun} are computed for the {ledger.preset} preset" for ledger in fixed)
                + f" (use --source {ALL_LEDGERS})",
            ),
            NAME,
            lang=args.lang,
        )
    failing: list[str] = []
    for ledger in chosen:
        failing += _design_ledger(args, ledger) if ledger.design_applies else _preset_ledger(ledger, args.lang)
    if failing:
        say(f"{len(failing)} claim(s) or disagreement(s) differ:")
        for line in failing:
            say(f"  {line}")
        return 1
    return 0


def _design_ledger(args: argparse.Namespace, ledger: Ledger) -> list[str]:
    """Print a ledger computed for the design, with the hardware and kernel options given; return its failing lines."""
    spec = hardware_of(args, _SPEC_OVERRIDES)
    config_changes = given(args, _CONFIG_OVERRIDES)
    config = SHIPPED_KERNEL.with_overrides(**config_changes) if config_changes else SHIPPED_KERNEL
    check_shown_cycles(head_roofline_sweep(spec))  # the report's table, which several claims quote
    results = evaluate_claims(ClaimContext(spec=spec, config=config), chapter=args.chapter, source=ledger.key)
    for line in claim_lines(results, args.lang):
        print(line)
    failing = [r for r in results if not r.passed]
    agreeing = len(results) - len(failing)
    print(
        pick(
            args.lang,
            f"\n{len(results)} 条中 {agreeing} 条一致（{spec.name}）。",
            f"\n{agreeing} of {len(results)} {ledger.noun} agree with {ledger.agree_with} ({spec.name}).",
        )
    )
    return [r.describe() for r in failing]


def _preset_ledger(ledger: Ledger, lang: Lang) -> list[str]:
    """Print a ledger computed for its preset, its inputs and its stated disagreements; return its failing lines."""
    results = evaluate_claims(source=ledger.key)
    print(f"# {ledger.heading}, computed for the {ledger.preset} preset")
    for line in claim_lines(results, lang):
        print(line)
    inputs = [r.claim.claim_id for r in results if r.claim.stated]
    print(f"\nInputs (constants taken as published, measured or configured): {', '.join(inputs)}")
    disagreements = ledger.findings()
    print("\n# Stated disagreements (ours vs theirs, as we find them)")
    for d in disagreements:
        status = "HOLDS" if d.holds else "MOVED"
        print(f"{status}  {d.disagreement.key} ({d.disagreement.kind}; {d.disagreement.citation})")
        print(f"{'':<7}{d.disagreement.statement(lang)}")
    failing = [r for r in results if not r.passed]
    print(
        f"\n{len(results) - len(failing)} of {len(results)} {ledger.noun} agree with {ledger.agree_with} "
        f"({ledger.preset})."
    )
    return [r.describe() for r in failing] + [d.describe() for d in disagreements if not d.holds]


def claim_lines(results: Iterable[ClaimResult], lang: Lang = "en") -> list[str]:
    """Plain-text lines for the command line: line, id, claim, ours, theirs (as its ledger calls them), rule, status."""
    return [
        f"{pad_to(line_cell(r, lang), 14)} {_status(r.passed, lang)}  {r.claim.claim_id}: {statement_text(r, lang)}\n"
        f"{'':<20} {pick(lang, '我们', 'ours')} {ours_cell(r, lang)} | "
        f"{pick(lang, r.ledger.theirs_column.zh, r.ledger.theirs)} {published_cell(r, lang)} | "
        f"{rule_text(r.claim.rule, lang)}"
        for r in results
    ]


def _status(passed: bool, lang: Lang) -> str:  # noqa: FBT001 - a status is a plain boolean
    """PASS or FAIL in English; the status word (一致, 不一致), padded to the same width, in Chinese."""
    agrees = pick(lang, status_word(passed=True, lang=lang), "PASS")
    differs = pick(lang, status_word(passed=False, lang=lang), "FAIL")
    return pad_to(agrees if passed else differs, max(display_width(agrees), display_width(differs)))


# --- tables behind the chapters -------------------------------------------------------------------------------
