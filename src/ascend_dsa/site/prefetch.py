"""The English edition's figures, tables and notebook, computed on the other core while the Chinese edition builds.

mkdocs-static-i18n builds the two editions one after the other in one process, so a ``mkdocs build`` used one core
of two. At the start of a build (never under ``mkdocs serve``, which serves from threads), the site forks once: the
child runs what the English edition will run that does not depend on the page being rendered, and sends it back
through a pipe; the English edition takes each result from there instead of running it again.

- A Python block without ``source`` or ``session``: the child runs its code as markdown-exec does (a fresh
  namespace, markdown-exec's ``print``) and keeps what it printed (`run_block`); the English edition then has
  markdown-exec run one line printing that text instead of the block's code, so markdown-exec shows it exactly as
  it would have (Markdown converted with the page's settings, HTML as it is).
- A notebook: the child runs its cells and converts it as the page's render would (`ascend_dsa.site.notebooks`).

A block or notebook the child could not run (it raised, or ran past its limit) is not kept: the English edition
runs it itself and reports the failure as usual. What a block does besides printing stays in the child: a page's
block prints, it does not register or write what the build needs. The site is the same, byte for byte, with and
without this (``compute_ahead: false``): tests/site/test_serve.py compares a served site, computed in the page, with
the tree's build.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

from ascend_dsa.render.fences import fences
from ascend_dsa.site.limits import Limits, TimeLimitExceeded, time_limit

if TYPE_CHECKING:
    from ascend_dsa.site.notebooks import NotebookPage

#: The languages markdown-exec runs as Python.
PYTHON: Final = frozenset({"python", "py"})
#: ``name="value"`` (or ``name=value``) options in a fence's info string.
_OPTION: Final = re.compile(r"""\b(\w+)=(?:"([^"]*)"|'([^']*)'|(\S+))""")
#: The option values markdown-exec reads as true.
_TRUE: Final = frozenset({"true", "yes", "on", "1"})


def runs_alone(language: str, options: dict[str, Any]) -> bool:
    """Whether a block's output is a function of its code alone: Python, no shown source, no shared session."""
    return language in PYTHON and not options.get("source") and not options.get("session")


def info_options(info: str) -> dict[str, Any]:
    """A fence's info-string options, as far as `runs_alone` needs them (``html`` and ``exec`` as flags)."""
    found: dict[str, Any] = {}
    for match in _OPTION.finditer(info):
        value = next(group for group in match.groups()[1:] if group is not None)
        found[match[1]] = value.lower() in _TRUE if match[1] in {"html", "exec"} else value
    return found


def _print_to(buffer: io.StringIO) -> Any:  # noqa: ANN401 - print's signature
    """markdown-exec's ``print`` for a block: the texts, space-separated, then ``end``, into ``buffer``."""

    def printed(*texts: object, end: str = "\n", **kwargs: object) -> None:
        del kwargs
        buffer.write(" ".join(str(text) for text in texts) + end)

    return printed


def run_block(code: str, name: str) -> str:
    """What a block prints, run as markdown-exec runs it (raises what it raises)."""
    module_name = re.sub(r"[^a-zA-Z\d]+", "_", name)
    buffer = io.StringIO()
    namespace: dict[str, Any] = {"__name__": module_name, "print": _print_to(buffer)}
    sys.modules[module_name] = ModuleType(module_name)
    exec(compile(code, f"<code block: {name}>", "exec"), namespace)  # noqa: S102 - running the page's code is the point
    return buffer.getvalue()


@dataclass(frozen=True)
class Ahead:
    """What the child computed: block outputs by (page file, code), notebook pages by page file."""

    blocks: dict[tuple[str, str], str] = field(default_factory=dict)
    notebooks: dict[str, NotebookPage] = field(default_factory=dict)


def compute(pages: list[Path], notebooks: list[Path], root: Path, limits: Limits, options: dict[str, Any]) -> Ahead:
    """Run every block of ``pages`` that runs alone, and render ``notebooks``; what succeeded."""
    from ascend_dsa.site import notebooks as notebook_pages  # noqa: PLC0415 - the child's work only

    ahead = Ahead()
    for source in pages:
        name = source.relative_to(root).as_posix()
        for fence in fences(source.read_text(encoding="utf-8")):
            if not fence.executed or not runs_alone(fence.language, info_options(fence.info)):
                continue
            with contextlib.suppress(Exception, TimeLimitExceeded), time_limit(limits.time_s, name):
                ahead.blocks[(name, fence.code)] = run_block(fence.code, f"{name} {fence.block_id}")
    for notebook in notebooks:
        name = notebook.relative_to(root).as_posix()
        failed: list[object] = []

        def failure(cell: notebook_pages.CellFailure, failed: list[object] = failed) -> str:
            failed.append(cell)
            return ""

        with contextlib.suppress(Exception):
            rendered = notebook_pages.render_notebook(notebook, name, options, limits, execute=True, failed=failure)
            if not failed:
                ahead.notebooks[name] = rendered
    return ahead


class Prefetch:
    """A child process computing `Ahead` for the English edition; `ahead` waits for it (once)."""

    def __init__(self, pid: int, reader: int) -> None:
        """The child ``pid`` writes its pickled `Ahead` to the pipe ``reader`` reads."""
        self.pid = pid
        self.reader = reader
        self._ahead: Ahead | None = None

    @classmethod
    def start(
        cls, pages: list[Path], notebooks: list[Path], root: Path, limits: Limits, options: dict[str, Any]
    ) -> Prefetch | None:
        """Fork a child computing the English edition's blocks and notebooks; None where there is no second core."""
        if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2 or not (pages or notebooks):  # noqa: PLR2004
            return None
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, and leave without running the parent's exit handlers
            os.close(reader)
            code = 0
            try:
                with (
                    Path(os.devnull).open("w", encoding="utf-8") as quiet,
                    contextlib.redirect_stdout(quiet),
                    contextlib.redirect_stderr(quiet),
                ):
                    data = pickle.dumps(compute(pages, notebooks, root, limits, options))
                with os.fdopen(writer, "wb") as out:
                    out.write(data)
            except BaseException:  # noqa: BLE001 - the parent computes what the child did not send
                code = 1
            os._exit(code)
        os.close(writer)
        return cls(pid, reader)

    def ahead(self) -> Ahead:
        """What the child computed (nothing if it failed); waits for it the first time."""
        if self._ahead is None:
            with os.fdopen(self.reader, "rb") as source:
                data = source.read()
            os.waitpid(self.pid, 0)
            try:
                self._ahead = pickle.loads(data) if data else Ahead()  # noqa: S301 - our own child's data
            except (pickle.UnpicklingError, EOFError, AttributeError):
                self._ahead = Ahead()
        return self._ahead

    def close(self) -> None:
        """Reap the child if nobody asked for its results (a build that stopped early)."""
        if self._ahead is None:
            self.ahead()
