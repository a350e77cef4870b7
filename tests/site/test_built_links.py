"""No link in the built site is broken: every internal href and src names a file that exists, every anchor an id."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.helpers.site_html import css_urls, html_files, is_external, resolve, scan_html

if TYPE_CHECKING:
    from pathlib import Path


def test_internal_links_and_anchors_resolve(built_site: Path) -> None:
    """Every <a href>, src and stylesheet link inside the site points to a built file, and every #anchor exists."""
    pages = {path: scan_html(path.read_text(encoding="utf-8")) for path in html_files(built_site)}
    broken = []
    for path, scan in pages.items():
        for url in [*scan.links, *(url for _, url in scan.resources)]:
            target = resolve(built_site, path, url)
            if target is None:
                continue
            file, fragment = target
            if not file.is_file():
                broken.append(f"{path.relative_to(built_site)}: {url} (no {file.relative_to(built_site)})")
            elif fragment and file.suffix == ".html" and fragment not in pages[file].ids:
                broken.append(f"{path.relative_to(built_site)}: {url} (no id {fragment!r})")
    assert broken == []


def test_style_sheet_urls_resolve(built_site: Path) -> None:
    """Every local url() in the site's CSS (KaTeX's fonts, Material's assets) names a file that exists."""
    broken = []
    for sheet in sorted(built_site.rglob("*.css")):
        for url in css_urls(sheet.read_text(encoding="utf-8")):
            target = resolve(built_site, sheet, url)
            if target is not None and not target[0].is_file() and not is_external(url):
                broken.append(f"{sheet.relative_to(built_site)}: {url}")
    assert broken == []


def test_link_checker_sees_a_broken_anchor(tmp_path: Path) -> None:
    """The checker itself: a link to a missing anchor and one to a missing page are both found."""
    page = tmp_path / "a" / "index.html"
    page.parent.mkdir()
    page.write_text('<h2 id="here">x</h2><a href="#here">ok</a><a href="#gone">bad</a><a href="../b/">bad</a>')
    scan = scan_html(page.read_text())
    assert scan.ids == {"here"}
    results = [resolve(tmp_path, page, url) for url in scan.links]
    assert results[0] == (page, "here")
    assert results[1] == (page, "gone")
    assert results[2] == (tmp_path / "b" / "index.html", "")
