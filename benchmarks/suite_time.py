"""How long the test suite takes, in wall time and in CPU time, and which tests take longest.

    .venv/bin/python benchmarks/suite_time.py [-m "not build"] [--top N]

Runs pytest as ``make pytest`` does (two workers, work stealing). Goal (issue 29): pytest at most 3 minutes on an
idle 2-core machine. The machine's load is printed alongside, because on a shared machine the wall time grows with
it while the CPU time stays about what an idle machine would need. The CPU time is the whole machine's while the
suite runs (Linux, /proc/stat: Chromium's processes included, which are not pytest's children), else pytest's and
its children's.
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


#: Clock ticks per second of /proc/stat's counters.
_TICKS_PER_S = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def machine_busy_s() -> float | None:
    """Seconds all processors have spent busy since boot (user, nice, system, irq, softirq), or None off Linux."""
    try:
        fields = Path("/proc/stat").read_text(encoding="ascii").split("\n", 1)[0].split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[1:8])
    return (user + nice + system + irq + softirq) / _TICKS_PER_S


def main() -> int:
    """Run pytest once and print wall time, CPU time, the load average and the slowest tests."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-m", dest="marker", default="", help="pytest marker expression, e.g. 'not build'")
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest tests to list")
    args = parser.parse_args()
    command = [sys.executable, "-m", "pytest", "-n", "2", "--dist", "worksteal", "-q", "-p", "no:cacheprovider"]
    command.append(f"--durations={args.top}")
    if args.marker:
        command += ["-m", args.marker]
    load_before = os.getloadavg()[0]
    busy_before = machine_busy_s()
    start = time.perf_counter()
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)  # noqa: S603
    wall = time.perf_counter() - start
    busy_after = machine_busy_s()
    if busy_before is not None and busy_after is not None:
        cpu, whose = busy_after - busy_before, "the machine's"
    else:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu, whose = usage.ru_utime + usage.ru_stime, "pytest's and its children's"
    tail = completed.stdout.split("slowest", 1)[-1] if "slowest" in completed.stdout else completed.stdout[-3000:]
    print(f"slowest{tail}".rstrip())
    print(f"pytest exit status {completed.returncode}")
    print(f"wall {wall:.0f} s (goal: at most {GOAL_S:.0f} s on an idle 2-core machine); CPU {cpu:.0f} s ({whose})")
    print(f"load average (1 min) {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    return completed.returncode


if __name__ == "__main__":
    sys.exit(main())
