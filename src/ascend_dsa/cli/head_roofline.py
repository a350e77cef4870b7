"""``ascend-dsa head-roofline``: the report's table of CUBE against L2 cycles, with what-if overrides."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.cli.exit_status import ExitStatus, fail, say
from ascend_dsa.cli.options import (
    KV_TOKEN_BYTES,
    LIST_ITEMS_MAX,
    Q_HEADS,
    TOPK_VALUES,
    Within,
    add_hardware_options,
    chip_of,
    positive_int,
    positive_int_list,
    unit_fraction,
)
from ascend_dsa.cli.svg_output import add_svg_option, figure_lang, text_wanted, write_svg
from ascend_dsa.errors import OutOfRange
from ascend_dsa.facts.chips import CHIPS, H800_PRESET
from ascend_dsa.facts.kernel_config import HEADS_RANGE, TOKENS_RANGE
from ascend_dsa.facts.report_figures import HEAD_ROOFLINE_CITATION
from ascend_dsa.lang import Lang, Text, pick
from ascend_dsa.models.hopper import fp8_token_bytes
from ascend_dsa.models.roofline import KV_TOKEN_BYTES_RANGE, REPORT_HEADS, REPORT_TOPK, head_roofline_sweep
from ascend_dsa.render.roofline import TOPK_COLOURS, render_roofline_figure, seed_row, verdict_line
from ascend_dsa.report.checks import head_roofline_differences

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable, Sequence

    from ascend_dsa.facts.chips import ChipPreset
    from ascend_dsa.facts.hardware import AnyChip
    from ascend_dsa.models.roofline import RooflinePoint

NAME = "head-roofline"
_DEFAULT, *_OTHERS = CHIPS.values()


def _short(preset: ChipPreset) -> str:
    """A chip as a sentence names it: its preset's name without the variant (``H800`` of ``H800 SXM5``)."""
    return preset.spec.name.split()[0]


HELP = (
    "CUBE vs L2 cycles per AI Core for each (q heads, topk), as in report (zh) lines 85-114; "
    + "; ".join(
        f"--chip {p.key} runs the same model on the {_short(p)}'s {p.core}s and {p.spec.bandwidth.en}" for p in _OTHERS
    )
    + "."
)
#: The same summary for the Chinese command-line reference page.
HELP_ZH = (
    "按 (q head 数, topk) 逐行算出每个 AI Core 的 CUBE 周期与 L2 周期，对应报告 (zh) 第 85-114 行；"
    + "；".join(f"--chip {p.key} 用同一个模型算 {_short(p)} 的 {p.core} 与 {p.spec.bandwidth.zh}" for p in _OTHERS)
    + "。"
)
FINDING = "a finding: with --assert-report, the table differs from the report (the rows are named on stderr)"
#: Most (heads, topk) pairs one run computes and prints: a row each, twice.
GRID_POINTS_MAX = 4096
USAGE = (
    f", or a grid of more than {GRID_POINTS_MAX} (heads, topk) pairs, or --assert-report with "
    + " or ".join(f"--chip {p.key}" for p in CHIPS.values() if not p.reported)
    + f", or --svg with more than {len(TOPK_COLOURS)} topk values or a FILE that cannot be written"
)


