"""Issue 17: the exit statuses hold around the command too (output failures, Ctrl-C) and its work is bounded.

The documented numbers are written here as literals, so that a change to `ExitStatus` must change this file too.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Final

import pytest

from ascend_dsa import interrupt
from ascend_dsa.cli.exit_status import ExitStatus, error_text
from ascend_dsa.cli.options import LIST_ITEMS_MAX, QUOTED_CHARS_MAX
from ascend_dsa.errors import OutsideModel
from ascend_dsa.lang import Text
from tests.helpers.cli import run_cli as run

DEV_FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not DEV_FULL.exists(), reason="no /dev/full on this system")


def test_documented_numbers() -> None:
    """The statuses are the documented numbers (sysexits.h, 128 + signal), written out."""
    assert [int(s) for s in ExitStatus] == [0, 1, 2, 3, 70, 74, 130, 141]
    assert interrupt.INTERRUPTED_STATUS == 130


def _shell(command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m ascend_dsa`` under ``sh -c`` with the redirections in ``command`` (``CLI`` stands for it)."""
    cli = f"{sys.executable} -m ascend_dsa"
    return subprocess.run(
        ["/bin/sh", "-c", command.replace("CLI", cli)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("CLI claims >&-", "stdout is closed"),
        ("CLI --help >&-", "stdout is closed"),
        pytest.param("CLI claims >/dev/full", "No space left on device", marks=needs_dev_full),
        pytest.param("CLI --help >/dev/full", "No space left on device", marks=needs_dev_full),
        pytest.param("CLI --version >/dev/full", "No space left on device", marks=needs_dev_full),
        pytest.param("CLI head-roofline >/dev/full", "No space left on device", marks=needs_dev_full),
    ],
)
def test_output_that_cannot_be_written_exits_74_with_one_line(command: str, words: str) -> None:
    """Stdout closed or full: status 74 and one line on stderr saying so, never "internal error" (70)."""
    completed = _shell(command)
    assert completed.returncode == 74, completed.stderr
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1, completed.stderr
    assert "cannot write the output" in lines[0]
    assert words in lines[0]


