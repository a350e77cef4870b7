"""No number is typed into a renderer's labels: each comes from the package constant or result it states.

A label is a literal piece of text inside ``pick(lang, zh, en)`` or ``Text(zh, en)`` in ``ascend_dsa.render``;
quantities reach it through f-strings, counts written as words through ``render.format.count_word``. The literal
text is read by the one scanner, `ascend_dsa.render.typed_numbers.typed_in_text`: what it lets through is in its
one list of exemptions (a report line citation, notation such as the schedule's indices, slots numbered from 0).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

import ascend_dsa.render
from ascend_dsa.render.typed_numbers import typed_in_text

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The calls whose string arguments are labels.
_LABEL_CALLS = frozenset({"pick", "Text"})


def _strings(node: ast.AST) -> Iterator[ast.Constant]:
    """The literal text pieces under ``node``, f-string parts included, format specs left out."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, ast.FormattedValue):
        yield from _strings(node.value)
    else:
        for child in ast.iter_child_nodes(node):
            yield from _strings(child)


def _label_literals(source: str) -> list[tuple[int, str]]:
    """Every literal piece of a label in ``source``: (line, text)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in _LABEL_CALLS:
            arguments = [*node.args, *(k.value for k in node.keywords)]
            found += [(c.lineno, c.value) for arg in arguments for c in _strings(arg)]
    return found


def _typed_numbers(source: str) -> list[tuple[int, str]]:
    """The numbers the labels of ``source`` type by hand: (line, number)."""
    return [(line, typed.number) for line, text in _label_literals(source) for typed in typed_in_text(text)]


def test_render_labels_type_no_number() -> None:
    paths = sorted(Path(ascend_dsa.render.__file__).parent.glob("*.py"))
    labels = [label for path in paths for label in _label_literals(path.read_text(encoding="utf-8"))]
    assert len(labels) > 1000  # the scan still sees the labels
    typed = [
        (path.name, line, number) for path in paths for line, number in _typed_numbers(path.read_text(encoding="utf-8"))
    ]
    assert typed == []


def test_the_scan_sees_a_typed_number() -> None:
    """A number typed into a label is what the scan reports, in a plain string and in an f-string's text."""
    source = (
        'pick(lang, "8 个块落在的槽（0-7）", "slot of each of the 8 blocks (0-7)")\n'
        'Text(f"bf16 KV（d = 512）{x:.0f}", f"about 1024 ({citation}, report (zh) line 184)")\n'
        'pick(lang, zh=f"约1024（{citation}）", en="—")\n'
        'pick(lang, "一个 AI Core：CUBE、两个 VECTOR Core", f"六个实例化的 UB 预算（{x}）")\n'
    )
    assert _typed_numbers(source) == [
        (1, "8"),
        (1, "7"),
        (1, "8"),
        (1, "7"),
        (2, "512"),
        (2, "1024"),
        (3, "1024"),
        (4, "两"),
        (4, "六"),
    ]


def test_the_scan_lets_the_package_write_numbers() -> None:
    """Numbers that reach a label through an f-string, format specs and names with digits are not typed numbers."""
    source = 'pick(lang, f"{slots} 个块（0-{slots - 1}）", f"1C2V, h800, t{i}:{j}, {share:.0%} of {block:>5} B")\n'
    assert _typed_numbers(source) == []
