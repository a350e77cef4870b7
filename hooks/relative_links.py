"""MkDocs hook: make the language switcher's links relative, and point a notebook's switcher at its twin.

mkdocs-static-i18n writes each language's home as an absolute path under ``site_url`` (``/en/``), which it keeps
for the home pages and for every page it has no twin for, so those links break when the site is served from
another folder than ``site_url`` names. Made relative to the site's root, Material's ``url`` filter turns them into
links relative to the page. The plugin finds twins for Markdown pages only, so a notebook's switcher falls back to
the other language's home; this hook points it at the notebook's twin (``x.ipynb`` and ``x.en.ipynb``) when that
file exists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.plugins import event_priority


def site_path(site_url: str | None) -> str:
    """The path part of ``site_url`` with one trailing slash (``/`` when there is none)."""
    path = urlsplit(site_url or "").path
    return path if path.endswith("/") else f"{path}/"


def root_relative(link: str, base: str) -> str:
    """``link`` relative to the site's root when it is an absolute path under ``base``; unchanged otherwise."""
    if link.startswith(base):
        return link[len(base) :]
    return link


def twin_source(src_uri: str, language: str, target: str, default: str) -> str:
    """The source of the page ``src_uri`` (written in ``language``) in ``target``: ``x.ipynb`` <-> ``x.en.ipynb``."""
    path = Path(src_uri)
    stem = path.stem.removesuffix(f".{language}") if language != default else path.stem
    suffix = "" if target == default else f".{target}"
    return path.with_name(f"{stem}{suffix}{path.suffix}").as_posix()


def twin_url(page_url: str, own_home: str, target_home: str) -> str:
    """The URL of a page's twin: its URL with its language's home prefix swapped for the target's."""
    return target_home + page_url.removeprefix(own_home)


@event_priority(-100)  # after mkdocs-static-i18n (priority 50) has set this page's switcher
def on_page_context(context: Any, page: Any, config: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG001 - MkDocs hook
    """Rewrite ``extra.alternate`` for this page: root-relative links, and a notebook's twin instead of a home."""
    # The plugin sets the switcher as an attribute of ``extra`` (not a key), which is what the theme's template reads.
    alternates = getattr(config["extra"], "alternate", None)
    i18n = config["plugins"].get("i18n")
    if not alternates or i18n is None:
        return context
    base = site_path(config["site_url"])
    language, default = i18n.current_language, i18n.default_language
    # The plugin keeps each language's home link, as it wrote it, in ``extra_alternate``.
    homes = {alt["lang"]: root_relative(alt["link"], base) for alt in i18n.extra_alternate}
    for alt in alternates:
        alt["link"] = root_relative(alt["link"], base)
        is_home = alt["link"] == homes[alt["lang"]]
        if is_home and page.file.src_uri.endswith(".ipynb") and alt["lang"] != language:
            twin = twin_source(page.file.src_uri, language, alt["lang"], default)
            if (Path(config["docs_dir"]) / twin).is_file():
                alt["link"] = twin_url(page.url, homes[language], homes[alt["lang"]])
    return context
