"""``ascend-dsa design-point``: every hardware limit of one design point, demand against capacity."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ascend_dsa.cli.options import positive_float, positive_int
from ascend_dsa.errors import ForbiddenDesign
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.design_point import SHIPPED_DESIGN, DesignPoint, KvCache, evaluate
from ascend_dsa.render.design_space import design_limits_text

if TYPE_CHECKING:
    import argparse

NAME = "design-point"
HELP = (
    "Each limit of one design point (L2, FixPipe, L0C, UB, MTE2 queue, L1) as demand against capacity, as on the "
    "design page; exit 0 if all fit, 1 if one is exceeded, 2 if the kernel forbids the combination."
)
FINDING = "a finding: at least one limit is exceeded"
USAGE = "; or a combination of options the kernel forbids (the line names the rule)"

#: Option name -> hardware field it overrides.
_OVERRIDES = {
    "l2_bandwidth": "l2_bandwidth_bytes_per_s",
    "cores": "ai_cores",
    "clock": "clock_hz",
    "cube_fma": "cube_fma_per_cycle",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the point's options (defaults: the report's design point) and the hardware overrides."""
    point = SHIPPED_DESIGN
    parser.add_argument("--lang", choices=("zh", "en"), default="en", help="language of the output (default en)")
    parser.add_argument(
        "--heads", type=positive_int, default=point.heads_per_core, help="q heads per AI Core (shipped: 64)"
    )
    parser.add_argument("--topk", type=positive_int, default=point.topk, help="topk (default 512)")
    parser.add_argument("--b-topk", type=positive_int, default=point.b_topk, help="KV tokens per block (shipped: 64)")
    parser.add_argument(
        "--index-block-size",
        type=positive_int,
        default=point.index_block_size,
        help="indices read per index group (shipped: 640)",
    )
    parser.add_argument(
        "--vector-cores",
        type=positive_int,
        choices=(1, 2),
        default=point.vector_cores,
        help="VECTOR Cores per CUBE Core (shipped: 2)",
    )
    parser.add_argument(
        "--kv-cache",
        choices=[c.value for c in KvCache],
        default=point.kv_cache.value,
        help="KV cache read: bf16 (prefill), fp8 or fp8+fp4 (decode); default bf16",
    )
    parser.add_argument("--sink", action="store_true", help="with attention sink")
    parser.add_argument("--l2-bandwidth", type=positive_float, help="total L2 bandwidth in B/s (preset 5e12)")
    parser.add_argument("--cores", type=positive_int, help="AI Cores sharing the L2 (preset 32)")
    parser.add_argument("--clock", type=positive_float, help="clock in Hz (preset 1.65e9)")
    parser.add_argument("--cube-fma", type=positive_int, help="CUBE FMA per cycle per AI Core (preset 4096)")


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
    changes = {name: getattr(args, option) for option, name in _OVERRIDES.items() if getattr(args, option) is not None}
    spec = ASCEND_950.with_overrides(**changes) if changes else ASCEND_950
    try:
        evaluation = evaluate(point, spec)
    except ForbiddenDesign as error:
        print(f"ascend-dsa {NAME}: error: {error}", file=sys.stderr)
        return 2
    print(design_limits_text(evaluation, args.lang))
    return 0 if evaluation.fits else 1
