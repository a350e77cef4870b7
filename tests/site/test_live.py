"""The live what-ifs in Chromium: each form prints what ``ascend-dsa`` prints for the same options, from localhost only.

Every test opens a page, clicks "Run live", sets inputs as a reader would and compares the form's output (and its
error line) with the command line's, run here with the working tree's source. The
``traffic`` fixture fails a test whose page asked any host but 127.0.0.1 for anything, or logged an error.
"""

from __future__ import annotations

import subprocess
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.lang import has_chinese
from tests.helpers.browser import PHONE, Traffic, open_page
from tests.helpers.cli import run_cli

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Locator, Page

pytestmark = pytest.mark.browser

#: Longest wait for the runtime to load and the package to import (cold, on a loaded 2-core machine).
LOAD_TIMEOUT_MS = 90_000

#: A value per input name: text for boxes and choices, True/False for check boxes.
Inputs = dict[str, "str | bool"]


def cli(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``ascend-dsa ARGV``'s status and output, run in this process as the program's ``main`` (tests/helpers/cli.py).

    The program as a process of its own (exit statuses, streams, signals) is tests/cli/'s subject; here only its
    output is compared, so a subprocess per comparison (about thirty of them) would buy nothing.
    """
    status, out, err = run_cli(argv)
    return subprocess.CompletedProcess(argv, status, out, err)


def start(page: Page, site_url: str, path: str, command: str) -> Locator:
    """Open ``path``, check nothing live was fetched yet, click the form's button and wait until it is ready."""
    open_page(page, site_url, path)
    form = page.locator(f'form[data-live="{command}"]')
    assert form.count() == 1
    assert form.locator("fieldset").is_hidden()
    assert form.locator("[data-live-output]").is_hidden()
    before = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert [url for url in before if "live" in url or "pyodide" in url] == []
    form.locator("[data-live-start]").click()
    page.wait_for_function(
        f"document.querySelector('form[data-live=\"{command}\"]').dataset.liveState === 'ready'",
        timeout=LOAD_TIMEOUT_MS,
    )
    assert form.locator("fieldset").is_visible()
    assert form.locator("progress").is_hidden()
    return form


def set_inputs(form: Locator, inputs: Inputs) -> None:
    """Type, choose and tick as a reader would; each change re-runs the command in the page."""
    for name, value in inputs.items():
        field = form.locator(f'[name="{name}"]')
        kind = field.evaluate("e => e.tagName === 'SELECT' ? 'select' : e.type")
        if kind == "checkbox":
            field.set_checked(bool(value))
        elif kind == "select":
            field.select_option(str(value))
        else:
            field.fill(str(value))


def argv_of(form: Locator, command: str) -> list[str]:
    """The command line the form's inputs stand for, read from what the reader sees (empty: the preset)."""
    argv = [command]
    for field in form.locator("[name]").all():
        name = field.get_attribute("name")
        kind = field.evaluate("e => e.type")
        if kind == "file":  # the path live.js wrote the reader's file to, once it has one
            path = field.get_attribute("data-live-path")
            argv += [f"--{name}", path] if path else []
        elif kind == "checkbox":
            argv += [f"--{name}"] if field.is_checked() else []
        elif (value := field.input_value().strip()) != "":
            argv += [f"--{name}", value]
    return argv


def assert_same_as_cli(form: Locator, command: str) -> subprocess.CompletedProcess[str]:
    """The output element's text is the command's stdout, and the error line its stderr, character for character."""
    result = cli(argv_of(form, command))
    error = form.locator("[data-live-error]")
    assert form.get_attribute("data-live-exit") == str(result.returncode)
    if result.stdout:
        assert form.locator("[data-live-output]").text_content() == result.stdout
    assert (error.text_content() or "") == result.stderr.rstrip()
    assert error.is_visible() is bool(result.stderr)
    return result


#: A form's case: three or four input combinations, an input the command rejects, the option its error names (None:
#: the error is not about one option, and sits beside the form's first input) and a fix, by command. head-roofline's
#: error names its options without argparse's "argument --" ("--heads 16,32,64,128, ..., --l2-bandwidth 1e+17, ...:
#: a figure would be infinite or zero"): it sits beside the first.
Case = tuple[list[Inputs], Inputs, "str | None", Inputs]
CASES: dict[str, Case] = {
    "head-roofline": (
        [
            {},
            {"heads": "16,48,96", "topk": "2048"},
            {"l2-bandwidth": "2.5e12", "cores": "24", "clock": "1.8e9"},
            {"l2-bandwidth": "", "cores": "", "clock": "", "chip": "h800", "kv-token-bytes": "656"},
        ],
        {"chip": "ascend-950", "kv-token-bytes": "", "l2-bandwidth": "1e17", "cores": "1", "clock": "1e8"},
        "heads",
        {"l2-bandwidth": "", "cores": "", "clock": ""},
    ),
    "ub-plan": (
        [{}, {"mode": "decode", "fp4-extra": True, "sink": True}, {"b-topk": "128"}],
        {"mode": "prefill", "fp4-extra": False, "sink": False, "b-topk": "96"},
        None,
        {"b-topk": "64"},
    ),
    "design-point": (
        [{}, {"heads": "128"}, {"vector-cores": "1", "kv-cache": "fp8", "l2-bandwidth": "2.5e12"}],
        {"heads": "64", "vector-cores": "2", "kv-cache": "bf16", "cores": "-3"},
        "cores",
        {"cores": "", "l2-bandwidth": ""},
    ),
    "claims": (
        [{}, {"chapter": "discussion/one-vector-core", "fixpipe-rate": "256"}, {"chapter": "", "b-topk": "96"}],
        {"fixpipe-rate": "", "b-topk": "", "clock": "fast"},
        "clock",
        {"clock": ""},
    ),
}


def exercise(form: Locator, command: str) -> str:
    """Run ``command``'s case: each combination equals the command's output; the rejected one shows its one-line
    error (next to the input it names) and the form goes on after the fix. Returns that error line."""
    combinations, rejected, named, fix = CASES[command]
    for inputs in combinations:
        set_inputs(form, inputs)
        assert_same_as_cli(form, command)
    set_inputs(form, rejected)
    result = assert_same_as_cli(form, command)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    error = form.locator("[data-live-error]")
    first = form.locator("fieldset label [name]").first.get_attribute("name")
    # the line sits right after the input it names, or after the form's first input, never below the whole form
    beside = error.evaluate(
        "e => [e.previousElementSibling.tagName, e.previousElementSibling.querySelector('[name]').name]"
    )
    assert beside == ["LABEL", named or first]
    shown = error.text_content() or ""
    set_inputs(form, fix)  # the page keeps working after the error
    assert assert_same_as_cli(form, command).returncode == 0
    assert error.is_hidden()
    return shown


@pytest.mark.parametrize(
    ("path", "command"), [("discussion/heads-per-core/", "head-roofline"), ("en/reference/claims/", "claims")]
)
def test_live_form_prints_what_the_command_prints(
    page: Page,
    site_url: str,
    traffic: Traffic,
    path: str,
    command: str,
) -> None:
    """Three combinations equal the command's output; a rejected one shows its one-line error, in the page's language
    (Chinese on a Chinese page, English on an English one), and the form goes on."""
    error = exercise(start(page, site_url, path, command), command)
    assert has_chinese(error) is not path.startswith("en/"), error
    assert traffic.external() == []


@pytest.mark.usefixtures("traffic")
def test_the_what_if_notebook_page_runs_its_form_live_on_a_phone_in_dark_mode(page: Page, site_url: str) -> None:
    """The notebook page's form (a cell's HTML output) runs too, Chinese, phone-wide and dark, without overflowing."""
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme="dark")
    form = start(page, site_url, "design/what-if/", "design-point")
    set_inputs(form, {"heads": "32", "sink": True})
    assert_same_as_cli(form, "design-point")
    assert form.locator("[data-live-output]").text_content().startswith("# 设计点")  # type: ignore[union-attr]
    # The output scrolls inside its box; the page itself does not become wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = form.bounding_box()
    assert box is not None
    assert box["width"] <= PHONE["width"]
    # The cells that hide their code (form, questions, exercises) read as the page's own: no "Out[n]:" beside them.
    assert page.locator(".celltag_remove-input").count() >= 3
    assert page.locator(".celltag_remove-input .jp-OutputPrompt:visible").count() == 0


