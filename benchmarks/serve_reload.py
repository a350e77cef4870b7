"""How long ``mkdocs serve`` takes to show an edit: a docs page, a module few or all pages import, and a touch.

    .venv/bin/python benchmarks/serve_reload.py [--repeat N]

Copies the site's inputs (mkdocs.yml, docs, src) to a temporary folder, never editing the tree, starts a real
``mkdocs serve`` there on a free 127.0.0.1 port, waits for the first build (a fresh full build), then for each edit
prints the seconds from the save until the served HTML shows it, with the CPU seconds the server spent meanwhile
(Linux; on a loaded machine the wall time mostly waits for a core, the CPU time does not) and the server's count of
pages rendered and reused. The touch (a file saved with the same bytes) must trigger no rebuild: the server's log is
read for "Building documentation". Goals (issue 29): a docs page within 2 s, a module few pages import within 3 s,
a module nearly every page imports no slower than the first, fresh, build of the same server.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

ROOT = Path(__file__).resolve().parent.parent
#: What the site build reads; the same list as tests/helpers/project.py's SITE_INPUTS.
SITE_INPUTS = ("mkdocs.yml", "docs", "src")
#: The page edited, the page it shows on, and a word only the edit adds (letters only: prose may not type numbers).
PAGE_EDIT = ("docs/pipeline.md", "pipeline/", "Zqxpageedit")
#: The source file edited, the text replaced, the page that shows it (the command-line reference), the new word.
SRC_EDIT = ("src/ascend_dsa/cli/head_roofline.py", "CUBE vs L2 cycles", "reference/cli/", "Zqxsrcedit")
#: A module nearly every block and API page imports (its docstring shows on the API page), the text replaced, the
#: page that shows it, the new word. Every page depending on it is rendered again: the worst case.
WIDE_EDIT = ("src/ascend_dsa/facts/hardware.py", "the L2 it shares", "reference/api/facts/", "Zqxwideedit")
#: The longest wait for any one build, in seconds.
TIMEOUT_S = 600.0
#: Seconds between two requests while waiting for an edit to show.
POLL_S = 0.05
#: Goals of issue 29, in seconds from the save to the served page (the wide edit's goal is the first build's time).
PAGE_GOAL_S, SRC_GOAL_S = 2.0, 3.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fetch(url: str) -> str:
    """The page at ``url``, or "" if the server does not answer yet."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:  # noqa: S310 - a loopback http URL
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return ""


def wait_for(url: str, text: str) -> float:
    """Poll ``url`` until its HTML contains ``text``; the time that took, in seconds."""
    started = time.perf_counter()
    while text not in fetch(url):
        if time.perf_counter() - started > TIMEOUT_S:
            raise TimeoutError(f"{url} did not show {text!r} within {TIMEOUT_S} s")
        time.sleep(POLL_S)
    return time.perf_counter() - started


def copy_inputs(destination: Path) -> None:
    """Copy the site's inputs from the tree to ``destination``, without caches."""
    for name in SITE_INPUTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, destination / name)


def cpu_s(pid: int) -> float:
    """CPU seconds (user and system) the process has used so far; NaN where /proc is not there."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pages(log: Path) -> str:
    """The server's last count of pages rendered and reused ("" if it logged none)."""
    counts = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if "Pages: " in line]
    return counts[-1].split("Pages: ", 1)[1] if counts else ""


def builds(log: Path) -> int:
    """How many builds the server has started so far, from its log."""
    return log.read_text(encoding="utf-8", errors="replace").count("Building documentation")


def replacing(old: str, new: str) -> Callable[[str], str]:
    """A change of a file's text: the first ``old`` becomes ``new``."""
    return lambda text: text.replace(old, new, 1)


def appending(word: str) -> Callable[[str], str]:
    """A change of a page's text: a paragraph ``word`` at its end."""
    return lambda text: f"{text}\n\n{word}\n"


@dataclass(frozen=True)
class Served:
    """A running ``mkdocs serve`` of a copy of the project: its folder, URL, log and process id."""

    project: Path
    base: str
    log: Path
    pid: int

    def edit(self, relative: str, change: Callable[[str], str], url: str, word: str) -> tuple[float, str]:
        """Change one file and wait until ``url`` shows ``word``: the seconds that took, and a line saying them."""
        cpu = cpu_s(self.pid)
        path = self.project / relative
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
        shown_s = wait_for(self.base + url, word)
        return (
            shown_s,
            f"shown after {shown_s:.2f} s (server CPU {cpu_s(self.pid) - cpu:.2f} s; pages {pages(self.log)})",
        )


def main() -> int:
    """Serve a copy of the project, edit it, print the times; exit 1 if a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="edits of each kind (default 1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="serve-reload-") as folder:
        project = Path(folder)
        copy_inputs(project)
        port = free_port()
        log = project / "serve.log"
        env = {**os.environ, "PYTHONPATH": str(project / "src"), "NO_MKDOCS_2_WARNING": "1"}
        with log.open("w", encoding="utf-8") as output:
            server = subprocess.Popen(  # noqa: S603 - this interpreter, fixed arguments
                [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
                cwd=project,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
            try:
                served = Served(project, f"http://127.0.0.1:{port}/", log, server.pid)
                first_s = wait_for(served.base, "</html>")
                print(f"first (fresh, full) build served after {first_s:.1f} s")
                missed = False
                page_file, page_url, page_word = PAGE_EDIT
                src_file, src_old, src_url, src_word = SRC_EDIT
                wide_file, wide_old, wide_url, wide_word = WIDE_EDIT
                for round_number in range(args.repeat):
                    suffix = "q" * round_number
                    time.sleep(1.0)  # let the watcher settle after the last build
                    page_s, page = served.edit(page_file, appending(page_word + suffix), page_url, page_word + suffix)
                    time.sleep(1.0)
                    src_new = src_word + suffix
                    src_s, src = served.edit(src_file, replacing(src_old, src_new), src_url, src_new)
                    src_old = src_new
                    time.sleep(1.0)
                    before = builds(log)
                    source = project / src_file
                    source.write_bytes(source.read_bytes())  # saved without a change
                    os.utime(project / page_file)
                    time.sleep(2.0)  # the watcher polls every 0.5 s, then waits 0.1 s for quiet
                    fetch(served.base + page_url)  # waits for any build under way
                    touched = builds(log) - before
                    print(
                        f"round {round_number + 1}: docs page edit {page} (goal {PAGE_GOAL_S} s); "
                        f"src edit {src} (goal {SRC_GOAL_S} s); touch without change: {touched} rebuild(s) (goal 0)"
                    )
                    time.sleep(1.0)
                    wide_new = wide_word + suffix
                    wide_s, wide = served.edit(wide_file, replacing(wide_old, wide_new), wide_url, wide_new)
                    wide_old = wide_new
                    print(
                        f"round {round_number + 1}: edit of a module every page imports {wide} "
                        f"(goal: no slower than the first build, {first_s:.1f} s)"
                    )
                    missed |= page_s > PAGE_GOAL_S or src_s > SRC_GOAL_S or touched > 0 or wide_s > first_s
            finally:
                server.terminate()
                server.wait(timeout=30)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
