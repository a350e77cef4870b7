"""An ``edit this page`` and a ``report an error`` link at the foot of every page, when the build knows the repository.

The repository's URL comes from the plugin's ``repo_url`` option, which mkdocs.yml takes from the ``REPO_URL``
environment variable as ``site_url`` takes ``SITE_URL``; without it no page carries either link. MkDocs' own
``repo_url`` is not used: Material would then put a repository widget in the header that asks the host's API for
its stars and forks from the reader's browser, and the site makes no request to another host.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import Final
from urllib.parse import quote, urlencode

from ascend_dsa.lang import Lang, pick
from ascend_dsa.validate import shown

#: The class of the links' paragraph (styled in docs/assets/stylesheets/reader.css).
ACTIONS_CLASS: Final = "page-actions"
_URL: Final = re.compile(r"https?://[^\s\"'<>?#]+[^\s\"'<>?#/]")
_BRANCH: Final = re.compile(r"[A-Za-z0-9._/-]+")


@dataclass(frozen=True)
class Repository:
    """Where the site's sources live: the repository's web address and the branch pages are edited on."""

    url: str
    branch: str = "main"

    def __post_init__(self) -> None:
        """Reject an address that is not an http(s) URL without query, fragment or trailing slash, or a bad branch."""
        if not isinstance(self.url, str) or not _URL.fullmatch(self.url):
            raise ValueError(
                f"repo_url must be the repository's web address such as https://github.com/owner/name, got "
                f"{shown(self.url)}"
            )
        if not isinstance(self.branch, str) or not _BRANCH.fullmatch(self.branch) or ".." in self.branch:
            raise ValueError(f"repo_branch must be a branch name such as main, got {shown(self.branch)}")


def repository(url: str, branch: str = "main") -> Repository | None:
    """The repository the plugin's options name, or None when ``url`` is empty (no links are added)."""
    if isinstance(url, str) and not url.strip():
        return None
    return Repository(url.rstrip("/") if isinstance(url, str) else url, branch)


def edit_url(repo: Repository, src_uri: str) -> str:
    """Where the source of the page ``src_uri`` (``discussion/two-chips.en.md``) is edited."""
    return f"{repo.url}/edit/{repo.branch}/docs/{quote(src_uri)}"


def report_url(repo: Repository, src_uri: str, title: str) -> str:
    """A new issue about the page, its title and body naming the page."""
    query = urlencode({"title": f"Error on '{title}' ({src_uri})", "body": f"Page: docs/{src_uri}\n\nWhat is wrong:\n"})
    return f"{repo.url}/issues/new?{query}"


def with_page_actions(html: str, src_uri: str, title: str, lang: Lang, repo: Repository | None) -> str:
    """``html`` (a page's article) followed by its edit and report links, or as it is when there is no repository."""
    if repo is None:
        return html
    edit, report = escape(edit_url(repo, src_uri)), escape(report_url(repo, src_uri, title))
    links = pick(
        lang,
        f'<a href="{edit}">编辑本页</a> · <a href="{report}">报告错误</a>',
        f'<a href="{edit}">Edit this page</a> · <a href="{report}">Report an error</a>',
    )
    return f'{html}\n<p class="{ACTIONS_CLASS}" data-search-exclude>{links}</p>\n'
