"""No number is typed into the command line's help texts: each comes from the constant it states.

Presets and shipped values are formatted from the facts (``options.preset_text``), defaults through argparse's
``%(default)s``, exit statuses from ``ExitStatus``. The literal text is read by the one scanner,
`ascend_dsa.render.typed_numbers.typed_in_text`: what it lets through (a citation, a product name, the 1 a ratio is
compared with) is in its one list of exemptions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ascend_dsa.cli
from ascend_dsa.cli.options import preset_text
from ascend_dsa.render.typed_numbers import typed_in_text

#: The module-level texts of a command that reach its --help or the CLI reference page.
_TEXT_NAMES = frozenset({"HELP", "HELP_ZH", "FINDING", "USAGE"})


def _help_literals() -> list[tuple[str, int, str]]:
    """Every literal piece of a help text in the command-line package: (file, line, text)."""
    found = []
    for path in sorted(Path(ascend_dsa.cli.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "help":
                value: ast.AST = node.value
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in _TEXT_NAMES for t in node.targets
            ):
                value = node.value
            else:
                continue
            found += [
                (path.name, node.lineno, c.value)
                for c in ast.walk(value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            ]
    return found


def test_help_texts_type_no_number() -> None:
    literals = _help_literals()
    assert len(literals) > 40  # the scan still sees the help texts
    typed = [(f, line, t.number) for f, line, text in literals for t in typed_in_text(text)]
    assert typed == []


def test_the_scan_sees_a_typed_preset() -> None:
    """A number typed into a help text is what the scan reports."""
    assert [t.number for t in typed_in_text("AI Cores (preset 32; SMs on h800)")] == ["32"]
    assert [t.number for t in typed_in_text("每个 AI Core 两个 VECTOR Core，默认 5e12")] == ["两", "5e12"]


@pytest.mark.parametrize(
    ("value", "text"), [(5e12, "5e12"), (1.65e9, "1.65e9"), (3.35e12, "3.35e12"), (32, "32"), (262144, "262144")]
)
def test_preset_text_writes_numbers_as_the_help_always_did(value: float, text: str) -> None:
    assert preset_text(value) == text
