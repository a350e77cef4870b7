"""The edit and report links: on every page when the build names a repository (REPO_URL), absent otherwise."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from mkdocs.config import load_config

from ascend_dsa.site.page_actions import Repository, edit_url, report_url, repository, with_page_actions
from tests.helpers.project import ROOT

REPO = Repository("https://github.com/owner/ascend-dsa")


def test_no_repository_no_links() -> None:
    """Without a repository URL the page is left as it is."""
    assert repository("") is None
    assert with_page_actions("<p>x</p>", "pipeline.md", "流水线", "zh", None) == "<p>x</p>"


@pytest.mark.parametrize(
    ("lang", "edit", "report"), [("zh", "编辑本页", "报告错误"), ("en", "Edit this page", "Report an error")]
)
def test_a_repository_adds_both_links_in_the_pages_language(lang: str, edit: str, report: str) -> None:
    """Both links follow the article, in the edition's words, out of the search index."""
    html = with_page_actions("<p>x</p>", "discussion/two-chips.en.md", "Two chips", lang, REPO)  # type: ignore[arg-type]
    assert html.startswith("<p>x</p>")
    assert f'<a href="https://github.com/owner/ascend-dsa/edit/main/docs/discussion/two-chips.en.md">{edit}</a>' in html
    assert f">{report}</a>" in html
    assert "data-search-exclude" in html


def test_the_report_link_opens_an_issue_naming_the_page() -> None:
    """The new issue's title and body name the page's title and source."""
    url = urlsplit(report_url(REPO, "pipeline.md", "流水线"))
    assert url.path == "/owner/ascend-dsa/issues/new"
    query = parse_qs(url.query)
    assert query["title"] == ["Error on '流水线' (pipeline.md)"]
    assert query["body"][0].startswith("Page: docs/pipeline.md")
    assert (
        edit_url(Repository("https://example.org/r", "docs-v2"), "a b.md")
        == "https://example.org/r/edit/docs-v2/docs/a%20b.md"
    )


@pytest.mark.parametrize("url", ["github.com/owner/name", "https://x/y?z", "https://x/ y", "ftp://x/y", 'https://x/"'])
def test_a_repository_url_that_is_not_one_is_refused(url: str) -> None:
    """The URL must be a web address without query, fragment, blank or quote."""
    with pytest.raises(ValueError, match="repo_url must be the repository's web address"):
        repository(url)


def test_a_trailing_slash_is_dropped_and_a_bad_branch_refused() -> None:
    """``https://host/repo/`` is the same repository; a branch with a blank or ``..`` is refused."""
    assert repository("https://github.com/owner/name/") == Repository("https://github.com/owner/name")
    with pytest.raises(ValueError, match="repo_branch must be a branch name"):
        repository("https://github.com/owner/name", "a b")
    with pytest.raises(ValueError, match="repo_branch must be a branch name"):
        repository("https://github.com/owner/name", "../x")


@pytest.mark.parametrize(
    ("env", "expected"), [({}, ""), ({"REPO_URL": "https://github.com/o/r"}, "https://github.com/o/r")]
)
def test_mkdocs_yml_takes_the_repository_from_repo_url(
    env: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As SITE_URL gives site_url, REPO_URL gives the plugin's repo_url; unset, it is empty (no links)."""
    monkeypatch.delenv("REPO_URL", raising=False)
    monkeypatch.delenv("REPO_BRANCH", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    config = load_config(str(ROOT / "mkdocs.yml"))
    plugin = config.plugins["ascend-dsa"]
    assert plugin.config.repo_url == expected  # type: ignore[attr-defined]
    assert plugin.config.repo_branch == "main"  # type: ignore[attr-defined]
    assert config.repo_url is None  # Material's repository widget would ask the host's API from the browser
