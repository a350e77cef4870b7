"""ascend_dsa.site.links: API names, upstream citations, and API pages back to their chapters."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

from ascend_dsa.facts.provenance import CONFIG_H_COMMIT, KERNEL_BODY_COMMIT, KV_CACHE_FORMAT_COMMIT
from ascend_dsa.site.files import Digests
from ascend_dsa.site.links import (
    api_identifiers,
    api_links,
    chapters_using,
    citation_links,
    documented_modules,
    upstream_url,
    used_by_section,
)
from ascend_dsa.site.sources import SourceTree
from tests.helpers.project import ROOT

DOCS = ROOT / "docs"
TREE = SourceTree(ROOT / "src", Digests())


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
    script = citation_links("generate_instantiations.py:17-21")
    assert f"{KV_CACHE_FORMAT_COMMIT}/scripts/generate_instantiations.py#L17-L21)" in script
    with pytest.raises(ValueError, match=r"file must be one of kernel_body\.h"):
        upstream_url("main.cpp", 1)


def test_api_names_link_to_their_entries() -> None:
    """Inline code naming a documented function links to it by its module path; other code stays as it is."""
    identifiers = api_identifiers(TREE, documented_modules(DOCS))
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
    identifiers = api_identifiers(TREE, modules)
    every = chapters_using(DOCS, frozenset(modules), identifiers, TREE)
    for page in sorted((DOCS / "reference/api").glob("*.md")):
        if page.stem in {"index", "index.en"}:
            continue
        section = used_by_section(DOCS, page.relative_to(DOCS).as_posix(), "zh", every)
        assert section.startswith("\n\n## 用到本页的章节 { #used-by }\n\n- ["), page.name
    uses = chapters_using(DOCS, frozenset({"ascend_dsa.models.pipeline"}), identifiers, TREE)
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


def test_identifiers_read_from_the_source_are_the_imported_modules_own() -> None:
    """Reading the sources gives the public functions and classes a module defines, as importing it would.

    The sources also see a function behind a decorator (``@lru_cache``), which ``inspect.isfunction`` misses.
    """
    modules = documented_modules(DOCS)
    imported = {}
    for name in modules:
        module = importlib.import_module(name)
        for key, value in vars(module).items():
            own = getattr(value, "__module__", None) == name and (inspect.isfunction(value) or inspect.isclass(value))
            if not key.startswith("_") and own:
                imported.setdefault(key, f"{name}.{key}")
    read = api_identifiers(TREE, modules)
    assert read.items() >= imported.items()
    for name, identifier in read.items() - imported.items():
        module, _, attribute = identifier.rpartition(".")
        assert callable(getattr(importlib.import_module(module), attribute)), name


def test_a_chinese_chapter_is_listed_by_its_title_without_its_anchor() -> None:
    """A Chinese heading names its English twin's anchor ({#the-computation}); the list shows the title only."""
    section = used_by_section(
        DOCS, "reference/api/cycles.md", "zh", {"algorithm/flow.md": ["ascend_dsa.models.schedule"]}
    )
    assert "[计算流程](../../algorithm/flow.md)" in section
    assert "{#" not in section


def test_a_module_that_does_not_parse_defines_nothing(tmp_path: Path) -> None:
    """A documented module with a syntax error gives no identifiers (its API page fails and says why)."""
    package = tmp_path / "ascend_dsa"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "broken.py").write_text("def f(:\n", encoding="utf-8")
    (package / "fine.py").write_text("def g():\n    pass\n", encoding="utf-8")
    tree = SourceTree(tmp_path, Digests())
    assert api_identifiers(tree, ("ascend_dsa.broken", "ascend_dsa.fine")) == {"g": "ascend_dsa.fine.g"}
