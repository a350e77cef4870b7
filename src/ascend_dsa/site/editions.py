"""Each edition (Chinese at the root, English under ``en/``) stands on its own in the browser.

- English pages get ``en/`` as Material's base, so they load the English search index (`ascend_dsa.site.search_index`)
  and ``en/sitemap.xml``, which `write_english_sitemap` writes from the English entries of the root sitemap.
- The header's language selector links each page to its twin in the other edition, as a relative link
  (mkdocs-static-i18n sent notebook pages to the other edition's home page, by an absolute link).
- Each edition's build speaks its language where mkdocs-static-i18n cannot set it (it overrides only the theme and
  top-level settings): mkdocstrings' section labels (Returns, Raises, Type...) and the headings' permalink title.
- Which edition a page file belongs to (`page_lang`) is decided here and nowhere else.
- The ``<link rel="alternate">`` tags go: Material fetches a ``sitemap.xml`` beside each of them, which for
  per-page links means two 404 console errors on every page; the selector's own links already do the job.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Final

from ascend_dsa.lang import Lang, check_lang

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

#: Where the English edition lives below the site's root (the Chinese edition is the root).
ENGLISH_PREFIX: Final = "en/"
#: The title of each heading's permalink (Python-Markdown's toc says "Permanent link" whatever the language).
PERMALINK_TITLES: Final = {"zh": "永久链接", "en": "Permanent link"}

_BASE = re.compile(r'(<script id="__config" type="application/json">[^<]*?"base": ")([^"]*)(")')
_ALTERNATE_LINK = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_SELECTOR_LINK = re.compile(r'<a href="[^"]*" hreflang="([^"]*)" class="md-select__link">')
_SITEMAP_URL = re.compile(r"\s*<url>.*?</url>", re.DOTALL)
_SITEMAP_LOC = re.compile(r"<loc>([^<]*)</loc>")


def page_lang(page: str) -> Lang:
    """The edition a page file belongs to: ``en`` for an English twin (``x.en.md``, ``x.en.ipynb``), else ``zh``."""
    return "en" if PurePosixPath(page).stem.endswith(".en") else "zh"


def twin_source(src_uri: str, lang: Lang) -> str:
    """The source file of ``src_uri``'s twin in edition ``lang`` (``x.md`` <-> ``x.en.md``, notebooks alike)."""
    check_lang(lang)
    stem, dot, suffix = src_uri.rpartition(".")
    chinese = stem.removesuffix(".en")
    return f"{chinese}{dot}{suffix}" if lang == "zh" else f"{chinese}.en{dot}{suffix}"


def edition_language(config: MkDocsConfig) -> Lang:
    """The language of the edition about to be built: mkdocs-static-i18n's current one (its default at first)."""
    i18n = config.plugins.get("i18n")
    found = str(config.theme["language"]) if i18n is None else str(i18n.current_language or i18n.default_language)
    return check_lang(found)


def speak_edition(config: MkDocsConfig, lang: Lang) -> None:
    """Give mkdocstrings and the headings' permalinks the language of the edition about to be built."""
    mkdocstrings = config.plugins.get("mkdocstrings")
    if mkdocstrings is not None:
        mkdocstrings.config["locale"] = lang
    toc = config.mdx_configs.setdefault("toc", {})
    toc["permalink_title"] = PERMALINK_TITLES[lang]


def is_english(url: str) -> bool:
    """Whether a page URL (site-relative, as MkDocs gives it) belongs to the English edition."""
    return url.startswith(ENGLISH_PREFIX)


def twin_url(url: str, lang: Lang) -> str:
    """The site-relative URL of the page ``url`` in edition ``lang``."""
    check_lang(lang)
    chinese = url.removeprefix(ENGLISH_PREFIX)
    return chinese if lang == "zh" else ENGLISH_PREFIX + chinese


def relative_link(from_url: str, to_url: str) -> str:
    """A link from the directory URL ``from_url`` to the site-relative ``to_url``."""
    up = "../" * from_url.count("/")
    return (up + to_url) or "./"


def rewrite_page(html: str, url: str) -> str:
    """``html`` of the page at ``url`` with its edition's base, twin links in the selector, no alternate tags."""
    if is_english(url):
        html = _BASE.sub(lambda m: f"{m.group(1)}{m.group(2).rstrip('/')}/{ENGLISH_PREFIX}{m.group(3)}", html, 1)
    html = _ALTERNATE_LINK.sub("", html)

    def selector(match: re.Match[str]) -> str:
        lang = match.group(1)
        href = relative_link(url, twin_url(url, check_lang(lang)))
        return f'<a href="{href}" hreflang="{lang}" class="md-select__link">'

    return _SELECTOR_LINK.sub(selector, html)


def rewrite_not_found(html: str, site_path: str) -> str:
    """The 404 page (served at any URL, so its links start at the site's path) offers both editions' home pages."""
    root = site_path if site_path.endswith("/") else site_path + "/"

    def selector(match: re.Match[str]) -> str:
        lang = match.group(1)
        href = root if lang == "zh" else root + ENGLISH_PREFIX
        return f'<a href="{href}" hreflang="{lang}" class="md-select__link">'

    return _SELECTOR_LINK.sub(selector, _ALTERNATE_LINK.sub("", html))


def english_sitemap(sitemap: str, site_url: str) -> str:
    """The root sitemap reduced to the English edition's pages."""
    prefix = site_url.rstrip("/") + "/" + ENGLISH_PREFIX

    def keep(match: re.Match[str]) -> str:
        loc = _SITEMAP_LOC.search(match.group(0))
        return match.group(0) if loc and loc.group(1).startswith(prefix) else ""

    return _SITEMAP_URL.sub(keep, sitemap)


def write_english_sitemap(site: Path, site_url: str) -> None:
    """Write ``en/sitemap.xml``, which Material fetches from the English edition's base."""
    sitemap = site / "sitemap.xml"
    if not sitemap.is_file() or not (site / ENGLISH_PREFIX).is_dir():
        return
    text = english_sitemap(sitemap.read_text(encoding="utf-8"), site_url)
    (site / ENGLISH_PREFIX / "sitemap.xml").write_text(text, encoding="utf-8")
