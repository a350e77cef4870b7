"""ascend_dsa.site.plugin: MkDocs reaches the site through one plugin, a thin adapter over ascend_dsa.site.app."""

from __future__ import annotations

import ast
import inspect
import tomllib

import yaml

from ascend_dsa.site import limits, plugin
from ascend_dsa.site.plugin import SiteConfig, SitePlugin
from ascend_dsa.site.state import ServeSession
from tests.helpers.project import ROOT

#: Statements an event method may hold beyond its docstring and ``del`` of unused arguments.
MAX_STATEMENTS = 3


def _methods() -> list[ast.FunctionDef]:
    tree = ast.parse(inspect.getsource(plugin))
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "SitePlugin"]
    return [n for n in cls.body if isinstance(n, ast.FunctionDef)]


def test_every_event_is_a_few_lines_handing_it_on() -> None:
    """No event method holds logic: a handful of statements, no loop, calling the build's app."""
    for method in _methods():
        body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        body = [s for s in body if not isinstance(s, ast.Delete)]
        assert len(body) <= MAX_STATEMENTS, method.name
        assert not [n for n in ast.walk(method) if isinstance(n, ast.For | ast.While | ast.Try)], method.name
        events = method.name.startswith(("on_", "_config", "_page", "_post")) and method.name != "on_serve"
        if events and method.name != "on_startup":
            calls = [ast.unparse(n.func) for n in ast.walk(method) if isinstance(n, ast.Call)]
            assert any(c.startswith(("self.app.", "self._app.")) for c in calls), method.name


def test_the_plugin_is_kept_for_the_whole_serve_process() -> None:
    """MkDocs keeps a plugin with on_startup across rebuilds; under serve it holds the session, else none."""
    assert hasattr(SitePlugin, "on_startup")
    served = SitePlugin()
    served.on_startup(command="serve", dirty=False)
    assert isinstance(served.session, ServeSession)
    built = SitePlugin()
    built.on_startup(command="build", dirty=False)
    assert built.session is None


def test_the_options_default_to_the_limits_defaults() -> None:
    """The block limits of mkdocs.yml default to the limits module's stated defaults."""
    config = SiteConfig()
    config.load_dict({})
    assert config.validate() == ([], [])
    assert config["block_time_limit_s"] == limits.DEFAULT_TIME_LIMIT_S
    assert config["block_output_limit_bytes"] == limits.DEFAULT_OUTPUT_LIMIT_BYTES


def test_mkdocs_finds_it_by_its_entry_point_and_lists_it_last() -> None:
    """pyproject.toml declares the entry point; mkdocs.yml lists the plugin last, so its steps see every other's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["mkdocs.plugins"]["ascend-dsa"] == "ascend_dsa.site.plugin:SitePlugin"
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)  # noqa: S506 - BaseLoader builds only str, list and dict
    names = [next(iter(p)) if isinstance(p, dict) else p for p in config["plugins"]]
    assert names[-1] == "ascend-dsa"
    assert "hooks" not in config
