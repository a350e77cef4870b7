"""Design points per second: the vectorised sweep against a scalar loop written in the seed's style.

The scalar loop is how the seed script (head_roofline.py) computes its table: module constants, one small
function per quantity, and nested ``for`` loops over the grid. Here it evaluates the same seven limits as
``ascend_dsa.sweep`` and picks the binding one; its constants are read from the package's presets, so the two
agree by construction, and the script checks that they do on a sample before printing the timings.

Run: ``.venv/bin/python benchmarks/design_sweep.py`` (goal: at least 1e6 points/s and 100x the scalar loop).
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

import numpy as np

from ascend_dsa import ASCEND_950, LIMITS, SHIPPED_KERNEL, DesignGrid, KvCache, sweep
from ascend_dsa.facts.kv_formats import FP4_V41, FP8_V41
from ascend_dsa.models.design_sweep import NONE

# Constants, as the seed keeps them at module level (here read from the package's presets).
D = 512
FMA_PER_CYCLE = ASCEND_950.matrix_fma_per_cycle_per_core
L2_BW = ASCEND_950.bandwidth_bytes_per_s / ASCEND_950.cores / ASCEND_950.clock_hz
FIXPIPE_1C1V = ASCEND_950.ascend.fixpipe_bytes_per_cycle_1c1v
L0C = ASCEND_950.accumulator_bytes_per_core
UB = ASCEND_950.staging_bytes_per_core
MTE2_QUEUE = ASCEND_950.ascend.mte2_outstanding_requests
L1_BANK = ASCEND_950.ascend.l1_bytes // ASCEND_950.ascend.l1_banks
FP8_ROW = FP8_V41.ub_token_bytes
FP8_TOKEN = FP8_V41.token_bytes
FP4_ROW = FP4_V41.ub_token_bytes
K = SHIPPED_KERNEL

#: Every value of INDEX_BLOCK_SIZE is a multiple of 768 = lcm(256, 3 x 128), so every B_TOPK below divides it and
#: no point is forbidden: the scalar loop does the full work at every point (no early exit flatters it).
GRID = DesignGrid(
    heads=tuple(range(8, 1032, 8)),
    topk=(256, 512, 640, 1024, 2048, 4096, 8192, 16384),
    b_topk=(16, 32, 48, 64, 96, 128, 192, 256),
    vector_cores=(1, 2),
    kv_cache=tuple(KvCache),
    sink=(False, True),
    index_block_size=tuple(768 * n for n in range(1, 9)),
)


def _forbidden(b_topk: int, nv: int, ib: int) -> bool:  # the four tile rules of kernel_rules.py
    return ib % b_topk != 0 or b_topk % (2 * nv) != 0 or b_topk % 16 != 0 or ib % 128 != 0


def _ub_bytes(m: int, b_topk: int, nv: int, kv: int, sink: bool, ib: int) -> int:  # noqa: FBT001
    b = b_topk // nv
    rows = 2 * (3 * max(2 * m, 64) + max(m, 64) + 2 * 64) * 4
    total = 3 * b * (FP8_ROW if kv else D * 2) + (b * 16 * 2 if kv else 0) + (b + 1) * D * 2 + m * D * 4
    total += 2 * m * 128 * 4 + m * b_topk * 4 + (m * 4 if sink else 0) + rows + ib * 4 + ib * 8 + 4 * ib * 4
    total += (3 * b * FP4_ROW + b * 32 * 2 if kv == 2 else 0) + 16  # noqa: PLR2004 - FP8 + FP4 is kv 2
    return -(-total // 8) * 8


def _binding(h: int, topk: int, b_topk: int, nv: int, kv: int, sink: bool, ib: int) -> int:  # noqa: FBT001
    """Index of the binding limit, or -1 if a kernel rule forbids the point (seed style: plain arithmetic)."""
    if _forbidden(b_topk, nv, ib):
        return NONE
    mma_m = -(-h // 32) * 32
    mma = mma_m * b_topk * (D + D) / FMA_PER_CYCLE
    p_bytes, o_bytes = mma_m * b_topk * 4, mma_m * D * 4
    l1 = -(-K.l1_q_buffers * mma_m * D * 2 // 2) + -(-K.l1_kv_buffers * b_topk * D * 2 // 2)
    l1 += -(-mma_m * b_topk * 2 // 2)
    uses = (
        (h * (D + D) * 2 + topk * (FP8_TOKEN if kv else D * 2)) / L2_BW / (h * topk * (D + D) // FMA_PER_CYCLE),
        (p_bytes + o_bytes) / (FIXPIPE_1C1V * nv) / mma,
        p_bytes / (FIXPIPE_1C1V * nv) / mma,
        (o_bytes + p_bytes) / L0C,
        _ub_bytes(mma_m // nv, b_topk, nv, kv, sink, ib) / UB,
        -(-(b_topk // nv) // 2) / MTE2_QUEUE,
        l1 / L1_BANK,
    )
    return max(range(len(uses)), key=uses.__getitem__)


def scalar_loop(grid: DesignGrid) -> list[int]:
    """Every point of the grid, one at a time."""
    kv_index = {k: i for i, k in enumerate(KvCache)}
    return [
        _binding(h, t, b, nv, kv_index[kv], s, ib)
        for h, t, b, nv, kv, s, ib in itertools.product(
            grid.heads, grid.topk, grid.b_topk, grid.vector_cores, grid.kv_cache, grid.sink, grid.index_block_size
        )
    ]


def best_of(repeats: int, run: object) -> float:
    """The fastest of ``repeats`` timed calls of ``run``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    """Check agreement on a sample, then time both and print points per second and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of the sweep; the best counts")
    args = parser.parse_args()
    size = GRID.size
    result = sweep(ASCEND_950, GRID)
    scalar = scalar_loop(GRID)
    rng = random.Random(0)
    sample = rng.sample(range(size), 20_000)
    flat = result.binding.reshape(-1)
    disagree = [i for i in sample if int(flat[i]) != scalar[i]]
    if disagree:
        print(f"MISMATCH: scalar and vectorised binding limits differ at {len(disagree)} of {len(sample)} points")
        return 1
    vector_s = best_of(args.repeats, lambda: sweep(ASCEND_950, GRID))
    scalar_s = best_of(1, lambda: scalar_loop(GRID))
    feasible = int(np.count_nonzero(result.fits))
    forbidden = int(np.count_nonzero(result.binding == NONE))
    print(
        f"grid: {size:,} design points ({' x '.join(str(n) for n in GRID.shape)}); {forbidden:,} forbidden by a "
        f"kernel rule, {feasible:,} fit every limit"
    )
    print(f"binding limits agree on {len(sample):,} sampled points ({', '.join(LIMITS)})")
    print(f"vectorised sweep: {vector_s * 1e3:8.1f} ms  {size / vector_s:14,.0f} points/s (best of {args.repeats})")
    print(f"scalar loop:      {scalar_s * 1e3:8.1f} ms  {size / scalar_s:14,.0f} points/s")
    print(f"ratio: {scalar_s / vector_s:.0f}x (goal: >= 100x and >= 1,000,000 points/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
