"""hooks/serve_cache.py and the block cache of hooks/build_guard.py: a fast, still correct, edit loop under serve."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import TYPE_CHECKING

from tests.site.test_hooks import load_hook

if TYPE_CHECKING:
    from pathlib import Path


def test_a_touch_without_change_does_not_rebuild(tmp_path: Path) -> None:
    """The wrapped builder builds after a change of content, not after a save of the same bytes."""
    hook = load_hook("serve_cache")
    page = tmp_path / "docs" / "index.md"
    page.parent.mkdir()
    page.write_text("# a\n", encoding="utf-8")
    config = {"docs_dir": str(tmp_path / "docs"), "config_file_path": None, "watch": []}
    built: list[int] = []
    server = SimpleNamespace(builder=lambda: built.append(1))
    hook.on_serve(server, config=config, builder=server.builder)
    page.write_bytes(page.read_bytes())
    os.utime(page, (1, 1))
    server.builder()
    assert built == []
    page.write_text("# b\n", encoding="utf-8")
    server.builder()
    assert built == [1]
    server.builder()
    assert built == [1]


def test_blocks_are_cached_only_under_serve_and_follow_the_files_they_read(tmp_path: Path) -> None:
    """Under build every block runs; under serve a block runs again only when a file it read changed."""
    guard = load_hook("build_guard")
    state = guard.STATE  # hooks/serve_state.py's, shared by the hooks
    data = tmp_path / "docs" / "data.txt"
    data.parent.mkdir()
    data.write_text("one", encoding="utf-8")
    runs: list[str] = []

    def format_block(source: str, *_: object, **__: object) -> str:
        runs.append(source)
        return f"<p>{data.read_text(encoding='utf-8')}</p>"

    wrapped = guard.guarded(format_block)
    guard.on_config({"config_file_path": str(tmp_path / "mkdocs.yml"), "mdx_configs": {}, "plugins": {}})
    try:
        state.serving = False
        assert wrapped("print(1)", "python", "python", {"id": "x"}, None) == "<p>one</p>"
        assert wrapped("print(1)", "python", "python", {"id": "x"}, None) == "<p>one</p>"
        assert len(runs) == 2
        guard.on_startup(command="serve")
        guard.on_pre_build({})
        assert wrapped("print(1)", "python", "python", {"id": "x"}, None) == "<p>one</p>"
        assert wrapped("print(1)", "python", "python", {"id": "x"}, None) == "<p>one</p>"
        assert len(runs) == 3
        data.write_text("two", encoding="utf-8")
        assert wrapped("print(1)", "python", "python", {"id": "x"}, None) == "<p>two</p>"
        assert len(runs) == 4
    finally:
        state.serving = False
        state.blocks.clear()
        guard.on_build_error(RuntimeError())
