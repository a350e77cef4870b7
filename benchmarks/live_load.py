"""What a live page downloads, and how long the reader waits for the first live output and for each change after.

    .venv/bin/python benchmarks/live_load.py [--site DIR] [--repeat N]

Builds the site strictly (or uses ``--site``), serves it on 127.0.0.1 and drives Debian's Chromium headless:

- cold: a fresh browser profile on disk (empty HTTP cache) opens the heads-per-core chapter and clicks "Run live";
- warm: the same context then opens the design page, another page of the same visit, and clicks there (Material
  reloads the page, so the runtime starts again; the HTTP cache and Chromium's cache of compiled WebAssembly help);
- change: on that page, a run per change of an input, timed inside the page (the command runs in the input event).

Goals (issue 21): first output <= 6 s cold and <= 3 s warm on a 2-core machine, each later change <= 200 ms.
Each visit uses a fresh profile; the fastest of ``--repeat`` visits counts (the least disturbed by the machine's
other work, which moves these figures a lot). Exits 1 if a goal is missed. Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from site_build import CHROMIUM, CHROMIUM_FLAGS, build, serving, weigh

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, Playwright, Response

COLD_GOAL_S = 6.0
WARM_GOAL_S = 3.0
CHANGE_GOAL_MS = 200.0
#: (page, form) clicked cold, then warm.
COLD_PAGE = ("discussion/heads-per-core/", "head-roofline")
WARM_PAGE = ("design/", "design-point")
#: Values typed one after another into the warm form's ``heads`` input, each a change timed in the page.
CHANGES = ("16", "32", "48", "64", "96", "128", "80", "64", "40", "64")
LOAD_TIMEOUT_MS = 120_000

#: JavaScript: type each value into the input and time the synchronous run its input event triggers.
_TIME_CHANGES = """([command, values]) => {
  const form = document.querySelector(`form[data-live="${command}"]`);
  const input = form.querySelector('[name="heads"]');
  return values.map((value) => {
    const start = performance.now();
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    return performance.now() - start;
  });
}"""


def open_page(context: BrowserContext, base: str, path: str) -> tuple[Page, list[Response]]:
    """A new page of ``context`` showing ``path``, loaded until the network is idle, and the list its responses go to.

    The list keeps growing with the page's later responses.
    """
    page = context.new_page()
    responses: list[Response] = []
    page.on("response", lambda response: responses.append(response))  # noqa: PLW0108 - playwright cannot wrap a bound builtin
    page.goto(base + path, wait_until="networkidle")
    return page, responses


def click_to_output(page: Page, responses: list[Response], command: str) -> tuple[float, list[Response]]:
    """Click the button of the page's form; seconds until the output shows, and the ``responses`` after the click."""
    loaded = len(responses)
    start = time.perf_counter()
    page.locator(f'form[data-live="{command}"] [data-live-start]').click()
    page.wait_for_function(
        f"(() => {{ const o = document.querySelector('form[data-live=\"{command}\"] [data-live-output]');"
        " return o && !o.hidden && o.textContent.length > 0; })()",
        timeout=LOAD_TIMEOUT_MS,
        polling=10,
    )
    return time.perf_counter() - start, responses[loaded:]


@dataclass(frozen=True)
class Visit:
    """One reader's visit in a fresh browser profile: what was downloaded and how long each step took."""

    page_bytes: tuple[int, int]
    live_bytes: tuple[int, int]
    files: list[tuple[int, str]]
    warm_files: int
    warm_sent_bytes: list[int]
    cold_s: float
    warm_s: float
    changes_ms: list[float]


