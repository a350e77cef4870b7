"""The command line's contract, over generated command lines: a documented status, one line on error, no traceback."""

from __future__ import annotations

import argparse
import atexit
import functools
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascend_dsa import cli
from ascend_dsa.cli.exit_status import ExitStatus
from ascend_dsa.cli.options import positive_float, positive_int, positive_int_list, unit_fraction
from ascend_dsa.lang import has_chinese
from ascend_dsa.validate import LARGEST_EXACT_WHOLE
from tests.helpers.cli import run_cli as run

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

#: The exit statuses README and every --help document, written out here (not read from ExitStatus): a renumbered
#: status must fail these tests, not move the expectation with it.
DOCUMENTED = {
    0: "success",
    1: "finding",
    2: "bad usage",
    3: "the model cannot represent",
    70: "internal error",
    74: "the output could not be written",
    130: "interrupted (Ctrl-C)",
    141: "the output was closed early",
}
OK, FINDING, USAGE, OUTSIDE_MODEL, INTERNAL, OUTPUT_FAILED, INTERRUPTED, OUTPUT_CLOSED = DOCUMENTED
#: Statuses a command line may end with in these tests: the internal-error status is a bug, never expected.
EXPECTED = {OK, FINDING, USAGE, OUTSIDE_MODEL}
FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Values people mistype or probe with: non-ASCII digits, separators, signs, extremes, empty lists.
TRICKY = (
    "0",
    "1",
    "2",
    "3",
    "16",
    "64",
    "-1",
    "+5",
    "1e-300",
    "1e300",
    "1e400",
    "5e-324",
    "inf",
    "nan",
    "0.5",
    "１６",
    "١٢",
    "1_000",
    "16,16",
    "16,,32",
    ",",
    "",
    " ",
    "16, 32",
    "9" * 400,
    str(LARGEST_EXACT_WHOLE),
    str(LARGEST_EXACT_WHOLE + 1),
    "0x10",
)


def _sub_parser(name: str) -> argparse.ArgumentParser:
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    return commands.choices[name]


@functools.cache
def _options(name: str) -> tuple[argparse.Action, ...]:
    """The subcommand's options, read once (a parser is built anew for no example: about 2 s of the file)."""
    return tuple(a for a in _sub_parser(name)._actions if a.option_strings and a.dest != "help")  # noqa: SLF001


#: Where generated command lines write their output files: a file in a directory of their own, or one that cannot
#: be created (its directory does not exist). Never the working directory.
_OUTPUT_DIRECTORY = Path(tempfile.mkdtemp(prefix="ascend-dsa-contract-"))
atexit.register(shutil.rmtree, _OUTPUT_DIRECTORY, ignore_errors=True)
OUTPUT_FILES = (str(_OUTPUT_DIRECTORY / "out.json"), str(_OUTPUT_DIRECTORY / "missing" / "out.json"))


def _valid(action: argparse.Action) -> st.SearchStrategy[str]:
    """Text the option's type accepts: small and huge whole numbers, tiny and huge floats, distinct lists.

    An option with a plausible range (``cli.options.Within``) gets values across that range, its edges included.
    """
    kind = getattr(action.type, "parse", action.type)
    plausible = getattr(action.type, "plausible", None)
    low, high = (1, LARGEST_EXACT_WHOLE) if plausible is None else (plausible.low, plausible.high)
    whole = st.one_of(
        st.integers(min_value=int(low), max_value=min(256, int(high))),
        st.integers(min_value=0, max_value=53).map(lambda n: 2**n).filter(lambda v: low <= v <= high),
        st.sampled_from((int(low), int(high))),
    )
    if action.choices:
        return st.sampled_from([str(c) for c in action.choices])
    if kind is positive_int:
        return whole.map(str)
    if kind is positive_int_list:
        return st.lists(whole, min_size=1, max_size=4, unique=True).map(lambda xs: ",".join(map(str, xs)))
    if kind is positive_float:
        tiny, huge = (5e-324, 1e308) if plausible is None else (low, high)
        return st.floats(min_value=tiny, max_value=huge).map(repr)
    if action.type is unit_fraction:
        return st.floats(min_value=0, max_value=1, exclude_max=True).map(repr)
    return st.text(max_size=8)


def _value(action: argparse.Action) -> st.SearchStrategy[str]:
    """Text for one option: mostly a value of its type, sometimes a tricky value or any text."""
    wrong = st.one_of(st.sampled_from(TRICKY), st.text(max_size=12), st.floats().map(repr))
    return st.one_of(_valid(action), wrong)


