"""Print each edition of the built site as a PDF with the Chromium the browser tests use (``make pdf``).

For each edition, `ascend_dsa.site.print_book` writes its print page into the built site; a local HTTP server
serves the site to Chromium (Playwright), which waits until KaTeX has typeset every formula and prints the page:
A4, backgrounds kept, links and an outline of the headings, page numbers in the footer. Nothing is asked of any
other host: a request for one ends the run with an error. Progress goes to stderr, one line per step with its time.

Usage: ``python scripts/print_pdf.py SITE [LANG ...]`` (default: both editions); writes ``SITE/pdf/ascend-dsa-LANG.pdf``
and exits 1 with one line on stderr if anything fails.
"""
# ruff: noqa: INP001  (a stand-alone script, not a package)

from __future__ import annotations

import functools
import http.server
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Final, get_args

from ascend_dsa.lang import Lang, check_lang
from ascend_dsa.site.print_book import PRINT_PAGE, edition_root, link_pdf, pdf_path, write_print_page

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Request


#: Debian's Chromium, the one the browser tests drive.
CHROMIUM: Final = Path("/usr/bin/chromium")
#: How long one edition may take to load and typeset before printing.
LOAD_TIMEOUT_MS: Final = 120_000
#: Every formula typeset: no arithmatex element is left without KaTeX's output.
TYPESET: Final = "() => [...document.querySelectorAll('.arithmatex')].every((e) => e.querySelector('.katex'))"
#: The footer of every page: its number of the whole, in the page's language-neutral form.
FOOTER: Final = (
    '<div style="width:100%;font-size:8px;text-align:center;color:#666">'
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's parameter name
        """Say nothing per request."""


@contextmanager
def _serving(folder: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _say(line: str) -> None:
    sys.stderr.write(f"print_pdf: {line}\n")


def _note_external(root: str, external: list[str], request: Request) -> None:
    if not request.url.startswith(root):
        external.append(request.url)


def print_editions(site: Path, langs: tuple[Lang, ...]) -> list[Path]:
    """Write each edition's print page and its PDF; return the PDFs' paths."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - a test dependency, not the package's

    written = []
    with _serving(site) as root, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM) if CHROMIUM.exists() else None)
        try:
            for lang in langs:
                started = time.perf_counter()
                write_print_page(site, lang)
                page = browser.new_page()
                external: list[str] = []
                page.on("request", functools.partial(_note_external, root, external))
                page.goto(root + edition_root(lang) + PRINT_PAGE, wait_until="load", timeout=LOAD_TIMEOUT_MS)
                page.wait_for_function(TYPESET, timeout=LOAD_TIMEOUT_MS)
                if external:
                    raise RuntimeError(f"the {lang} print page asked another host for {external[0]}; expected none")
                target = site / pdf_path(lang)
                target.parent.mkdir(parents=True, exist_ok=True)
                page.pdf(
                    path=str(target),
                    format="A4",
                    print_background=True,
                    outline=True,
                    tagged=True,
                    display_header_footer=True,
                    header_template="<div></div>",
                    footer_template=FOOTER,
                    margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
                )
                page.close()
                size_kib = target.stat().st_size / 1024
                linked = link_pdf(site, lang)
                seconds = time.perf_counter() - started
                _say(f"{target} ({size_kib:,.0f} KiB) in {seconds:.1f} s; {linked} pages link to it")
                written.append(target)
        finally:
            browser.close()
    return written


def main(argv: list[str]) -> int:
    """Print the editions named (default both) of the site built in ``argv[0]``."""
    if not argv:
        _say("error: expected the built site's folder, e.g. `python scripts/print_pdf.py site`")
        return 2
    site = Path(argv[0])
    if not (site / "index.html").is_file():
        _say(f"error: {site} holds no built site (no index.html); expected `mkdocs build` first")
        return 1
    try:
        langs = tuple(check_lang(lang) for lang in argv[1:]) or get_args(Lang)
        print_editions(site, langs)
    except Exception as failure:  # noqa: BLE001 - any failure ends the run with its one line
        _say(f"error: {failure}".splitlines()[0])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