def visit(playwright: Playwright, base: str) -> Visit:
    """Open the cold page, click, open the warm page, click, then change an input several times."""
    with tempfile.TemporaryDirectory(prefix="live-load-profile-") as profile:
        # A profile on disk, as a reader's browser has: an incognito context keeps its HTTP cache in memory,
        # where the 9.6 MB WebAssembly file does not fit, so every page would download it again.
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=list(CHROMIUM_FLAGS)
        )
        cold, cold_seen = open_page(context, base, COLD_PAGE[0])
        page_raw, page_gz, _ = weigh(cold_seen)  # before the click: Chromium may drop these bodies once 14 MB follow
        cold_s, cold_responses = click_to_output(cold, cold_seen, COLD_PAGE[1])
        live_raw, live_gz, files = weigh(cold_responses)
        warm, warm_seen = open_page(context, base, WARM_PAGE[0])
        warm_s, warm_responses = click_to_output(warm, warm_seen, WARM_PAGE[1])
        # Chromium reports -1 bytes for a body read from its cache.
        warm_sent = [size for r in warm_responses if (size := r.request.sizes()["responseBodySize"]) > 0]
        changes_ms = warm.evaluate(_TIME_CHANGES, [WARM_PAGE[1], list(CHANGES)])
        context.close()
    return Visit(
        (page_raw, page_gz), (live_raw, live_gz), files, len(warm_responses), warm_sent, cold_s, warm_s, changes_ms
    )


def measure(site: Path, repeat: int) -> int:
    """Print the downloads and the fastest times of ``repeat`` visits; return 1 if a goal is missed."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only when a browser is there

    with serving(site) as base, sync_playwright() as playwright:
        visits = [visit(playwright, base) for _ in range(repeat)]

    first = visits[0]
    cold_s = min(v.cold_s for v in visits)
    warm_s = min(v.warm_s for v in visits)
    changes_ms = min((v.changes_ms for v in visits), key=max)
    print(
        f"page before the click ({COLD_PAGE[0]}): {first.page_bytes[0] / 1e3:.1f} kB, "
        f"{first.page_bytes[1] / 1e3:.1f} kB gzipped"
    )
    print(
        f"after the click, cold: {first.live_bytes[0] / 1e6:.2f} MB, {first.live_bytes[1] / 1e6:.2f} MB gzipped, "
        f"in {len(first.files)} files:"
    )
    for size, name in first.files:
        print(f"  {size / 1e3:9.1f} kB  {name}")
    print(
        f"after the click, warm ({WARM_PAGE[0]}): {first.warm_files} files, {len(first.warm_sent_bytes)} of them "
        f"sent by the server ({sum(first.warm_sent_bytes) / 1e3:.1f} kB), the rest read from the HTTP cache"
    )
    cold_runs = ", ".join(f"{v.cold_s:.2f}" for v in visits)
    warm_runs = ", ".join(f"{v.warm_s:.2f}" for v in visits)
    print(f"click to first output, cold: {cold_s:5.2f} s  (goal <= {COLD_GOAL_S:.0f} s; visits: {cold_runs})")
    print(f"click to first output, warm: {warm_s:5.2f} s  (goal <= {WARM_GOAL_S:.0f} s; visits: {warm_runs})")
    print(
        f"each later change: median {statistics.median(changes_ms):.1f} ms, max {max(changes_ms):.1f} ms over "
        f"{len(changes_ms)} changes  (goal <= {CHANGE_GOAL_MS:.0f} ms)"
    )
    missed = [f"cold {cold_s:.2f} s"] * (cold_s > COLD_GOAL_S)
    missed += [f"warm {warm_s:.2f} s"] * (warm_s > WARM_GOAL_S)
    missed += [f"a change took {max(changes_ms):.0f} ms"] * (max(changes_ms) > CHANGE_GOAL_MS)
    print("\ngoals: " + ("met" if not missed else "MISSED: " + "; ".join(missed)))
    return 1 if missed else 0


def main() -> int:
    """Build (unless --site is given) and measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site built already (default: build one now)")
    parser.add_argument("--repeat", type=int, default=3, help="visits, each in a fresh profile; the fastest counts")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    if not CHROMIUM.is_file():
        sys.exit(f"live_load: needs Chromium at {CHROMIUM} (sudo apt-get install -y chromium)")
    if args.site is not None:
        return measure(args.site, args.repeat)
    with tempfile.TemporaryDirectory(prefix="live-load-") as directory:
        site = Path(directory) / "site"
        build(site, execute=True)
        return measure(site, args.repeat)


if __name__ == "__main__":
    sys.exit(main())
