"""Hosting: site_url comes from SITE_URL, and the built site works from any folder of any host.

The site is checked as a static host would serve it from a sub-path: the built files are copied under
``<server root>/sub/path/`` and every link, resource, language-switcher link and search path of both languages is
resolved from the server root, so a link that is absolute (``/en/``) or climbs out of the folder is broken.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from mkdocs.config import load_config

from tests.helpers.project import ROOT
from tests.helpers.site_html import html_files, resolve, scan_html

DEFAULT_SITE_URL = "http://127.0.0.1:8000/"
SUBPATH = ("sub", "path")
CONFIG_SCRIPT = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.DOTALL)
HREFLANG = re.compile(r'<(?:a|link)\b[^>]*\bhref="([^"]*)"[^>]*\bhreflang="([^"]*)"')


@pytest.mark.parametrize(
    ("environment", "expected"),
    [({}, DEFAULT_SITE_URL), ({"SITE_URL": "https://example.org/docs/ascend/"}, "https://example.org/docs/ascend/")],
)
def test_site_url_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], expected: str
) -> None:
    """mkdocs.yml takes site_url from SITE_URL, and falls back to the local preview address without it."""
    monkeypatch.delenv("SITE_URL", raising=False)
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    assert load_config(str(ROOT / "mkdocs.yml"))["site_url"] == expected


@pytest.fixture(scope="module")
def served_under_subpath(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(server root, site folder): the built site copied to ``<root>/sub/path/``, as a static host would serve it."""
    root = tmp_path_factory.mktemp("host")
    site = root.joinpath(*SUBPATH)
    shutil.copytree(built_site, site)
    return root, site


def _pages(site: Path) -> list[Path]:
    """Every HTML page but 404.html, whose links are absolute by design (it is served at any path)."""
    return [path for path in html_files(site) if path.name != "404.html"]


@pytest.mark.build
def test_no_link_breaks_under_a_subpath(served_under_subpath: tuple[Path, Path]) -> None:
    """Served from /sub/path/, every link and resource of every page, in both languages, names a file there."""
    root, site = served_under_subpath
    pages = _pages(site)
    assert any(path.is_relative_to(site / "en") for path in pages)
    assert any(not path.is_relative_to(site / "en") for path in pages)
    broken = []
    for path in pages:
        scan = scan_html(path.read_text(encoding="utf-8"))
        for url in [*scan.links, *(url for _, url in scan.resources)]:
            target = resolve(root, path, url)
            if target is not None and not (target[0].is_file() and target[0].is_relative_to(site)):
                broken.append(f"{path.relative_to(site)}: {url}")
    assert broken == []


@pytest.mark.build
def test_language_switcher_and_search_stay_under_a_subpath(served_under_subpath: tuple[Path, Path]) -> None:
    """Every hreflang link leads to a page of that language; the search worker and index resolve from each page."""
    root, site = served_under_subpath
    wrong = []
    for path in _pages(site):
        text = path.read_text(encoding="utf-8")
        for url, language in HREFLANG.findall(text):
            target = resolve(root, path, url)
            in_english = target is not None and target[0].is_relative_to(site / "en")
            if target is None or not target[0].is_file() or in_english != (language == "en"):
                wrong.append(f"{path.relative_to(site)}: {language} -> {url}")
        match = CONFIG_SCRIPT.search(text)
        if match is None:
            continue
        config = json.loads(match.group(1))
        base = resolve(root, path, config["base"].rstrip("/") + "/")
        worker = resolve(root, path, config["search"])
        # Each edition searches its own index (ascend_dsa.site.editions): English pages take en/ as their search base.
        edition = site / "en" if path.is_relative_to(site / "en") else site
        if base is None or base[0].parent != edition or worker is None or not worker[0].is_file():
            wrong.append(f"{path.relative_to(site)}: base {config['base']!r}, search {config['search']!r}")
    assert (site / "search" / "search_index.json").is_file()
    assert (site / "en" / "search" / "search_index.json").is_file()
    assert wrong == []


@pytest.mark.build
def test_notebook_switcher_leads_to_its_twin(built_site: Path) -> None:
    """The what-if notebook's language switcher names the other language's notebook, not that language's home."""
    zh = {lang: url for url, lang in HREFLANG.findall((built_site / "design/what-if/index.html").read_text())}
    en = {lang: url for url, lang in HREFLANG.findall((built_site / "en/design/what-if/index.html").read_text())}
    assert zh["en"] == "../../en/design/what-if/"
    assert en["zh"] == "../../../design/what-if/"


@pytest.mark.build
def test_canonical_sitemap_and_404_follow_site_url(built_site: Path) -> None:
    """Canonical links and the sitemap use site_url (the one place absolute URLs belong), as does the 404 page."""
    site_url = load_config(str(ROOT / "mkdocs.yml"))["site_url"]
    canonical = re.findall(r'<link rel="canonical" href="([^"]*)"', (built_site / "pipeline/index.html").read_text())
    assert canonical == [f"{site_url}pipeline/"]
    locations = re.findall(r"<loc>([^<]*)</loc>", (built_site / "sitemap.xml").read_text(encoding="utf-8"))
    assert locations
    assert all(loc.startswith(site_url) for loc in locations)
    absolute = re.findall(r'(?:href|src)="(/[^"]*)"', (built_site / "404.html").read_text(encoding="utf-8"))
    assert absolute
    assert all(link.startswith(urlsplit(site_url).path) for link in absolute)
