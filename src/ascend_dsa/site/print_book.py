"""Each edition as one printable page, for Chromium to print as that edition's PDF (``make pdf``, scripts/print_pdf.py).

The print page is built from the built site, not from the sources: it is the edition's home page with its article
replaced by a cover, a table of contents and every printed chapter's article in the nav's order, so the page keeps
the site's style sheets and scripts (KaTeX typesets the formulas, Material's print style hides the header and the
navigation) and every figure stays the vector SVG the build drew. Each relative address is re-aimed from its chapter's
folder to the print page's; a link to another printed chapter becomes a link inside the book, and a link to a page
the book leaves out (the API reference, the downloads) keeps its text and loses its address. Live forms print as
nothing: the tables above each form are its build-time output.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from ascend_dsa.facts.chapters import SITE_CHAPTERS, Chapter
from ascend_dsa.lang import Lang, Text, check_lang
from ascend_dsa.site.editions import ENGLISH_PREFIX
from ascend_dsa.validate import shown

#: The API reference is left out of the book: it is the package's docstrings, read beside the code, and would more
#: than double the book's length.
PRINTED_CHAPTERS: Final = tuple(chapter for chapter in SITE_CHAPTERS if not chapter.key.startswith("reference/api/"))
#: Where each edition's print page is written, below the edition's root.
PRINT_PAGE: Final = "print/index.html"
#: Where the PDFs are written, below the site's root.
PDF_FOLDER: Final = "pdf"

_TITLE: Final = Text("昇腾稀疏 Attention 前向算子读书伴侣", "Ascend sparse-attention forward: an executable companion")
_SUBTITLE: Final = Text(
    "DeepSeek 昇腾 950 稀疏 Attention 前向算子技术报告的可执行读书伴侣：每个数字都由同一个包在构建时算出并核对。",
    "An executable companion to DeepSeek's report on its Ascend 950 sparse-attention forward kernel: every number "
    "is computed and checked by one package at build time.",
)
_CONTENTS: Final = Text("目录", "Contents")
_EDITION: Final = Text("中文版", "English edition")
_LEFT_OUT: Final = Text(
    "本书不含 Python 接口参考和在线表单；它们在网站上。",
    "The Python API reference and the live forms are on the site, not in this book.",
)
_PDF_LINK: Final = Text("下载本书的 PDF 版", "Download this book as a PDF")
_ARTICLE: Final = re.compile(r'(<article class="md-content__inner md-typeset">)(.*?)(</article>)', re.DOTALL)
_ADDRESS: Final = re.compile(r'\b(href|src)="([^"]*)"')
_LIVE_FORM: Final = re.compile(r'<form class="live-form".*?</form>', re.DOTALL)
#: What a ``href`` may name that the print page loads (style sheets, icons); any other is a link to follow.
_ASSET_SUFFIXES: Final = frozenset({".css", ".js", ".png", ".svg", ".ico", ".woff2", ".webmanifest"})
_HEAD_LINKS: Final = re.compile(r'\s*<link rel="(?:canonical|prev|next)" href="[^"]*">')


def edition_root(lang: Lang) -> str:
    """The folder of an edition below the site's root: ``""`` for Chinese, ``en/`` for English."""
    return ENGLISH_PREFIX if check_lang(lang) == "en" else ""


def pdf_name(lang: Lang) -> str:
    """The file name of an edition's PDF: ``ascend-dsa-zh.pdf``, ``ascend-dsa-en.pdf``."""
    return f"ascend-dsa-{check_lang(lang)}.pdf"


def pdf_path(lang: Lang) -> str:
    """Where an edition's PDF sits below the site's root (``pdf/ascend-dsa-en.pdf``)."""
    return f"{PDF_FOLDER}/{pdf_name(lang)}"


def chapter_anchor(chapter: Chapter) -> str:
    """The id of a chapter's section in the book: ``chapter-`` and its key with ``/`` as ``--``."""
    return "chapter-" + chapter.key.replace("/", "--")


@dataclass(frozen=True)
class _Aim:
    """Re-aims a relative address written in one folder of the site to the print page's folder."""

    source_folder: str
    print_folder: str
    chapter_urls: dict[str, str]

    def __call__(self, match: re.Match[str]) -> str:
        attribute, address = match.group(1), match.group(2)
        parts = urlsplit(address)
        if parts.scheme or parts.netloc or address.startswith(("#", "data:", "mailto:")) or not address:
            return match.group(0)
        target = posixpath.normpath(posixpath.join(self.source_folder, parts.path))
        if attribute == "href" and posixpath.splitext(target)[1] not in _ASSET_SUFFIXES:
            folder = target.removesuffix("/index.html").strip("/")
            anchor = self.chapter_urls.get(f"{folder}/" if folder not in {"", ".", "index.html"} else "")
            return f'href="#{anchor}"' if anchor is not None else "data-left-out"
        relative = posixpath.relpath(target, self.print_folder)
        return f'{attribute}="{relative}{"?" + parts.query if parts.query else ""}"'


