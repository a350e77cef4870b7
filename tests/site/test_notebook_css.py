"""ascend_dsa.site.notebook_css keeps the rules a notebook page uses and drops the rest of JupyterLab's sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site import notebook_css

if TYPE_CHECKING:
    from pathlib import Path


def test_prune_keeps_used_rules_only() -> None:
    """Rules naming an absent class go; element rules, :not()/:is() alternatives, @media and @charset stay."""
    css = (
        '@charset "UTF-8";.w{--x: 1}.w .used{a:b}.w .unused{c:d}.w :is(.used,.other) p{e:f}'
        ".w .used:not(.absent){g:h}@media (max-width:1px){.w .unused{i:j}.w .used{k:l}}table{m:n}"
        '.w .a,.w .unused{o:p}.w .s::before{content:"}"}'
    )
    pruned = notebook_css.prune(css, {"w", "used", "a", "s"})
    assert pruned == (
        '@charset "UTF-8";.w{--x: 1}.w .used{a:b}.w :is(.used,.other) p{e:f}.w .used:not(.absent){g:h}'
        '@media (max-width:1px){.w .used{k:l}}table{m:n}.w .a{o:p}.w .s::before{content:"}"}'
    )


def test_only_notebook_pages_and_large_sheets() -> None:
    """A page without a notebook, and a notebook page's small style blocks, are left alone."""
    small = '<div class="jupyter-wrapper"><style>.gone{a:b}</style></div>'
    assert notebook_css.prune_page(small) == small
    plain = "<style>" + ".gone{a:b}" * 20_000 + "</style>"
    assert notebook_css.prune_page(plain) == plain


def test_a_pruned_sheet_is_kept_for_the_next_page() -> None:
    """The second edition's notebook page, with the same sheet and classes, reuses the pruned sheet kept."""
    sheet = ".w .used{a:b}" + ".w .gone{c:d}" * 10_000
    page = f'<div class="jupyter-wrapper"><div class="used w"><style>{sheet}</style></div></div>'
    kept: dict[object, object] = {}
    first = notebook_css.prune_page(page, kept)
    [key] = [k for k in kept if k != "rules"]
    assert kept[key] == ".w .used{a:b}"
    assert list(kept["rules"]) == [sheet]  # type: ignore[call-overload]
    kept[key] = "REUSED"
    assert "REUSED" in notebook_css.prune_page(page, kept)
    assert "REUSED" not in first
    other = f'<div class="jupyter-wrapper"><div class="w"><style>{sheet}</style></div></div>'
    assert notebook_css.prune_page(other, kept).count("<style></style>") == 1  # other classes: pruned anew


@pytest.mark.build
def test_notebook_page_is_light(built_site: Path) -> None:
    """The notebook pages weigh less than 400 KB of HTML (they carried 750 KB of inlined styles and images)."""
    for page in ("design/what-if/index.html", "en/design/what-if/index.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        assert len(html.encode()) < 400_000
        assert ".jupyter-wrapper .jp-InputPrompt" in html  # the rules it uses stay