def _listed(values: Iterable[int]) -> str:
    """Values as the option takes them: ``16,32,64,128``."""
    return ",".join(str(v) for v in values)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the options: grid, hardware overrides, the report check."""
    parser.add_argument(
        "--heads",
        type=Within(positive_int_list, HEADS_RANGE, Q_HEADS),
        default=REPORT_HEADS,
        help=f"q heads per AI Core, e.g. {_listed(REPORT_HEADS)} (at most {LIST_ITEMS_MAX} values)",
    )
    parser.add_argument(
        "--topk",
        type=Within(positive_int_list, TOKENS_RANGE, TOPK_VALUES),
        default=REPORT_TOPK,
        help=f"topk values, e.g. {_listed(REPORT_TOPK)} (at most {LIST_ITEMS_MAX} values, and {GRID_POINTS_MAX} pairs "
        "with --heads)",
    )
    parser.add_argument(
        "--chip",
        choices=tuple(CHIPS),
        default=_DEFAULT.key,
        help=f"chip preset: {_DEFAULT.key} ({_DEFAULT.described}; default) or "
        + ", ".join(f"{p.key} ({p.described})" for p in _OTHERS),
    )
    parser.add_argument(
        "--kv-token-bytes",
        type=Within(positive_int, KV_TOKEN_BYTES_RANGE, KV_TOKEN_BYTES),
        help=(
            "bytes of one KV token (default d_qk bf16 values: "
            + ", ".join(f"{p.model.d_qk * p.model.element_bytes} on {p.key}" for p in CHIPS.values())
            + f"; FP8 on {H800_PRESET.key}: {fp8_token_bytes()})"
        ),
    )
    add_hardware_options(parser, other_chips=True)
    parser.add_argument(
        "--balanced-within",
        type=unit_fraction,
        default=0.0,
        help="call a ratio within this fraction of 1 balanced (default %(default)g)",
    )
    parser.add_argument(
        "--assert-report",
        action="store_true",
        help=f"exit {ExitStatus.FINDING} with a row diff unless the table equals {HEAD_ROOFLINE_CITATION.short}",
    )
    add_svg_option(parser, f"the per-core roofline (at most {len(TOPK_COLOURS)} topk values)")


def check_shown_cycles(points: Iterable[RooflinePoint]) -> None:
    """Refuse a table whose L2 cycles would print as 0 (a bandwidth so large the model's figure is meaningless)."""
    for point in points:
        if round(point.l2_cycles) == 0:
            raise OutOfRange(
                Text(
                    f"h_q={point.heads}、topk={point.topk} 时每个 AI Core 的 L2 周期是 {point.l2_cycles:.3g}，"
                    "四舍五入成了 0 周期",
                    f"L2 cycles per AI Core are {point.l2_cycles:.3g} at h_q={point.heads}, topk={point.topk}, "
                    "which rounds to 0 cycles",
                )
            )


def chip_spec(args: argparse.Namespace) -> AnyChip:
    """The ``--chip`` preset with the hardware options applied."""
    return chip_of(args, CHIPS[args.chip].spec)


def run(args: argparse.Namespace) -> int:
    """Print the table then the verdicts; with --assert-report, compare with the report and exit 1 on a difference."""
    pairs = len(args.heads) * len(args.topk)
    if pairs > GRID_POINTS_MAX:
        return fail(
            ExitStatus.USAGE,
            Text(
                f"--heads 与 --topk 组成 {len(args.heads)} x {len(args.topk)} = {pairs} 对的网格；"
                f"至多 {GRID_POINTS_MAX} 对",
                f"--heads and --topk make a grid of {len(args.heads)} x {len(args.topk)} = {pairs} pairs; "
                f"at most {GRID_POINTS_MAX}",
            ),
            NAME,
            lang=args.lang,
        )
    preset = CHIPS[args.chip]
    if args.assert_report and not preset.reported:
        return fail(
            ExitStatus.USAGE,
            Text(
                f"--assert-report 比对的是报告里 Ascend 950 的表；不适用于 --chip {args.chip}",
                f"--assert-report compares with the report's Ascend 950 table; it does not apply to --chip {args.chip}",
            ),
            NAME,
            lang=args.lang,
        )
    spec = chip_spec(args)
    points = head_roofline_sweep(spec, args.heads, args.topk, preset.model, args.kv_token_bytes)
    check_shown_cycles(points)
    if args.svg is not None and (ended := _figure(args, spec, preset, points)) is not None:
        return ended
    for point in points:
        print(seed_row(point))
    print()
    lang = args.lang
    if preset.reported:
        print(
            pick(
                lang,
                f"# 结论：每个 AI Core 的 CUBE 周期对 L2 周期（{spec.name}；报告 (zh) 第 114 行）",
                f"# verdict: CUBE cycles against L2 cycles per AI Core ({spec.name}; report (zh) line 114)",
            )
        )
    else:
        print(
            pick(
                lang,
                f"# 结论：每个核的矩阵单元周期对 {spec.bandwidth.zh} 周期（{spec.name}；"
                "把报告的模型用在另一块芯片上：是模型，不是实测）",
                f"# verdict: matrix-unit cycles against {spec.bandwidth.en} cycles per core ({spec.name}; "
                "the report's model on another chip: a model, not a measurement)",
            )
        )
    for point in points:
        print(verdict_line(point, args.balanced_within, lang))
    if not args.assert_report:
        return 0
    if _mismatch(points, lang):
        return 1
    print(
        pick(
            lang,
            f"\nOK：每一行都与{HEAD_ROOFLINE_CITATION.full}相同",
            f"\nOK: every row equals {HEAD_ROOFLINE_CITATION.full}",
        )
    )
    return 0


def _figure(args: argparse.Namespace, spec: AnyChip, preset: ChipPreset, points: Sequence[RooflinePoint]) -> int | None:
    """Write --svg's figure; the status to end with when that is all there is to do (an error, or ``--svg -``)."""
    if len(args.topk) > len(TOPK_COLOURS):
        return fail(
            ExitStatus.USAGE,
            Text(
                f"--svg 至多画 {len(TOPK_COLOURS)} 个 topk 值，每个一种颜色；--topk 给了 {len(args.topk)} 个",
                f"--svg draws at most {len(TOPK_COLOURS)} topk values, one colour each; --topk gives {len(args.topk)}",
            ),
            NAME,
            lang=args.lang,
        )
    figure = render_roofline_figure(
        spec,
        args.topk,
        heads=args.heads,
        model=preset.model,
        kv_token_bytes=args.kv_token_bytes,
        lang=figure_lang(args),
        check=False,  # --assert-report is the command's check against the report
    )
    status = write_svg(args.svg, figure, NAME, lang=args.lang)
    if status or not text_wanted(args):
        return status or int(args.assert_report and _mismatch(points, args.lang))
    return None


def _mismatch(points: Iterable[RooflinePoint], lang: Lang) -> bool:
    """Whether the table differs from the report's; if so, say each differing row on stderr."""
    differences = head_roofline_differences(points)
    if differences:
        say(pick(lang, f"\n与{HEAD_ROOFLINE_CITATION.full}不符：", f"\nMISMATCH with {HEAD_ROOFLINE_CITATION.full}:"))
        for difference in differences:
            say(f"  {difference.describe()}")
    return bool(differences)
