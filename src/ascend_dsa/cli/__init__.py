"""The ``ascend-dsa`` command line: one subcommand per module in this package.

Errors in what the user typed end the program with status 2 and one line that names the option and what was
expected, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import version
from typing import TYPE_CHECKING, NoReturn

from ascend_dsa.cli import claims, head_roofline, ub_plan

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Subcommand modules; each has ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
SUBCOMMANDS = (head_roofline, claims, ub_plan)

PROG = "ascend-dsa"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are a single line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` alone, without the usage block, and exit 2."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand registered."""
    parser = OneLineParser(prog=PROG, description="Executable companion to the Ascend sparse-attention report.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('ascend-dsa')}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser)
    for module in SUBCOMMANDS:
        sub = commands.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    status: int = args.run(args)
    sys.stdout.flush()
    return status
