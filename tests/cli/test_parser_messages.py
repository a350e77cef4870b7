"""argparse's messages in Chinese: the catalogue covers the running Python's msgids and keeps every value as typed."""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

import pytest

from ascend_dsa.cli.parser_messages import ARGPARSE_MESSAGES, parser_message, placeholders
from ascend_dsa.lang import Text, has_chinese

#: msgids of argparse that no user of ours can meet, each with why: a mistake in our own parser definitions (argparse
#: raises it while the parser is built, which a test would see), or text that is not an error.
NOT_USER_ERRORS = {
    "usage: ": "the usage line of --help, which may stay",
    "%(prog)s: error: %(message)s\n": "replaced by our own error line (cli.exit_status.error_line)",
    "positional arguments": "a --help heading",
    "options": "a --help heading",
    "show this help message and exit": "--help's help",
    "conflicting subparser: %s": "a parser definition mistake",
    "conflicting subparser alias: %s": "a parser definition mistake",
    'argument "-" with mode %r': "argparse.FileType, which no option uses",
    "cannot merge actions - two groups are named %r": "a parser definition mistake",
    "'required' is an invalid argument for positionals": "a parser definition mistake",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r": "a parser definition mistake",
    "dest= is required for options like %r": "a parser definition mistake",
    "invalid conflict_resolution value: %r": "a parser definition mistake",
    "conflicting option string: %s": "a parser definition mistake",
    "conflicting option strings: %s": "a parser definition mistake",
    "mutually exclusive arguments must be optional": "a parser definition mistake",
    "cannot have multiple subparser arguments": "a parser definition mistake",
    "%r is not callable": "a parser definition mistake",
    ".__call__() not defined": "an Action class without __call__, a parser definition mistake",
}


def argparse_msgids() -> set[str]:
    """Every string literal the running Python's argparse passes to gettext (``_``, ``ngettext``)."""
    tree = ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))
    msgids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"_", "ngettext"}:
            msgids |= {arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}
    return msgids


def test_every_message_argparse_can_show_a_user_is_in_the_catalogue() -> None:
    """A msgid the running argparse has and a user can meet, missing here, fails (not an English line at run time)."""
    catalogued = {text.en for text in ARGPARSE_MESSAGES}
    missing = argparse_msgids() - catalogued - set(NOT_USER_ERRORS)
    assert not missing, f"argparse msgids with no Chinese in cli/parser_messages.py: {sorted(missing)}"


def test_every_msgid_of_the_catalogue_is_argparses() -> None:
    """No entry is stale: each English text is, character for character, a msgid of the running argparse."""
    assert {text.en for text in ARGPARSE_MESSAGES} <= argparse_msgids()


@pytest.mark.parametrize("text", ARGPARSE_MESSAGES, ids=lambda text: text.en)
def test_each_translation_keeps_the_placeholders_and_is_chinese(text: Text) -> None:
    """The Chinese has the msgid's placeholders (values and option names carried over) and Chinese words."""
    assert sorted(placeholders(text.zh)) == sorted(placeholders(text.en))
    assert has_chinese(text.zh)


def _example(msgid: str) -> str:
    """A finished message of ``msgid``, each placeholder filled with a marked value (``<vname>``)."""
    names = iter(placeholders(msgid))
    return re.sub(r"%(?:\((\w+)\))?[srd]", lambda _match: f"<v{next(names)}>", msgid)


@pytest.mark.parametrize("text", ARGPARSE_MESSAGES, ids=lambda text: text.en)
def test_a_finished_message_becomes_its_chinese_with_its_values(text: Text) -> None:
    """Each msgid, once filled, reads back as its Chinese with the same values; in English it is unchanged."""
    english = _example(text.en)
    chinese = parser_message(english, lang="zh")
    assert has_chinese(chinese)
    for name in placeholders(text.en):
        assert f"<v{name}>" in chinese
    assert parser_message(english, lang="en") == english


@pytest.mark.parametrize(
    ("message", "chinese"),
    [
        (
            "argument --mode: invalid choice: 'x' (choose from 'prefill', 'decode')",
            "参数 --mode：无效的值：'x'（可选的值有 'prefill', 'decode'）",
        ),
        ("argument --compare: expected one argument", "参数 --compare：需要一个值"),
        ("unrecognized arguments: --bogus stray", "无法识别的参数：--bogus stray"),
        ("the following arguments are required: --mode", "缺少必需的参数：--mode"),
        ("argument --heads: 应为 1 到 4 之间的整数", "参数 --heads：应为 1 到 4 之间的整数"),
        ("something argparse does not say", "something argparse does not say"),
    ],
)
def test_real_messages(message: str, chinese: str) -> None:
    """argparse's real lines, the nested message of ``argument X:`` included; ours (already Chinese) pass through."""
    assert parser_message(message, lang="zh") == chinese