@needs_dev_full
def test_stdout_and_stderr_both_full_still_exit_74() -> None:
    """With nowhere to write even the line, the status alone says it (not 1 from Python's final flush)."""
    result = subprocess.run(
        ["/bin/sh", "-c", f"{sys.executable} -m ascend_dsa claims >/dev/full 2>/dev/full; echo $?"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.strip() == "74"


@needs_dev_full
@pytest.mark.parametrize("command", ["CLI", "CLI ub-plan --mode decode --chip h800", "CLI design-point --b-topk 96"])
def test_bad_usage_with_stderr_full_still_exits_2(command: str) -> None:
    """A usage error the program or a command finds is status 2 even when its line cannot be written (not 74)."""
    assert _shell(f"{command} 2>/dev/full").returncode == 2


#: What a Python process of ours runs after setting itself up, to send itself Ctrl-C and see whether it survives.
INTERRUPT_ME = "os.kill(os.getpid(), signal.SIGINT); import time; time.sleep(5); print('not interrupted')"
#: The modules of ours a process has loaded.
OURS = "sorted(m for m in sys.modules if m.startswith('ascend_dsa'))"


def python(code: str) -> tuple[int, str, str]:
    """Run ``code`` in a new interpreter: its exit status, stderr and stdout."""
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    return completed.returncode, completed.stderr, completed.stdout


def test_ctrl_c_while_the_modules_load_is_one_line_and_130() -> None:
    """SIGINT before ``main`` runs (as `timeout -s INT 0.2 ascend-dsa claims` sends it): 130, one line, no traceback."""
    code = f"import os, signal, sys; sys.argv[0] = 'ascend-dsa'; import ascend_dsa.cli; {INTERRUPT_ME}"
    assert python(code) == (130, "ascend-dsa: interrupted\n", "")


def test_ctrl_c_right_after_the_facade_is_one_line_and_130() -> None:
    """The program's handler is in place once the facade's first lines have run, before any other module loads."""
    code = (
        "import os, signal, sys; sys.argv[0] = 'ascend-dsa'; import ascend_dsa; "
        f"assert {OURS} == ['ascend_dsa', 'ascend_dsa.interrupt']; {INTERRUPT_ME}"
    )
    assert python(code) == (130, "ascend-dsa: interrupted\n", "")


def test_ctrl_c_after_the_exit_functions_is_ignored() -> None:
    """Once the command has finished and Python shuts down, Ctrl-C leaves its status alone (not killed by SIGINT)."""
    code = (
        "import atexit, os, signal, sys; atexit.register(os.kill, os.getpid(), signal.SIGINT); "
        "sys.argv[0] = 'ascend-dsa'; import ascend_dsa; print('done')"
    )
    assert python(code) == (0, "", "done\n")


def test_a_library_process_keeps_its_ctrl_c() -> None:
    """``import ascend_dsa`` in another program loads no module of ours and leaves SIGINT's handler as it was."""
    # Compared with the handler the process started with: a shell's background job starts with SIGINT ignored.
    handler_kept = "signal.getsignal(signal.SIGINT) is before"
    start = "import signal, sys; before = signal.getsignal(signal.SIGINT)"
    code = f"{start}; import ascend_dsa; print({handler_kept}, {OURS})"
    assert python(code) == (0, "", "True ['ascend_dsa']\n")


#: With this set, Python writes ``import time: ... | module`` to stderr as each import completes: the child's own
#: report of how far its start-up got, read by the test below instead of guessing it from the time passed.
IMPORT_TIME_ENV: Final = {"PYTHONPROFILEIMPORTTIME": "1"}
#: How long a child may take to report a state before the test gives up (a start-up takes well under a second).
STATE_TIMEOUT_S: Final = 60.0


def _imported(line: str) -> str | None:
    """The module an ``import time:`` line reports as imported, or None for any other line."""
    return line.rsplit("|", 1)[-1].strip() if line.startswith("import time:") else None


def _interrupt_once_imported(command: list[str], module: str, then_s: float) -> tuple[int, str]:
    """Run ``command``, send SIGINT ``then_s`` after it reports ``module`` imported, and return its status and the
    stderr lines other than the import times."""
    lines: queue.Queue[str] = queue.Queue()
    seen: list[str] = []
    env = {**os.environ, **IMPORT_TIME_ENV}
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env) as process:
        stderr = process.stderr
        assert stderr is not None
        reader = threading.Thread(target=lambda: [lines.put(line) for line in stderr], daemon=True)
        reader.start()
        try:
            while _imported(line := lines.get(timeout=STATE_TIMEOUT_S)) != module:
                seen.append(line)
        except queue.Empty:
            process.kill()
            pytest.fail(f"{module} was not imported within {STATE_TIMEOUT_S} s; stderr so far: {''.join(seen)!r}")
        time.sleep(then_s)
        process.send_signal(signal.SIGINT)
        status = process.wait(timeout=STATE_TIMEOUT_S)
        reader.join(timeout=STATE_TIMEOUT_S)
    while not lines.empty():
        seen.append(lines.get())
    return status, "".join(line for line in seen if _imported(line) is None)


@pytest.mark.parametrize(
    ("module", "then_s"),
    [
        ("ascend_dsa.interrupt", 0.0),  # the handler was just installed: the facade is still loading
        ("ascend_dsa.cli", 0.0),  # the package is loaded: main starts next
        ("ascend_dsa.cli", 0.02),  # main runs: parsing, or the claims being computed
        ("ascend_dsa.cli", 0.05),
        ("ascend_dsa.cli", 0.1),  # main may have finished: then 0 and nothing
    ],
)
def test_ctrl_c_during_a_real_run_is_one_line_and_130(module: str, then_s: float) -> None:
    """SIGINT into a real `ascend-dsa claims`: 130 with one line (or 0 if it had finished), no traceback.

    The signal goes once the child has reported ``module`` imported (its ``import time`` line on stderr), so from
    ``ascend_dsa.interrupt`` on, which installs the handler. Before that Ctrl-C is Python's own business ("Fatal
    Python error: init_import_site", or a traceback from the script's `import re`), which no program can change;
    waiting for the child's report, not for a time, keeps a loaded machine from landing the signal there.
    """
    script = Path(sys.executable).with_name("ascend-dsa")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "ascend_dsa"]
    status, err = _interrupt_once_imported([*command, "claims"], module, then_s)
    assert status in {0, 130}, (module, then_s, status, err)
    assert err == ("ascend-dsa: interrupted\n" if status else ""), err
    if (module, then_s) == ("ascend_dsa.interrupt", 0.0):  # still loading: the command cannot have finished
        assert status == 130, err


