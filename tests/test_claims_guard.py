"""Each published figure, perturbed in a copy of the project, makes the strict build fail naming its claim."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.claims import CLAIMS, RuleKind
from ascend_dsa.report_figures import (
    HEAD_ROOFLINE_PUBLISHED_TEXT,
    PUBLISHED_FIGURES,
    FigureValue,
    head_roofline_figures,
    published_head_roofline,
)
from tests.conftest import build_site
from tests.test_site import copy_project, perturb

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.build

FIGURES_FILE = "src/ascend_dsa/report_figures.py"
ROOFLINE_KEYS = [f.key for f in head_roofline_figures()]
ALL_KEYS = [f.key for f in PUBLISHED_FIGURES] + ROOFLINE_KEYS


def claims_using(key: str) -> list[str]:
    """Ids of the claims that compare, or take as input, the figure ``key``."""
    return [c.claim_id for c in CLAIMS if key == c.claim_id or key in c.inputs]


def perturbed(value: FigureValue, *, shrink: bool) -> FigureValue:
    """The value with its first number moved far enough to break any rule: doubled plus one, or halved for bounds."""
    if isinstance(value, tuple):
        return (perturbed(value[0], shrink=shrink), *value[1:])
    if shrink:
        return type(value)(value // 2 - 1)
    return type(value)(2 * value + 1)


def perturb_published_figure(project: Path, key: str) -> None:
    """Rewrite the ``value=`` literal of the PublishedFigure named ``key`` in the copy's report_figures.py."""
    path = project / FIGURES_FILE
    source = path.read_text(encoding="utf-8")
    figure = next(f for f in PUBLISHED_FIGURES if f.key == key)
    shrink = any(c.rule.kind is RuleKind.AT_MOST for c in CLAIMS if c.claim_id == key)
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        key_node = keywords.get("key")
        if isinstance(key_node, ast.Constant) and key_node.value == key:
            value_node = keywords["value"]
            break
    else:
        pytest.fail(f"no PublishedFigure(key={key!r}, ...) in {FIGURES_FILE}")
    lines = source.splitlines(keepends=True)
    start = sum(len(x) for x in lines[: value_node.lineno - 1]) + value_node.col_offset
    end = sum(len(x) for x in lines[: (value_node.end_lineno or 0) - 1]) + (value_node.end_col_offset or 0)
    assert ast.literal_eval(source[start:end]) == figure.value
    path.write_text(source[:start] + repr(perturbed(figure.value, shrink=shrink)) + source[end:], encoding="utf-8")


def perturb_roofline_row(project: Path, key: str) -> None:
    """Change the L2 cycles printed in one head-roofline row of the copy."""
    index = ROOFLINE_KEYS.index(key)
    row, text = published_head_roofline()[index], HEAD_ROOFLINE_PUBLISHED_TEXT[index]
    new = text.replace(f"mem_cycles={row.mem_cycles:6d}", f"mem_cycles={2 * row.mem_cycles + 1:6d}")
    assert new != text
    perturb(project / FIGURES_FILE, f'"{text}"', f'"{new}"')


def english_off(project: Path) -> None:
    """Build only the Chinese site and skip the notebook's execution in the copy.

    Every markdown-exec block still runs once, which is all the guard needs: the published figures are checked
    by the blocks in the chapters, not by the notebook.
    """
    perturb(
        project / "mkdocs.yml",
        "          name: English\n          build: true",
        "          name: English\n          build: false",
    )
    perturb(project / "mkdocs.yml", "      execute: true\n", "      execute: false\n")


@pytest.mark.parametrize("key", ALL_KEYS)
def test_perturbed_figure_breaks_strict_build(project_root: Path, tmp_path: Path, key: str) -> None:
    """Perturb one published figure: the strict build fails with FigureMismatch naming a claim that uses it."""
    project = copy_project(project_root, tmp_path / "project")
    if key in ROOFLINE_KEYS:
        perturb_roofline_row(project, key)
    else:
        perturb_published_figure(project, key)
    english_off(project)
    result = build_site(project, tmp_path / "site")
    assert result.returncode != 0
    assert "FigureMismatch" in result.output
    assert any(f"claim {claim_id} (report (zh) line" in result.output for claim_id in claims_using(key)), key


def test_unperturbed_chinese_copy_builds(project_root: Path, tmp_path: Path) -> None:
    """The Chinese-only copy builds cleanly, so the failures above come from the perturbation alone."""
    project = copy_project(project_root, tmp_path / "project")
    english_off(project)
    result = build_site(project, tmp_path / "site")
    assert result.returncode == 0, result.output[-3000:]
