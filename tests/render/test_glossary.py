"""The glossary page and the hover definitions come from the same entries; its chapter links come from the pages."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import markdown
import pytest

from ascend_dsa.facts.chapters import chapter_named
from ascend_dsa.facts.glossary import GLOSSARY_TERMS, NOT_IN_GLOSSARY, NOTATION, glossary_term
from ascend_dsa.render.glossary import (
    abbreviations,
    page_prose,
    render_glossary,
    render_glossary_map,
    term_chapters,
    unlisted_terms,
)
from ascend_dsa.site.glossary import keep_first_titles, with_abbreviations, with_first_definitions, with_unit_link

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ascend_dsa.lang import Lang

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _docs(tmp_path: Path, pages: Mapping[str, str]) -> Path:
    """A docs folder holding ``pages`` (path under docs -> source)."""
    for name, text in pages.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_page_and_abbreviations_agree() -> None:
    """Each term's definition on the glossary page is its hover definition, in each edition."""
    for lang in ("zh", "en"):
        page, hovers = render_glossary(lang=lang), abbreviations(lang=lang)
        for entry in GLOSSARY_TERMS:
            assert f"**{entry.term}**{{ #{entry.anchor} }}\n:   {entry.text(lang)}" in page
            assert f"*[{entry.term}]: {entry.text(lang)}\n" in hovers
    assert abbreviations(lang="zh") != abbreviations(lang="en")


def test_a_page_gets_its_editions_definitions_once_per_term() -> None:
    """The first use of a term carries its definition; later uses are plain text; code is left alone."""
    source = with_abbreviations("MTE3 copies S; MTE3 again, and `MTE3` in code.", "pipeline.en.md", "en")
    html = keep_first_titles(markdown.markdown(source, extensions=["abbr"]))
    definition = next(e for e in GLOSSARY_TERMS if e.term == "MTE3").text("en")
    assert html.count(f'<abbr title="{definition}">MTE3</abbr>') == 1
    assert "MTE3 again" in html
    assert "<code>MTE3</code>" in html


def test_the_glossary_page_gets_no_hovers() -> None:
    """The glossary's own terms are definitions, not uses."""
    assert with_abbreviations("# Glossary", "reference/glossary.en.md", "en") == "# Glossary"
    assert "*[UB]: Unified Buffer" in with_abbreviations("# Pipeline", "pipeline.en.md", "en")


def test_a_chapter_naming_a_unit_points_to_the_ai_core_figure() -> None:
    """The pointer joins the opening quote, with links relative to the page; model and reference pages get none."""
    page = "# The pipeline\n\n> Covers report (zh) lines 166-208.\n\nThe CUBE waits.\n"
    linked = with_unit_link(page, "optimizations/icache.en.md", "en")
    assert linked.startswith("# The pipeline\n\n> Covers report (zh) lines 166-208.\n>\n> The hardware units named")
    assert "[the AI Core figure](../algorithm/model.md#ai-core)" in linked
    assert "[术语表](reference/glossary.md)" in with_unit_link(page, "pipeline.md", "zh")
    assert with_unit_link(page, "algorithm/model.en.md", "en") == page
    assert with_unit_link(page, "reference/claims.md", "zh") == page
    assert with_unit_link(page, "design/what-if.ipynb", "zh") == page
    assert with_abbreviations(page, "design/what-if.ipynb", "zh") == page
    assert with_unit_link("# Preface\n\n> Covers lines.\n\nNo units.\n", "index.md", "zh").endswith("No units.\n")


def test_the_pointer_finds_the_title_after_an_error_box() -> None:
    """Under mkdocs serve an error box may come first; the pointer still joins the quote, and no quote is no error."""
    page = '<div class="build-guard-error">x</div>\n\n# The pipeline\n\n> Covers lines.\n\nThe CUBE waits.\n'
    assert "> Covers lines.\n>\n> The hardware units" in with_unit_link(page, "pipeline.en.md", "en")
    bare = "# The pipeline\n\nThe CUBE waits.\n"
    assert with_unit_link(bare, "pipeline.en.md", "en") == bare


def test_a_notebook_page_gets_each_terms_definition_on_its_first_prose_use() -> None:
    """Notebook HTML never passes through Python-Markdown: the first prose use of a term gets the same ``<abbr>``.

    Code, headings and links keep their text; a term inside a longer word (1C2V-ish) is not a use; ND2NZ is one
    term, not ND.
    """
    html = "<h2>UB</h2><pre>CUBE</pre><p>The CUBE, then CUBE; ND2NZ and 1C2V-ish, <code>UB</code>, UB.</p>"
    out = with_first_definitions(html, "en")
    assert out.count("<abbr") == 3
    definitions = {e.term: e.text("en") for e in GLOSSARY_TERMS}
    for term in ("CUBE", "ND2NZ", "UB"):
        assert f'<abbr title="{definitions[term]}">{term}</abbr>'.replace("'", "&#x27;") in out
    assert out.startswith("<h2>UB</h2><pre>CUBE</pre><p>The <abbr")
    assert ", then CUBE;" in out
    assert "1C2V-ish" in out
    assert "<code>UB</code>, <abbr" in out
    assert keep_first_titles(out) == out


