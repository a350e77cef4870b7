import re

import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.code_figures import SHIPPED_UB_TOTALS
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.models.memory_plans import ub_plan
from ascend_dsa.render import memory_plan
from ascend_dsa.render.memory_plan import (
    render_l1_bank_figure,
    render_l1_bank_table,
    render_ub_plan_bars,
    render_ub_plan_table,
    ub_plan_text,
)


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
    assert "259600 B of 262144 B" in text
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
