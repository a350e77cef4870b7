"""The glossary page and the hover definitions come from the same entries."""

from __future__ import annotations

import markdown

from ascend_dsa.facts.glossary import GLOSSARY_TERMS
from ascend_dsa.render.glossary import abbreviations, render_glossary
from ascend_dsa.site.glossary import keep_first_titles, with_abbreviations, with_first_definitions, with_unit_link


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
