"""The ``ascend-dsa`` command line: one subcommand per module in this package.

Whatever is typed, the program ends with a documented status (`ExitStatus`)
and at most one line on stderr, never a traceback: a bad option or value exits 2 naming the option, a what-if the
model cannot represent exits 3 saying why, and a bug exits 70 naming the exception. The same holds around the
command: stdout closed or full exits 74 saying so (also when stderr cannot take the line), a reader that went away
exits 141, and Ctrl-C at any moment exits 130 with one line (``ascend_dsa/interrupt.py``). A non-blocking stdout
with a slow reader gets all the data (``streams.py``); with stderr closed, error lines are dropped, never put on
stdout. Every error line speaks the command's language (``--lang``, read from the command line before it is parsed,
or the locale): argparse's own messages through one catalogue (``parser_messages.py``), the option types' and the
model's errors in their own two languages.

Imports: every layer below (render, report, models, facts, the leaves); never site (tests/test_layers.py).
"""

from __future__ import annotations

# isort: off
# First: from here on, Ctrl-C while the modules below load is one line and status 130, not a traceback.
from ascend_dsa import interrupt

# isort: on

import argparse
import contextlib
import io
import os
import re
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from ascend_dsa.cli import claims, design_point, head_roofline, pipeline, ub_plan
from ascend_dsa.cli.exit_status import INTERRUPTED, ExitStatus, epilog, error_line, error_text, fail, quiet, say
from ascend_dsa.cli.exit_status import PROG as PROG
from ascend_dsa.cli.options import add_lang_option, argv_lang, speaking
from ascend_dsa.cli.parser_messages import parser_message
from ascend_dsa.cli.streams import whole_stdout
from ascend_dsa.cli.version import package_version
from ascend_dsa.errors import OutOfRange
from ascend_dsa.lang import Lang, Text, pick
from ascend_dsa.validate import shorten

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

    from _typeshed import SupportsWrite

#: Subcommand modules; each has ``NAME``, ``HELP``, ``HELP_ZH`` (its summary on the Chinese reference page),
#: ``add_arguments(parser)`` and ``run(args) -> int``, and may say what status 1 means for it (``FINDING``) and what
#: else status 2 covers (``USAGE``).
SUBCOMMANDS = (head_roofline, claims, ub_plan, design_point, pipeline)

#: What status 1 means when a command does not say: what it checks does not hold.
GENERIC_FINDING = "a finding: what the command checks does not hold (see each command's --help)"

#: Namespace attribute where the options given on the command line are recorded, by destination.
_GIVEN = "_given_options"


def _record_once(
    action: argparse.Action, namespace: argparse.Namespace, option_string: str | None, text: str, parser: object
) -> None:
    """Remember that ``action`` was given; a second time is an error naming the option, in ``parser``'s language."""
    given: dict[str, tuple[str, str]] | None = getattr(namespace, _GIVEN, None)
    if given is None:
        given = {}
        setattr(namespace, _GIVEN, given)
    if action.dest in given:
        lang: Lang = getattr(parser, "lang", "en")
        raise argparse.ArgumentError(action, pick(lang, "只能给一次", "given more than once"))
    given[action.dest] = (option_string or action.dest, text)


class StoreOnce(argparse._StoreAction):  # noqa: SLF001 - argparse exposes its actions only under these names
    """``store``, refusing an option given twice (argparse would silently keep the last)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,  # noqa: ANN401 - whatever the option's type returned
        option_string: str | None = None,
    ) -> None:
        """Store ``values`` unless this option was already given."""
        if option_string is not None:
            text = "" if self.type is None else f" {values_text(values)}"
            _record_once(self, namespace, option_string, text, parser)
        super().__call__(parser, namespace, values, option_string)


class StoreTrueOnce(argparse._StoreTrueAction):  # noqa: SLF001 - see StoreOnce
    """``store_true``, refusing a flag given twice."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,  # noqa: ANN401 - argparse passes an empty list
        option_string: str | None = None,
    ) -> None:
        """Set the flag unless it was already given."""
        _record_once(self, namespace, option_string, "", parser)
        super().__call__(parser, namespace, values, option_string)


