import re

import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.design_point import LIMITS, SHIPPED_DESIGN, evaluate
from ascend_dsa.models.design_sweep import NONE
from ascend_dsa.render import design_figures, design_space
from ascend_dsa.render.design_figures import (
    fitted_index_block_size,
    render_feasibility_map,
    render_mma_fixpipe_figure,
)
from ascend_dsa.render.design_space import (
    render_design_alternatives,
    render_design_limits,
    render_rule_list,
    render_what_if_table,
)
from ascend_dsa.render.format import display_width


def test_limits_table_marks_the_binding_limit() -> None:
    """Seven rows, one per limit; the MTE2 queue is marked as binding; sources are shown, or left out on request."""
    zh = render_design_limits(lang="zh")
    en = render_design_limits(lang="en")
    assert len(re.findall(r"^\| ", en, flags=re.MULTILINE)) == 9  # header, rule, 7 limits
    assert "**MTE2 queue (requests per block per core)** ◀" in en
    assert en.startswith("| limit | verdict | use |")  # the conclusion before the numbers
    assert "MTE2 队列" in zh
    assert "259,600" in en
    assert "config.h:77-125" in en
    assert "config.h:77-125" not in render_design_limits(lang="en", with_sources=False)


def test_alternatives_name_forbidden_points() -> None:
    """B_TOPK 96 with 640 shows the rule it breaks instead of limits."""
    text = render_design_alternatives(lang="en")
    assert "forbidden (`index-block-multiple-of-b-topk`)" in text
    assert "all fit" in text


def test_fitted_index_block_size() -> None:
    """The smallest allowed INDEX_BLOCK_SIZE of at least 640: 640 for 64, 768 for 96, 896 for 112."""
    assert fitted_index_block_size(64) == 640
    assert fitted_index_block_size(96) == 768
    assert fitted_index_block_size(112) == 896


@pytest.mark.parametrize(
    "render",
    [render_feasibility_map, render_mma_fixpipe_figure],
)
def test_figures_are_deterministic_and_localised(render: object) -> None:
    """Each figure is the same SVG twice, starts at <svg, has no metadata, and its labels follow the language."""
    first, second = render(lang="zh"), render(lang="zh")  # type: ignore[operator]
    assert first == second
    assert first.startswith('<div class="ascend-figure" tabindex="0"><svg')
    assert "<metadata>" not in first
    english = render(lang="en")  # type: ignore[operator]
    assert english != first
    assert re.search(r"[\u4e00-\u9fff]", first)
    assert not re.search(r"[\u4e00-\u9fff]", english)


def test_fixpipe_figure_is_guarded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The FixPipe figure checks B_TOPK > 73.14 against report (zh) line 142."""
    monkeypatch.setattr(design_figures, "check_fixpipe_break_even", _raise)
    with pytest.raises(FigureMismatch, match=r"^perturbed 73\.1"):  # the break-even B_TOPK, 512/7
        render_mma_fixpipe_figure()


def _raise(value: float) -> None:
    raise FigureMismatch(f"perturbed {value}")


def test_rule_list_and_what_if_table() -> None:
    """The rules table names every tile rule; the what-if table shows the fewest compute-bound heads."""
    assert render_rule_list(lang="en").count("`") == 8
    table = render_what_if_table([("base", ASCEND_950, design_space.SHIPPED_DESIGN)], lang="en")
    assert "| base | MTE2 queue | 100% | all fit | 64 |" in table


def test_rule_list_speaks_the_page_language() -> None:
    """The Chinese rule list states each rule in Chinese; the English keeps the rules' own statements."""
    zh, en = render_rule_list(lang="zh"), render_rule_list(lang="en")
    assert "must be" not in zh
    assert "必须是" in zh
    assert "must be a multiple of B_TOPK" in en


def test_feasibility_legend_lists_only_colours_a_panel_uses() -> None:
    """No legend entry for a limit that binds nowhere; every limit that binds somewhere has its entry."""
    used = set()
    for vector_cores, fitted in ((2, False), (2, True), (1, True)):
        binding, _ = design_figures.feasibility_map(ASCEND_950, vector_cores, fitted_index_block=fitted)
        used |= {int(code) for code in set(binding.flatten()) if code != NONE}
    svg = render_feasibility_map(lang="en")
    for code, limit in enumerate(LIMITS):
        assert (f">{design_space.limit_name(limit, 'en', short=True)}<" in svg) == (code in used), limit


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_design_limits_text_lines_up_by_display_width(lang: str) -> None:
    """In both languages every limit line puts its " / " at the same display column (CJK counted two wide)."""
    text = design_space.design_limits_text(evaluate(SHIPPED_DESIGN, ASCEND_950), lang)  # type: ignore[arg-type]
    rows = [line for line in text.splitlines() if " / " in line and not line.startswith("#")]
    assert len(rows) == len(LIMITS)
    assert len({display_width(line[: line.index(" / ")]) for line in rows}) == 1, text
