"""Peak memory of the forwards and the KV round-trip bound against the size of what they were asked (issue 17).

Prints tracemalloc's peak (NumPy's buffers included) for each call, next to the size of its inputs:

- the three forwards with a large cache (``--s-kv`` rows, bf16) and a small ``topk``: the peak must follow
  ``s_q x topk``, not the cache, since only the rows the indices name are gathered and converted;
- ``roundtrip_error_bound`` on ``--tokens`` x 512 float32: the peak must stay near its float32 result, since it
  works a chunk of tokens at a time.

This script prints figures; it is not a test. ``tests/test_api_contract.py`` holds every public call to 1 GiB.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np

from ascend_dsa import blocked_sparse_attn_fwd, roundtrip_error_bound, sparse_attn_fwd, sparse_attn_fwd_float64
from ascend_dsa.units import MiB

if TYPE_CHECKING:
    from collections.abc import Callable


def peak_mib(function: Callable[[], object]) -> tuple[float, float]:
    """``(peak MiB allocated during the call, seconds)``."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        function()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / MiB, time.perf_counter() - start


def main() -> None:
    """Build the inputs, run each call once under tracemalloc and print its peak."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--s-kv", type=int, default=262_144)
    parser.add_argument("--topk", type=int, default=64)
    parser.add_argument("--s-q", type=int, default=4)
    parser.add_argument("--h-q", type=int, default=64)
    parser.add_argument("--tokens", type=int, default=100_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    d_qk = 576
    kv = rng.standard_normal((args.s_kv, 1, d_qk), dtype=np.float32).astype(ml_dtypes.bfloat16)
    q = rng.standard_normal((args.s_q, args.h_q, d_qk), dtype=np.float32).astype(ml_dtypes.bfloat16)
    indices = rng.integers(0, args.s_kv, (args.s_q, 1, args.topk)).astype(np.int32)
    print(f"kv cache: {args.s_kv} tokens x {d_qk} bf16 = {kv.nbytes / MiB:.0f} MiB; s_q {args.s_q}, topk {args.topk}")
    for forward in (sparse_attn_fwd, sparse_attn_fwd_float64, blocked_sparse_attn_fwd):
        peak, seconds = peak_mib(lambda f=forward: f(q, kv, indices, d_qk**-0.5))
        print(f"  {forward.__name__:26} peak {peak:8.1f} MiB  {seconds:6.2f} s")
    values = rng.standard_normal((args.tokens, 512), dtype=np.float32)
    peak, seconds = peak_mib(lambda: roundtrip_error_bound(values, "fp8"))
    print(f"roundtrip_error_bound on {args.tokens} x 512 float32 ({values.nbytes / MiB:.0f} MiB; the result as much):")
    print(f"  {'fp8':26} peak {peak:8.1f} MiB  {seconds:6.2f} s")


if __name__ == "__main__":
    main()
