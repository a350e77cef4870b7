"""ascend_dsa.site.internals: the private attribute of mkdocstrings-python the site uses still exists and works.

If one of these fails after an upgrade of mkdocstrings-python, update site/internals.py to the new name or delete
the saving it makes; nothing else in the site reaches into a dependency's private attributes
(tests/site/test_private_attributes.py).
"""

from __future__ import annotations

import importlib
import inspect

import pytest

from ascend_dsa.site import internals


def test_mkdocstrings_python_still_chooses_its_formatter_with_the_function_we_wrap() -> None:
    """``rendering._get_formatter`` exists, and the signature formatter still calls it for each signature."""
    rendering = importlib.import_module(internals.SIGNATURE_RENDERING)
    assert callable(getattr(rendering, internals.FORMATTER_CHOOSER))
    assert f"{internals.FORMATTER_CHOOSER}()" in inspect.getsource(rendering._format_signature)  # noqa: SLF001


def test_each_signature_is_formatted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the memo installed, the same code and line length reach the real formatter once."""
    rendering = importlib.import_module(internals.SIGNATURE_RENDERING)
    calls = []

    def formatter(code: str, line_length: int) -> str:
        calls.append(code)
        return f"{code}/{line_length}"

    monkeypatch.setattr(rendering, internals.FORMATTER_CHOOSER, lambda: formatter)
    kept: dict[tuple[str, int], str] = {}
    internals.remember_signature_formats(kept)
    chosen = getattr(rendering, internals.FORMATTER_CHOOSER)()
    assert chosen("def f(): pass", 60) == "def f(): pass/60"
    assert chosen("def f(): pass", 60) == "def f(): pass/60"
    assert calls == ["def f(): pass"]
    internals.remember_signature_formats({})  # the next build: its own memo, over the same real formatter
    assert getattr(rendering, internals.FORMATTER_CHOOSER)()("def f(): pass", 60) == "def f(): pass/60"
    assert calls == ["def f(): pass", "def f(): pass"]
