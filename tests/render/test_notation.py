"""One notation (issue 27 item 5): every figure, legend and table header names P and S as the glossary does.

The texts are read from the package's own label data, not scraped from pages: each matplotlib figure is caught just
before export (by wrapping `enlarge_small_text`, the first thing `to_svg` does with it) and its texts read from the
artists; the AI Core figure's texts are [`ai_core_labels`][]; tables give their header row.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import pytest
from matplotlib.text import Text as MplText

from ascend_dsa.facts.glossary import GLOSSARY_TERMS, NOTATION, notation_symbol
from ascend_dsa.render import svg
from ascend_dsa.render.accumulator import render_l0c_budget
from ascend_dsa.render.ai_core import ai_core_labels
from ascend_dsa.render.design_figures import render_feasibility_map, render_mma_fixpipe_figure
from ascend_dsa.render.glossary import render_glossary
from ascend_dsa.render.memory_plan import render_l1_bank_figure, render_ub_plan_bars
from ascend_dsa.render.pipeline import render_pipeline_gantt
from ascend_dsa.render.pipeline_timeline import render_pipeline_timeline
from ascend_dsa.render.roofline import render_roofline_figure
from ascend_dsa.render.skip_scale import render_rescale_plot
from ascend_dsa.render.two_chips import render_two_chips_roofline_figure
from tests.helpers.drawings import drawn_figures

if TYPE_CHECKING:
    from collections.abc import Callable

    from ascend_dsa.lang import Lang

FIGURES: tuple[Callable[..., str], ...] = (
    render_feasibility_map, render_l1_bank_figure, render_mma_fixpipe_figure, render_pipeline_gantt,
    render_rescale_plot, render_two_chips_roofline_figure,
)  # fmt: skip

#: Figures the package draws as SVG with the standard library: their texts are the SVG's ``<text>`` elements.
STDLIB_FIGURES: tuple[Callable[..., str], ...] = (render_roofline_figure, render_ub_plan_bars, render_pipeline_timeline)
#: Tables whose header names P or S.
TABLES: tuple[Callable[..., str], ...] = (render_l0c_budget,)

#: A letter of the notation named in brackets ("S (scores)", "P（fp32）"), or defined by a formula ("S = ...").
_NAMED = re.compile(r"(?<![\w.])([PS])\s?[（(]([^()（）]*)[)）]")
_DEFINED = re.compile(r"(?<![\w.])([PS]) = ([^·,，；;]*)")
#: What a bracket after a letter may hold besides its name: its number format.
_FORMATS = frozenset({"fp32", "bf16", "fp16", "fp8"})


def notation_problems(text: str, lang: Lang) -> list[str]:
    """Where ``text`` names P or S otherwise than the notation's legend: a wrong word in brackets, a wrong formula."""
    problems = []
    for symbol, inside in _NAMED.findall(text):
        legend = notation_symbol(symbol).legend.in_(lang)
        if inside not in _FORMATS and legend not in (f"{symbol}（{inside}）", f"{symbol} ({inside})"):
            problems.append(f"{symbol} named {inside!r} in {text!r}, the notation says {legend!r}")
    for symbol, formula in _DEFINED.findall(text):
        entry = notation_symbol(symbol)
        defined = entry.definition.in_(lang) + entry.legend.in_(lang)
        if f"{symbol} = {formula.split('(')[0].strip()}" not in defined:
            problems.append(f"{symbol} defined as {formula!r} in {text!r}, the notation says {defined!r}")
    return problems


def _figure_texts(render: Callable[..., str], lang: Lang, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    figures = drawn_figures(render, lang, monkeypatch)
    return [text.get_text() for fig in figures for text in fig.findobj(MplText) if text.get_text()]


def test_the_glossary_defines_every_letter_once() -> None:
    """P and S have one entry each, their legend starts with the letter, and the glossary page lists them."""
    assert [entry.symbol for entry in NOTATION] == ["P", "S"]
    for lang in ("zh", "en"):
        page = render_glossary(lang=lang)
        assert all(entry.definition.in_(lang) in page for entry in NOTATION)
    with pytest.raises(KeyError, match="'X' is not in the notation; letters: P, S"):
        notation_symbol("X")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("S (scores)", ["S named 'scores'"]),
        ("S（打分）", ["S named '打分'"]),
        ("P (scores)", []),
        ("P (fp32): 16 KiB", []),
        ("S = softmax(P)", []),
        ("S = Q Kᵀ", ["S defined as 'Q Kᵀ'"]),
        ("QK: P = Q Kᵀ · SV: O += S V", []),
        ("TPS (tokens)", []),
    ],
)
def test_the_check_sees_a_wrong_name(text: str, found: list[str]) -> None:
    """The check flags a letter named or defined otherwise than the notation, and nothing else."""
    lang: Lang = "zh" if any(ord(ch) > 0x2E7F for ch in text) else "en"
    problems = notation_problems(text, lang)
    assert len(problems) == len(found)
    assert all(problem.startswith(prefix) for problem, prefix in zip(problems, found, strict=True))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_figures_tables_and_glossary_use_one_notation(lang: Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text of every figure, every header of the tables that name P or S, and every glossary definition."""
    texts = [label.text for label in ai_core_labels(lang=lang)]
    for render in FIGURES:
        texts += _figure_texts(render, lang, monkeypatch)
    for render in STDLIB_FIGURES:
        root = ET.fromstring(svg.svg_element(render(lang=lang)))  # noqa: S314 - our own output
        texts += ["".join(element.itertext()) for element in root.iter("{http://www.w3.org/2000/svg}text")]
    for table in TABLES:
        texts += [line for line in table(lang=lang).splitlines() if line.startswith("|")][:1]
    texts += [entry.text(lang) for entry in GLOSSARY_TERMS]
    assert any("S = softmax(P)" in text for text in texts)  # the l1-banks legend
    assert [problem for text in texts for problem in notation_problems(text, lang)] == []
