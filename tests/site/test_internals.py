"""ascend_dsa.site.internals: the private attribute of mkdocstrings-python the site uses still exists and works,
and the formats it remembers are kept in a file between builds.

If one of these fails after an upgrade of mkdocstrings-python, update site/internals.py to the new name or delete
the saving it makes; nothing else in the site reaches into a dependency's private attributes
(tests/site/test_private_attributes.py).
"""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site import internals
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from pathlib import Path


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
    kept: dict[str, str] = {}
    used: set[str] = set()
    internals.remember_signature_formats(kept, used)
    chosen = getattr(rendering, internals.FORMATTER_CHOOSER)()
    assert chosen("def f(): pass", 60) == "def f(): pass/60"
    assert chosen("def f(): pass", 60) == "def f(): pass/60"
    assert calls == ["def f(): pass"]
    assert used == set(kept)
    internals.remember_signature_formats({})  # the next build: its own memo, over the same real formatter
    assert getattr(rendering, internals.FORMATTER_CHOOSER)()("def f(): pass", 60) == "def f(): pass/60"
    assert calls == ["def f(): pass", "def f(): pass"]


def test_the_cache_file_keeps_the_formats_for_the_next_build(tmp_path: Path) -> None:
    """Written and read back the same; a missing or unreadable file is an empty cache, never an error."""
    path = internals.signature_cache_file({"XDG_CACHE_HOME": str(tmp_path)})
    assert path.parent == tmp_path / "ascend-dsa"
    assert internals.formatter_name() in path.name
    assert internals.read_signature_cache(path) == {}
    internals.write_signature_cache(path, {"60\ndef f(): pass": "def f():\n    pass"}, {"60\ndef f(): pass"})
    assert internals.read_signature_cache(path) == {"60\ndef f(): pass": "def f():\n    pass"}
    path.write_text("{not json", encoding="utf-8")
    assert internals.read_signature_cache(path) == {}
    path.write_text('{"a": 1}', encoding="utf-8")
    assert internals.read_signature_cache(path) == {}


def test_the_cache_file_drops_old_signatures_once_they_outnumber_the_used_ones(tmp_path: Path) -> None:
    """Up to four times the signatures a build used are kept; past that, only those it used."""
    path = tmp_path / "signatures.json"
    kept = {f"60\n{i}": str(i) for i in range(5)}
    internals.write_signature_cache(path, kept, {"60\n0", "60\n1"})
    assert len(internals.read_signature_cache(path)) == 5
    internals.write_signature_cache(path, kept, {"60\n0"})
    assert internals.read_signature_cache(path) == {"60\n0": "0"}


def test_the_site_formats_signatures_without_random_cross_reference_names() -> None:
    """With signature_crossrefs on, each signature would hold random names and never be found in the memo."""
    assert "signature_crossrefs" not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
