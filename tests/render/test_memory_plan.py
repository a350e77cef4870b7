import re
import xml.etree.ElementTree as ET

import pytest

from ascend_dsa.errors import FigureMismatch, ForbiddenDesign
from ascend_dsa.facts.code_figures import SHIPPED_UB_TOTALS
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.models.memory_plans import ub_plan
from ascend_dsa.render import memory_plan
from ascend_dsa.render.chart import INK, WIDTH, overlapping
from ascend_dsa.render.format import display_width
from ascend_dsa.render.memory_plan import (
    render_l1_bank_figure,
    render_l1_bank_table,
    render_ub_plan_bars,
    render_ub_plan_table,
    ub_plan_bars_chart,
    ub_plan_text,
)
from ascend_dsa.render.svg import svg_element
from tests.helpers.drawings import texts_outside


def test_ub_table_shows_every_field_and_total() -> None:
    """20 fields, the six totals and the headroom row, in both languages."""
    table = render_ub_plan_table(lang="en")
    for total in SHIPPED_UB_TOTALS:
        assert f"**{total.total_bytes:,}**" in table
    assert table.count("| `") == 20
    assert "2,544" in table
    assert "合计" in render_ub_plan_table(lang="zh")


def test_ub_renderers_are_guarded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong shipped total fails the table and the bars with FigureMismatch."""
    import dataclasses  # noqa: PLC0415

    wrong = (dataclasses.replace(SHIPPED_UB_TOTALS[0], total_bytes=1), *SHIPPED_UB_TOTALS[1:])
    monkeypatch.setattr(memory_plan, "check_ub_totals", lambda plans: memory_plan_check(plans, wrong))
    with pytest.raises(FigureMismatch, match="v41_h64_prefill_nosink"):
        render_ub_plan_table()
    with pytest.raises(FigureMismatch, match="v41_h64_prefill_nosink"):
        render_ub_plan_bars()


def memory_plan_check(plans: object, shipped: object) -> None:
    from ascend_dsa.report.checks import check_ub_totals  # noqa: PLC0415

    check_ub_totals(plans, shipped)  # type: ignore[arg-type]


def test_ub_text_for_the_command_line() -> None:
    """The CLI text lists each field with its config.h line and ends with the total against UB."""
    text = ub_plan_text(ub_plan(SHIPPED_KERNEL, Mode.PREFILL))
    assert "[config.h:78]" in text
    assert text.splitlines()[-1].startswith("total")
    assert "259600 B / 262144 B" in text
    assert "fits" in text.splitlines()[-1]


def test_l1_table_and_figure() -> None:
    """Five address ranges, 196 KiB per bank, S across both banks; the figure is deterministic."""
    table = render_l1_bank_table(lang="en")
    assert "| S | 252K – 260K | 8 KiB | 0 + 1 |" in table
    assert table.count("196 KiB") == 2
    svg = render_l1_bank_figure(lang="zh")
    assert svg == render_l1_bank_figure(lang="zh")
    assert re.search(r"[\u4e00-\u9fff]", svg)


def test_bars_are_deterministic() -> None:
    """The stacked bars are the same SVG on every call."""
    assert render_ub_plan_bars(lang="en") == render_ub_plan_bars(lang="en")


def test_l1_figure_legend_names_every_colour() -> None:
    """The L1 figure's legend names Q, KV, S and the free space: every fill it draws, the thin S included."""
    svg = render_l1_bank_figure(lang="en")
    assert 'id="legend_1"' in svg
    for label in ("Q", "KV block", "S = softmax(P)", "free"):
        assert f">{label}<" in svg, label


def test_ub_bars_are_labelled_in_the_axis_unit() -> None:
    """The totals on the UB bars are KiB, as the axis is (259,600 B is 253.5 KiB), not bytes."""
    svg = render_ub_plan_bars(lang="en")
    assert ">253.5<" in svg
    assert ">259,600<" not in svg
    assert "(KiB)" in svg


# --- The UB figure: standard-library SVG, redrawn live ---------------------------------------------------------------

SVG_NS = "{http://www.w3.org/2000/svg}"


