"""The two languages: one choice (`pick`), pairs of texts, and a complete catalogue of terms."""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import ascend_dsa.render
from ascend_dsa.lang import CATALOGUE, Text, check_lang, pick, term, unit_name


def test_every_catalogue_term_has_both_languages() -> None:
    """Each key names a term with nonempty Chinese and English text."""
    assert CATALOGUE
    for name, text in CATALOGUE.items():
        assert ":" in name, name
        assert text.zh.strip(), name
        assert text.en.strip(), name


def test_term_and_pick_choose_by_language() -> None:
    """A term and a sentence read in the page's language."""
    assert term("kind:derived", "zh") == "推导"
    assert term("kind:derived", "en") == "derived"
    assert pick("zh", "中", "en") == "中"
    assert Text("中", "en").in_("en") == "en"


def test_unknown_term_and_language_raise() -> None:
    """A missing term or a language the site lacks is an error naming it."""
    with pytest.raises(ValueError, match="no-such"):
        term("no-such", "en")
    with pytest.raises(ValueError, match="'fr'"):
        check_lang("fr")
    with pytest.raises(ValueError, match="both languages"):
        Text("", "en")


def test_units_not_in_the_catalogue_read_the_same() -> None:
    """A unit the catalogue lacks is written as it is in both languages."""
    assert unit_name("requests", "zh") == "个请求"
    assert unit_name("B/cycle", "zh") == "B/cycle"


def _renderers() -> Iterator[tuple[str, ast.FunctionDef]]:
    """Every top-level function of ascend_dsa.render, named ``module.function``."""
    for path in sorted(Path(ascend_dsa.render.__file__).parent.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef):
                yield f"{path.stem}.{node.name}", node


def _calls(node: ast.AST, name: str) -> Iterator[ast.Call]:
    """The calls of the function ``name`` in ``node``."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == name:
            yield call


def _headers(function: ast.FunctionDef) -> Iterator[ast.expr]:
    """A renderer's table headers: the first argument of each ``table`` call, each value of a ``*headers*`` name."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and "headers" in t.id for t in node.targets):
            yield node.value
    yield from (call.args[0] for call in _calls(function, "table") if call.args)


def _texts(call: ast.Call) -> list[object]:
    return [a.value if isinstance(a, ast.Constant) else None for a in call.args]


def test_every_column_term_heads_two_tables() -> None:
    """A ``column:`` term is a header two or more renderers share; one only one table has stays beside it."""
    users: dict[str, set[str]] = {name: set() for name in CATALOGUE if name.startswith("column:")}
    for renderer, function in _renderers():
        for call in _calls(function, "term"):
            name = _texts(call)[0]
            if isinstance(name, str) and name in users:
                users[name].add(renderer)
    assert users
    assert {name: sorted(r) for name, r in users.items() if len(r) < 2} == {}


def test_no_table_types_a_shared_header_again() -> None:
    """A header the catalogue has under ``column:`` is taken from it, not typed again with ``pick``."""
    shared = [[None, text.zh, text.en] for name, text in CATALOGUE.items() if name.startswith("column:")]
    picks = [
        (renderer, _texts(call))
        for renderer, function in _renderers()
        for headers in _headers(function)
        for call in _calls(headers, "pick")
    ]
    assert picks, "the scan no longer sees any header"
    assert [(renderer, texts) for renderer, texts in picks if texts in shared] == []


def test_a_text_the_same_in_both_languages_is_written_once() -> None:
    """Text.same gives one string for either page; an empty one is still refused."""
    assert Text.same("B_TOPK = 64") == Text("B_TOPK = 64", "B_TOPK = 64")
    with pytest.raises(ValueError, match="both languages"):
        Text.same(" ")
