"""How long the strict site build takes with and without running the pages' code, and how heavy each page is.

    .venv/bin/python benchmarks/site_build.py [--repeat N]

Page weights are counted statically (an upper bound) and, where Debian's Chromium is installed, measured in it.
The floor is the same strict build with ``ASCEND_DSA_NO_EXEC=1``: the site's plugin (ascend_dsa.site.app) then
shows each markdown-exec block's source instead of running it and stops notebook execution. Goals (issue 29), on an
idle two-core machine: the full strict build within 15 s, the floor within 10 s, running the code at most doubling
the floor's time, and no page heavier than 1 MB with everything a browser fetches for it, or 300 kB gzipped.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

from ascend_dsa.site.internals import read_signature_cache, signature_cache_file

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Response

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run")
MAX_OVERHEAD = 1.0  # execution may add at most 100% over the floor
MAX_FULL_S = 15.0  # the full strict build, wall clock, idle two-core machine
MAX_FLOOR_S = 10.0  # the same build without running the pages' code
MAX_PAGE_BYTES = 1_000_000
MAX_PAGE_GZIP_BYTES = 300_000  # what the browser fetches, as a server that gzips would send it (fonts as they are)
ASSET = re.compile(r"""<(?:script|img)\b[^>]*\bsrc="([^"]+)"|<link\b[^>]*\bhref="([^"]+)"[^>]*>""")
LOADED_LINK = re.compile(r"""\brel="(?:stylesheet|icon|preload|modulepreload|manifest)\"""")
WOFF2 = re.compile(r"""url\(["']?([^"')]+\.woff2)["']?\)""")
#: Fetched by Material's search, whatever the page links: the worker on every page, the index on the first search
#: (ascend_dsa.site.search_loading; counted here anyway, as an upper bound, and printed on its own).
SEARCH_ASSETS = ("assets/javascripts/workers/search.*.min.js", "search/search_index.json")
#: Loaded by assets/javascripts/katex-init.js on pages with a formula.
KATEX_ASSETS = ("assets/vendor/katex/katex.min.js", "assets/vendor/katex/katex.min.css")


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's parameter name
        """Log nothing."""


@dataclass(frozen=True)
class Timing:
    """One build's wall-clock seconds and the CPU seconds (user + system) it and its child processes used.

    On a busy machine the wall clock mostly measures the other work; the CPU seconds do not, so both are shown.
    """

    wall_s: float
    cpu_s: float


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(site: Path, *, execute: bool) -> Timing:
    """Time one strict build into ``site``; exits with the build's output if it fails."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("ASCEND_DSA_NO_EXEC", None)
    if not execute:
        env["ASCEND_DSA_NO_EXEC"] = "1"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)]
    start, cpu_start = time.perf_counter(), _children_cpu_s()
    completed = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)  # noqa: S603
    timing = Timing(time.perf_counter() - start, _children_cpu_s() - cpu_start)
    if completed.returncode != 0:
        sys.exit(f"site_build: the {'full' if execute else 'floor'} build failed:\n{completed.stderr[-3000:]}")
    return timing


def fastest(timings: list[Timing]) -> Timing:
    """The least disturbed of several builds: the shortest wall clock and the least CPU time, each on its own."""
    return Timing(min(t.wall_s for t in timings), min(t.cpu_s for t in timings))


def best_of(repeat: int, *, execute: bool) -> Timing:
    """The fastest of ``repeat`` builds (the least disturbed by the machine's other work)."""
    with tempfile.TemporaryDirectory(prefix="site-build-") as directory:
        return fastest([build(Path(directory) / f"site{i}", execute=execute) for i in range(repeat)])


def page_files(site: Path, page: Path) -> set[Path]:
    """Everything a browser may fetch for the page, an upper bound.

    Its HTML, local scripts, style sheets and images, the search worker and index, KaTeX where there is math, and
    every woff2 font those style sheets name (browsers fetch only the faces a page uses).
    """
    html = page.read_text(encoding="utf-8")
    files = {page}
    for match in ASSET.finditer(html):
        url = match[1] or match[2]
        if (match[2] and not LOADED_LINK.search(match[0])) or url.startswith(("http:", "https:", "//", "data:")):
            continue
        target = (page.parent / url.split("#")[0].split("?")[0]).resolve()
        if target.is_file():
            files.add(target)
    # Each edition loads its own search index (ascend_dsa.site.search_index): en/search/ for English pages.
    edition = "en/" if page.relative_to(site).parts[0] == "en" else ""
    searched = tuple(f"{edition}{pattern}" if pattern.startswith("search/") else pattern for pattern in SEARCH_ASSETS)
    for pattern in searched + (KATEX_ASSETS if 'class="arithmatex"' in html else ()):
        files |= set(site.glob(pattern))
    for sheet in [f for f in files if f.suffix == ".css"]:
        for font in WOFF2.findall(sheet.read_text(encoding="utf-8")):
            target = (sheet.parent / font).resolve()
            if target.is_file():
                files.add(target)
    return files


def weights(site: Path) -> list[tuple[int, int, str]]:
    """(bytes, gzip-compressed bytes, page) for every page, heaviest first."""
    rows = []
    for page in sorted(p for p in site.rglob("index.html") if "assets" not in p.parts):
        files = page_files(site, page)
        raw = sum(f.stat().st_size for f in files)
        packed = sum(len(gzip.compress(f.read_bytes(), mtime=0)) for f in files)
        name = page.parent.relative_to(site).as_posix()
        rows.append((raw, packed, "(home)" if name == "." else name))
    return sorted(rows, reverse=True)


def _gzipped(url: str, body: bytes) -> int:
    """Bytes ``body`` takes gzipped; woff2 fonts are compressed already and servers send them as they are."""
    return len(body) if url.endswith(".woff2") else len(gzip.compress(body, mtime=0))


def weigh(responses: list[Response]) -> tuple[int, int, list[tuple[int, str]]]:
    """Bytes and gzipped bytes of the successful GET responses, and their files, largest first (size, name)."""
    bodies = [(r.url, r.body()) for r in responses if r.ok and r.request.method == "GET"]
    files = sorted(((len(b), u.rsplit("/", 1)[-1]) for u, b in bodies), reverse=True)
    return sum(len(b) for _, b in bodies), sum(_gzipped(u, b) for u, b in bodies), files


@contextlib.contextmanager
def serving(site: Path) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 at a free port while the block runs; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def browser_weights(site: Path, pages: list[str]) -> dict[str, tuple[int, int]]:
    """(bytes, gzipped bytes) each page really fetches in Debian's Chromium (fresh cache), served from 127.0.0.1."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only when a browser is there

    measured = {}
    with serving(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_FLAGS))
        for name in pages:
            context = browser.new_context()
            page = context.new_page()
            responses: list[Response] = []
            page.on("response", lambda response, seen=responses: seen.append(response))
            page.goto(base + ("" if name == "(home)" else name + "/"), wait_until="networkidle")
            raw, packed, _ = weigh(responses)
            measured[name] = (raw, packed)
            context.close()
        browser.close()
    return measured


def print_pdfs(site: Path) -> None:
    """Print both editions as `make pdf` does (scripts/print_pdf.py) and report each PDF's size and time."""
    print("\nPDF per edition (make pdf; scripts/print_pdf.py):")
    for lang in ("zh", "en"):
        started = time.perf_counter()
        subprocess.run(  # noqa: S603 - this project's script, fixed arguments
            [sys.executable, str(ROOT / "scripts" / "print_pdf.py"), str(site), lang], check=True, capture_output=True
        )
        seconds = time.perf_counter() - started
        pdf = site / "pdf" / f"ascend-dsa-{lang}.pdf"
        print(f"  {lang}: {pdf.stat().st_size / 1e6:6.2f} MB in {seconds:5.1f} s")


def main() -> int:
    """Time both builds, print the ratio and the page weights; exit 1 if a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="builds of each kind; the fastest counts (default 1)")
    parser.add_argument("--static", action="store_true", help="only the static page weights, even with Chromium")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")

    kept = read_signature_cache(signature_cache_file())
    print(
        f"signature formats kept from earlier builds: {len(kept)}"
        + ("" if kept else " (the first build formats them all: about a second more; ascend_dsa.site.internals)")
    )
    floor = best_of(args.repeat, execute=False)
    with tempfile.TemporaryDirectory(prefix="site-build-") as directory:
        site = Path(directory) / "site"
        timings = [build(site, execute=True)]
        timings += [build(Path(directory) / "again", execute=True) for _ in range(args.repeat - 1)]
        full = fastest(timings)
        overhead = full.wall_s / floor.wall_s - 1
        load = os.getloadavg()[0]
        print(f"full strict build:           {full.wall_s:6.2f} s  (CPU {full.cpu_s:6.2f} s; goal <= {MAX_FULL_S:g} s)")
        print(
            f"floor (no code execution):   {floor.wall_s:6.2f} s  (CPU {floor.cpu_s:6.2f} s; goal <= {MAX_FLOOR_S:g} s)"
        )
        print(f"load average when done:      {load:6.2f}  (the goals are for an idle machine: a load near 0)")
        print(
            f"ratio full / floor:          {full.wall_s / floor.wall_s:6.2f}  (execution adds {overhead:.0%}; "
            f"goal <= 100%; CPU ratio {full.cpu_s / floor.cpu_s:.2f})"
        )

        rows = weights(site)
        use_browser = CHROMIUM.is_file() and not args.static
        fetched = browser_weights(site, [name for *_, name in rows]) if use_browser else {}
        print(f"\npage weight with its assets (goal <= {MAX_PAGE_BYTES / 1e6:.0f} MB), heaviest first:")
        print("  static: bytes of the HTML and every asset it can load (all KaTeX fonts on math pages), and gzipped;")
        print(
            "  browser: bytes Chromium fetched for the page with an empty cache" + ("" if use_browser else " (skipped)")
        )
        print(f"  {'static':>10}  {'gzipped':>10}  {'browser':>10}  {'gzipped':>10}  page")
        for raw, packed, name in rows:
            real = (
                f"{fetched[name][0] / 1e3:7.1f} kB  {fetched[name][1] / 1e3:7.1f} kB"
                if name in fetched
                else f"{'—':>10}  {'—':>10}"
            )
            print(f"  {raw / 1e3:7.1f} kB  {packed / 1e3:7.1f} kB  {real}  {name}")
        print("  search index, fetched on a page's first search and then cached for every page of its edition:")
        for index in (site / "search" / "search_index.json", site / "en" / "search" / "search_index.json"):
            body = index.read_bytes()
            print(f"  {len(body) / 1e3:7.1f} kB  {_gzipped(index.name, body) / 1e3:7.1f} kB  {index.relative_to(site)}")
        if CHROMIUM.is_file():
            print_pdfs(site)
    heaviest = max(raw for raw, _ in fetched.values()) if fetched else rows[0][0]
    heaviest_gzip = max(packed for _, packed in fetched.values()) if fetched else rows[0][1]
    missed = [f"execution adds {overhead:.0%}"] * (overhead > MAX_OVERHEAD)
    missed += [f"the full build takes {full.wall_s:.1f} s"] * (full.wall_s > MAX_FULL_S)
    missed += [f"the floor build takes {floor.wall_s:.1f} s"] * (floor.wall_s > MAX_FLOOR_S)
    missed += [f"a page weighs {heaviest / 1e6:.2f} MB"] * (heaviest > MAX_PAGE_BYTES)
    missed += [f"a page weighs {heaviest_gzip / 1e3:.0f} kB gzipped"] * (heaviest_gzip > MAX_PAGE_GZIP_BYTES)
    print("\ngoals: " + ("met" if not missed else "MISSED: " + "; ".join(missed)))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
