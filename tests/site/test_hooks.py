"""The MkDocs hooks: reload the package between builds, switch code execution off for timing, stay offline."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from types import SimpleNamespace
from typing import TYPE_CHECKING

import nbformat
import pytest
from markdown_exec import formatter, validator
from mkdocs.exceptions import PluginError

from tests.conftest import ROOT, build_site, copy_project, load_hook, mkdocs_serve, perturb, wait_for_text
from tests.site.test_offline import external_resources

if TYPE_CHECKING:
    from pathlib import Path

    from tests.conftest import ProjectCopy


_RELOAD_SCRIPT = textwrap.dedent(
    """
    import importlib.util, pathlib, sys
    sys.path.insert(0, str(pathlib.Path(sys.argv[1]).parent))  # as MkDocs does while a hook loads
    spec = importlib.util.spec_from_file_location("reload_package", sys.argv[1])
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    source = pathlib.Path(sys.argv[2])
    import ascend_dsa.cli.head_roofline as before
    source.write_text(source.read_text().replace("CUBE vs L2 cycles", "EDITED cycles"))
    import ascend_dsa.cli.head_roofline as cached
    if sys.argv[3] == "hook":
        hook.on_pre_build(config={})
    import ascend_dsa.cli.head_roofline as after
    print(before.HELP[:6], cached.HELP[:6], after.HELP[:6], sep="|")
    """
)


@pytest.mark.parametrize(("mode", "expected"), [("hook", "CUBE v|CUBE v|EDITED"), ("none", "CUBE v|CUBE v|CUBE v")])
def test_reload_hook_makes_the_next_import_read_edited_code(tmp_path: Path, mode: str, expected: str) -> None:
    """After on_pre_build an edited module is imported afresh; without the hook Python keeps the stale module."""
    project = copy_project(ROOT, tmp_path / "project")
    hook = ROOT / "hooks" / "reload_package.py"
    source = project / "src" / "ascend_dsa" / "cli" / "head_roofline.py"
    env = {**os.environ, "PYTHONPATH": str(project / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    completed = subprocess.run(
        [sys.executable, "-c", _RELOAD_SCRIPT, str(hook), str(source), mode],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert completed.stdout.strip() == expected


def _fake_config() -> dict[str, object]:
    def other_validator(*_: object, **__: object) -> bool:
        return True

    fences = [
        {"name": "python", "class": "python", "validator": validator, "format": formatter},
        {"name": "diagram", "class": "diagram", "validator": other_validator, "format": formatter},
    ]
    return {
        "mdx_configs": {"pymdownx.superfences": {"custom_fences": fences}},
        "plugins": {"mkdocs-jupyter": SimpleNamespace(config={"execute": True})},
    }


def test_execution_switch_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ASCEND_DSA_NO_EXEC the hook changes nothing: blocks run and notebooks execute."""
    monkeypatch.delenv("ASCEND_DSA_NO_EXEC", raising=False)
    hook = load_hook("execution_switch")
    config = _fake_config()
    hook.on_config(config)
    fences = config["mdx_configs"]["pymdownx.superfences"]["custom_fences"]  # type: ignore[index]
    assert all(fence["format"] is formatter for fence in fences)
    assert config["plugins"]["mkdocs-jupyter"].config["execute"] is True  # type: ignore[index]


def test_execution_switch_shows_sources_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ASCEND_DSA_NO_EXEC=1 markdown-exec's fences show their escaped source and notebooks do not execute."""
    monkeypatch.setenv("ASCEND_DSA_NO_EXEC", "1")
    hook = load_hook("execution_switch")
    config = _fake_config()
    hook.on_config(config)
    python, other = config["mdx_configs"]["pymdownx.superfences"]["custom_fences"]  # type: ignore[index]
    assert python["format"] is hook.show_source
    assert other["format"] is formatter
    assert config["plugins"]["mkdocs-jupyter"].config["execute"] is False  # type: ignore[index]
    assert (
        hook.show_source("print(1 < 2)", "python") == '<pre><code class="language-python">print(1 &lt; 2)</code></pre>'
    )


