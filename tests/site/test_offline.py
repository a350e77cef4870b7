"""The built site asks no host but its own for anything: pages, style sheets and scripts name no external asset."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml

from ascend_dsa.site import offline
from tests.helpers.project import MUTATIONS
from tests.helpers.site_html import css_urls, html_files, is_external, js_urls, scan_html

if TYPE_CHECKING:
    from tests.helpers.project import BuildResult

#: (script glob below the site, URL prefix, why the URL is never fetched by this site). Anything else fails.
JS_NEVER_FETCHED = (
    ("*", "http://www.w3.org/", "an XML namespace name, not a download"),
    (
        "assets/javascripts/bundle.*.js",
        "https://unpkg.com/mermaid@",
        "only for mermaid diagrams, which ascend_dsa.site.offline refuses",
    ),
    (
        "assets/javascripts/bundle.*.js",
        "https://unpkg.com/resize-observer-polyfill",
        "only in browsers without ResizeObserver (none current)",
    ),
    ("assets/javascripts/bundle.*.js", "https://api.github.com/", "only with repo_url set: see test below"),
    ("assets/javascripts/bundle.*.js", "https://", "the prefix of repository URLs, only with repo_url set"),
    (
        "assets/vendor/pyodide/pyodide.mjs",
        "https://cdn.jsdelivr.net/pyodide/",
        "Pyodide's default host for packages; live.js gives this site as indexURL and packageBaseUrl and loads none",
    ),
)


def external_resources(text: str) -> list[str]:
    """What an HTML document would fetch from another host: elements' URLs and url() in its inline CSS."""
    scan = scan_html(text)
    found = [f"{where}={url}" for where, url in scan.resources if is_external(url)]
    found += [f"style url({url})" for css in scan.css for url in css_urls(css) if is_external(url)]
    return found


def test_no_page_loads_an_external_resource(built_site: Path) -> None:
    """No HTML file has a script, style, image, font or frame from another host (links to other sites are fine)."""
    offenders = {
        str(path.relative_to(built_site)): found
        for path in html_files(built_site)
        if (found := external_resources(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_no_style_sheet_loads_an_external_resource(built_site: Path) -> None:
    """No CSS file imports a style sheet or a font (such as Google Fonts) from another host."""
    sheets = sorted(built_site.rglob("*.css"))
    assert sheets
    offenders = {
        str(path.relative_to(built_site)): bad
        for path in sheets
        if (bad := [url for url in css_urls(path.read_text(encoding="utf-8")) if is_external(url)])
    }
    assert offenders == {}


def test_scripts_name_only_urls_they_never_fetch(built_site: Path) -> None:
    """Every absolute URL in a script is one this site never fetches, for a stated reason (a CDN URL fails)."""
    unexplained = {}
    for path in sorted([*built_site.rglob("*.js"), *built_site.rglob("*.mjs")]):
        name = path.relative_to(built_site).as_posix()
        allowed = [prefix for glob, prefix, _ in JS_NEVER_FETCHED if fnmatch.fnmatch(name, glob)]
        bad = [url for url in js_urls(path.read_text(encoding="utf-8")) if not url.startswith(tuple(allowed))]
        if bad:
            unexplained[name] = bad
    assert unexplained == {}


def test_conditions_for_bundle_urls_hold(project_root: Path, built_site: Path) -> None:
    """The bundle's GitHub and mermaid URLs stay unused: no repo_url in mkdocs.yml, no mermaid diagram in any page."""
    text = (project_root / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^repo_url\s*:", text, flags=re.MULTILINE) is None
    for path in html_files(built_site):
        assert 'class="mermaid"' not in path.read_text(encoding="utf-8"), path


def test_katex_is_served_by_the_site(built_site: Path) -> None:
    """KaTeX and its fonts are part of the site, every page has the loader, and no page names a CDN."""
    for name in ("katex.min.js", "katex.min.css", "fonts/KaTeX_Main-Regular.woff2", "LICENSE"):
        assert (built_site / "assets/vendor/katex" / name).is_file(), name
    loader = (built_site / "assets/javascripts/katex-init.js").read_text(encoding="utf-8")
    assert '"../vendor/katex/"' in loader
    for path in html_files(built_site):
        text = path.read_text(encoding="utf-8")
        assert "assets/javascripts/katex-init.js" in text, path
        assert "cdn.jsdelivr.net" not in text, path


def test_privacy_plugin_fails_on_external_assets(project_root: Path) -> None:
    """mkdocs.yml has Material's privacy plugin with assets checked and not fetched: an external asset warns."""
    config = yaml.load((project_root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)  # noqa: S506 - BaseLoader builds only str, list and dict
    privacy = next(p["privacy"] for p in config["plugins"] if isinstance(p, dict) and "privacy" in p)
    assert privacy["assets"] == "true"
    assert privacy["assets_fetch"] == "false"
    assert config["strict"] == "true"
    assert config["theme"]["font"] == "false"


def test_external_asset_fails_strict_build(mutated_build: BuildResult) -> None:
    """The shared broken build has an external script in a Chinese page and a font in an English one: it fails,
    naming each URL (tests/site/test_build_failures.py checks the lines' form)."""
    assert mutated_build.returncode != 0
    for key in ("external-script", "external-font"):
        [url] = re.findall(r'(?:src|href)="(https://[^"]+)"', MUTATIONS[key].new)
        assert f"External file: {url}" in mutated_build.output, url


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
def test_a_mermaid_diagram_is_refused(html: str, *, found: bool) -> None:
    """A mermaid diagram (which would load mermaid from a CDN) is refused; mermaid source shown as code is not."""
    if found:
        with pytest.raises(offline.CdnDiagram, match="fetch mermaid from a CDN"):
            offline.check_no_cdn_diagram(html)
    else:
        offline.check_no_cdn_diagram(html)


def test_missing_katex_names_the_setup_command(tmp_path: Path) -> None:
    """Without the fetched KaTeX, one line says to run make setup."""
    with pytest.raises(offline.MissingVendoredFile, match=r"katex\.min\.js is missing: run `make setup`"):
        offline.check_vendored(tmp_path)


def test_missing_pyodide_names_the_command_that_fetches_it(tmp_path: Path) -> None:
    """With KaTeX in place but no Pyodide, the one line names the command that fetches it."""
    for name, package in offline.VENDORED.items():
        if package == "katex":
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text("", encoding="utf-8")
    with pytest.raises(offline.MissingVendoredFile) as raised:
        offline.check_vendored(tmp_path)
    message = str(raised.value)
    assert message.endswith("is missing: run `make setup` (or `python scripts/fetch_vendor.py pyodide`)")
    assert "\n" not in message