def values_text(values: object) -> str:
    """An option's value as it could be typed again: lists comma-separated, floats with ``repr``."""
    if isinstance(values, tuple):
        return ",".join(str(v) for v in values)
    return str(values)


#: Arguments that are negative numbers, exponents included: ``--clock -1e9`` gives the option the value ``-1e9``
#: (for its type to refuse), where argparse would take ``-1e9`` for an option and say "expected one argument".
NEGATIVE_NUMBER = re.compile(r"^-(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$", re.ASCII)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr with status 2, without abbreviations or repeats.

    Its errors speak ``lang``: argparse's through ``parser_message``, the option types' through ``speaking``.
    """

    def __init__(self, *args: Any, lang: Lang = "en", **kwargs: Any) -> None:  # noqa: ANN401 - argparse's own
        """Like ``ArgumentParser``, but ``--cor`` is not ``--cores``, an option is given once, errors speak ``lang``."""
        self.lang: Lang = lang  # first: argparse adds --help while it initialises, through add_argument
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)
        self.register("action", "store_true", StoreTrueOnce)
        self._negative_number_matcher = NEGATIVE_NUMBER

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Write ``message`` (help, version, usage) and let a failed write raise (argparse would ignore it).

        An error for a closed stderr (``2>&-``: argparse passes ``sys.stderr``, which is then ``None``) is dropped;
        the status still says it, and stdout gets data only.
        """
        stream = sys.stderr if file is None else file
        if message and stream is not None:
            stream.write(message)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:  # noqa: ANN401 - argparse's own
        """Add the option; when its type is one of ``cli.options``, let the type speak this parser's language."""
        action = super().add_argument(*args, **kwargs)
        if (typed := speaking(action.type, self.lang)) is not None:
            self.register("type", action.type, typed)
        return action

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` alone in the parser's language, without the usage block, and exit 2."""
        self.exit(
            ExitStatus.USAGE, error_line(self.prog, parser_message(message, lang=self.lang), lang=self.lang) + "\n"
        )


def subcommand_parser_settings(module: ModuleType) -> dict[str, Any]:
    """Keyword arguments of a subcommand's parser: its description and the epilog of exit statuses."""
    return {
        "description": module.HELP,
        "epilog": epilog(getattr(module, "FINDING", GENERIC_FINDING), getattr(module, "USAGE", "")),
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }


def add_command_arguments(parser: argparse.ArgumentParser, module: ModuleType) -> None:
    """Register a subcommand's options: ``--lang``, which every command shares, then the module's own."""
    add_lang_option(parser)
    module.add_arguments(parser)


def build_parser(*, lang: Lang = "en") -> argparse.ArgumentParser:
    """The parser with every subcommand registered, its errors in ``lang``."""
    parser = OneLineParser(
        lang=lang,
        prog=PROG,
        description="Executable companion to the Ascend sparse-attention report.",
        epilog=epilog(GENERIC_FINDING),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for module in SUBCOMMANDS:
        sub = commands.add_parser(module.NAME, help=module.HELP, lang=lang, **subcommand_parser_settings(module))
        add_command_arguments(sub, module)
        sub.set_defaults(run=module.run)
    return parser


def _stream_encodes(stream: object, text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def _escape_what_cannot_be_shown(args: argparse.Namespace) -> None:
    """On a stream whose encoding lacks Chinese (``PYTHONIOENCODING=ascii``), print escapes instead."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not _stream_encodes(stream, "中文"):
            stream.reconfigure(errors="backslashreplace")
            if stream is sys.stdout and getattr(args, "lang", None) == "zh":
                say(
                    f"{PROG}: note: the output encoding {stream.encoding!r} has no Chinese characters; they are "
                    "printed as \\u escapes (set PYTHONIOENCODING=utf-8 or use --lang en)"
                )


def _given_numbers(args: argparse.Namespace) -> Text:
    """The numeric options the user typed, as typed (``--clock 1e-300``), for messages about their values."""
    given: dict[str, tuple[str, str]] = getattr(args, _GIVEN, {})
    typed = [shorten(f"{option}{text}") for option, text in given.values() if text]
    return Text.same(", ".join(typed)) if typed else Text("预设值", "the preset values")


def _run(args: argparse.Namespace) -> int:
    """Run the chosen subcommand, turning each kind of failure into its status and one line in its language."""
    command: str = args.command
    lang: Lang = args.lang
    try:
        status: int = args.run(args)
    # OutOfRange, or an overflow or division by zero the checks did not foresee: either way the values given.
    except (OutOfRange, ArithmeticError) as error:
        given, why = _given_numbers(args), Text(error_text(error, lang="zh"), error_text(error, lang="en"))
        message = Text(
            f"{given.zh}：会有一个数变成无穷大或零（{why.zh}）",
            f"{given.en}: a figure would be infinite or zero ({why.en})",
        )
        return fail(ExitStatus.USAGE, message, command, lang=lang)
    except ValueError as error:  # AscendDsaError included: every error of ours is a ValueError
        why = Text(error_text(error, lang="zh"), error_text(error, lang="en"))
        message = Text(f"模型表示不了这个假设：{why.zh}", f"the model cannot represent this what-if: {why.en}")
        return fail(ExitStatus.OUTSIDE_MODEL, message, command, lang=lang)
    return status


def _parse(argv: Sequence[str] | None, lang: Lang) -> argparse.Namespace | int:
    """The parsed arguments, or the exit status when parsing ends the program (--help, --version, bad usage)."""
    try:
        args = build_parser(lang=lang).parse_args(argv)
    except SystemExit as stop:  # --help, --version or a usage error, already printed by argparse
        if stop.code is None:
            return ExitStatus.OK
        return stop.code if isinstance(stop.code, int) else ExitStatus.USAGE
    if args.command is None:
        names = ", ".join(module.NAME for module in SUBCOMMANDS)
        message = Text(
            f"需要给出一个 COMMAND，{names} 之一（见 {PROG} --help）",
            f"a COMMAND is required, one of {names} (see {PROG} --help)",
        )
        return fail(ExitStatus.USAGE, message, lang=lang)
    return args


def _parse_and_run(argv: Sequence[str] | None, seen: argparse.Namespace) -> int:
    """Parse, run the command and flush its output; ``seen.command`` names the command once it is known."""
    if sys.stdout is None:  # started with stdout closed (``>&-``): nothing could be shown
        raise OSError("stdout is closed")
    args = _parse(argv, seen.lang)
    if isinstance(args, int):
        sys.stdout.flush()  # --help and --version: their text is out, or the failure is seen here
        return args
    seen.command = args.command
    _escape_what_cannot_be_shown(args)
    status = _run(args)
    sys.stdout.flush()
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status (see ``ascend-dsa --help``)."""
    words = sys.argv[1:] if argv is None else argv
    seen = argparse.Namespace(command=None, lang=argv_lang([str(word) for word in words], os.environ))
    lang: Lang = seen.lang
    try:
        with interrupt.MainRunning(), whole_stdout():
            return _parse_and_run(argv, seen)
    except BrokenPipeError:
        quiet(1)
        return ExitStatus.OUTPUT_CLOSED
    except KeyboardInterrupt:
        say(INTERRUPTED.in_(lang))
        return ExitStatus.INTERRUPTED
    except OSError as error:  # the commands read no file: an OSError is writing their output
        quiet(1)
        reason = error.strerror or str(error)
        message = Text(f"无法把输出写到 stdout：{reason}", f"cannot write the output to stdout: {reason}")
        return fail(ExitStatus.OUTPUT_FAILED, message, seen.command, lang=lang)
    except Exception as error:  # noqa: BLE001 - the last line of defence: a bug is one line, not a traceback
        bug = f"{type(error).__name__}: {error}"
        message = Text(f"内部错误，请报告：{bug}", f"internal error, please report it: {bug}")
        return fail(ExitStatus.INTERNAL, message, seen.command, lang=lang)


def run_captured(argv: Sequence[str]) -> tuple[int, str, str]:
    """``main(argv)`` with its output kept: (status, stdout, stderr), for the live what-ifs in the reader's browser."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(arg) for arg in argv])
    return int(status), out.getvalue(), err.getvalue()
