"""The search-index hook keeps the index's value and writes it as compact UTF-8."""

from __future__ import annotations

import importlib.util
import json
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pathlib import Path


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
    data = {"config": {"lang": ["zh"]}, "docs": [{"location": "", "title": "前言", "text": "对应\u200b报告"}]}
    index.write_text(json.dumps(data), encoding="utf-8")
    before = index.stat().st_size
    load_hook(project_root).on_post_build({"site_dir": str(tmp_path)})
    text = index.read_text(encoding="utf-8")
    assert "\\u" not in text
    assert json.loads(text) == data
    assert index.stat().st_size < before


def test_index_is_split_per_edition(project_root: Path, tmp_path: Path) -> None:
    """English pages go to en/search/ relative to en/, configured for English, British spellings twinned."""
    index = tmp_path / "search" / "search_index.json"
    index.parent.mkdir()
    zh = {"location": "pipeline/", "title": "流水线", "text": "流水\u200b线"}
    en = {"location": "en/pipeline/#x", "title": "The\u200bpipeline", "text": "dequantisation is synchronised"}
    index.write_text(json.dumps({"config": {"lang": ["zh", "en"], "fields": {}}, "docs": [zh, en]}), "utf-8")
    load_hook(project_root).on_post_build({"site_dir": str(tmp_path)})
    chinese = json.loads(index.read_text(encoding="utf-8"))
    english = json.loads((tmp_path / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert (chinese["config"]["lang"], chinese["docs"]) == (["zh"], [zh])
    assert english["config"]["lang"] == ["en"]
    assert "stemmer" not in english["config"]["pipeline"]
    [doc] = english["docs"]
    assert (doc["location"], doc["title"]) == ("pipeline/#x", "Thepipeline")
    assert doc["spellings"] == "dequantization synchronized"
    assert "spellings" in english["config"]["fields"]


def test_figures_tables_and_permalinks_leave_the_index(project_root: Path) -> None:
    """SVG, tables and nbconvert's "¶" permalinks carry Material's data-search-exclude; other tags do not."""
    html = '<p>x</p><svg width="1"><text>0</text></svg><table>\n<tr></tr></table><a class="anchor-link">¶</a>'
    marked = load_hook(project_root).exclude_from_search(html)
    assert marked.count("data-search-exclude") == 3
    assert "<p>x</p>" in marked
    assert '<svg width="1" data-search-exclude>' in marked


def test_segmenter_bound_is_patched(project_root: Path, tmp_path: Path) -> None:
    """The worker's query segmenter tries the whole query; a changed worker fails the build with its name."""
    workers = tmp_path / "assets" / "javascripts" / "workers"
    workers.mkdir(parents=True)
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text('{"docs": []}', encoding="utf-8")
    worker = workers / "search.abc.min.js"
    worker.write_text("for(let o=s+1;o<t.length;o++)t.slice(s,o)in e;n[a]&&a<t.length-1&&x", encoding="utf-8")
    hook = load_hook(project_root)
    hook.on_post_build({"site_dir": str(tmp_path)})
    assert worker.read_text(encoding="utf-8") == "for(let o=s+1;o<=t.length;o++)t.slice(s,o)in e;n[a]&&a<t.length&&x"
    hook.on_post_build({"site_dir": str(tmp_path)})  # the other edition's build: already patched, unchanged
    worker.write_text("something else", encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"search\.abc\.min\.js"):
        hook.on_post_build({"site_dir": str(tmp_path)})


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
