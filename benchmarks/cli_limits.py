"""How long the command line takes to refuse an over-long list, and to parse a list at the cap.

    .venv/bin/python benchmarks/cli_limits.py [--repeat N]

The list options cap how many items they take (``LIST_ITEMS_MAX``): a list over the cap is refused before any model
runs, and a list at the cap parses in linear time (its duplicate check was once quadratic). Prints the median of
``--repeat`` runs of each, in process, with the goals: a refusal within 1 s, a list at the cap within 0.1 s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from typing import TYPE_CHECKING

from ascend_dsa import cli
from ascend_dsa.cli.exit_status import ExitStatus
from ascend_dsa.cli.options import LIST_ITEMS_MAX, positive_int_list

if TYPE_CHECKING:
    from collections.abc import Callable

REFUSAL_GOAL_S, PARSE_GOAL_S = 1.0, 0.1


def _median_s(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    """Time both and print them against their goals; exit 1 if one is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each; the median counts (default 5)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    over = ",".join(str(n) for n in range(64, 3064))  # `seq -s, 64 3063`: 3000 items
    at_cap = ",".join(str(n) for n in range(1, LIST_ITEMS_MAX + 1))

    def refuse() -> None:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = cli.main(["head-roofline", "--heads", over, "--topk", over])
        if status != ExitStatus.USAGE:
            sys.exit(f"cli_limits: the over-long lists were not refused (exit status {status})")

    refusal = _median_s(refuse, args.repeat)
    parsing = _median_s(lambda: positive_int_list(at_cap), args.repeat)
    print(f"refusing two lists of 3000 items: {refusal * 1e3:8.2f} ms (goal <= {REFUSAL_GOAL_S:g} s)")
    print(f"parsing a list of {LIST_ITEMS_MAX} items:     {parsing * 1e3:8.2f} ms (goal <= {PARSE_GOAL_S:g} s)")
    missed = refusal > REFUSAL_GOAL_S or parsing > PARSE_GOAL_S
    print("goals: " + ("MISSED" if missed else "met"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
