"""The command-line reference page: the ``--help`` of the program and of every registered subcommand.

The text is what ``ascend-dsa [COMMAND] --help`` prints with a terminal ``HELP_WIDTH`` columns wide, so the page
cannot drift from the code, and a new module in ``cli.SUBCOMMANDS`` appears without editing the page.
"""

from __future__ import annotations

import argparse

from ascend_dsa import cli
from ascend_dsa.lang import Lang, pick

#: Columns the help is wrapped to; fixed so the page is the same whatever terminal runs the build.
HELP_WIDTH = 78
#: The program's one-line description for the Chinese page (each subcommand module has its own ``HELP_ZH``).
PROGRAM_HELP_ZH = "昇腾稀疏 Attention 报告的可执行读书伴侣。"


def _formatter(prog: str) -> argparse.HelpFormatter:
    # raw description and epilog, as the program prints them (the epilog is a table of exit statuses)
    return argparse.RawDescriptionHelpFormatter(prog, width=HELP_WIDTH)


def command_help(*, lang: Lang = "en") -> tuple[tuple[str, str, str], ...]:
    """(command line, one-line summary, ``--help`` text) for the program, then each subcommand in registered order.

    The summary is in ``lang`` (``HELP_ZH`` or ``HELP``); the help is the program's.
    """
    top = cli.build_parser()
    top.formatter_class = _formatter
    entries = [(cli.PROG, pick(lang, PROGRAM_HELP_ZH, top.description or ""), top.format_help())]
    for module in cli.SUBCOMMANDS:
        # The same construction as ``cli.build_parser``'s sub-parsers: prog "ascend-dsa NAME", description = HELP.
        settings = {**cli.subcommand_parser_settings(module), "formatter_class": _formatter}
        sub = cli.OneLineParser(prog=f"{cli.PROG} {module.NAME}", **settings)
        cli.add_command_arguments(sub, module)
        summary = pick(lang, module.HELP_ZH, module.HELP)
        entries.append((f"{cli.PROG} {module.NAME}", summary, sub.format_help()))
    return tuple(entries)


def render_cli_reference(*, lang: Lang = "zh") -> str:
    """Markdown: an introduction, then one section per command with its summary and its ``--help`` verbatim."""
    intro = pick(
        lang,
        "下面每一节是一条命令的中文简介和它的 `--help` 原文（程序输出英文）；原文由命令行程序在构建网站时自己生成，"
        "所以与代码永远一致。"
        "安装后用 `.venv/bin/ascend-dsa` 或 `.venv/bin/python -m ascend_dsa` 运行。",
        "Each section below is the `--help` of one command, produced by the program itself while the site is built, "
        "so it always matches the code. After set-up, run it as `.venv/bin/ascend-dsa` or "
        "`.venv/bin/python -m ascend_dsa`.",
    )
    parts = [intro]
    for command, summary, help_text in command_help(lang=lang):
        parts.append(f"## {command}\n\n{summary}\n\n```text\n{help_text.rstrip()}\n```")
    return "\n\n".join(parts) + "\n"
