"""``ascend-dsa design-point``: every hardware limit of one design point, demand against capacity."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.cli.exit_status import ExitStatus, error_message, fail
from ascend_dsa.cli.options import (
    KV_TOKENS,
    Within,
    add_hardware_options,
    add_instantiation_options,
    hardware_of,
    positive_int,
)
from ascend_dsa.errors import ForbiddenDesign
from ascend_dsa.facts.kernel_config import TOKENS_RANGE
from ascend_dsa.models.design_point import SHIPPED_DESIGN, DesignPoint, KvCache, evaluate
from ascend_dsa.render.design_space import design_limits_text

if TYPE_CHECKING:
    import argparse

NAME = "design-point"
HELP = (
    "Each limit of one design point (L2, FixPipe, L0C, UB, MTE2 queue, L1) as demand against capacity, as on the "
    f"design page; exit {ExitStatus.OK} if all fit, {ExitStatus.FINDING} if one is exceeded, {ExitStatus.USAGE} if the "
    "kernel forbids the combination."
)
#: The same summary for the Chinese command-line reference page.
HELP_ZH = (
    "一个设计点的每项限制（L2、FixPipe、L0C、UB、MTE2 队列、L1）：需求对容量，与设计页相同；"
    f"全部满足退出 {ExitStatus.OK}，有一项超出退出 {ExitStatus.FINDING}，源码不允许的组合退出 {ExitStatus.USAGE}。"
)
FINDING = "a finding: at least one limit is exceeded"
USAGE = "; or a combination of options the kernel forbids (the line names the rule)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the point's options (defaults: the report's design point) and the hardware overrides."""
    point = SHIPPED_DESIGN
    parser.add_argument(
        "--topk",
        type=Within(positive_int, TOKENS_RANGE, KV_TOKENS),
        default=point.topk,
        help="topk (default %(default)s)",
    )
    parser.add_argument(
        "--kv-cache",
        choices=[c.value for c in KvCache],
        default=point.kv_cache.value,
        help="KV cache read: bf16 (prefill), fp8 or fp8+fp4 (decode); default bf16",
    )
    parser.add_argument("--sink", action="store_true", help="with attention sink")
    add_instantiation_options(parser)
    add_hardware_options(parser)


def run(args: argparse.Namespace) -> int:
    """Print every limit; exit 0 if all fit, 1 if one is exceeded, 2 naming the rule for a forbidden point."""
    point = DesignPoint(
        heads_per_core=args.heads,
        topk=args.topk,
        b_topk=args.b_topk,
        vector_cores=args.vector_cores,
        kv_cache=KvCache(args.kv_cache),
        sink=args.sink,
        index_block_size=args.index_block_size,
    )
    try:
        evaluation = evaluate(point, hardware_of(args))
    except ForbiddenDesign as error:  # here bad usage (2), not a what-if outside the model (3, as in cli._run)
        return fail(ExitStatus.USAGE, error_message(error), NAME, lang=args.lang)
    print(design_limits_text(evaluation, args.lang))
    return 0 if evaluation.fits else 1