@pytest.mark.build
def test_floor_build_runs_no_page_code(project_copy: ProjectCopy) -> None:
    """The benchmark's floor: with ASCEND_DSA_NO_EXEC=1 the strict build passes and shows the call, not the table."""
    result = project_copy.lean().build({"ASCEND_DSA_NO_EXEC": "1"})
    assert result.returncode == 0, result.output[-3000:]
    html = (project_copy.site / "discussion" / "heads-per-core" / "index.html").read_text(encoding="utf-8")
    assert "render_head_roofline_table(lang=" in html
    assert "6920.6" not in html


@pytest.mark.parametrize(
    ("html", "found"),
    [
        ('<pre class="mermaid">graph LR</pre>', True),
        ('<div class="diagram mermaid">', True),
        ("<div class='mermaid wide'>", True),
        ('<code class="language-mermaid">graph</code>', False),
        ('<p class="mermaidish">', False),
    ],
)
def test_offline_hook_spots_mermaid_diagrams(html: str, *, found: bool) -> None:
    """A mermaid diagram (which would load mermaid from a CDN) is spotted; mermaid source shown as code is not."""
    assert bool(load_hook("offline").MERMAID.search(html)) is found


def test_offline_hook_names_the_setup_command_when_katex_is_missing(tmp_path: Path) -> None:
    """Without the fetched KaTeX the build stops with one line that says to run make setup."""
    with pytest.raises(PluginError, match=r"katex\.min\.js is missing: run `make setup`"):
        load_hook("offline").on_config({"docs_dir": str(tmp_path)})


def test_offline_hook_names_the_fetch_of_pyodide_when_it_is_missing(tmp_path: Path) -> None:
    """With KaTeX in place but no Pyodide, the build stops with one line naming the command that fetches it."""
    offline = load_hook("offline")
    for name, package in offline.VENDORED.items():
        if package == "katex":
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text("", encoding="utf-8")
    with pytest.raises(PluginError) as raised:
        offline.on_config({"docs_dir": str(tmp_path)})
    message = str(raised.value)
    assert message.endswith("is missing: run `make setup` (or `python scripts/fetch_vendor.py pyodide`)")
    assert "\n" not in message


def test_live_hook_loads_the_script_only_on_pages_with_a_live_form() -> None:
    """A page with a live form gets a loader of live.js at its depth; any other page is left as it was."""
    live = load_hook("live")
    form = '<body><form data-live="ub-plan"></form></body>'
    loaded = live.on_post_page(form, page=SimpleNamespace(url="en/design/"))
    assert loaded.startswith(form.removesuffix("</body>") + '<script type="module">')
    assert 'import("../../assets/javascripts/live.js")' in loaded
    assert loaded.endswith("</script></body>")
    assert 'import("assets/javascripts/live.js")' in live.on_post_page(form, page=SimpleNamespace(url=""))
    plain = "<body><p>no form</p></body>"
    assert live.on_post_page(plain, page=SimpleNamespace(url="design/")) == plain


@pytest.mark.build
def test_serve_shows_an_edit_to_the_package_without_restart(project_copy: ProjectCopy) -> None:
    """`mkdocs serve` watches src/: edit a subcommand's help in a copy and the served CLI page shows the new text."""
    project = project_copy.lean().root  # the Chinese CLI page is all this needs: two lean builds, not two full ones
    with mkdocs_serve(project) as (base, _):
        url = f"{base}reference/cli/"
        wait_for_text(url, "CUBE vs L2 cycles per AI Core", timeout_s=180)
        perturb(
            project / "src/ascend_dsa/cli/head_roofline.py", "CUBE vs L2 cycles per", "CUBE vs L2 (edited) cycles per"
        )
        wait_for_text(url, "CUBE vs L2 (edited) cycles per", timeout_s=180)


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        pytest.param("<p>个输出、\n每个输出做</p>", "<p>个输出、每个输出做</p>", id="punctuation-then-ideograph"),
        pytest.param("<li>共用一次\n    搬进来的</li>", "<li>共用一次搬进来的</li>", id="indented-continuation"),
        pytest.param("<p>带宽 bound；\nhead 越多</p>", "<p>带宽 bound；\nhead 越多</p>", id="latin-after-break-stays"),
        pytest.param("<p>the\n中文</p>", "<p>the\n中文</p>", id="latin-before-break-stays"),
        pytest.param("<pre><code>注释\n代码</code></pre>", "<pre><code>注释\n代码</code></pre>", id="code-kept"),
        pytest.param(
            '<div class="arithmatex">\\[\\text{周\n期}\\]</div>中\n文',
            '<div class="arithmatex">\\[\\text{周\n期}\\]</div>中文',
            id="math-kept-text-after-joined",
        ),
    ],
)
def test_cjk_line_breaks_are_joined_outside_code(html: str, expected: str) -> None:
    """A source line break between two Chinese characters disappears; next to Latin text or in code it stays."""
    assert load_hook("cjk_linebreaks").join_cjk_lines(html) == expected