def test_a_missing_runtime_says_so_and_the_tables_stay(page: Page, site_url: str) -> None:
    """With the runtime's files missing (404), the form says it cannot run live; the build's tables are untouched."""
    page.route("**/assets/vendor/pyodide/**", lambda route: route.fulfill(status=404, body="missing"))
    open_page(page, site_url, "en/discussion/heads-per-core/")
    tables = page.locator("article table").count()
    form = page.locator('form[data-live="head-roofline"]')
    form.locator("[data-live-start]").click()
    status = form.locator("[data-live-status]")
    page.wait_for_function(
        "document.querySelector('form[data-live]').dataset.liveFailure !== undefined", timeout=LOAD_TIMEOUT_MS
    )
    assert status.inner_text().startswith("Cannot run live; the tables above are the build's:")
    assert form.locator("fieldset").is_hidden()
    assert form.locator("[data-live-start]").is_enabled()
    assert page.locator("article table").count() == tables


def test_two_forms_of_a_page_share_one_runtime(page: Page, site_url: str, traffic: Traffic) -> None:
    """Both forms of the design page, clicked one after the other, run on one runtime: its files load once.

    Each form then runs its whole case (`exercise`), as the forms of the other pages do.
    """
    open_page(page, site_url, "en/design/")
    for command in ("ub-plan", "design-point"):
        page.locator(f'form[data-live="{command}"] [data-live-start]').click()
    for command in ("ub-plan", "design-point"):
        page.wait_for_function(
            f"document.querySelector('form[data-live=\"{command}\"]').dataset.liveState === 'ready'",
            timeout=LOAD_TIMEOUT_MS,
        )
        exercise(page.locator(f'form[data-live="{command}"]'), command)
    fetched = [url for url in traffic.requests if url.endswith(("pyodide.asm.wasm", "ascend_dsa.zip"))]
    assert len(fetched) == 2, fetched
    assert traffic.external() == []


