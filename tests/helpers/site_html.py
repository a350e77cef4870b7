"""Reading a built site: its pages, the ids, links and loaded resources in each, and the URLs in CSS and JS."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from pathlib import Path

#: ``<link rel=...>`` values that name a document without the browser fetching it.
NON_LOADING_RELS = frozenset({"canonical", "alternate", "next", "prev", "author", "license", "help", "search"})
#: Attributes whose URL the browser fetches, on any element.
RESOURCE_ATTRIBUTES = frozenset({"src", "poster", "data", "background"})
#: SVG elements whose ``href`` / ``xlink:href`` is fetched.
SVG_FETCHING = frozenset({"image", "use", "feimage", "script"})
CSS_URL = re.compile(r"""url\(\s*(['"]?)(?P<url>[^'")]*)\1\s*\)|@import\s+(['"])(?P<import>[^'"]+)\3""")
#: A URL at the start of a JavaScript string literal: what a loader would fetch (comments are not matched).
JS_URL = re.compile(r"""["'`](?P<url>(?:https?:)?//[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+[^"'`\s]*)""")


@dataclass
class PageScan:
    """What one HTML file declares: element ids, ``<a href>`` links, fetched resources and inline CSS."""

    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)
    resources: list[tuple[str, str]] = field(default_factory=list)  # (tag.attribute, URL)
    css: list[str] = field(default_factory=list)


def _fetched(tag: str, values: dict[str, str]) -> list[tuple[str, str]]:
    """(attribute, URL) of what the browser fetches for one element."""
    found = [(key, values[key]) for key in sorted(RESOURCE_ATTRIBUTES & values.keys()) if values[key]]
    if tag == "link" and values.get("href"):
        rels = set(values.get("rel", "").lower().split())
        if not rels or not rels <= NON_LOADING_RELS:
            found.append(("href", values["href"]))
    if tag in SVG_FETCHING:
        found += [(key, values[key]) for key in ("href", "xlink:href") if values.get(key)]
    for key in ("srcset", "imagesrcset"):
        found += [(key, c.split()[0]) for c in values.get(key, "").split(",") if c.strip()]
    return found


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = PageScan()
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for key in ("id", "name") if tag == "a" else ("id",):
            if values.get(key):
                self.scan.ids.add(values[key])
        if tag == "a" and "href" in values:
            self.scan.links.append(values["href"])
        self.scan.resources += [(f"{tag}.{key}", url) for key, url in _fetched(tag, values)]
        if values.get("style"):
            self.scan.css.append(values["style"])
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.scan.css.append(data)


def scan_html(text: str) -> PageScan:
    """Ids, links, resources and inline CSS of one HTML document."""
    scanner = _Scanner()
    scanner.feed(text)
    scanner.close()
    return scanner.scan


def html_files(site: Path) -> list[Path]:
    """Every HTML file of the built site (both languages, the 404 page), sorted."""
    return sorted(site.rglob("*.html"))


def page_html(site: Path, path: str) -> str:
    """The built HTML of the page at URL path ``path`` (``""``, ``pipeline/``, ``en/pipeline/``)."""
    return (site / path / "index.html").read_text(encoding="utf-8")


def article(html: str) -> str:
    """A page's ``<article>``, from its opening tag up to its closing one ("" when the page has none)."""
    return html[html.find("<article") : html.find("</article>")]


def page_paths(site: Path) -> list[str]:
    """URL paths (``""``, ``discussion/heads-per-core/``, ``en/...``) of every page built from docs, sorted."""
    paths = []
    for path in site.rglob("index.html"):
        parts = path.parent.relative_to(site).parts
        if "assets" not in parts:
            paths.append("/".join(parts) + "/" if parts else "")
    return sorted(paths)


def css_urls(text: str) -> list[str]:
    """Every ``url(...)`` and ``@import "..."`` in a style sheet or style attribute."""
    return [match["url"] or match["import"] for match in CSS_URL.finditer(text) if match["url"] or match["import"]]


def js_urls(text: str) -> list[str]:
    """Every absolute URL that starts a string literal in a script."""
    return [match["url"] for match in JS_URL.finditer(text)]


def is_external(url: str) -> bool:
    """Whether fetching ``url`` would go to a network host (rather than this site, ``data:`` or ``blob:``)."""
    parts = urlsplit(url.strip())
    if parts.scheme in {"data", "blob", "about", "javascript", "mailto", "tel"}:
        return False
    return bool(parts.scheme) or url.strip().startswith("//")


def resolve(site: Path, source: Path, url: str) -> tuple[Path, str] | None:
    """The file an internal ``url`` in ``source`` points to and its fragment; None for external or special URLs."""
    if is_external(url) or urlsplit(url).scheme:
        return None
    parts = urlsplit(url)
    if parts.path.startswith("/"):
        target = posixpath.normpath(unquote(parts.path).lstrip("/") or ".")
    else:
        base = source.parent.relative_to(site).as_posix()
        target = posixpath.normpath(posixpath.join(base, unquote(parts.path))) if parts.path else None
    path = source if target is None else site / target
    if path.is_dir() or (target is not None and parts.path.endswith("/")):
        path /= "index.html"
    return path, parts.fragment
