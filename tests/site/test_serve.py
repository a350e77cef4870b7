"""ascend_dsa.site.serve: `mkdocs serve` rebuilds only on a change, shows every failure in the page, never sticks.

The unit tests drive the wrapped builder with stand-ins; `test_serve_goes_through_every_failure_and_back` drives a
real `mkdocs serve` of a copy through each kind of failure and its revert, and checks that the site it then serves
is, file for file, the one a fresh build makes (`objects.inv` included).
"""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
import time
import urllib.request
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest

from ascend_dsa.site import serve
from ascend_dsa.site.build_date import last_commit_epoch
from ascend_dsa.site.failures import BOX_CLASS
from ascend_dsa.site.state import ServeSession
from tests.helpers.project import ROOT, copy_project, mkdocs_env
from tests.helpers.serving import free_port

if TYPE_CHECKING:
    from collections.abc import Iterator


def _config(root: Path) -> Any:  # noqa: ANN401 - a stand-in for MkDocs' config
    (root / "docs").mkdir(exist_ok=True)
    (root / "src").mkdir(exist_ok=True)
    (root / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    return SimpleNamespace(
        docs_dir=str(root / "docs"),
        config_file_path=str(root / "mkdocs.yml"),
        watch=[str(root / "src")],
        site_dir=str(root / "site"),
    )


def test_a_save_that_changes_no_content_builds_nothing(tmp_path: Path) -> None:
    """The wrapped builder builds only when a watched file's content changed since the last build."""
    config = _config(tmp_path)
    page = tmp_path / "docs" / "a.md"
    page.write_text("x", encoding="utf-8")
    builds = []
    server = serve.install(SimpleNamespace(builder=lambda: builds.append(1)), config, ServeSession())
    server.builder()
    assert builds == []
    os.utime(page, (1, 1))
    server.builder()
    assert builds == []
    page.write_text("y", encoding="utf-8")
    server.builder()
    assert builds == [1]


def test_a_build_that_raises_leaves_a_banner_and_the_server_answering(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A rebuild that raises is one ERROR line, a banner on every page of the last site, and no exception."""
    config = _config(tmp_path)
    site = tmp_path / "site"
    (site / "en").mkdir(parents=True)
    (site / "a.html").write_text("<html><body><p>old</p></body></html>", encoding="utf-8")
    (site / "en" / "b.html").write_text("<html><body><p>old</p></body></html>", encoding="utf-8")

    def broken() -> None:
        raise ValueError("mkdocs.yml does not load")

    server = serve.install(SimpleNamespace(builder=broken), config, ServeSession())
    (tmp_path / "docs" / "a.md").write_text("changed", encoding="utf-8")
    server.builder()  # raises nothing
    assert "site: the build failed: ValueError: mkdocs.yml does not load" in caplog.text
    assert BOX_CLASS in (site / "a.html").read_text(encoding="utf-8")
    assert "A build-time check failed" in (site / "en" / "b.html").read_text(encoding="utf-8")
    assert "构建时检查失败" in (site / "a.html").read_text(encoding="utf-8")
    assert BOX_CLASS in (site / "404.html").read_text(encoding="utf-8")  # served for any page that is gone


# A real `mkdocs serve` ---------------------------------------------------------------------------------------------

#: Seconds to wait for one rebuild on a busy two-core machine.
REBUILD_S = 240.0
#: Seconds without a new log line after a build before the wait ends (MkDocs waits 0.25 s for more changes).
SETTLE_S = 1.0


def _builds_running(log: str) -> int:
    """Builds the log started and has not finished: the first is done when the server serves, a rebuild when it
    reloads the browsers (or says it will appear stuck). A change event that found no content changed (a second
    event of a save the last build already saw) reloads the browsers without a build."""
    finished = sum(log.count(line) for line in ("Serving on", "Reloading browsers", "The server will appear stuck"))
    skipped = log.count("No watched file changed its content")
    return log.count("Building documentation...") - (finished - skipped)


class Served:
    """A `mkdocs serve` of a copy, its log, the folder it writes the site to, and how much of the log was read."""

    def __init__(self, project: Path, tmp: Path) -> None:
        self.project = project
        self.log = tmp / "serve.log"
        self.tmp = tmp / "tmp"
        self.tmp.mkdir()
        port = free_port()
        self.url = f"http://127.0.0.1:{port}/"
        env = {**mkdocs_env(project), "TMPDIR": str(self.tmp), "SOURCE_DATE_EPOCH": str(last_commit_epoch(ROOT))}
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
                cwd=project,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.seen = 0

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_build(self) -> str:
        """Wait until the builds since the last wait (one at least) have finished and none follows; their log lines.

        A build is done when the site it wrote is visible (`_builds_running`). One save can trigger two builds (the
        write seen as two events), so the wait goes on while a build runs or one is announced within `SETTLE_S`.
        """
        start = self.seen
        deadline = time.monotonic() + REBUILD_S
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.text()[-3000:]
            new = self.text()[start:]
            if "Building documentation..." in new and _builds_running(new) == 0:
                time.sleep(SETTLE_S)
                if self.text()[start:] == new:
                    self.seen = start + len(new)
                    return new
                continue
            time.sleep(0.2)
        pytest.fail(f"no build finished within {REBUILD_S} s:\n{self.text()[start:][-6000:]}")

    def page(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path, timeout=30) as response:  # noqa: S310 - our own server
            return response.read().decode("utf-8")

    def write(self, relative: str, change: Any) -> None:  # noqa: ANN401 - a function of the file's text
        """Apply ``change`` to a file of the copy, not waiting: the next `edit` or `wait_build` sees both."""
        path = self.project / relative
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")

    def edit(self, relative: str, change: Any) -> str:  # noqa: ANN401 - a function of the file's text
        """Apply ``change`` to a file of the copy and wait for the rebuild; the log lines of that build."""
        self.write(relative, change)
        return self.wait_build()

    def site(self) -> Path:
        [site] = [p for p in self.tmp.iterdir() if p.name.startswith("mkdocs_")]
        return site


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A real `mkdocs serve` of a copy of the project (block time limit lowered), up and built once."""
    project = copy_project(ROOT, tmp_path / "project")
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("block_time_limit_s: 60", "block_time_limit_s: 5"))
    server = Served(project, tmp_path)
    try:
        server.wait_build()
        yield server
    finally:
        server.process.terminate()
        server.process.wait(timeout=30)


def _errors(log: str) -> list[str]:
    return [line for line in log.splitlines() if line.startswith("ERROR")]


def _normalised(data: bytes, url: str) -> bytes:
    return data.replace(url.encode(), b"http://127.0.0.1:8000/")


def _inventory(path: Path) -> list[str]:
    """The entries of a Sphinx objects.inv, in order."""
    data = path.read_bytes()
    start = 0
    for _ in range(4):
        start = data.index(b"\n", start) + 1
    return zlib.decompress(data[start:]).decode("utf-8").splitlines()


def _differences(served: Path, fresh: Path, url: str) -> list[str]:
    """The files whose bytes differ between the served site and a fresh build (the site's address aside)."""
    names = {p.relative_to(served) for p in served.rglob("*") if p.is_file()}
    names |= {p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file()}
    found = []
    for name in sorted(names):
        a, b = served / name, fresh / name
        if not a.is_file() or not b.is_file():
            found.append(f"{name}: only in {'the fresh build' if b.is_file() else 'the served site'}")
            continue
        left, right = a.read_bytes(), b.read_bytes()
        if name.suffix == ".gz":
            left, right = gzip.decompress(left), gzip.decompress(right)
        if _normalised(left, url) != right:
            if name.name == "objects.inv":
                ours, theirs = _inventory(a), _inventory(b)
                extra, missing = sorted(set(ours) - set(theirs)), sorted(set(theirs) - set(ours))
                found.append(f"{name}: served only {extra}, fresh only {missing}, same order {ours == theirs}")
                continue
            found.append(str(name))
    return found


@pytest.mark.build
def test_serve_goes_through_every_failure_and_back(served: Served, built_site: Path) -> None:
    """Each failure is a line in the log and a box in its page while serving goes on; each revert recovers.

    The edits: a docs edit; a block that never ends, one that prints ten megabytes, a marker written wrong and a
    broken link in one page; a syntax error in a module of src/; a page the nav lists deleted; a heading another
    page links to renamed. Each revert is saved together with the next failure (one rebuild for both), and the
    page that failed is checked to be whole again. After the last revert the served site equals a fresh build,
    objects.inv included.
    """
    pipeline = served.edit("docs/pipeline.md", lambda t: t + "\nZqxedit of the prose.\n")
    assert "Zqxedit" in served.page("pipeline/")
    rendered = re.findall(r"Pages: (\d+) rendered", pipeline)
    assert rendered
    assert max(int(n) for n in rendered) < 10  # the page, and the few that read every page (the assumptions table)

    # A block that sleeps forever is stopped as one that loops would be (the same timer), without burning a core.
    broken = (
        '\n```python exec="true" id="forever"\nimport time\nwhile True:\n    time.sleep(1)\n```\n'
        '\n```python exec="true" html="true" id="huge"\nprint("x" * 10_000_000)\n```\n'
        "\n{{ b_topk and {{}} and [a link](no-such-page.md).\n"
    )
    log = served.edit("docs/optimizations/icache.md", lambda t: t + broken)
    page = served.page("optimizations/icache/")
    for shown in ("time limit of 5 s", "over the limit of 1000000 bytes", "written wrong", "no-such-page.md"):
        assert shown in page, shown
    assert len(page.encode()) < 1_000_000
    assert page.count(f'class="admonition failure {BOX_CLASS}"') == 4  # each failure once, not once more as a warning
    errors = _errors(log)
    assert [e for e in errors if "block 'forever' failed: TimeLimitExceeded" in e]
    assert [e for e in errors if "block 'huge' failed: OutputLimitExceeded" in e]
    assert [e for e in errors if "icache.md: the prose failed" in e]
    assert "WARNING -  Doc file 'optimizations/icache.md' contains a link 'no-such-page.md'" in log

    source = "src/ascend_dsa/render/accumulator.py"
    served.write("docs/optimizations/icache.md", lambda t: t.replace(broken, ""))
    log = served.edit(source, lambda t: t + "\ndef broken(:\n")
    assert BOX_CLASS not in served.page("optimizations/icache/")
    assert [e for e in _errors(log) if "block 'accumulator-identity' failed: SyntaxError" in e]
    assert BOX_CLASS in served.page("discussion/accumulator/")
    assert BOX_CLASS not in served.page("pipeline/")

    served.write(source, lambda t: t.replace("\ndef broken(:\n", ""))
    page_file = served.project / "docs/optimizations/gather2.md"
    kept = page_file.read_text(encoding="utf-8")
    page_file.unlink()
    log = served.wait_build()
    assert "A reference to 'optimizations/gather2.md' is included in the 'nav' configuration" in log
    banner = served.page("pipeline/")  # the banner on every page names the missing page
    assert BOX_CLASS in banner
    assert "optimizations/gather2.md&#x27; is included in the &#x27;nav&#x27;" in banner
    assert "accumulator-identity" not in served.page("discussion/accumulator/")

    page_file.write_text(kept, encoding="utf-8")
    anchor = "{#what-one-block-saves}"
    log = served.edit("docs/optimizations/skip-scale.md", lambda t: t.replace(anchor, "{#what-a-block-saves}"))
    assert "does not contain an anchor '#what-one-block-saves'" in log
    assert BOX_CLASS not in served.page("pipeline/")

    served.write("docs/optimizations/skip-scale.md", lambda t: t.replace("{#what-a-block-saves}", anchor))
    served.edit("docs/pipeline.md", lambda t: t.replace("\nZqxedit of the prose.\n", ""))
    assert served.process.poll() is None
    assert "appear stuck" not in served.text()
    assert _differences(served.site(), built_site, served.url) == []


def test_the_site_comparison_sees_a_difference(tmp_path: Path) -> None:
    """The comparison the serve test ends with finds a changed, a missing and an extra file, address aside."""
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        root.mkdir()
        (root / "same.html").write_text(
            f"<a href='{'http://127.0.0.1:9/' if root == a else 'http://127.0.0.1:8000/'}'>"
        )
        (root / "s.xml.gz").write_bytes(gzip.compress(b"<loc>x</loc>"))
    (a / "changed.html").write_text("1", encoding="utf-8")
    (b / "changed.html").write_text("2", encoding="utf-8")
    (a / "extra.html").write_text("", encoding="utf-8")
    assert _differences(a, b, "http://127.0.0.1:9/") == ["changed.html", "extra.html: only in the served site"]
