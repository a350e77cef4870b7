"""No number is typed into a renderer's labels: each comes from the package constant or result it states.

A label is a literal piece of text inside ``pick(lang, zh, en)`` or ``Text(zh, en)`` in ``ascend_dsa.render``;
quantities reach it through f-strings. What is left in the literal text is a report line citation or mathematics
and notation: the indices of the schedule, slot numbering from 0, a sign, a formula's coefficients.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import TYPE_CHECKING

import ascend_dsa.render

if TYPE_CHECKING:
    from collections.abc import Iterator

#: A number standing alone in text (not part of a name such as h800, 1C2V or t1:16; next to Chinese text it counts).
_NUMBER = re.compile(r"(?<![\w.:%{-])\d+(?:[.,]\d+)*(?:e\d+)?(?![\w}])", re.ASCII)
#: What a label may write as digits.
_ALLOWED = re.compile(
    r"report \(zh\) lines? \d+(?:-\d+)?|第 \d+(?:-\d+)? 行"  # report line citations
    r"|\[i[+-]1\]|2p\+1|(?:offset|偏移) \+ 1"  # the schedule's block indices; the block itself
    r"|(?:slot|位置) [01]\b|[(（]0-"  # slots numbered from 0
    r"|< 0"  # an invalid index's sign
    r"|token 1\b"  # the ND2NZ example's token t1
    r"|1/(?:√|sqrt\()"  # the softmax scale 1/sqrt(d)
    r"|[×x] 2 FLOP"  # an FMA is two FLOP
    r"|above 1\b|1 之上"  # a ratio against its ridge at 1
    r"|2·2⁻|2⁻|2·\(|at most 1\b|不超过 1"  # the rounding tolerance's formula; normalised weights sum to at most 1
)
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
    return [
        (line, m.group(0)) for line, text in _label_literals(source) for m in _NUMBER.finditer(_ALLOWED.sub(" ", text))
    ]


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
    )
    assert _typed_numbers(source) == [(1, "8"), (1, "7"), (1, "8"), (1, "7"), (2, "512"), (2, "1024"), (3, "1024")]


def test_the_scan_lets_the_package_write_numbers() -> None:
    """Numbers that reach a label through an f-string, format specs and names with digits are not typed numbers."""
    source = 'pick(lang, f"{slots} 个块（0-{slots - 1}）", f"1C2V, h800, t1:16, {share:.0%} of {block:>5} B")\n'
    assert _typed_numbers(source) == []
