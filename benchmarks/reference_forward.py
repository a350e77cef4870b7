"""Time the NumPy forwards at the benchmark shape and compare them with the goals of issue 4.

Shape: s_q = 128, h_q = 64, d_qk = d_v = 512, topk = 2048, bf16 inputs. Three timings, best of a few runs:

- blocked: :func:`ascend_dsa.blocked_sparse_attn_fwd` (the kernel's algorithm, block by block);
- plain: :func:`ascend_dsa.sparse_attn_fwd` (one softmax over all gathered keys);
- floor: only the two batched float32 matmuls the plain forward cannot avoid, on keys gathered beforehand.

Goals: blocked within 2x of plain, plain within 1.5x of the floor. This script prints figures; it is not a test.

The blocked forward scores a few tokens' keys in one matmul, as the plain one does, and forms ``S @ V`` once per stay
of O in L0C, so its matmuls are as large as the plain forward's unless O leaves L0C often; the block loop itself is
vector work on ``[tokens, heads, B_TOPK]`` slices. On a busy machine OpenBLAS's threads can still dominate small
matmuls; ``OPENBLAS_NUM_THREADS=1 python benchmarks/...`` takes threading out of the comparison.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np

from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.models.blocked_forward import blocked_sparse_attn_fwd
from ascend_dsa.models.reference import sparse_attn_fwd

if TYPE_CHECKING:
    from collections.abc import Callable

BLOCKED_GOAL = 2.0
PLAIN_GOAL = 1.5


def best_times(runs: int, functions: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The shortest wall time of each function over ``runs`` rounds, in seconds.

    The rounds interleave the functions, so a slow spell of a shared machine hits all of them alike.
    """
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(runs):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    """Build the inputs, time the three variants and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--s-q", type=int, default=128)
    parser.add_argument("--h-q", type=int, default=64)
    parser.add_argument("--topk", type=int, default=2048)
    parser.add_argument("--s-kv", type=int, default=8192)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    d_qk, d_v = DSA_V41.d_qk, DSA_V41.d_v
    rng = np.random.default_rng(0)
    q = rng.standard_normal((args.s_q, args.h_q, d_qk), dtype=np.float32).astype(ml_dtypes.bfloat16)
    kv = rng.standard_normal((args.s_kv, 1, d_qk), dtype=np.float32).astype(ml_dtypes.bfloat16)
    indices = rng.integers(0, args.s_kv, (args.s_q, 1, args.topk)).astype(np.int32)
    sm_scale = d_qk**-0.5

    q32 = q.astype(np.float32)
    gathered = np.take(kv[:, 0, :].astype(np.float32), indices[:, 0, :], axis=0)  # [s_q, topk, d_qk]

    def floor() -> None:
        logits = np.matmul(q32, gathered.transpose(0, 2, 1))  # [s_q, h_q, topk]
        np.matmul(logits, gathered[:, :, :d_v])  # [s_q, h_q, d_v]

    def plain() -> None:
        sparse_attn_fwd(q, kv, indices, sm_scale, d_v)

    def blocked() -> None:
        blocked_sparse_attn_fwd(q, kv, indices, sm_scale, d_v)

    best = best_times(args.runs, {"floor": floor, "plain": plain, "blocked": blocked})
    t_floor, t_plain, t_blocked = best["floor"], best["plain"], best["blocked"]
    print(f"shape: s_q={args.s_q}, h_q={args.h_q}, d_qk={d_qk}, d_v={d_v}, topk={args.topk}, s_kv={args.s_kv}")
    print(f"floor (two float32 matmuls): {t_floor * 1e3:8.1f} ms")
    print(f"plain forward:               {t_plain * 1e3:8.1f} ms")
    print(f"blocked forward:             {t_blocked * 1e3:8.1f} ms")
    for label, ratio, goal in (
        ("blocked / plain", t_blocked / t_plain, BLOCKED_GOAL),
        ("plain / floor  ", t_plain / t_floor, PLAIN_GOAL),
    ):
        print(f"{label} = {ratio:.2f} (goal <= {goal}): {'met' if ratio <= goal else 'missed'}")


if __name__ == "__main__":
    main()