def test_built_chinese_pages_have_no_break_between_ideographs(built_site: Path) -> None:
    """No Chinese page's text has a line break between two Chinese characters (which shows as a stray space)."""
    hook = load_hook("cjk_linebreaks")
    offenders = []
    for page in sorted(built_site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        outside_kept = hook.KEEP.sub("\x00", html)  # a placeholder, so text around code is not made adjacent
        if hook.BREAK.search(outside_kept):
            offenders.append(str(page.relative_to(built_site)))
    assert offenders == []


@pytest.mark.build
def test_notebooks_render_in_both_languages(project_root: Path, tmp_path: Path) -> None:
    """A notebook pair added to a copy becomes an executed HTML page per language (not raw JSON), offline."""
    project = copy_project(project_root, tmp_path / "project")
    for name, title in (("demo.ipynb", "演示"), ("demo.en.ipynb", "Demo")):
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [
            nbformat.v4.new_markdown_cell(f"# {title}"),
            nbformat.v4.new_code_cell("from ascend_dsa import ASCEND_950\nprint(ASCEND_950.clock_hz / 1e6)"),
        ]
        nbformat.write(notebook, project / "docs" / name)
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "  - demo: demo.ipynb\n", encoding="utf-8")
    result = build_site(project, tmp_path / "site")
    assert result.returncode == 0, result.output[-3000:]
    for page in ("demo/index.html", "en/demo/index.html"):
        html = (tmp_path / "site" / page).read_text(encoding="utf-8")
        assert html.lstrip().startswith("<!doctype html>"), page
        assert "1650.0" in html, page  # the executed cell's output
        assert external_resources(html) == [], page


_KEEP_SCRIPT = textwrap.dedent(
    """
    import importlib.util, pathlib, sys
    sys.path.insert(0, str(pathlib.Path(sys.argv[1]).parent))  # as MkDocs does while a hook loads
    spec = importlib.util.spec_from_file_location("reload_package", sys.argv[1])
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    source = pathlib.Path(sys.argv[2])
    import ascend_dsa.cli.head_roofline as first
    hook.on_post_build(config={})
    hook.on_pre_build(config={})
    import ascend_dsa.cli.head_roofline as unchanged
    source.write_text(source.read_text().replace("CUBE vs L2 cycles", "EDITED cycles"))
    hook.on_pre_build(config={})
    import ascend_dsa.cli.head_roofline as edited
    print(unchanged is first, edited is first, edited.HELP[:6], sep="|")
    """
)


def test_reload_hook_keeps_an_unchanged_package(tmp_path: Path) -> None:
    """Between builds an unchanged package keeps its modules; an edit after the last build drops them."""
    project = copy_project(ROOT, tmp_path / "project")
    hook = ROOT / "hooks" / "reload_package.py"
    source = project / "src" / "ascend_dsa" / "cli" / "head_roofline.py"
    env = {**os.environ, "PYTHONPATH": str(project / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    completed = subprocess.run(
        [sys.executable, "-c", _KEEP_SCRIPT, str(hook), str(source)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert completed.stdout.strip() == "True|False|EDITED"
