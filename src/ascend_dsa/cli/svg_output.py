"""``--svg FILE`` of the commands a page draws a figure for: that figure, for the command's options, as an SVG file.

The command calls the page's own figure function with the values its options give, so ``--svg -`` prints exactly
the ``<svg>`` element the page shows for the same values (its "Run live" form redraws the figure this way). The
figure speaks the command's ``--lang`` where it has one, English otherwise, as its text output does.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ascend_dsa.cli.exit_status import ExitStatus, fail
from ascend_dsa.lang import Text
from ascend_dsa.render.svg import svg_element

if TYPE_CHECKING:
    import argparse

    from ascend_dsa.lang import Lang

#: ``--svg``'s value that means stdout: then the SVG is all the command prints there.
STDOUT = "-"


def add_svg_option(parser: argparse.ArgumentParser, figure: str) -> None:
    """Register ``--svg FILE``; ``figure`` names what it writes, for the help (``the per-core roofline``)."""
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help=f"also write {figure} for these options to FILE as SVG, the page's figure byte for byte "
        f"('{STDOUT}': print only the SVG)",
    )


def figure_lang(args: argparse.Namespace) -> Lang:
    """The language of the figure: the command's ``--lang`` when it has that option, English otherwise."""
    lang: Lang = getattr(args, "lang", "en")
    return lang


def text_wanted(args: argparse.Namespace) -> bool:
    """Whether the command prints its text: not when ``--svg -`` gives stdout to the SVG alone."""
    return bool(args.svg != STDOUT)


def write_svg(path: str, figure: str, command: str, *, lang: Lang = "en") -> int:
    """Write the ``<svg>`` element of a page's ``figure`` (what its renderer returned) to ``path``, ``-`` for stdout.

    Returns 0, or 2 after one line (in ``lang``) naming the file when it cannot be written.
    """
    svg = svg_element(figure) + "\n"
    if path == STDOUT:
        sys.stdout.write(svg)
        return ExitStatus.OK
    try:
        with open(path, "w", encoding="utf-8") as file:  # noqa: PTH123 - a path as typed
            file.write(svg)
    except (OSError, ValueError) as error:  # ValueError: a path with a NUL in it
        reason = error.strerror or str(error) if isinstance(error, OSError) else str(error)
        return fail(ExitStatus.USAGE, cannot_write("--svg", path, reason), command, lang=lang)
    return ExitStatus.OK


def cannot_write(option: str, path: str, reason: str) -> Text:
    """The message for an output file that cannot be written: the option, the path and the system's ``reason``."""
    return Text(f"{option} {path}：无法写入（{reason}）", f"{option} {path}: cannot write it ({reason})")