#: The figure the pipeline form redraws, and whether it shows the SVG given (parsed as XML, compared node by node;
#: the site marks a built figure ``data-search-exclude``, which is not the figure's).
FIGURE = '[data-live-figure="pipeline"]'
SHOWS = """([selector, text]) => {
  const shown = document.querySelector(selector).firstElementChild.cloneNode(true);
  shown.removeAttribute("data-search-exclude");
  const drawn = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  return shown.isEqualNode(drawn);
}"""


def live_svg(page: Page, figure: str = FIGURE) -> str:
    """What the last ``--svg -`` run in the page printed (live.js keeps it on the figure's container)."""
    return str(page.evaluate(f"document.querySelector('{figure}').liveSource"))


def test_the_pipeline_form_redraws_the_timeline_as_the_command_draws_it(
    page: Page, site_url: str, traffic: Traffic
) -> None:
    """The build's figure is the command's SVG; each change redraws it with what ``--svg -`` prints, byte for byte."""
    open_page(page, site_url, "en/pipeline/")
    form = page.locator('form[data-live="pipeline"]')
    built = cli([*argv_of(form, "pipeline"), "--svg", "-"])
    assert page.evaluate(SHOWS, [FIGURE, built.stdout])  # the build-time figure, before anything ran
    form = start(page, site_url, "en/pipeline/", "pipeline")
    assert_same_as_cli(form, "pipeline")
    assert live_svg(page) == built.stdout
    set_inputs(form, {"heads": "32", "vector-cores": "1", "blocks": "12"})
    assert_same_as_cli(form, "pipeline")
    redrawn = cli([*argv_of(form, "pipeline"), "--svg", "-"])
    assert redrawn.stdout != built.stdout
    assert live_svg(page) == redrawn.stdout
    assert page.evaluate(SHOWS, [FIGURE, redrawn.stdout])
    set_inputs(form, {"blocks": "3"})  # refused: the figure stays as it was, dimmed
    assert assert_same_as_cli(form, "pipeline").returncode == 2
    assert live_svg(page) == redrawn.stdout
    assert "live-stale" in (page.locator(FIGURE).get_attribute("class") or "")
    assert traffic.external() == []


@pytest.mark.parametrize(
    ("path", "command", "change"),
    [
        ("discussion/heads-per-core/", "head-roofline", {"heads": "16,48,96"}),
        ("en/design/", "ub-plan", {"mode": "decode", "sink": True}),
    ],
)
def test_the_roofline_and_ub_figures_redraw_as_their_commands_draw_them(
    page: Page, site_url: str, traffic: Traffic, path: str, command: str, change: Inputs
) -> None:
    """The build's roofline (Chinese page) and UB figure (English page) are their command's SVG for the form's
    inputs; a change redraws each with what ``--svg -`` prints, byte for byte."""
    figure = f'[data-live-figure="{command}"]'
    open_page(page, site_url, path)
    built = cli([*argv_of(page.locator(f'form[data-live="{command}"]'), command), "--svg", "-"])
    assert page.evaluate(SHOWS, [figure, built.stdout])  # the build-time figure, before anything ran
    form = start(page, site_url, path, command)
    assert live_svg(page, figure) == built.stdout
    set_inputs(form, change)
    assert_same_as_cli(form, command)
    redrawn = cli([*argv_of(form, command), "--svg", "-"])
    assert redrawn.stdout != built.stdout
    assert live_svg(page, figure) == redrawn.stdout
    assert page.evaluate(SHOWS, [figure, redrawn.stdout])
    assert traffic.external() == []


def test_a_dropped_trace_is_drawn_under_the_model_at_a_zero_residual(
    page: Page, site_url: str, traffic: Traffic, tmp_path: Path
) -> None:
    """A trace written by ``--trace`` for the form's options, given to --compare: its lanes drawn, 0 % on each lane."""
    form = start(page, site_url, "pipeline/", "pipeline")
    trace = tmp_path / "trace.json"
    assert cli([*argv_of(form, "pipeline"), "--trace", str(trace)]).returncode == 0
    form.locator('input[name="compare"]').set_input_files(trace)
    page.wait_for_function(f"(document.querySelector('{FIGURE}').liveSource || '').includes('实测')")
    # The page's copy of the file is in Pyodide's file system; here the command reads the file itself.
    in_page = form.locator('input[name="compare"]').get_attribute("data-live-path")
    argv = [str(trace) if arg == in_page else arg for arg in argv_of(form, "pipeline")]
    assert argv[-2:] == ["--compare", str(trace)]
    result = cli(argv)
    assert result.returncode == 0
    assert form.locator("[data-live-output]").text_content() == result.stdout
    lanes = [line for line in result.stdout.splitlines() if line.split()[1:2] in (["CUBE"], ["FIXP"], ["VECTOR"])]
    assert lanes
    assert all(line.endswith("+0.0 %") for line in lanes), result.stdout
    assert live_svg(page) == cli([*argv, "--svg", "-"]).stdout
    assert traffic.external() == []  # the file was read in the page and sent nowhere