@st.composite
def command_lines(draw: st.DrawFn, name: str, *, well_formed: bool) -> list[str]:
    """A command line for subcommand ``name``, options in any order.

    Well-formed: each option absent or once with a value of its type (any size). Otherwise options may repeat,
    take tricky values or any text, and an unknown option may join them.
    """
    words: list[list[str]] = []
    for action in _options(name):
        if well_formed:
            times = 1 if action.required else draw(st.sampled_from((0, 1)))
        else:
            times = draw(st.sampled_from((0, 0, 1, 1, 1, 1, 2)))
        for _ in range(times):
            flag = draw(st.sampled_from(action.option_strings))
            if action.metavar == "FILE":  # an output file: in a directory of its own, never any text
                value = draw(st.sampled_from(OUTPUT_FILES))
            else:
                value = draw(_valid(action) if well_formed else _value(action))
            if action.nargs == 0:
                words.append([flag])
            elif draw(st.booleans()):
                words.append([f"{flag}={value}"])
            else:
                words.append([flag, value])
    if not well_formed and draw(st.integers(0, 5)) == 0:
        words.append([draw(st.sampled_from(("-x", "--cor", "--clo", "--lang=fr", "stray", "--")))])
    order = draw(st.permutations(words))
    return [name, *(w for word in order for w in word)]


def check_contract(argv: Sequence[str]) -> None:
    """A documented status; on 2 or 3 exactly one line on stderr; no traceback; no infinite figure printed."""
    status, out, err = run(argv)
    assert status in EXPECTED, (argv, status, err)
    assert "Traceback" not in err, (argv, err)
    if status in (USAGE, OUTSIDE_MODEL):
        assert len(err.strip().splitlines()) == 1, (argv, err)
    if status in (OK, FINDING):
        assert not re.search(r"\b(inf|nan)\b", out, re.IGNORECASE), (argv, out)


@pytest.mark.parametrize("well_formed", [True, False], ids=["well-formed", "anything"])
@pytest.mark.parametrize("name", [m.NAME for m in cli.SUBCOMMANDS])
def test_every_option_of_every_subcommand_keeps_the_contract(name: str, well_formed: bool) -> None:  # noqa: FBT001
    """Over generated command lines of each subcommand, every status is documented and no traceback shows."""

    @FAST
    @given(command_lines(name, well_formed=well_formed))
    def holds(argv: list[str]) -> None:
        check_contract(argv)

    holds()


@FAST
@given(
    st.lists(
        st.one_of(st.sampled_from(["-x", "--version", "--help", "-h", "claims", "--", "-"]), st.text()), max_size=3
    )
)
def test_top_level_keeps_the_contract(argv: list[str]) -> None:
    """Whatever comes before a subcommand, the status is documented and no traceback shows."""
    check_contract(argv)


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (["claims", "--fixpipe-rate", "1"], OUTSIDE_MODEL, "no B_TOPK lets MMA outlast FixPipe"),
        (["claims", "--fixpipe-rate", "16"], OUTSIDE_MODEL, "no B_TOPK lets MMA outlast FixPipe"),
        (["claims", "--cube-fma", "32768"], OUTSIDE_MODEL, "no B_TOPK lets MMA outlast FixPipe"),
        (["claims", "--b-topk", "1"], OUTSIDE_MODEL, "leaves no token"),
        (["claims", "--clock", "1e-300"], USAGE, "--clock: expected a clock in the plausible range 1e8 to 1e10 Hz"),
        (["claims", "--l2-bandwidth", "1e-300"], USAGE, "--l2-bandwidth: expected a bandwidth in the plausible range"),
        (["head-roofline", "--l2-bandwidth", "1e-300"], USAGE, "range 1e9 to 1e17 B/s, got '1e-300'"),
        (["head-roofline", "--heads", "1" + "0" * 399], USAGE, "--heads"),
        (["head-roofline", "--heads", "１６"], USAGE, "--heads"),
        (["head-roofline", "--cores", "١٢"], USAGE, "--cores"),
        (["head-roofline", "--cores", "1_000"], USAGE, "--cores"),
        (["head-roofline", "--heads", "16,16"], USAGE, "'16' twice"),
        (["head-roofline", "--topk", "512,,1024"], USAGE, "an empty item"),
        (["claims", "--clock", "1e9", "--clock", "2e9"], USAGE, "--clock: given more than once"),
        (["ub-plan", "--mode", "decode", "--sink", "--sink"], USAGE, "--sink: given more than once"),
        (["claims", "--cloc", "1e9"], USAGE, "unrecognized arguments: --cloc"),
        (["-x"], USAGE, "unrecognized arguments: -x"),
        ([], USAGE, "a COMMAND is required"),
    ],
)
def test_named_cases(argv: list[str], status: int, words: str) -> None:
    """The cases of issue 11 end with their documented status and one line saying why."""
    got, _, err = run(argv)
    assert got == status, err
    assert len(err.strip().splitlines()) == 1, err
    assert words in err


