"""ascend_dsa.site.print_book: each edition's print page holds every printed chapter in order, aimed at real files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path, PurePosixPath

import pytest

from ascend_dsa.facts.chapters import SITE_CHAPTERS
from ascend_dsa.lang import Lang
from ascend_dsa.site.print_book import (
    PRINT_PAGE,
    PRINTED_CHAPTERS,
    chapter_anchor,
    edition_root,
    link_pdf,
    pdf_path,
    print_page,
)

LANGS: tuple[Lang, ...] = ("zh", "en")
_SECTION = re.compile(r'<section class="print-chapter" id="([^"]+)"')
_ADDRESS = re.compile(r'\b(href|src)="([^"#][^"]*)"')


def test_the_book_leaves_out_only_the_api_reference() -> None:
    """Every page but the API reference is printed, in the nav's order."""
    left_out = [chapter.key for chapter in SITE_CHAPTERS if chapter not in PRINTED_CHAPTERS]
    assert left_out
    assert all(key.startswith("reference/api/") for key in left_out)
    assert [c.key for c in PRINTED_CHAPTERS] == [c.key for c in SITE_CHAPTERS if c in PRINTED_CHAPTERS]


@pytest.mark.parametrize("lang", LANGS)
def test_the_print_page_holds_every_chapter_in_order(built_site: Path, lang: Lang) -> None:
    """One section per printed chapter, in order, each linked from the contents, and no live form."""
    html = print_page(built_site, lang)
    assert _SECTION.findall(html) == [chapter_anchor(chapter) for chapter in PRINTED_CHAPTERS]
    for chapter in PRINTED_CHAPTERS:
        assert f'<a href="#{chapter_anchor(chapter)}">' in html
    assert 'class="live-form"' not in html


@pytest.mark.parametrize("lang", LANGS)
def test_every_address_left_on_the_print_page_names_a_file_of_the_site(built_site: Path, lang: Lang) -> None:
    """Style sheets, scripts and images re-aimed from each chapter's folder resolve; other local links are gone."""
    html = print_page(built_site, lang)
    folder = PurePosixPath(edition_root(lang) + PRINT_PAGE).parent
    missing = []
    for attribute, address in _ADDRESS.findall(html):
        if "://" in address or address.startswith(("data:", "mailto:")):
            continue
        target = built_site / (folder / address.split("?")[0]).as_posix()
        if not target.resolve().is_file():
            missing.append(f"{attribute}={address}")
    assert missing == []


def test_a_site_without_its_pdf_gets_no_link(built_site: Path) -> None:
    """Linking to a PDF that was not printed is refused, naming the file."""
    with pytest.raises(FileNotFoundError, match=r"no pdf/ascend-dsa-en\.pdf"):
        link_pdf(built_site, "en")


def test_every_page_of_the_edition_links_to_its_pdf_once(built_site: Path, tmp_path: Path) -> None:
    """After the English PDF exists, each English page ends with one link to it, sized; Chinese pages get none."""
    site = tmp_path / "site"
    shutil.copytree(built_site, site, ignore=shutil.ignore_patterns("vendor", "live", "search"))
    (site / pdf_path("en")).parent.mkdir(parents=True, exist_ok=True)
    (site / pdf_path("en")).write_bytes(b"%PDF" + bytes(2_000_000))
    linked = link_pdf(site, "en")
    assert link_pdf(site, "en") == 0
    english = site / "en" / "pipeline" / "index.html"
    html = english.read_text(encoding="utf-8")
    assert html.count('class="ascend-pdf"') == 1
    assert '<a href="../../pdf/ascend-dsa-en.pdf" download>' in html
    assert "(2.0 MB)" in html
    assert 'class="ascend-pdf"' not in (site / "pipeline" / "index.html").read_text(encoding="utf-8")
    assert linked == sum(
        1 for page in (site / "en").rglob("*.html") if "</article>" in page.read_text(encoding="utf-8")
    )
