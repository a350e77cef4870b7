"""The two-chips page: its tables and figure come from the package, in both languages, and its blocks only call."""

from __future__ import annotations

import re

import pytest

from ascend_dsa.facts.hopper import H800
from ascend_dsa.lang import Lang
from ascend_dsa.models.hopper import fp8_decode_smem_bytes
from ascend_dsa.render.format import group_digits
from ascend_dsa.render.two_chips import (
    render_two_chips_disagreements,
    render_two_chips_roofline_figure,
    render_two_chips_table,
    render_two_chips_what_if,
)
from ascend_dsa.report.ledger_hopper import DISAGREEMENTS
from tests.report.test_claims_guard import DOCS, page_blocks

LANGS: tuple[Lang, ...] = ("zh", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_decision_table_cells_are_computed(lang: Lang) -> None:
    """Nine decisions, the shared-memory fill from the plan model and the 950's UB total from its plan."""
    text = render_two_chips_table(lang=lang)
    assert len([line for line in text.splitlines() if line.startswith("|")]) == 2 + 9
    assert group_digits(fp8_decode_smem_bytes()) in text
    assert group_digits(H800.staging_bytes_per_core) in text
    assert "259,600" in text  # config.h's prefill UB total (facts.code_figures), checked there


@pytest.mark.parametrize("lang", LANGS)
def test_what_if_is_marked_as_a_model(lang: Lang) -> None:
    """The cross-chip table says it is a model; the 950's FixPipe break-even is its 73.14."""
    text = render_two_chips_what_if(lang=lang)
    assert ("模型，不是实测" if lang == "zh" else "a model, not a measurement") in text
    assert "73.14" in text


@pytest.mark.parametrize("lang", LANGS)
def test_disagreements_listed(lang: Lang) -> None:
    """Every stated disagreement has a row."""
    text = render_two_chips_disagreements(lang=lang)
    for d in DISAGREEMENTS:
        assert f"`{d.key}`" in text


def test_figure_is_small_and_labelled() -> None:
    """The SVG figure names both chips and stays small (it counts against the page budget)."""
    html = render_two_chips_roofline_figure(lang="en")
    assert "H800 SXM5" in html
    assert "Ascend 950" in html
    assert len(html) < 40_000


@pytest.mark.parametrize("page", ["discussion/two-chips.md", "discussion/two-chips.en.md"])
def test_page_blocks_only_call_renderers(page: str) -> None:
    """Each block imports one renderer from ascend_dsa and prints it: no numbers, no logic in the page."""
    blocks = page_blocks(DOCS / page)
    assert len(blocks) == 5
    for block in blocks:
        lines = [line for line in block.code.splitlines() if line.strip()]
        assert lines[0].startswith("from ascend_dsa import render_")
        assert len(lines) == 2
        assert lines[1].startswith("print(render_")
        assert not any(ch.isdigit() for ch in block.code)


#: The heading of the section on the documents' disagreements, in either edition.
HEADING = r"^## .*(?:Where the documents disagree|\{#where-the-documents-disagree\})$"


def _disagreement_section(page: str) -> str:
    """The prose of the page's "where the documents disagree" section, from its heading to its table's block."""
    text = (DOCS / page).read_text(encoding="utf-8")
    heading = re.search(HEADING, text, re.MULTILINE)
    assert heading is not None, page
    return text[heading.end() : text.index("```python", heading.end())]


@pytest.mark.parametrize("page", ["discussion/two-chips.md", "discussion/two-chips.en.md"])
def test_the_ratio_is_said_to_be_of_two_measurements(page: str) -> None:
    """1.64 is the ratio of 410 and 250 measured TFLOPS, each shown beside the model's bound for its kernel."""
    section = _disagreement_section(page)
    for marker in (
        "crossover_tflops_ratio",
        "sparse_decode_tflops",
        "no_crossover_tflops",
        "no_crossover_bound_tflops",
        "crossover_bound_tflops",
        "h800_throttled_clock_ghz",
    ):
        assert f"{{{{ {marker} }}}}" in section, (page, marker)
    assert "measured {{ crossover" not in section
    assert "实测为\n{{ crossover" not in section


@pytest.mark.parametrize("page", ["discussion/two-chips.md", "discussion/two-chips.en.md"])
def test_dense_blog_line_57_is_on_the_page(page: str) -> None:
    """The dense blog's "up to 80 %" and "3 TB/s" stand beside the 76.3 % its own figures give, with the line cited."""
    section = _disagreement_section(page)
    for marker in ("dense_blog_utilisation", "dense_achieved_tb_per_s", "dense_throttled_share"):
        assert f"{{{{ {marker} }}}}" in section, (page, marker)
    assert "57" in section
