"""scripts/print_pdf.py: each edition prints as a PDF with every chapter, extractable numbers and embedded fonts."""

from __future__ import annotations

import shutil
import subprocess
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.facts.hardware import ASCEND_950, peak_flops
from ascend_dsa.lang import Lang
from ascend_dsa.render.exercises import ANSWER_LABEL, EXERCISE_LABEL
from ascend_dsa.site.print_book import PRINTED_CHAPTERS, pdf_path
from tests.helpers.browser import require_chromium, running_in_ci
from tests.helpers.project import ROOT, load_module

if TYPE_CHECKING:
    from pathlib import Path

#: scripts/print_pdf.py, a stand-alone script, not a package module.
printer = load_module("print_pdf", ROOT / "scripts" / "print_pdf.py")
LANGS: tuple[Lang, ...] = ("zh", "en")


def poppler(tool: str) -> str:
    """The path of poppler-utils' ``tool``; without it the test skips, or fails in CI, naming the Debian package."""
    found = shutil.which(tool)
    if found is not None:
        return found
    message = f"the PDF test needs {tool}: install the Debian package poppler-utils"
    if running_in_ci():
        pytest.fail(f"{message}; CI requires it")
    pytest.skip(message)


def test_without_a_site_it_says_what_it_expected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No folder, or a folder that holds no built site: one line and a failing status."""
    assert printer.main([]) == 2
    assert printer.main([str(tmp_path)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("print_pdf: error: expected the built site's folder")
    assert (
        lines[1] == f"print_pdf: error: {tmp_path} holds no built site (no index.html); expected `mkdocs build` first"
    )


def test_both_editions_print_with_every_chapter(built_site: Path, tmp_path: Path) -> None:
    """Each PDF names every chapter, carries a computed number as text, and embeds every font it uses.

    Chromium embeds the CJK glyphs as unnamed Type 3 fonts, so the Chinese edition's fonts are checked by its
    chapter titles coming back out as text, not by a font's name.
    """
    require_chromium()
    pdftotext, pdffonts = poppler("pdftotext"), poppler("pdffonts")
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    assert printer.main([str(site)]) == 0
    peak_tflops = f"{peak_flops(ASCEND_950) / 1e12:.2f}"
    for lang in LANGS:
        pdf = site / pdf_path(lang)
        text = subprocess.run([pdftotext, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        flat = " ".join(text.split())
        missing = [chapter.name.in_(lang) for chapter in PRINTED_CHAPTERS if chapter.name.in_(lang) not in flat]
        assert missing == [], lang
        assert peak_tflops in flat
        # An exercise prints its question and worked solution, not the answer box meant for the screen.
        assert EXERCISE_LABEL.in_(lang) in flat
        assert ANSWER_LABEL.in_(lang) not in flat
        fonts = subprocess.run([pdffonts, str(pdf)], capture_output=True, text=True, check=True).stdout
        rows = fonts.splitlines()[2:]
        assert rows
        assert all(row.split()[-5] == "yes" for row in rows), fonts
    assert 'class="ascend-pdf"' in (site / "en" / "pipeline" / "index.html").read_text(encoding="utf-8")
