"""The reference table of assumptions: each one's value, why, and the pages that use it."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from ascend_dsa.facts.assumptions import ASSUMPTIONS, assumption_pages
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.render.markdown import table

#: Where the site's pages are, seen from the project root that ``mkdocs build`` runs in.
DOCS_DIR = Path("docs")
#: The reference page itself, so that page links are written relative to it.
PAGE = PurePosixPath("reference/assumptions.md")


def render_assumptions(lang: Lang = "zh", docs_dir: Path = DOCS_DIR) -> str:
    """One row per assumption: quantity, value and unit, why, and links to the pages (of ``docs_dir``) using it."""
    used = assumption_pages(docs_dir)
    rows = []
    for a in ASSUMPTIONS:
        pages = sorted({p.replace(".en.", ".") for p in used[a.key]})
        links = ", ".join(f"[{p.rsplit('.', 1)[0]}]({_url(p)})" for p in pages) or "—"
        value = f"{a.value:g} {a.unit}".strip()
        rows.append(
            [
                f"`{a.key}`",
                pick(lang, a.quantity_zh, a.quantity_en),
                value,
                pick(lang, a.why_zh, a.why_en),
                a.source.citation,
                links,
            ]
        )
    headers = [
        pick(lang, "键", "key"),
        term("column:quantity", lang),
        pick(lang, "取值", "value"),
        pick(lang, "为什么", "why"),
        term("column:source", lang),
        pick(lang, "用到它的页面", "pages using it"),
    ]
    return table(headers, rows)


def _url(page: str) -> str:
    """The built URL of ``page`` (a path under docs/), relative to the reference page's own URL.

    The table is HTML by the time MkDocs sees it, so links are written as the site's directory URLs
    (``use_directory_urls``); the same relative URL works from both languages' copies of the page.
    """
    stem = PurePosixPath(page).with_suffix("")
    url = "" if stem.as_posix() == "index" else (stem.parent if stem.name == "index" else stem).as_posix() + "/"
    return "../" * len(PAGE.with_suffix("").parts) + url