def _chapter_folder(chapter: Chapter, lang: Lang) -> str:
    return (edition_root(lang) + chapter.url).rstrip("/") or "."


def print_page(site: Path, lang: Lang) -> str:
    """The print page of edition ``lang`` of the site built in ``site``: cover, contents, every printed chapter."""
    lang = check_lang(lang)
    chapter_urls = {edition_root(lang) + chapter.url: chapter_anchor(chapter) for chapter in PRINTED_CHAPTERS}
    print_folder = (edition_root(lang) + PRINT_PAGE).rpartition("/")[0]
    home = _read(site, edition_root(lang) + "index.html")
    home = _ADDRESS.sub(_Aim(_chapter_folder(PRINTED_CHAPTERS[0], lang), print_folder, chapter_urls), home)
    home = _HEAD_LINKS.sub("", home)
    sections = []
    for number, chapter in enumerate(PRINTED_CHAPTERS, start=1):
        folder = _chapter_folder(chapter, lang)
        html = _read(site, f"{folder}/index.html" if folder != "." else "index.html")
        found = _ARTICLE.search(html)
        if found is None:
            raise ValueError(f"page {shown(folder)} of the built site has no article; expected a page MkDocs built")
        article = _LIVE_FORM.sub("", found.group(2))
        article = _ADDRESS.sub(_Aim(folder, print_folder, chapter_urls), article)
        sections.append(
            f'<section class="print-chapter" id="{chapter_anchor(chapter)}" data-chapter="{number}">{article}</section>'
        )
    contents = "".join(
        f'<li><a href="#{chapter_anchor(chapter)}">{escape(chapter.name.in_(lang))}</a></li>'
        for chapter in PRINTED_CHAPTERS
    )
    cover = (
        f'<section class="print-cover"><h1>{escape(_TITLE.in_(lang))}</h1><p>{escape(_SUBTITLE.in_(lang))}</p>'
        f"<p>{escape(_EDITION.in_(lang))}</p><p><small>{escape(_LEFT_OUT.in_(lang))}</small></p></section>"
        f'<nav class="print-contents"><h2>{escape(_CONTENTS.in_(lang))}</h2><ol>{contents}</ol></nav>'
    )
    book = cover + "".join(sections)
    found = _ARTICLE.search(home)
    if found is None:
        raise ValueError(f"the home page of edition {shown(lang)} has no article; expected a page MkDocs built")
    return home[: found.start(2)] + book + home[found.end(2) :]


def write_print_page(site: Path, lang: Lang) -> Path:
    """Write edition ``lang``'s print page into the built site and return its path."""
    path = site / (edition_root(lang) + PRINT_PAGE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(print_page(site, lang), encoding="utf-8")
    return path


def link_pdf(site: Path, lang: Lang) -> int:
    """After edition ``lang``'s PDF is printed, end every page of that edition with a link to it; return how many.

    The PDF is printed from the built site, so a page can link to it only afterwards: the link names the file's real
    size, and a site built without ``make pdf`` has no link to a missing file.
    """
    lang = check_lang(lang)
    pdf = site / pdf_path(lang)
    if not pdf.is_file():
        raise FileNotFoundError(f"no {pdf_path(lang)} in {site}; expected it printed before pages link to it")
    size_mb = pdf.stat().st_size / 1e6
    linked = 0
    for page in sorted(site.rglob("*.html")):
        relative = page.relative_to(site).as_posix()
        if _edition_of(relative) != lang or relative.endswith(PRINT_PAGE):
            continue
        html = page.read_text(encoding="utf-8")
        if 'class="ascend-pdf"' in html or "</article>" not in html:
            continue
        href = posixpath.relpath(pdf_path(lang), posixpath.dirname(relative) or ".")
        link = (
            f'<p class="ascend-pdf" data-search-exclude><a href="{escape(href)}" download>'
            f"{escape(_PDF_LINK.in_(lang))}</a> ({size_mb:.1f} MB)</p>"
        )
        page.write_text(html.replace("</article>", link + "</article>", 1), encoding="utf-8")
        linked += 1
    return linked


def _edition_of(relative: str) -> Lang:
    return "en" if relative.startswith(ENGLISH_PREFIX) else "zh"


def _read(site: Path, relative: str) -> str:
    path = site / relative
    if not path.is_file():
        raise FileNotFoundError(f"the built site has no {relative}; expected a full build in {site}")
    return path.read_text(encoding="utf-8")
