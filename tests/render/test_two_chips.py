"""The two-chips page: its tables and figure come from the package, in both languages, and its blocks only call."""

from __future__ import annotations

import re

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.hopper import H800, H800_THROTTLED_CLOCK_HZ
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, pick
from ascend_dsa.models.hopper import dense_compute_bound_heads, fp8_decode_smem_bytes
from ascend_dsa.render.format import group_digits, percent, quantity
from ascend_dsa.render.two_chips import (
    render_two_chips_disagreements,
    render_two_chips_roofline_figure,
    render_two_chips_table,
    render_two_chips_what_if,
)
from ascend_dsa.report.ledger_hopper import DISAGREEMENTS
from tests.helpers.pages import page_blocks
from tests.helpers.project import DOCS

LANGS: tuple[Lang, ...] = ("zh", "en")


def _rows(text: str) -> dict[str, list[str]]:
    """A rendered table's body rows by their first cell, each row's cells in order."""
    lines = [line for line in text.splitlines() if line.startswith("|")][2:]
    cells = [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines]
    return {row[0]: row for row in cells}


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
    assert len(blocks) == 7  # five of the chapter, its questions and its exercises
    for block in blocks:
        lines = [line for line in block.code.splitlines() if line.strip()]
        assert lines[0].startswith("from ascend_dsa import render_")
        assert len(lines) == 2
        assert lines[1].startswith("print(render_")
        assert not any(ch.isdigit() for ch in block.code)


@pytest.mark.parametrize("lang", LANGS)
def test_shared_memory_fill_is_what_the_kernel_allocates(lang: Lang) -> None:
    """The fill is sizeof(SharedMemoryPlan), 231,424 B = 99.6 %, beside the members' 230,584 B it rounds up."""
    fill = _rows(render_two_chips_table(lang=lang))[pick(lang, "片上缓冲占满程度", "on-chip fill")][2]
    allocated, size = fp8_decode_smem_bytes(), H800.staging_bytes_per_core
    assert f"{group_digits(allocated)} / {group_digits(size)} B = {percent(allocated / size, 1)}" in fill
    assert "231,424 / 232,448 B = 99.6 %" in fill
    assert "sizeof(SharedMemoryPlan)" in fill
    assert "230,584 B" in fill  # the members' sum, which the page printed as the fill before
    assert pick(lang, "splitkv_mla.cuh 第 753 行", "splitkv_mla.cuh line 753") in fill
    assert pick(lang, "config.h 第 98 行", "config.h line 98") in fill


@pytest.mark.parametrize("lang", LANGS)
def test_fixpipe_rows_say_their_rate_and_that_two_is_p_alone(lang: Lang) -> None:
    """Both FixPipe cells are at the report's 1C1V rate (zh line 142), and the 1C2V one moves P alone."""
    rows = _rows(render_two_chips_table(lang=lang))
    rate = ASCEND_950.ascend.fixpipe_bytes_per_cycle_1c1v
    every_block = rows[
        pick(
            lang,
            "每个 KV token：矩阵单元与次慢的单元（周期）",
            "per KV token: matrix unit against the next-slowest unit (cycles)",
        )
    ][1]
    shared = rows[pick(lang, "分摊它的办法", "the trick that shares it")][1]
    at_1c1v = pick(lang, f"1C1V 的 {rate} B/周期", f"1C1V's {rate} B/cycle")
    for cell in (every_block, shared):
        assert at_1c1v in cell
    assert pick(lang, "报告 (zh) 第 142 行", "report (zh) line 142") in every_block
    assert pick(lang, "只搬 P，即没有一块 rescale", "P alone, i.e. no block rescales") in shared
    assert pick(lang, "报告没有给出 1C2V 的速率", "the report gives no 1C2V rate") in shared


@pytest.mark.parametrize("lang", LANGS)
def test_dense_compute_bound_row_states_clock_and_bandwidth(lang: Lang) -> None:
    """The H800's bound is at the throttled 1600 MHz (136.7, not 156.4 at 1830); the 950's is labelled L2's."""
    row = next(
        r for q, r in _rows(render_two_chips_what_if(lang=lang)).items() if q.startswith(pick(lang, "稠密", "dense"))
    )
    on_950, on_h800 = row[1], row[2]
    throttled = dense_compute_bound_heads(H800, H800_THROTTLED_CLOCK_HZ)
    assert on_h800.startswith(f"{throttled:.1f}")
    assert on_h800.startswith("136.7")
    assert quantity(H800_THROTTLED_CLOCK_HZ, "Hz") in on_h800
    assert pick(lang, "HBM 界", "HBM bound") in on_h800
    assert "156.4" not in on_h800
    assert on_950.startswith(f"{dense_compute_bound_heads(ASCEND_950, ASCEND_950.clock_hz, DSA_V41):.1f}")
    assert pick(lang, "L2 界", "L2 bound") in on_950
    assert quantity(ASCEND_950.clock_hz, "Hz") in on_950
    assert pick(lang, "不是 HBM 的", "not an HBM one") in row[0]


@pytest.mark.parametrize("lang", LANGS)
def test_each_h800_row_names_its_kernel(lang: Lang) -> None:
    """The H800 column mixes FlashMLA's kernels: every row names the one it describes, with its lines."""
    rows = _rows(render_two_chips_table(lang=lang))
    fp8, dense = (
        pick(lang, "FP8 稀疏 decode", "FP8 sparse decoding"),
        pick(lang, "bf16 稠密 decode", "bf16 dense decoding"),
    )
    for row in rows.values():
        assert len(row) == 4
        assert fp8 in row[3] or dense in row[3]
    rescale = rows[pick(lang, "rescale 规则", "rescale rule")][3]
    assert rescale.startswith(dense)
    assert pick(lang, "稠密 decode 博客 第 25-40 行", "dense blog lines 25-40") in rescale
    for decision in (
        pick(lang, "片上缓冲占满程度", "on-chip fill"),
        pick(lang, "分摊它的办法", "the trick that shares it"),
        pick(lang, "KV 块", "KV tile"),
    ):
        assert rows[decision][3].startswith(fp8)
    achieved = rows[pick(lang, "实测占峰值的比例", "achieved fraction of peak")][3]
    assert fp8 in achieved
    assert dense in achieved


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
