"""Links where they help: API names, upstream citations, and API pages back to their chapters."""

from __future__ import annotations

import pytest

from ascend_dsa.facts.provenance import CONFIG_H_COMMIT, KERNEL_BODY_COMMIT
from ascend_dsa.site.links import (
    api_identifiers,
    api_links,
    chapters_using,
    citation_links,
    documented_modules,
    upstream_url,
    used_by_section,
)
from tests.conftest import ROOT

DOCS = ROOT / "docs"


def test_citations_link_to_the_pinned_line() -> None:
    """kernel_body.h:N and config.h:N-M link to the file at the pinned commit; code, links and fences stay."""
    text = "See kernel_body.h:1312 and config.h:78-81, `kernel_body.h:9`, [config.h:1](x).\n\n```\nconfig.h:2\n```\n"
    linked = citation_links(text)
    assert f"[kernel_body.h:1312](https://github.com/deepseek-ai/FlashMLA/blob/{KERNEL_BODY_COMMIT}/" in linked
    assert "/kernel_body.h#L1312)" in linked
    assert f"{CONFIG_H_COMMIT}/csrc/ascend_kernels/prefill/sparse/config.h#L78-L81)" in linked
    assert "`kernel_body.h:9`" in linked
    assert "[config.h:1](x)" in linked
    assert "```\nconfig.h:2\n```" in linked
    with pytest.raises(ValueError, match=r"file must be one of kernel_body\.h"):
        upstream_url("main.cpp", 1)


def test_api_names_link_to_their_entries() -> None:
    """Inline code naming a documented function links to it by its module path; other code stays as it is."""
    identifiers = api_identifiers(documented_modules(DOCS))
    assert identifiers["blocked_sparse_attn_fwd"] == "ascend_dsa.models.blocked_forward.blocked_sparse_attn_fwd"
    text = "Call `blocked_sparse_attn_fwd(...)` or `simulate`, not `x + 1` or [`simulate`][y]."
    linked = api_links(text, identifiers)
    assert "[`blocked_sparse_attn_fwd(...)`][ascend_dsa.models.blocked_forward.blocked_sparse_attn_fwd]" in linked
    assert "[`simulate`][ascend_dsa.models.pipeline.simulate]" in linked
    assert "`x + 1`" in linked
    assert "[`simulate`][y]" in linked


def test_every_api_page_is_used_by_a_chapter() -> None:
    """Each API reference page has chapters that use what it documents, and the list names them by title."""
    modules = documented_modules(DOCS)
    identifiers = api_identifiers(modules)
    every = chapters_using(DOCS, frozenset(modules), identifiers)
    for page in sorted((DOCS / "reference/api").glob("*.md")):
        if page.stem in {"index", "index.en"}:
            continue
        section = used_by_section(DOCS, page.relative_to(DOCS).as_posix(), "zh", every)
        assert section.startswith("\n\n## 用到本页的章节 { #used-by }\n\n- ["), page.name
    uses = chapters_using(DOCS, frozenset({"ascend_dsa.models.pipeline"}), identifiers)
    assert "pipeline.md" in uses
    assert "[The pipeline](../../pipeline.md)" in used_by_section(DOCS, "reference/api/cycles.en.md", "en", every)


def test_a_page_lists_only_the_chapters_using_its_own_modules() -> None:
    """The build-wide map is cut to the page's modules: a chapter using none of them is not listed."""
    design = {"design/index.md": ["ascend_dsa.models.memory_plans"]}
    section = used_by_section(
        DOCS, "reference/api/cycles.en.md", "en", {"pipeline.md": ["ascend_dsa.models.pipeline"]} | design
    )
    assert "(../../pipeline.md): `ascend_dsa.models.pipeline`" in section
    assert "design/index.md" not in section
    assert used_by_section(DOCS, "reference/api/cycles.en.md", "en", design) == ""
