import re
import xml.etree.ElementTree as ET

import pytest

import ascend_dsa as r
from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.hopper import H800, MLA_V32
from ascend_dsa.models.roofline import head_roofline
from ascend_dsa.render.chart import AXIS, INK, WIDTH, overlapping
from ascend_dsa.render.roofline import render_head_roofline_table, render_roofline_figure, roofline_chart, seed_row
from ascend_dsa.render.svg import svg_element
from tests.helpers.drawings import texts_outside


def test_seed_row_format() -> None:
    """Rows print exactly as the report's script prints them."""
    assert seed_row(head_roofline(ASCEND_950, 64, 1024)) == " 64, topk=1024, cube_cycles= 16384, mem_cycles= 12457"


@pytest.mark.parametrize(("lang", "word"), [("zh", "算力 bound"), ("en", "compute-bound")])
def test_table_has_eight_rows_and_report_values(lang: str, word: str) -> None:
    """The page table has the eight rows with the report's numbers beside ours."""
    text = render_head_roofline_table(lang=lang)  # type: ignore[arg-type]
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == 8
    assert "| 64 | 512 | 8192 | 8192 | 6920.6 | 6921 | 1.18 |" in text
    assert word in text
    assert "94.697" in text


def test_table_raises_on_mismatch() -> None:
    """With a changed constant the checked table refuses to render."""
    with pytest.raises(FigureMismatch, match="report \\(zh\\) line 108"):
        render_head_roofline_table(ASCEND_950.with_overrides(cores=31))


def test_a_changed_clock_names_every_row_it_moves() -> None:
    """At 1600 MHz instead of 1650 every L2 column moves: the error names each of report (zh) lines 104-111."""
    with pytest.raises(FigureMismatch) as raised:
        render_head_roofline_table(ASCEND_950.with_overrides(clock_hz=1600e6))
    for line in range(104, 112):
        assert f"report (zh) line {line}" in str(raised.value)


def test_unchecked_what_if_renders() -> None:
    """With check off, a what-if table renders and marks missing report rows."""
    text = render_head_roofline_table(ASCEND_950.with_overrides(cores=24), heads=(48,), check=False)
    assert "| 48 |" in text
    assert "—" in text


def test_unknown_language_rejected() -> None:
    """Only zh and en exist."""
    with pytest.raises(ValueError, match="lang must be one of zh, en, got 'fr'"):
        render_head_roofline_table(lang="fr")  # type: ignore[arg-type]


def test_fp8_roofline() -> None:
    """FP8 KV (528 B/token) at 64 heads: 4239 and 7094 L2 cycles."""
    text = r.render_fp8_roofline(lang="en")
    assert "| 4239 |" in text
    assert "| 7094 |" in text


# --- The figure: standard-library SVG, redrawn live ------------------------------------------------------------------

SVG_NS = "{http://www.w3.org/2000/svg}"


def _parsed(html: str) -> ET.Element:
    return ET.fromstring(svg_element(html))  # noqa: S314 - our own output


def _texts(html: str) -> list[str]:
    return ["".join(t.itertext()) for t in _parsed(html).iter(f"{SVG_NS}text")]


@pytest.mark.parametrize(
    ("lang", "labels"),
    [
        ("zh", ["每个 AI Core 的 q head 数", "每个 q token 的周期数", "CUBE，topk 512", "L2，topk 1024"]),
        ("zh", ["报告的选择：64 个 head", "圆点：上表的行"]),
        ("en", ["q heads per AI Core", "cycles per query token", "CUBE, topk 512", "L2, topk 1024"]),
        ("en", ["the report's 64", "dots: the table's rows"]),
    ],
)
def test_roofline_figure_is_well_formed_deterministic_and_labelled(lang: str, labels: list[str]) -> None:
    """The figure parses as XML, is the same twice, scales with its column and carries its labels in its language."""
    html = render_roofline_figure(lang=lang)  # type: ignore[arg-type]
    assert html == render_roofline_figure(lang=lang)  # type: ignore[arg-type]
    root = _parsed(html)
    assert root.get("width") == "100%"
    assert root.get("viewBox", "").startswith(f"0 0 {WIDTH} ")
    texts = _texts(html)
    for label in labels:
        assert label in texts, label
    assert {"0", "160", "1,000", "10,000"} <= set(texts)  # the axes' ends, as today's figure
    assert bool(re.search(r"[\u4e00-\u9fff]", "".join(texts))) == (lang == "zh")
    assert "matplotlib" not in html


def test_roofline_figure_dots_the_table_rows() -> None:
    """One dot on each line per (heads, topk) of the table: the report's eight rows by default, others when asked."""
    default = _parsed(render_roofline_figure(lang="en"))
    legend_dots = 1
    assert len(list(default.iter(f"{SVG_NS}circle"))) == 2 * 8 + legend_dots
    other = _parsed(render_roofline_figure(topk=(512,), heads=(48,), lang="en", check=False))
    assert len(list(other.iter(f"{SVG_NS}circle"))) == 2 + legend_dots


@pytest.mark.parametrize(
    "changed",
    [
        {"topk": (512, 1024, 2048)},
        {"heads": (16, 32)},
        {"spec": ASCEND_950.with_overrides(bandwidth_bytes_per_s=4e12)},
        {"kv_token_bytes": 528},
        {"spec": H800, "model": MLA_V32},
    ],
    ids=["topk", "heads", "bandwidth", "kv-token-bytes", "h800"],
)
def test_a_changed_input_changes_the_roofline_figure(changed: dict[str, object]) -> None:
    """Each input the command takes moves the figure."""
    assert render_roofline_figure(lang="en", check=False, **changed) != render_roofline_figure(lang="en")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "inputs",
    [
        {},
        {"topk": (512, 1024, 2048, 4096)},
        {"heads": (1, 2, 4096), "topk": (4096, 2**20)},
        {"heads": (8, 16), "topk": (64,)},
        {"spec": H800, "model": MLA_V32, "heads": (64, 128)},
    ],
    ids=["default", "four-topk", "extremes", "few-heads", "h800"],
)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_roofline_text_overlaps_another_or_leaves_the_figure(inputs: dict[str, object], lang: str) -> None:
    """Estimated text boxes neither meet nor cross the figure's edge, whatever the grid."""
    chart = roofline_chart(lang=lang, **inputs)  # type: ignore[arg-type]
    assert overlapping(chart.drawing.every_text) == []
    assert texts_outside(chart.drawing.every_text, WIDTH, chart.height) == []


def test_roofline_legend_names_every_colour() -> None:
    """Every colour a line or dot is drawn in has a legend entry, and every entry's colour is drawn (or a symbol's)."""
    chart = roofline_chart(topk=(512, 1024, 2048), lang="en")
    symbols = {AXIS, INK}
    assert chart.drawing.data_colours == set(chart.drawing.legend_colours) - symbols


def test_roofline_figure_is_guarded() -> None:
    """The figure checks the report's table first; a perturbed clock fails with the rows named; more topk refused."""
    slow = ASCEND_950.with_overrides(clock_hz=1.6e9)
    with pytest.raises(FigureMismatch, match="report \\(zh\\) line 104"):
        render_roofline_figure(slow)
    assert render_roofline_figure(slow, check=False).startswith('<div class="ascend-figure" tabindex="0"><svg')
    with pytest.raises(ValueError, match="topk"):
        render_roofline_figure(topk=(1, 2, 3, 4, 5))
