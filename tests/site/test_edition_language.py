"""Each edition in its own language (API labels, tooltips, permalinks, meta, CLI summaries) and stable anchors.

Chinese headings carry explicit ids, their English twin's, so an anchor is readable, the same in both editions,
and does not move when the heading or the page around it is reworded.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from ascend_dsa import cli
from ascend_dsa.render.fences import blank_fences
from tests.helpers.site_html import article, page_html, page_paths

if TYPE_CHECKING:
    from pathlib import Path

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_HEADING_ID = re.compile(r'<h[1-6] id="([^"]*)"')
_SECTION_LABEL = re.compile(r'<span class="doc-section-title">([^<]*)|<th>([^<]*)</th>')
_TOGGLE_TITLES = re.compile(r'<label class="md-header__button md-icon" title="([^"]*)"')
_PERMALINK_TITLES = re.compile(r'class="headerlink" href="#[^"]*" title="([^"]*)"')
_DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)"')
#: An anchor that says nothing (toc's fallback for a heading it cannot slug) or depends on its neighbours (toc's
#: ``_1`` suffix for a repeated slug); API anchors are dotted Python names, whose digits are their own.
_NUMBERED_ANCHOR = re.compile(r"^[^.]*_\d+$")
#: A Markdown heading line and its explicit id, if it has one.
_MARKDOWN_HEADING = re.compile(r"^#{1,6} (?P<text>.*?)(?: \{#(?P<id>[A-Za-z][\w-]*)\})?$")


@pytest.mark.parametrize(("edition", "lang"), [("", "zh"), ("en/", "en")])
def test_api_reference_labels_are_in_the_editions_language(built_site: Path, edition: str, lang: str) -> None:
    """mkdocstrings' section titles and table heads (Returns, Raises, Type...) speak the edition's language."""
    labels = set()
    for path in page_paths(built_site):
        if path.startswith(f"{edition}reference/api/") and (edition or not path.startswith("en/")):
            for title, head in _SECTION_LABEL.findall(article(page_html(built_site, path))):
                labels.add((title or head).strip())
    assert labels, edition
    chinese = {label for label in labels if CJK.search(label)}
    assert chinese == (labels if lang == "zh" else set()), sorted(labels)


@pytest.mark.parametrize(("edition", "lang"), [("", "zh"), ("en/", "en")])
def test_tooltips_permalinks_and_meta_are_in_the_editions_language(built_site: Path, edition: str, lang: str) -> None:
    """The scheme toggle's tooltips, every heading's permalink title and the meta description are in the language."""
    for path in page_paths(built_site):
        if path.startswith("en/") != (edition == "en/"):
            continue
        html = page_html(built_site, path)
        toggles, permalinks = _TOGGLE_TITLES.findall(html), _PERMALINK_TITLES.findall(html)
        descriptions = _DESCRIPTION.findall(html)
        assert len(toggles) == 3, path
        assert descriptions, path
        for text in (*toggles, *permalinks, *descriptions):
            if lang == "zh":
                assert CJK.search(text), (path, text)
            else:
                assert not CJK.search(text.replace("昇腾", "")), (path, text)


def test_cli_reference_summaries_follow_the_edition(built_site: Path) -> None:
    """The Chinese command-line page gives each command a Chinese summary; the English page the program's own."""
    zh, en = article(page_html(built_site, "reference/cli/")), article(page_html(built_site, "en/reference/cli/"))
    for module in cli.SUBCOMMANDS:
        assert module.HELP_ZH.split("（")[0][:12] in zh, module.NAME
        assert f"<p>{module.HELP_ZH}" not in en, module.NAME
        assert module.HELP.split(",")[0] in en, module.NAME


def test_chinese_headings_share_their_english_twins_anchors(built_site: Path) -> None:
    """Every heading of a Chinese page has the id of its English twin's heading, and none is a bare ``_N``."""
    checked = 0
    for path in page_paths(built_site):
        if path.startswith("en/"):
            continue
        zh_ids = _HEADING_ID.findall(article(page_html(built_site, path)))
        en_ids = _HEADING_ID.findall(article(page_html(built_site, f"en/{path}")))
        assert zh_ids == en_ids, path
        assert not [anchor for anchor in zh_ids if _NUMBERED_ANCHOR.search(anchor)], (path, zh_ids)
        checked += len(zh_ids)
    assert checked >= 100


def _markdown_headings(text: str) -> list[re.Match[str]]:
    """The heading lines of a Markdown page, outside fenced code."""
    return [m for line in blank_fences(text).splitlines() if (m := _MARKDOWN_HEADING.match(line))]


def test_every_chinese_heading_in_the_sources_names_its_anchor(project_root: Path) -> None:
    """A Chinese heading's anchor is written beside it, so rewording it or its neighbours cannot move the anchor."""
    missing = []
    for source in sorted((project_root / "docs").rglob("*.md")):
        if source.name.endswith(".en.md"):
            continue
        missing += [
            f"{source.relative_to(project_root)}: {match.group(0)}"
            for match in _markdown_headings(source.read_text(encoding="utf-8"))
            if CJK.search(match["text"]) and not match["id"]
        ]
    assert missing == []


def test_an_explicit_anchor_survives_rewording(project_root: Path) -> None:
    """Rewording a page's headings and adding one before them keeps every anchor (attr_list + toc, as the site)."""
    markdown = pytest.importorskip("markdown")
    page = (project_root / "docs" / "optimizations" / "skip-scale.md").read_text(encoding="utf-8")
    headings = [match for match in _markdown_headings(page) if match["id"]]
    assert len(headings) >= 4
    reworded = ["## 新加的一节 {#a-new-section}", "新的话。"]
    reworded += [match.group(0).replace(match["text"], f"改写过的{match['text']}") for match in headings]
    ids = _HEADING_ID.findall(markdown.markdown("\n\n".join(reworded), extensions=["attr_list", "toc"]))
    assert ids == ["a-new-section", *(match["id"] for match in headings)]
