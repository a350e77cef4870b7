"""``ascend-dsa ub-plan``: the per-VECTOR-Core UB budget of one kernel instantiation, field by field."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.cli.exit_status import ExitStatus, error_message, fail
from ascend_dsa.cli.options import add_instantiation_options
from ascend_dsa.cli.svg_output import add_svg_option, figure_lang, text_wanted, write_svg
from ascend_dsa.errors import ForbiddenDesign
from ascend_dsa.facts.chips import CHIPS
from ascend_dsa.facts.hardware import ASCEND_950, is_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import KvFormat, Mode
from ascend_dsa.lang import Text
from ascend_dsa.models.memory_plans import SHIPPED_INSTANTIATIONS, ub_plan
from ascend_dsa.render.format import count_word
from ascend_dsa.render.memory_plan import render_ub_plan_bars, ub_plan_text

if TYPE_CHECKING:
    import argparse

NAME = "ub-plan"
HELP = (
    "UB bytes per VECTOR Core of one instantiation, field by field (config.h:77-125), against "
    f"{ASCEND_950.staging_bytes_per_core} B; "
    f"exit {ExitStatus.OK} if it fits, {ExitStatus.FINDING} if not, {ExitStatus.USAGE} if the kernel forbids the "
    "combination."
)
#: The same summary for the Chinese command-line reference page.
HELP_ZH = (
    "逐个字段列出一种实例化在每个 VECTOR Core 上占用的 UB 字节（config.h:77-125），"
    f"与 {ASCEND_950.staging_bytes_per_core} B 比较；"
    f"放得下以状态 {ExitStatus.OK} 退出，放不下以 {ExitStatus.FINDING} 退出，"
    f"内核不允许这种组合则以 {ExitStatus.USAGE} 退出。"
)
FINDING = "a finding: the plan does not fit in UB"
#: The ``--chip`` values with a UB (an Ascend chip's VECTOR Cores), and the others.
_WITH_UB = tuple(key for key, preset in CHIPS.items() if is_ascend(preset.spec))
_WITHOUT_UB = tuple(key for key in CHIPS if key not in _WITH_UB)
USAGE = (
    "; or a combination of options the kernel forbids (the line names the rule), or a --chip other than "
    + " or ".join(_WITH_UB)
    + ", or a --svg FILE that cannot be written"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the instantiation's options; defaults are the shipped kernel's."""
    parser.add_argument("--mode", required=True, choices=[m.value for m in Mode], help="prefill or decode")
    parser.add_argument(
        "--main-cache",
        choices=[f.value for f in KvFormat],
        help="format of the main KV cache (default: bf16 for prefill, fp8 for decode)",
    )
    parser.add_argument("--fp4-extra", action="store_true", help="add the FP4 extra cache (decode only)")
    parser.add_argument("--sink", action="store_true", help="with attention sink")
    add_instantiation_options(parser)
    parser.add_argument(
        "--chip",
        choices=tuple(CHIPS),
        default=next(iter(CHIPS)),
        help=f"{', '.join(_WITH_UB)} only: the UB plan is the Ascend 950 kernel's ({', '.join(_WITHOUT_UB)} is "
        "refused, saying so)",
    )
    shipped = count_word(len(SHIPPED_INSTANTIATIONS), "en")
    add_svg_option(parser, f"the UB figure (the {shipped} shipped instantiations at these tiles, this one outlined)")


def run(args: argparse.Namespace) -> int:
    """Print the plan and its total; exit 0 if it fits UB, 1 if not, 2 naming the rule for a forbidden one."""
    spec = CHIPS[args.chip].spec
    if not is_ascend(spec):
        return fail(
            ExitStatus.USAGE,
            Text(
                f"UB 规划是 Ascend 950 内核的（config.h:77-125）；--chip {args.chip} 没有 UB"
                f"（只有 {', '.join(_WITH_UB)} 有）",
                f"the UB plan is the Ascend 950 kernel's (config.h:77-125); --chip {args.chip} has no UB "
                f"(only {', '.join(_WITH_UB)})",
            ),
            NAME,
            lang=args.lang,
        )
    config = SHIPPED_KERNEL.with_overrides(
        heads_per_core=args.heads,
        b_topk=args.b_topk,
        index_block_size=args.index_block_size,
        vector_cores_per_cube=args.vector_cores,
    )
    main_cache = None if args.main_cache is None else KvFormat(args.main_cache)
    try:
        plan = ub_plan(config, Mode(args.mode), main_cache, fp4_extra=args.fp4_extra, sink=args.sink)
    except ForbiddenDesign as error:  # here bad usage (2), not a what-if outside the model (3, as in cli._run)
        return fail(ExitStatus.USAGE, error_message(error), NAME, lang=args.lang)
    status = ExitStatus.OK if plan.fits(spec) else ExitStatus.FINDING
    if args.svg is not None:
        figure = render_ub_plan_bars(
            spec,
            config,
            mode=Mode(args.mode),
            main_cache=main_cache,
            fp4_extra=args.fp4_extra,
            sink=args.sink,
            lang=figure_lang(args),
        )
        written = write_svg(args.svg, figure, NAME, lang=args.lang)
        if written or not text_wanted(args):
            return written or status
    print(ub_plan_text(plan, spec, args.lang))
    return status