def test_ctrl_c_inside_main_is_one_line_and_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """``KeyboardInterrupt`` anywhere in ``main`` (here: while a command runs) ends with 130 and one line."""
    from ascend_dsa.cli import claims  # noqa: PLC0415

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(claims, "evaluate_claims", interrupted)
    status, out, err = run(["claims"])
    assert status == 130
    assert err == "ascend-dsa: interrupted\n"
    assert out == ""


def test_ctrl_c_is_left_alone_in_a_library_process() -> None:
    """Importing the package (tests, notebooks) does not take Ctrl-C over: only the program does."""
    assert signal.getsignal(signal.SIGINT) is not interrupt.on_interrupt
    assert interrupt.running_as_program("/usr/bin/ascend-dsa", ["python", "/usr/bin/ascend-dsa"])
    assert interrupt.running_as_program("-m", ["python", "-m", "ascend_dsa", "claims"])
    assert not interrupt.running_as_program("/x/pytest/__main__.py", ["python", "-m", "pytest", "ascend_dsa"])


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["claims", "--help"]])
def test_version_and_help_need_no_plotting_backend(argv: list[str]) -> None:
    """A bad MPLBACKEND does not matter to --version or --help."""
    completed = _shell("CLI " + " ".join(argv), env={"MPLBACKEND": "nonexistent"})
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""


def test_long_lists_are_refused_up_front_with_the_cap() -> None:
    """`--heads $(seq -s, 64 3063) --topk $(seq -s, 64 3063)`: refused at once, naming the cap and the count."""
    items = ",".join(str(n) for n in range(64, 3064))
    status, out, err = run(["head-roofline", "--heads", items, "--topk", items])
    assert status == 2
    assert f"at most {LIST_ITEMS_MAX} distinct positive integers" in err
    assert "got 3000 items" in err
    assert len(err) < 400
    assert out == ""


def test_a_grid_over_the_cap_is_refused() -> None:
    """Two lists under the item cap whose grid is over the pair cap: status 2 naming both."""
    heads, topk = ",".join(map(str, range(1, 257))), ",".join(map(str, range(1, 18)))
    status, _, err = run(["head-roofline", "--heads", heads, "--topk", topk])
    assert status == 2
    assert "256 x 17 = 4352 pairs; at most 4096" in err


def test_a_list_at_the_cap_parses_whole() -> None:
    """A list of exactly the cap's length is taken (its parsing time is benchmarks/cli_limits.py's figure)."""
    from ascend_dsa.cli.options import positive_int_list  # noqa: PLC0415

    items = ",".join(str(n) for n in range(1, LIST_ITEMS_MAX + 1))
    assert len(positive_int_list(items)) == LIST_ITEMS_MAX


def test_a_megabyte_argument_is_not_echoed_whole() -> None:
    """A bad 1 MB value is quoted cut, with its length."""
    status, _, err = run(["head-roofline", "--cores", "x" * 1_000_000])
    assert status == 2
    assert len(err) < 20 * QUOTED_CHARS_MAX
    assert "(1000000 characters)" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["head-roofline", "--l2-bandwidth", "1e308"], "plausible range 1e9 to 1e17 B/s, got '1e308'"),
        (["claims", "--l2-bandwidth", "1e308"], "plausible range 1e9 to 1e17 B/s, got '1e308'"),
        (["head-roofline", "--l2-bandwidth", "1e17", "--cores", "1", "--clock", "1e8"], "rounds to 0 cycles"),
        (
            ["head-roofline", "--clock", "-1e9"],
            "expected a clock such as 1.65e9 (a positive finite number in the plausible range 1e8 to 1e10 Hz)",
        ),
        (["claims", "--clock", "-1.5e9"], "got '-1.5e9'"),
    ],
)
def test_values_that_used_to_pass_or_be_misread(argv: list[str], words: str) -> None:
    """A bandwidth that makes the L2 cycles print as 0 is bad usage; a negative exponent number is a value."""
    status, out, err = run(argv)
    assert status == 2, out
    assert len(err.strip().splitlines()) == 1
    assert words in err


def test_an_error_of_ours_says_its_text_in_either_language() -> None:
    """Raised with a Text, our error is English as a string (callers see what they saw) and Chinese for the CLI."""
    error = OutsideModel(Text("模型表示不了", "the model cannot"))
    assert str(error) == "the model cannot"
    assert error_text(error, lang="zh") == "模型表示不了"
    assert error_text(error, lang="en") == "the model cannot"
    assert error_text(ValueError("plain"), lang="zh") == "plain"  # Python's own: as it is
    assert OutsideModel("plain").text is None
