"""The search-index hook keeps the index's value and writes it as compact UTF-8."""

from __future__ import annotations

import importlib.util
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    import pytest


def load_hook(root: Path) -> Any:  # noqa: ANN401 - a module loaded from a file
    spec = importlib.util.spec_from_file_location("search_index_hook", root / "hooks" / "search_index.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_index_is_rewritten_as_utf8(project_root: Path, tmp_path: Path) -> None:
    """Escaped Chinese and zero-width spaces become raw UTF-8; the parsed JSON is unchanged and smaller."""
    index = tmp_path / "search" / "search_index.json"
    index.parent.mkdir()
    data = {"docs": [{"location": "", "title": "前言", "text": "对应\u200b报告"}]}
    index.write_text(json.dumps(data), encoding="utf-8")
    before = index.stat().st_size
    load_hook(project_root).on_post_build({"site_dir": str(tmp_path)})
    text = index.read_text(encoding="utf-8")
    assert "\\u" not in text
    assert json.loads(text) == data
    assert index.stat().st_size < before


def test_no_index_no_error(project_root: Path, tmp_path: Path) -> None:
    """A build without search leaves nothing to rewrite and raises nothing."""
    load_hook(project_root).on_post_build({"site_dir": str(tmp_path)})
    assert not (tmp_path / "search").exists()


def test_built_index_is_utf8(built_site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The site's own index carries its Chinese as UTF-8 and leaves the API reference out of search."""
    text = (built_site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "前言" in text
    assert "\\u524d" not in text
    locations = [doc["location"] for doc in json.loads(text)["docs"]]
    assert not [loc for loc in locations if loc.startswith(("reference/api", "en/reference/api"))]
    assert capsys.readouterr().err == ""
