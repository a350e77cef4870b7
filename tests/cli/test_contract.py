"""The command line's contract, over generated command lines: a documented status, one line on error, no traceback."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascend_dsa import cli
from ascend_dsa.cli.exit_status import ExitStatus
from ascend_dsa.cli.options import positive_float, positive_int, positive_int_list, unit_fraction
from ascend_dsa.validate import LARGEST_EXACT_WHOLE
from tests.cli.in_process import run_cli as run

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Statuses a command line may end with in these tests: the internal-error status is a bug, never expected.
EXPECTED = {ExitStatus.OK, ExitStatus.FINDING, ExitStatus.USAGE, ExitStatus.OUTSIDE_MODEL}
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


def _options(name: str) -> list[argparse.Action]:
    return [a for a in _sub_parser(name)._actions if a.option_strings and a.dest != "help"]  # noqa: SLF001


def _valid(action: argparse.Action) -> st.SearchStrategy[str]:
    """Text the option's type accepts: small and huge whole numbers, tiny and huge floats, distinct lists."""
    whole = st.one_of(
        st.integers(min_value=1, max_value=256),
        st.integers(min_value=1, max_value=53).map(lambda n: 2**n),
    )
    if action.choices:
        return st.sampled_from([str(c) for c in action.choices])
    if action.type is positive_int:
        return whole.map(str)
    if action.type is positive_int_list:
        return st.lists(whole, min_size=1, max_size=4, unique=True).map(lambda xs: ",".join(map(str, xs)))
    if action.type is positive_float:
        return st.floats(min_value=5e-324, max_value=1e308).map(repr)
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
    if status in (ExitStatus.USAGE, ExitStatus.OUTSIDE_MODEL):
        assert len(err.strip().splitlines()) == 1, (argv, err)
    if status in (ExitStatus.OK, ExitStatus.FINDING):
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
        (["claims", "--fixpipe-rate", "1"], ExitStatus.OUTSIDE_MODEL, "no B_TOPK lets MMA outlast FixPipe"),
        (["claims", "--fixpipe-rate", "16"], ExitStatus.OUTSIDE_MODEL, "no B_TOPK lets MMA outlast FixPipe"),
        (["claims", "--cube-fma", "32768"], ExitStatus.OUTSIDE_MODEL, "no B_TOPK lets MMA outlast FixPipe"),
        (["claims", "--b-topk", "1"], ExitStatus.OUTSIDE_MODEL, "leaves no token"),
        (["claims", "--clock", "1e-300"], ExitStatus.USAGE, "--clock 1e-300"),
        (["claims", "--l2-bandwidth", "1e-300"], ExitStatus.USAGE, "--l2-bandwidth 1e-300"),
        (["head-roofline", "--l2-bandwidth", "1e-300"], ExitStatus.USAGE, "--l2-bandwidth 1e-300"),
        (["head-roofline", "--heads", "1" + "0" * 399], ExitStatus.USAGE, "--heads"),
        (["head-roofline", "--heads", "１６"], ExitStatus.USAGE, "--heads"),
        (["head-roofline", "--cores", "١٢"], ExitStatus.USAGE, "--cores"),
        (["head-roofline", "--cores", "1_000"], ExitStatus.USAGE, "--cores"),
        (["head-roofline", "--heads", "16,16"], ExitStatus.USAGE, "'16' twice"),
        (["head-roofline", "--topk", "512,,1024"], ExitStatus.USAGE, "an empty item"),
        (["claims", "--clock", "1e9", "--clock", "2e9"], ExitStatus.USAGE, "--clock: given more than once"),
        (["ub-plan", "--mode", "decode", "--sink", "--sink"], ExitStatus.USAGE, "--sink: given more than once"),
        (["claims", "--cloc", "1e9"], ExitStatus.USAGE, "unrecognized arguments: --cloc"),
        (["-x"], ExitStatus.USAGE, "unrecognized arguments: -x"),
        ([], ExitStatus.USAGE, "a COMMAND is required"),
    ],
)
def test_named_cases(argv: list[str], status: ExitStatus, words: str) -> None:
    """The cases of issue 11 end with their documented status and one line saying why."""
    got, _, err = run(argv)
    assert got == status, err
    assert len(err.strip().splitlines()) == 1, err
    assert words in err


@pytest.mark.parametrize("name", ["", *(m.NAME for m in cli.SUBCOMMANDS)])
def test_every_help_documents_the_exit_statuses(name: str) -> None:
    """Each --help ends with the table of exit statuses, every status listed."""
    status, out, _ = run([name, "--help"] if name else ["--help"])
    assert status == ExitStatus.OK
    table = out.split("exit status:", 1)[1]
    for code in ExitStatus:
        assert re.search(rf"^\s+{int(code)}\s", table, re.MULTILINE), (name, code)


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
    assert process.wait() == ExitStatus.OUTPUT_CLOSED
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
    assert completed.returncode == ExitStatus.OK
    err = completed.stderr.decode("ascii")
    assert len(err.strip().splitlines()) == 1
    assert "PYTHONIOENCODING" in err
    assert "\\u884c" in completed.stdout.decode("ascii")  # 行, escaped
