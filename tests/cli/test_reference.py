from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest

from ascend_dsa import cli, render_cli_reference
from ascend_dsa.cli.reference import HELP_WIDTH, command_help
from ascend_dsa.render.fences import fences

if TYPE_CHECKING:
    import argparse


def _help_from_the_program(*argv: str) -> str:
    # argparse wraps to the terminal's width less 2 columns
    env = {**os.environ, "COLUMNS": str(HELP_WIDTH + 2)}
    completed = subprocess.run(
        [sys.executable, "-m", "ascend_dsa", *argv, "--help"], capture_output=True, text=True, check=True, env=env
    )
    return completed.stdout


def test_each_section_is_what_the_program_prints() -> None:
    """The page's help text for the program and each subcommand equals `ascend-dsa [COMMAND] --help`, verbatim."""
    entries = command_help()
    assert entries[0][0] == "ascend-dsa"
    assert entries[0][2] == _help_from_the_program()
    for module, (command, summary, text) in zip(cli.SUBCOMMANDS, entries[1:], strict=True):
        assert command == f"ascend-dsa {module.NAME}"
        assert summary == module.HELP
        assert text == _help_from_the_program(module.NAME)


def test_every_registered_subcommand_has_a_section() -> None:
    """The page has one ## section per command, each with its help in a text block."""
    page = render_cli_reference(lang="en")
    assert page.count("\n## ") == 1 + len(cli.SUBCOMMANDS)
    for module in cli.SUBCOMMANDS:
        assert f"## ascend-dsa {module.NAME}\n" in page
    assert page.count("```text\n") == 1 + len(cli.SUBCOMMANDS)


def test_a_new_subcommand_appears_without_editing_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register one more subcommand: the page gains its section and its options."""

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--widgets", type=int, help="how many widgets")

    extra = SimpleNamespace(
        NAME="widget-count", HELP="Count widgets.", HELP_ZH="数小部件。", add_arguments=add_arguments, run=lambda _: 0
    )
    monkeypatch.setattr(cli, "SUBCOMMANDS", (*cli.SUBCOMMANDS, extra))
    page = render_cli_reference(lang="zh")
    assert "## ascend-dsa widget-count\n" in page
    assert "--widgets WIDGETS" in page
    assert "widget-count" in page.split("## ascend-dsa widget-count")[0]  # listed by the top-level help too


def _help_blocks(page: str) -> list[str]:
    return [f"{f.code}\n" for f in fences(page) if f.language == "text"]


def test_languages() -> None:
    """The introduction and each command's summary follow the page's language; the help is the program's (English)."""
    zh, en = render_cli_reference(lang="zh"), render_cli_reference(lang="en")
    assert "构建网站时" in zh
    assert "while the site is built" in en
    assert _help_blocks(zh) == _help_blocks(en)
    for module in cli.SUBCOMMANDS:
        heading = f"## {cli.PROG} {module.NAME}\n\n"
        assert f"{heading}{module.HELP_ZH}\n\n" in zh, module.NAME
        assert f"{heading}{module.HELP}\n\n" in en, module.NAME
    with pytest.raises(ValueError, match="lang must be one of zh, en, got 'fr'"):
        render_cli_reference(lang="fr")  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_pipeline_section_documents_trace_and_compare(lang: str) -> None:
    """The page's pipeline section, in both languages, has its summary naming --trace and --compare and their help."""
    page = render_cli_reference(lang=lang)  # type: ignore[arg-type]
    section = page.split("## ascend-dsa pipeline\n", 1)[1].split("\n## ", 1)[0]
    summary = section.strip().split("\n\n", 1)[0]
    assert "--trace FILE" in summary
    assert "--compare TRACE" in summary
    assert "--trace FILE" in section.split("```text", 1)[1]
    assert "--compare TRACE" in section.split("```text", 1)[1]
