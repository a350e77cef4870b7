"""ascend_dsa.site.editions: English pages use the English base, the selector links twins, no alternate-link fetches."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site import editions

if TYPE_CHECKING:
    from pathlib import Path

HEAD = (
    '<link rel="alternate" href="/" hreflang="zh">\n<link rel="alternate" href="./" hreflang="en">\n'
    '<a href="/" hreflang="zh" class="md-select__link">中文</a>'
    '<a href="./" hreflang="en" class="md-select__link">English</a>'
    '<script id="__config" type="application/json">{"annotate": null, "base": "../../..", "x": 1}</script>'
)


def test_english_page_gets_english_base_and_twin_links() -> None:
    """An English notebook page: base ends in en/, the selector links both twins relatively, no alternate tags."""
    html = editions.rewrite_page(HEAD, "en/design/what-if/")
    assert '"base": "../../../en/"' in html
    assert '<a href="../../../design/what-if/" hreflang="zh"' in html
    assert '<a href="../../../en/design/what-if/" hreflang="en"' in html
    assert 'rel="alternate"' not in html


def test_chinese_page_keeps_its_base() -> None:
    """A Chinese page keeps Material's base; its English twin is en/ plus its own URL."""
    html = editions.rewrite_page(HEAD, "pipeline/")
    assert '"base": "../../.."' in html
    assert '<a href="../en/pipeline/" hreflang="en"' in html
    assert '<a href="../pipeline/" hreflang="zh"' in html


def test_twin_url_rejects_unknown_language() -> None:
    """Only zh and en are editions."""
    with pytest.raises(ValueError, match="'fr'"):
        editions.twin_url("pipeline/", "fr")


def test_english_sitemap_keeps_english_urls() -> None:
    """en/sitemap.xml lists the English pages only."""
    sitemap = "<urlset>\n<url><loc>http://h/a/</loc></url>\n<url><loc>http://h/en/a/</loc></url>\n</urlset>"
    english = editions.english_sitemap(sitemap, "http://h/")
    assert "http://h/en/a/" in english
    assert "<loc>http://h/a/</loc>" not in english


def test_built_site_has_english_sitemap_and_no_alternate_links(built_site: Path) -> None:
    """The build writes en/sitemap.xml and leaves no per-page alternate link for Material to fetch beside."""
    assert (built_site / "en" / "sitemap.xml").is_file()
    for page in ("pipeline/index.html", "en/design/what-if/index.html"):
        assert '<link rel="alternate"' not in (built_site / page).read_text(encoding="utf-8")


def test_not_found_page_offers_both_home_pages() -> None:
    """The 404 page, served at any URL, links each edition's home under the site's path."""
    html = editions.rewrite_not_found(HEAD, "/docs")
    assert '<a href="/docs/" hreflang="zh"' in html
    assert '<a href="/docs/en/" hreflang="en"' in html
    assert 'rel="alternate"' not in html


@pytest.mark.parametrize(("page", "lang"), [("x.md", "zh"), ("a/x.en.md", "en"), ("design/what-if.en.ipynb", "en")])
def test_page_lang_is_read_off_the_file_name(page: str, lang: str) -> None:
    """A page file's edition: x.en.md and x.en.ipynb are English, anything else Chinese."""
    assert editions.page_lang(page) == lang
