"""How long the test suite takes, in wall time and in CPU time, and which tests take longest.

    .venv/bin/python benchmarks/suite_time.py [-m "not build"] [--top N]

Goal (issue 11): pytest at most 3 minutes on a 2-core machine. The machine's load is printed alongside, because on
a shared machine the wall time grows with it while the CPU time (this process's children: pytest and every build
and browser it starts) stays about what an idle machine would need.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_S = 180.0


def main() -> int:
    """Run pytest once and print wall time, CPU time, the load average and the slowest tests."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-m", dest="marker", default="", help="pytest marker expression, e.g. 'not build'")
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest tests to list")
    args = parser.parse_args()
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--durations={args.top}"]
    if args.marker:
        command += ["-m", args.marker]
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)  # noqa: S603
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    tail = completed.stdout.split("slowest", 1)[-1] if "slowest" in completed.stdout else completed.stdout[-3000:]
    print(f"slowest{tail}".rstrip())
    print(f"pytest exit status {completed.returncode}")
    print(f"wall {wall:.0f} s, CPU {cpu:.0f} s (goal: at most {GOAL_S:.0f} s on an idle 2-core machine)")
    print(f"load average (1 min) {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    return completed.returncode


if __name__ == "__main__":
    sys.exit(main())
