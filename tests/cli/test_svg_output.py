"""``--svg FILE``: the page's figure for the command's options, byte for byte, the contract a live form relies on.

For each command a page draws a figure for, ``<command> <form options> --svg -`` prints exactly the ``<svg>``
element the page's renderer returns for the same values; with the form's default values that is the page's own
figure, called as the page calls it.
"""

from __future__ import annotations

import contextlib
import io
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import pytest

from ascend_dsa import cli
from ascend_dsa.cli import head_roofline, ub_plan
from ascend_dsa.cli.svg_output import write_svg
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.render.memory_plan import render_ub_plan_bars
from ascend_dsa.render.roofline import render_roofline_figure
from ascend_dsa.render.svg import svg_element
from tests.helpers.cli import form_defaults, run_cli

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ascend_dsa.lang import Lang

#: The page's figure of each command, called exactly as its page calls it (docs/discussion/heads-per-core*.md and
#: docs/design/index*.md).
PAGE_FIGURES: dict[str, Callable[[Lang], str]] = {
    head_roofline.NAME: lambda lang: render_roofline_figure(lang=lang),
    ub_plan.NAME: lambda lang: render_ub_plan_bars(lang=lang),
}


def svg_of(command: str, argv: list[str], lang: Lang) -> tuple[int, str, str]:
    """Status, stdout and stderr of ``command argv --svg -`` in ``lang`` (the command's --lang, where it has one)."""
    args = cli.build_parser().parse_args([command, *argv, "--svg", "-"])
    args.lang = lang
    module = {m.NAME: m for m in cli.SUBCOMMANDS}[command]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = module.run(args)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("command", sorted(PAGE_FIGURES))
def test_svg_on_stdout_is_the_pages_figure_with_the_forms_defaults(command: str) -> None:
    """``--svg -`` with the form's default options prints only the page's own figure (English, as the command)."""
    status, out, err = run_cli([command, *form_defaults(command), "--svg", "-"])
    assert (status, err) == (0, "")
    assert out == svg_element(PAGE_FIGURES[command]("en")) + "\n"


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("command", sorted(PAGE_FIGURES))
def test_the_figure_speaks_the_pages_language(command: str, lang: Lang) -> None:
    """In either language the command's figure is the page's (the Chinese page's with --lang zh)."""
    status, out, _ = svg_of(command, form_defaults(command), lang)
    assert status == 0
    assert out == svg_element(PAGE_FIGURES[command](lang)) + "\n"


def test_head_roofline_svg_follows_the_options() -> None:
    """Changed heads, topk and bandwidth give the renderer's figure for those values, not checked against the report."""
    argv = ["--heads", "16,64", "--topk", "512,2048", "--l2-bandwidth", "4e12", "--svg", "-"]
    status, out, _ = run_cli(["head-roofline", *argv])
    assert status == 0
    spec = ASCEND_950.with_overrides(bandwidth_bytes_per_s=4e12)
    expected = render_roofline_figure(spec, (512, 2048), heads=(16, 64), lang="en", check=False)
    assert out == svg_element(expected) + "\n"
    assert out != svg_element(render_roofline_figure(lang="en")) + "\n"


def test_ub_plan_svg_follows_the_options() -> None:
    """Mode, sink, B_TOPK and VECTOR Cores reach the figure; a plan over UB still draws, and still exits 1."""
    status, out, _ = run_cli(["ub-plan", "--mode", "decode", "--sink", "--b-topk", "128", "--svg", "-"])
    assert status == 1
    expected = render_ub_plan_bars(
        config=SHIPPED_KERNEL.with_overrides(b_topk=128), mode=Mode.DECODE, sink=True, lang="en"
    )
    assert out == svg_element(expected) + "\n"


@pytest.mark.parametrize("command", sorted(PAGE_FIGURES))
def test_svg_to_a_file_keeps_the_text_output(command: str, tmp_path: Path) -> None:
    """``--svg FILE`` writes the SVG (well-formed XML) and the command prints its text as without it."""
    path = tmp_path / "figure.svg"
    status, out, err = run_cli([command, *form_defaults(command), "--svg", str(path)])
    assert (status, err) == (0, "")
    assert out == run_cli([command, *form_defaults(command)])[1]
    assert path.read_text(encoding="utf-8") == svg_element(PAGE_FIGURES[command]("en")) + "\n"
    ET.fromstring(path.read_text(encoding="utf-8"))  # noqa: S314 - our own output


@pytest.mark.parametrize("command", sorted(PAGE_FIGURES))
@pytest.mark.parametrize("target", ["missing-dir/figure.svg", "."])
def test_an_unwritable_svg_file_is_bad_usage_in_one_line(command: str, target: str, tmp_path: Path) -> None:
    """A file in a missing directory, or a directory, ends with status 2, one line naming it, and nothing printed."""
    path = tmp_path / target
    status, out, err = run_cli([command, *form_defaults(command), "--svg", str(path)])
    assert (status, out) == (2, "")
    assert err.startswith(f"ascend-dsa {command}: error: --svg {path}: cannot write it (")
    assert err.count("\n") == 1


def test_write_svg_refuses_a_nul_in_the_path(capsys: pytest.CaptureFixture[str]) -> None:
    """A path Python cannot open (a NUL in it) is bad usage in one line too, not an output failure."""
    assert write_svg("a\0b.svg", render_ub_plan_bars(lang="en"), "ub-plan") == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_head_roofline_svg_refuses_more_topk_than_colours() -> None:
    """More topk values than the figure has colours for is bad usage, said in one line, with nothing printed."""
    status, out, err = run_cli(["head-roofline", "--topk", "1,2,3,4,5", "--svg", "-"])
    assert (status, out) == (2, "")
    assert "--svg draws at most 4 topk values" in err
    assert err.count("\n") == 1


def test_svg_on_stdout_keeps_the_findings_status() -> None:
    """With --svg - the statuses are the command's: a forbidden plan 2 (no SVG), a report mismatch 1 (stderr only)."""
    status, out, _ = run_cli(["ub-plan", "--mode", "prefill", "--b-topk", "96", "--svg", "-"])
    assert (status, out) == (2, "")
    status, out, err = run_cli(["head-roofline", "--cores", "31", "--assert-report", "--svg", "-"])
    assert status == 1
    assert out.startswith("<svg")
    assert out.count("\n") == 1
    assert "MISMATCH" in err
    status, out, _ = run_cli(["head-roofline", "--assert-report", "--svg", "-"])
    assert status == 0
    assert "OK" not in out
