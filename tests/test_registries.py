"""No code chooses by a ledger's or a chip's name: it looks the record up in its registry.

Every module of ``src/`` is parsed; a comparison with a name of ``report.ledgers.LEDGERS`` or ``facts.chips.CHIPS``
(``source == "hopper"``, ``args.chip != "ascend-950"``, ``source in ("report", "all")``), a ``match`` on one, a dict
keyed by two or more of them (a table per chip beside the registry) or a registry subscripted with a literal name
fails, naming the file and line. Strings that merely mention a name (help texts, docstrings, a JSON field called
"report", the source kind "report") are not choices and pass.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ascend_dsa.facts.chips import CHIPS
from ascend_dsa.report.ledgers import ALL_LEDGERS, LEDGERS

SRC = Path(__file__).resolve().parents[1] / "src" / "ascend_dsa"
NAMES = frozenset({*LEDGERS, *CHIPS, ALL_LEDGERS, *(preset.spec.name for preset in CHIPS.values())})


def _is_name(node: ast.AST) -> bool:
    """A string literal that is a ledger's or a chip's name, or a tuple, list or set holding one."""
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_name(item) for item in node.elts)
    return False


def _registry(node: ast.AST) -> bool:
    """``LEDGERS`` or ``CHIPS``, by name or as a module's attribute."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name in {"LEDGERS", "CHIPS"}


def name_switches(source: str) -> list[tuple[int, str]]:
    """(line, what) of each place in ``source`` that chooses by a ledger's or a chip's name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(_is_name(part) for part in (node.left, *node.comparators)):
            found.append((node.lineno, "a comparison with a name"))
        elif isinstance(node, ast.match_case) and any(
            isinstance(pattern, ast.MatchValue) and _is_name(pattern.value) for pattern in ast.walk(node.pattern)
        ):
            found.append((node.pattern.lineno, "a match on a name"))
        elif isinstance(node, ast.Dict) and sum(key is not None and _is_name(key) for key in node.keys) > 1:
            found.append((node.lineno, "a dict keyed by names"))
        elif isinstance(node, ast.Subscript) and _registry(node.value) and _is_name(node.slice):
            found.append((node.lineno, "a lookup by a literal name"))
    return found


def test_no_module_chooses_by_a_ledger_or_chip_name() -> None:
    """Every module of src/ looks ledgers and chips up in their registries instead of comparing their names."""
    offenders = [
        f"{path.relative_to(SRC.parent)}:{line}: {what}"
        for path in sorted(SRC.rglob("*.py"))
        for line, what in name_switches(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "code",
    [
        'x = "report" if source == "report" else "published"',
        'if args.chip != "ascend-950": pass',
        'if args.source in ("hopper", "all"): pass',
        'MODELS = {"ascend-950": 1, "h800": 2}',
        'spec = CHIPS["h800"]',
        'match source:\n    case "hopper":\n        pass',
        'if spec.name == "H800 SXM5": pass',
    ],
)
def test_each_kind_of_switch_is_caught(code: str) -> None:
    """The switches the registries replaced (and their kin) are each found."""
    assert name_switches(code)


def test_mentions_are_not_switches() -> None:
    """A help text, a record's key and a docstring may name a ledger or a chip."""
    code = (
        'HELP = "--chip h800 runs the model"\nLEDGER = Ledger(key="hopper")\n"""See check_claims(source="hopper")."""'
    )
    assert name_switches(code) == []
