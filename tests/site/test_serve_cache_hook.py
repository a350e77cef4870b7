"""hooks/serve_cache.py and the block cache of hooks/build_guard.py: a fast, still correct, edit loop under serve."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
import textwrap
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest

from tests.conftest import load_hook, mkdocs_env, mkdocs_serve, wait_for_text

if TYPE_CHECKING:
    from pathlib import Path

    from tests.conftest import ProjectCopy


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
        guard.begin_build()  # the next build: digests are taken afresh
        assert wrapped("print(1)", "python", "python", {"id": "x"}, None) == "<p>two</p>"
        assert len(runs) == 4
    finally:
        state.serving = False
        state.blocks.clear()
        guard.on_build_error(RuntimeError())


def _package(src: Path) -> None:
    """A small ``ascend_dsa`` under ``src``: a lazy facade naming ``Ready`` (in ``a``), modules a, b, c and typed."""
    package = src / "ascend_dsa"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ascend_dsa.a import Ready\n", encoding="utf-8"
    )
    (package / "a.py").write_text("def Ready():\n    from ascend_dsa import b\n    return b.x\n", encoding="utf-8")
    (package / "b.py").write_text("x = 1\n", encoding="utf-8")
    (package / "c.py").write_text("import importlib\nm = importlib.import_module('os')\n", encoding="utf-8")
    (package / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ascend_dsa.c import m\n", encoding="utf-8"
    )
    (package / "data.json").write_text("{}", encoding="utf-8")


def test_a_block_depends_on_the_modules_it_imports_and_theirs(tmp_path: Path) -> None:
    """Facade names lead to their module, imports inside functions count, type-checking ones only for the docs."""
    imports = load_hook("package_imports")
    src = tmp_path / "src"
    _package(src)

    def names(code: str, *, annotations: bool = False) -> set[str]:
        found = imports.depends(code, src, annotations=annotations)
        return {path.relative_to(src / "ascend_dsa").as_posix() for path in found}

    everything = {"__init__.py", "a.py", "b.py", "c.py", "typed.py", "data.json"}
    assert names("from ascend_dsa import Ready\nprint(Ready())") == {"__init__.py", "a.py", "b.py", "data.json"}
    assert names("from ascend_dsa.b import x") == {"__init__.py", "b.py", "data.json"}
    assert names("from ascend_dsa.typed import TYPE_CHECKING") == {"__init__.py", "typed.py", "data.json"}
    assert names("import ascend_dsa.typed as documented", annotations=True) == everything  # c imports at run time
    # Whatever cannot be followed from the source depends on everything.
    assert names("import ascend_dsa\nascend_dsa.Ready()") == everything
    assert names("from ascend_dsa import NotListed") == everything
    assert names("from ascend_dsa.c import m") == everything
    assert names("print(") == everything


def test_a_block_runs_again_when_a_module_it_imports_changes(tmp_path: Path) -> None:
    """Under serve a block is kept while the modules it imports keep their content, whatever else in src/ changes."""
    guard = load_hook("build_guard")
    state = guard.STATE
    _package(tmp_path / "src")
    runs: list[str] = []

    def format_block(source: str, *_: object, **__: object) -> str:
        runs.append(source)
        return "<p>ok</p>"

    wrapped = guard.guarded(format_block)
    guard.on_config({"config_file_path": str(tmp_path / "mkdocs.yml"), "mdx_configs": {}, "plugins": {}})
    block = ("from ascend_dsa import Ready", "python", "python", {"id": "x"}, None)
    try:
        guard.on_startup(command="serve")
        wrapped(*block)
        (tmp_path / "src" / "ascend_dsa" / "c.py").write_text("y = 2\n", encoding="utf-8")
        guard.begin_build()
        wrapped(*block)
        assert len(runs) == 1
        (tmp_path / "src" / "ascend_dsa" / "b.py").write_text("x = 2\n", encoding="utf-8")
        guard.begin_build()
        wrapped(*block)
        assert len(runs) == 2
    finally:
        state.serving = False
        state.blocks.clear()
        guard.on_build_error(RuntimeError())


@pytest.mark.build
def test_serve_shows_a_src_edit_in_the_blocks_that_import_it_and_reuses_the_rest(project_copy: ProjectCopy) -> None:
    """Under a live `mkdocs serve`, breaking a figure boxes the page whose block imports it; mending it unboxes it."""
    project_copy.lean()
    figures = project_copy.root / "src/ascend_dsa/facts/report_figures.py"
    right = figures.read_text(encoding="utf-8")
    assert right.count("mem_cycles=  6921") == 1
    with mkdocs_serve(project_copy.root) as (base, server):
        page = f"{base}discussion/heads-per-core/"
        assert "build-guard-error" not in wait_for_text(page, "</html>", timeout_s=240)
        figures.write_text(right.replace("mem_cycles=  6921", "mem_cycles=  6922"), encoding="utf-8")
        assert "<td>report (zh) line 108</td>" in wait_for_text(page, "build-guard-error", timeout_s=240)
        other = wait_for_text(f"{base}optimizations/icache/", "</html>", timeout_s=30)
        assert "build-guard-error" not in other
        figures.write_text(right, encoding="utf-8")
        wait_for_text(page, "build-guard-error", timeout_s=240, absent=True)
        assert server.poll() is None


#: Builds the site as `mkdocs serve` does (one process, the config loaded afresh for each build), into argv[1],
#: once, then again after each edit named in argv[2:]: a docs page, a module a few pages use, a module most use.
_SERVE_LIKE = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    EDITS = {
        "page": ("docs/pipeline.md", "\\n\\nZqxpage\\n"),
        "src": ("src/ascend_dsa/cli/head_roofline.py", "\\n# an edit\\n"),
        "core": ("src/ascend_dsa/facts/hardware.py", "\\n# an edit\\n"),
    }
    for number, edit in enumerate(["", *sys.argv[2:]]):
        if edit:
            path, text = EDITS[edit]
            Path(path).write_text(Path(path).read_text(encoding="utf-8") + text, encoding="utf-8")
        config = load_config(config_file="mkdocs.yml", site_dir=sys.argv[1])
        if number == 0:
            config.plugins.on_startup(command="serve", dirty=False)
        build(config, serve_url="http://127.0.0.1:8000/")
    print(sys.modules["serve_state"].STATE.pages_reused)
    """
)


@pytest.mark.build
def test_a_serve_rebuild_is_the_site_a_fresh_build_makes(project_copy: ProjectCopy) -> None:
    """Pages, blocks and search entries reused across rebuilds give, to the byte, the site of a first build."""
    project_copy.lean(english=True)
    root = project_copy.root

    def serve_like(site: str, *edits: str) -> int:
        """Build into ``site`` after each edit; how many pages the rebuilds reused."""
        command = [sys.executable, "-c", _SERVE_LIKE, str(root.parent / site), *edits]
        completed = subprocess.run(command, cwd=root, env=mkdocs_env(root), capture_output=True, text=True, check=False)
        assert completed.returncode == 0, completed.stderr[-3000:]
        return int(completed.stdout.split()[-1])

    assert serve_like("rebuilt", "page", "src", "core") > 0
    assert serve_like("fresh") == 0
    comparison = filecmp.dircmp(root.parent / "rebuilt", root.parent / "fresh")
    differing: list[str] = []

    def collect(node: filecmp.dircmp[str], prefix: str) -> None:
        differing.extend(prefix + name for name in node.diff_files + node.left_only + node.right_only)
        for name, child in node.subdirs.items():
            collect(child, f"{prefix}{name}/")

    collect(comparison, "")
    assert differing == []