def test_each_entry_shows_every_part_and_its_source() -> None:
    """An entry shows its explanation, counterpart (or none), where it breaks and its GPU source, in each edition."""
    page = render_glossary(lang="en", docs_dir=DOCS)
    for entry in GLOSSARY_TERMS:
        block = page.split(f"**{entry.term}**{{ #{entry.anchor} }}", 1)[1].split("\n\n**", 1)[0]
        assert entry.explanation.en in block
        assert entry.breaks.en in block
        assert f"[{entry.gpu_source.label}]({entry.gpu_source.url})" in block
        assert ("no counterpart" if entry.counterpart is None else entry.counterpart.en) in block
    assert "**类比在哪里不成立**" in render_glossary(lang="zh", docs_dir=DOCS)


@pytest.mark.parametrize(("lang", "label"), [("en", "**Explained in**"), ("zh", "**讲解它的章节**")])
def test_a_term_or_letter_links_the_chapter_that_explains_it(lang: Lang, label: str) -> None:
    """Each entry and letter with a defining chapter links it (the one search weighs it in); the others name none."""
    page = render_glossary(lang=lang, docs_dir=DOCS)
    for entry in GLOSSARY_TERMS:
        block = page.split(f"**{entry.term}**{{ #{entry.anchor} }}", 1)[1].split("\n\n**", 1)[0]
        if entry.chapter is None:
            assert label not in block, entry.term
        else:
            chapter = chapter_named(entry.chapter)
            assert f"{label}：[" in block or f"{label}: [" in block, entry.term
            assert f"[{chapter.name.in_(lang)}](../../{chapter.url})" in block, entry.term
    for letter in NOTATION:
        block = page.split(f"**{letter.symbol}**{{ #symbol-{letter.symbol.lower()} }}", 1)[1].split("\n\n**", 1)[0]
        assert (label in block) == (letter.chapter is not None), letter.symbol


def test_the_map_links_each_term_to_its_entry() -> None:
    """The CUDA reader's map has a row per term, linked to the entry's anchor, naming its counterpart or none."""
    table = render_glossary_map(lang="en")
    assert table.count("\n| [") == len(GLOSSARY_TERMS)
    assert "| [L0A](#l0a) | no counterpart |" in table
    assert f"| [UB](#ub) | {glossary_term('UB').counterpart.en} |" in table  # type: ignore[union-attr]
    assert "没有对应物" in render_glossary_map(lang="zh")


def test_the_chapters_using_a_term_are_read_from_the_pages(tmp_path: Path) -> None:
    """A chapter is listed under a term its prose (either edition) uses; code, page values and math are not uses."""
    docs = _docs(
        tmp_path,
        {
            "pipeline.md": "MTE2 拷贝。\n\n```python exec=\"true\"\nprint('HF32')\n```\n",
            "index.en.md": "The SS\nbuffer, {{ HF32 }} and $UB$.\n",
            "reference/claims.md": "MTE2 and the CUBE.\n",
        },
    )
    used = term_chapters(docs)
    assert [c.key for c in used["MTE2"]] == ["pipeline"]
    assert [c.key for c in used["SS buffer"]] == ["index"]
    assert used["HF32"] == used["UB"] == used["CUBE"] == ()
    page = render_glossary(lang="en", docs_dir=docs)
    assert "**Chapters using it**: [The pipeline](../../pipeline/)" in page
    assert "**Chapters using it**: (no chapter yet)" in page


def test_a_hardware_word_on_two_pages_needs_an_entry(tmp_path: Path) -> None:
    """An all-capitals word or a named buffer on two chapters without an entry is reported; one page, code or an
    entry's own term is not."""
    docs = _docs(
        tmp_path,
        {
            "pipeline.md": "BIU 与 XYZ buffer 和 `QQQ` 以及 AI Core、TB。\n",
            "index.en.md": "The BIU, an XYZ buffer, `QQQ`, the AI Cores and TB; only here: PIPE_V.\n",
        },
    )
    assert unlisted_terms(docs) == {
        "BIU": ("index", "pipeline"),
        "XYZ buffer": ("index", "pipeline"),
    }


def test_every_hardware_word_the_pages_use_twice_has_an_entry() -> None:
    """The site's own pages: every hardware or kernel word used on two or more chapters is in the glossary or in
    ``NOT_IN_GLOSSARY`` with its reason."""
    assert unlisted_terms(DOCS) == {}


@pytest.mark.parametrize("word", sorted(NOT_IN_GLOSSARY))
def test_each_exception_is_needed(word: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without its exception, each word left out of the glossary would be reported: the list holds nothing stale."""
    from ascend_dsa.render import glossary  # noqa: PLC0415

    monkeypatch.setattr(glossary, "NOT_IN_GLOSSARY", {k: v for k, v in NOT_IN_GLOSSARY.items() if k != word})
    assert word in glossary.unlisted_terms(DOCS)


def test_page_prose_leaves_out_front_matter_fences_and_values() -> None:
    """Front matter, fenced blocks, page values and math are not prose."""
    prose = page_prose("---\nsearch: MTE2\n---\nUB {{ L1 }} $L0C$\n```\nCUBE\n```\nend\n")
    assert "UB" in prose
    assert "end" in prose
    for word in ("MTE2", "L1", "L0C", "CUBE"):
        assert word not in prose


def test_a_docs_dir_that_is_not_one_is_refused(tmp_path: Path) -> None:
    """The chapters using a term are read from a docs folder; anything else is a one-line error naming it."""
    with pytest.raises(
        ValueError, match=r"docs_dir must be the site's docs directory, got .*missing' \(not a directory\)"
    ):
        render_glossary(lang="en", docs_dir=tmp_path / "missing")
    with pytest.raises(TypeError, match="docs_dir must be a path"):
        term_chapters(42)  # type: ignore[arg-type]
