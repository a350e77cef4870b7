"""The "Run live" forms: one input per option of the command, named as the command line names it."""

from __future__ import annotations

import argparse
import re

import pytest

from ascend_dsa.cli import build_parser, run_captured
from ascend_dsa.lang import Lang, term
from ascend_dsa.models.roofline import Verdict
from ascend_dsa.render.live import (
    LIVE_FIGURES,
    LIVE_FORMS,
    OMITTED_OPTIONS,
    LiveInput,
    live_figure,
    render_live_form,
)
from ascend_dsa.render.trace_compare import MAX_TRACE_BYTES
from tests.helpers.cli import form_defaults, run_cli


def subcommand_options(command: str) -> dict[str, argparse.Action]:
    """The options of ``ascend-dsa COMMAND`` by name without dashes (``--help`` aside: argparse's, not ours)."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    sub = subparsers.choices[command]
    return {
        option.removeprefix("--"): action
        for action in sub._actions  # noqa: SLF001
        for option in action.option_strings
        if option.startswith("--") and not isinstance(action, argparse._HelpAction)  # noqa: SLF001
    }


@pytest.mark.parametrize("command", list(LIVE_FORMS))
def test_every_input_is_an_option_of_the_command_with_its_choices(command: str) -> None:
    """Each input names an option of the command, in --help order; a choice offers its choices; a flag is a flag."""
    options = subcommand_options(command)
    order = [list(options).index(item.option) for item in LIVE_FORMS[command]]
    assert order == sorted(order)
    for item in LIVE_FORMS[command]:
        action = options[item.option]
        if item.choices:
            assert [c for c in item.choices if c] == [str(c) for c in action.choices or ()], item.option
        assert item.flag is (action.nargs == 0), item.option


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("command", list(LIVE_FORMS))
def test_every_option_of_the_command_is_an_input_or_omitted_with_a_reason(command: str, lang: str) -> None:
    """The other way round: no option of the command is silently missing from its form (issue 31).

    Each option is an input of the rendered form (``--lang`` a hidden one, given as the page's), or is listed in
    ``OMITTED_OPTIONS`` with its reason; an omission names a real option that has no input.
    """
    names = set(re.findall(r'name="([a-z0-9-]+)"', render_live_form(command, lang=lang)))  # type: ignore[arg-type]
    omitted = OMITTED_OPTIONS.get(command, {})
    options = set(subcommand_options(command))
    assert sorted(options - names - set(omitted)) == []
    assert sorted(set(omitted) - options) == []
    assert sorted(set(omitted) & names) == []
    assert all(reason.strip() for reason in omitted.values())
    assert set(OMITTED_OPTIONS) <= set(LIVE_FORMS)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("command", list(LIVE_FORMS))
def test_form_has_the_test_hooks_the_issue_names(command: str, lang: str) -> None:
    """``data-live``, one ``name`` per input, an output element, a button and a hidden fieldset, in both languages."""
    html = render_live_form(command, lang=lang)  # type: ignore[arg-type]
    assert html.startswith(f'<form class="live-form" id="live-{command}" data-live="{command}" ')
    assert "data-live-output" in html
    assert "<fieldset hidden>" in html
    names = re.findall(r'name="([a-z0-9-]+)"', html)
    assert names == ["lang", *(i.option for i in LIVE_FORMS[command])]
    assert ("在浏览器里运行" in html) is (lang == "zh")
    assert ("Run live" in html) is (lang == "en")


def test_claims_form_asks_for_the_pages_language() -> None:
    """The claims form gives ``--lang`` as the page's language, hidden."""
    assert '<input type="hidden" name="lang" value="zh">' in render_live_form("claims", lang="zh")


def test_unknown_command_and_bad_inputs_are_refused() -> None:
    """A command without a form, an option with dashes and a start value outside the choices are one-line errors."""
    with pytest.raises(
        ValueError, match="command must be one of head-roofline, ub-plan, pipeline, claims, design-point, got "
    ):
        render_live_form("forward")
    with pytest.raises(ValueError, match="without leading dashes"):
        LiveInput("--heads")
    with pytest.raises(ValueError, match="value must be one of"):
        LiveInput("mode", value="train", choices=("prefill", "decode"))


@pytest.mark.parametrize("command", sorted(LIVE_FIGURES))
def test_a_command_that_redraws_a_figure_prints_only_its_svg(command: str) -> None:
    """The contract of LIVE_FIGURES: the form's command with ``--svg -`` prints one SVG element and a newline."""
    assert command in LIVE_FORMS
    assert "data-live-draws" in render_live_form(command, lang="en")
    status, out, err = run_cli([command, *form_defaults(command), "--svg", "-"])
    assert (status, err) == (0, "")
    assert out.startswith("<svg ")
    assert out.endswith("</svg>\n")
    assert out.count("\n") == 1


def test_only_the_forms_of_live_figures_redraw() -> None:
    """A form whose command draws no figure has no ``data-live-draws``."""
    for command in set(LIVE_FORMS) - LIVE_FIGURES:
        assert "data-live-draws" not in render_live_form(command, lang="zh")


def test_a_live_figure_holds_the_svg_in_its_container() -> None:
    """live_figure puts the SVG in the container live.js fills, the caption after it; other commands are refused."""
    html = live_figure("pipeline", "<svg></svg>", caption="a caption")
    assert '<div class="live-figure" data-live-figure="pipeline"><svg></svg></div>' in html
    assert html.endswith('<div class="ascend-caption">a caption</div></div>')
    with pytest.raises(ValueError, match="command must be one of head-roofline, pipeline, ub-plan, got 'claims'"):
        live_figure("claims", "<svg></svg>", caption="a caption")
    with pytest.raises(ValueError, match="svg must be an <svg> element"):
        live_figure("pipeline", "<div></div>", caption="a caption")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_file_input_says_where_the_file_goes(lang: str) -> None:
    """The pipeline form's --compare is a file input with its byte limit and, in the page's language, its note."""
    html = render_live_form("pipeline", lang=lang)  # type: ignore[arg-type]
    match = re.search(r'<input type="file" name="compare" data-live-max-bytes="(\d+)">', html)
    assert match is not None
    assert int(match.group(1)) == MAX_TRACE_BYTES + 1
    assert ("不发送到任何地方" in html) is (lang == "zh")
    assert ("sent nowhere" in html) is (lang == "en")
    with pytest.raises(ValueError, match="a file input takes a positive byte limit and nothing else"):
        LiveInput("compare", value="t.json", file_max_bytes=1)


#: A word of each form's verdict in Chinese: what its output must say on a Chinese page.
_ZH_VERDICT: dict[str, tuple[str, ...]] = {
    "head-roofline": tuple(term(f"verdict:{v.value}", "zh") for v in Verdict),
    "ub-plan": ("放得下", "放不下"),
    "claims": (term("status:agrees", "zh"), term("status:differs", "zh")),
    "design-point": ("满足", "超出"),
    "pipeline": ("决定周期的单元",),
}
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


def form_argv(command: str, lang: Lang) -> list[str]:
    """What a form submits with its start values, as live.js does: ``--lang`` hidden, then each given option."""
    return [command, "--lang", lang, *form_defaults(command)]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("command", list(LIVE_FORMS))
def test_each_form_prints_in_its_pages_language(command: str, lang: Lang) -> None:
    """A form's run on a Chinese page says its verdict in Chinese; on an English page it prints no CJK.

    Outside quotations: the claims quote the Chinese report as written, in backticks (written `64 或 96`).
    """
    assert f'<input type="hidden" name="lang" value="{lang}">' in render_live_form(command, lang=lang)
    status, out, err = run_captured(form_argv(command, lang))
    assert status in (0, 1), err
    if lang == "en":
        unquoted = re.sub(r"`[^`\n]*`", "", out + err)
        assert not _CJK.search(unquoted), _CJK.findall(unquoted)[:10]
    else:
        assert any(word in out for word in _ZH_VERDICT[command]), out[:400]