def _texts(html: str) -> list[str]:
    root = ET.fromstring(svg_element(html))  # noqa: S314 - our own output
    return ["".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")]


@pytest.mark.parametrize(
    ("lang", "labels"),
    [
        ("zh", ["每个 VECTOR Core 的 UB（KiB）", "KV 搬运缓冲", "索引与 gather2 参数", "UB 容量 256 KiB", "无 sink"]),
        ("en", ["UB per VECTOR Core (KiB)", "gathered KV buffers", "indices and gather2 parameters", "UB 256 KiB"]),
    ],
)
def test_ub_bars_are_well_formed_and_labelled(lang: str, labels: list[str]) -> None:
    """The figure parses as XML, scales with its column and names every group, the capacity and each plan."""
    html = render_ub_plan_bars(lang=lang)  # type: ignore[arg-type]
    root = ET.fromstring(svg_element(html))  # noqa: S314 - our own output
    assert root.get("width") == "100%"
    assert root.get("viewBox", "").startswith(f"0 0 {WIDTH} ")
    texts = _texts(html)
    for label in labels:
        assert label in texts, label
    for total in SHIPPED_UB_TOTALS:  # each shipped total, in KiB
        assert f"{total.total_bytes / 1024:.1f}" in texts
    assert bool(re.search(r"[\u4e00-\u9fff]", "".join(texts))) == (lang == "zh")
    assert "六个实例化的 UB 预算" in render_ub_plan_bars(lang="zh")


def _outlined(html: str) -> int:
    """How many bars are outlined (the chosen instantiation's)."""
    return html.count('fill="none" stroke="#1a1a1a" stroke-width="2.5"')


def _bold_labels(html: str) -> list[str]:
    return re.findall(r'font-weight="700">([^<]*)<', html)


@pytest.mark.parametrize(
    ("options", "bold"),
    [
        ({}, ["prefill", "bf16", "no sink"]),
        ({"mode": Mode.DECODE, "sink": True}, ["decode", "FP8", "sink"]),
        ({"mode": Mode.DECODE, "fp4_extra": True}, ["decode", "FP8+FP4", "no sink"]),
    ],
)
def test_ub_bars_outline_the_chosen_instantiation(options: dict[str, object], bold: list[str]) -> None:
    """The instantiation the options name is outlined once and its label is bold; the bars stay the same six."""
    html = render_ub_plan_bars(lang="en", **options)  # type: ignore[arg-type]
    assert _outlined(html) == 1
    assert _bold_labels(html) == bold


def test_ub_bars_follow_the_tiles() -> None:
    """Another B_TOPK or VECTOR Core count redraws every bar and names the tiles in the title; forbidden ones raise."""
    shipped = render_ub_plan_bars(lang="en")
    wider = render_ub_plan_bars(config=SHIPPED_KERNEL.with_overrides(b_topk=128), lang="en")
    one_core = render_ub_plan_bars(config=SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=1), lang="en")
    assert len({shipped, wider, one_core}) == 3
    assert "B_TOPK 128" in wider
    assert "with H_Q" not in shipped
    assert render_ub_plan_bars(config=SHIPPED_KERNEL.with_overrides(b_topk=64), lang="en") == shipped
    with pytest.raises(ForbiddenDesign, match="index-block-multiple-of-b-topk"):
        render_ub_plan_bars(config=SHIPPED_KERNEL.with_overrides(b_topk=96))
    with pytest.raises(ForbiddenDesign, match="fp4-extra-decode-only"):
        render_ub_plan_bars(fp4_extra=True)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    "options",
    [{}, {"config": SHIPPED_KERNEL.with_overrides(b_topk=128)}, {"config": SHIPPED_KERNEL.with_overrides(b_topk=16)}],
    ids=["shipped", "over-ub", "small"],
)
def test_no_ub_text_overlaps_another_or_leaves_the_figure(options: dict[str, object], lang: str) -> None:
    """Estimated text boxes neither meet nor cross the figure's edge, bars over the UB line included."""
    chart = ub_plan_bars_chart(lang=lang, **options)  # type: ignore[arg-type]
    assert overlapping(chart.drawing.every_text) == []
    assert texts_outside(chart.drawing.every_text, WIDTH, chart.height) == []


def test_ub_legend_names_every_colour() -> None:
    """Every fill of the bars has a legend entry, and every entry's colour is drawn (or is the line's or a symbol's)."""
    chart = ub_plan_bars_chart(lang="en")
    named = set(chart.drawing.legend_colours)
    assert chart.drawing.data_colours == named - {INK, "#d62728"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_ub_plan_text_columns_line_up_in_both_languages(lang: str) -> None:
    """Field lines end their bytes at one display column; the total's bytes start right after the padded names.

    Names are padded by display width, so 合计 (two characters, four columns) lines up as ``total`` does.
    """
    plan = ub_plan(SHIPPED_KERNEL, Mode.DECODE, fp4_extra=True, sink=True)
    text = ub_plan_text(plan, lang=lang)  # type: ignore[arg-type]
    *fields, total = text.splitlines()[1:]
    assert len({display_width(line[: line.index(" B  [")]) for line in fields}) == 1, text
    label = "合计" if lang == "zh" else "total"
    names = max(display_width(name) for name in (label, *(f.name for f in plan.fields)))
    digits = f"{plan.total_bytes:>7}"
    assert total.startswith(label)
    assert display_width(total[: total.index(digits)]) == names + 2, text