@pytest.mark.parametrize("name", ["", *(m.NAME for m in cli.SUBCOMMANDS)])
def test_every_help_documents_the_exit_statuses(name: str) -> None:
    """Each --help ends with the table of exit statuses: the documented numbers, in order, each with its meaning."""
    status, out, _ = run([name, "--help"] if name else ["--help"])
    assert status == 0
    table = out.split("exit status:", 1)[1]
    rows = re.findall(r"^\s+(\d+)\s+(.*)$", table, re.MULTILINE)
    assert [int(number) for number, _ in rows] == list(DOCUMENTED), (name, rows)
    for (_, meaning), words in zip(rows, DOCUMENTED.values(), strict=True):
        assert meaning.startswith(words) or (words == "finding" and meaning), (name, meaning, words)


def test_exit_status_numbers_are_the_documented_ones() -> None:
    """ExitStatus keeps the numbers README and --help promise (130 = 128 + SIGINT, 141 = 128 + SIGPIPE)."""
    assert {int(s): s.name for s in ExitStatus} == {
        0: "OK",
        1: "FINDING",
        2: "USAGE",
        3: "OUTSIDE_MODEL",
        70: "INTERNAL",
        74: "OUTPUT_FAILED",
        130: "INTERRUPTED",
        141: "OUTPUT_CLOSED",
    }


def _raising(error: BaseException) -> Callable[[object], int]:
    def run_command(_args: object) -> int:
        raise error

    return run_command


@pytest.mark.parametrize(
    ("error", "status", "stderr"),
    [
        (KeyboardInterrupt(), 130, "ascend-dsa: interrupted\n"),
        (BrokenPipeError(), 141, ""),
        (RuntimeError("boom"), 70, "ascend-dsa claims: error: internal error, please report it: RuntimeError: boom\n"),
        (
            ZeroDivisionError("x"),
            2,
            "ascend-dsa claims: error: the preset values: a figure would be infinite or zero (x)\n",
        ),
        (
            ValueError("no such design"),
            3,
            "ascend-dsa claims: error: the model cannot represent this what-if: no such design\n",
        ),
    ],
    ids=["ctrl-c", "closed-pipe", "bug", "arithmetic", "outside-model"],
)
def test_each_failure_ends_with_its_documented_status(
    monkeypatch: pytest.MonkeyPatch, error: BaseException, status: int, stderr: str
) -> None:
    """An interrupted, cut off or failing subcommand ends with its documented number and at most one line."""
    monkeypatch.setattr(cli.claims, "run", _raising(error))
    if isinstance(error, BrokenPipeError):
        monkeypatch.setattr(cli, "quiet", lambda _fd: None)  # pytest's captured stdout has no real fd
    got, out, err = run(["claims"])
    assert (got, out, err) == (status, "", stderr)


def _module_run(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ascend_dsa", *argv], capture_output=True, text=True, check=False, env=env
    )


def test_version_comes_from_the_package_metadata() -> None:
    """--version prints the installed distribution's version and exits 0."""
    from importlib.metadata import version  # noqa: PLC0415 - only this test needs it

    completed = _module_run("--version")
    assert completed.returncode == 0
    assert completed.stdout.strip() == f"ascend-dsa {version('ascend-dsa')}"


def test_closed_pipe_is_quiet() -> None:
    """When the reader goes away (as `| head -1` does) the program exits 141 without a traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ascend_dsa", "claims"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    assert process.stderr is not None
    process.stdout.close()
    with process.stderr:
        err = process.stderr.read().decode()
    assert process.wait() == 141
    assert err == ""


def test_ascii_only_output_escapes_chinese_with_a_note() -> None:
    """With PYTHONIOENCODING=ascii, `claims --lang zh` prints escapes, one note on stderr, and its usual status."""
    import os  # noqa: PLC0415 - only this test needs the environment

    completed = subprocess.run(
        [sys.executable, "-m", "ascend_dsa", "claims", "--lang", "zh"],
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert completed.returncode == 0
    err = completed.stderr.decode("ascii")
    assert len(err.strip().splitlines()) == 1
    assert "PYTHONIOENCODING" in err
    assert "\\u884c" in completed.stdout.decode("ascii")  # 行, escaped


@pytest.mark.parametrize("name", [m.NAME for m in cli.SUBCOMMANDS])
def test_under_lang_zh_every_error_line_is_chinese(name: str) -> None:
    """Over generated command lines (any --lang of theirs dropped) run with --lang zh, each error line is Chinese."""

    @FAST
    @given(command_lines(name, well_formed=False))
    def holds(argv: list[str]) -> None:
        words = [w for i, w in enumerate(argv) if not w.startswith("--lang") and argv[i - 1] != "--lang"]
        status, _, err = run([words[0], "--lang", "zh", *words[1:]])
        if status in (USAGE, OUTSIDE_MODEL):
            assert has_chinese(err), (words, err)

    holds()
