"""The reference table of assumptions: each one's value, why, and the pages that use it."""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from typing import Final

from ascend_dsa.facts.assumptions import ASSUMPTIONS
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.render.fences import docs_pages, fences, notebook_cells
from ascend_dsa.render.markdown import number, table
from ascend_dsa.validate import shown

#: Where the site's pages are, seen from the project root that ``mkdocs build`` runs in.
DOCS_DIR = Path("docs")
#: The reference page itself, so that page links are written relative to it.
PAGE = PurePosixPath("reference/assumptions.md")
#: A call of a public renderer in a page's code, and a ``{{ name }}`` prose value in its text.
_RENDERER_CALL: Final = re.compile(r"\b(render_\w+)\s*\(")
_PROSE_VALUE: Final = re.compile(r"\{\{\s*([a-z]\w*)\s*\}\}")


def assumption_pages(docs_dir: Path) -> dict[str, tuple[str, ...]]:
    """For each assumption key, the pages (paths under ``docs_dir``) whose executed code calls a renderer using it.

    A page uses an assumption when its executed code names one of the assumption's ``renderers`` or its prose
    writes ``{{ name }}`` for one of its ``prose_values``.
    """
    if not isinstance(docs_dir, str | os.PathLike):
        raise TypeError(f"docs_dir must be a path (str or Path), got {type(docs_dir).__name__} {shown(docs_dir)}")
    docs_dir = Path(docs_dir)
    try:
        is_dir = docs_dir.is_dir()
    except OSError as error:  # a name the system refuses to look up (too long, say)
        raise ValueError(
            f"docs_dir must be the site's docs directory, got {shown(str(docs_dir))} ({error.strerror})"
        ) from None
    if not is_dir:
        raise ValueError(f"docs_dir must be the site's docs directory, got {shown(str(docs_dir))} (not a directory)")
    blocks = {p.relative_to(docs_dir).as_posix(): _called_names(p) for p in docs_pages(docs_dir)}
    return {
        a.key: tuple(page for page, names in blocks.items() if names.intersection((*a.renderers, *a.prose_values)))
        for a in ASSUMPTIONS
    }


def _called_names(page: Path) -> set[str]:
    """The ``render_*`` functions a page's code calls (executed Python blocks, notebook cells) and its prose values."""
    text = page.read_text(encoding="utf-8")
    if page.suffix == ".ipynb":
        code = notebook_cells(text, "code")
    else:
        code = [f.code for f in fences(text) if f.executed and f.language in ("python", "py")]
    called = {name for block in code for name in _RENDERER_CALL.findall(block)}
    return called | set(_PROSE_VALUE.findall(text))


def render_assumptions(lang: Lang = "zh", docs_dir: Path = DOCS_DIR) -> str:
    """One row per assumption: quantity, value and unit, why, and links to the pages (of ``docs_dir``) using it."""
    used = assumption_pages(docs_dir)
    rows = []
    for a in ASSUMPTIONS:
        pages = sorted({p.replace(".en.", ".") for p in used[a.key]})
        links = ", ".join(f"[{p.rsplit('.', 1)[0]}]({_url(p)})" for p in pages) or "—"
        value = number(a.value, f"{a.value:g} {a.unit}".strip(), a.unit)
        rows.append(
            [
                f"`{a.key}`",
                a.quantity.in_(lang),
                value,
                a.why.in_(lang),
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
