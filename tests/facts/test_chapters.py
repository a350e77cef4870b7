"""The chapter registry is the one place a chapter is named: mkdocs.yml's nav, docs/ and the ledgers agree with it.

mkdocs.yml cannot import Python, so its ``nav`` and English ``nav_translations`` are compared with what
``SITE_CHAPTERS`` says (same pages, same order, same sections, same titles in both languages); a page added to the
nav, to docs/ or to a ledger but not to the registry fails here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest
import yaml

from ascend_dsa.facts.chapters import (
    CHAPTERS_BY_KEY,
    READING_PATHS,
    SITE_CHAPTERS,
    Chapter,
    ReadingPath,
    ReadingStop,
    chapter_named,
    ledger_chapters,
    primer_chapters,
)
from ascend_dsa.lang import Text
from ascend_dsa.report.ledgers import LEDGERS
from ascend_dsa.report.rules import CHAPTERS

ROOT: Final = Path(__file__).resolve().parents[2]
DOCS: Final = ROOT / "docs"


def _mkdocs_config() -> dict[str, object]:
    """mkdocs.yml as plain strings, lists and dicts (its ``!!python`` tags are not needed here)."""
    config: dict[str, object] = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)  # noqa: S506 - BaseLoader builds only str, list and dict
    return config


def registry_nav(chapters: tuple[Chapter, ...]) -> list[object]:
    """The nav the chapters make, as mkdocs.yml writes it: a page ``{title: file}``, a section ``{title: [...]}``."""
    nav: list[object] = []
    for chapter in chapters:
        items = nav
        for section in chapter.sections:
            last = items[-1] if items else None
            if isinstance(last, dict) and list(last) == [section.zh] and isinstance(last[section.zh], list):
                items = last[section.zh]
            else:
                opened: list[object] = []
                items.append({section.zh: opened})
                items = opened
        items.append(chapter.file if chapter.title is None else {chapter.title.zh: chapter.file})
    return nav


def registry_titles() -> set[Text]:
    """Every title the nav shows: the chapters' and their sections'."""
    return {
        *(chapter.title for chapter in SITE_CHAPTERS if chapter.title is not None),
        *(section for chapter in SITE_CHAPTERS for section in chapter.sections),
    }


def test_the_nav_is_the_registrys() -> None:
    """mkdocs.yml's nav lists the registry's pages in its order, under its sections, with its Chinese titles."""
    assert _mkdocs_config()["nav"] == registry_nav(SITE_CHAPTERS)


def test_the_english_nav_titles_are_the_registrys() -> None:
    """nav_translations gives each title its registry English, and nothing else (a title alike in both is left out)."""
    plugins = _mkdocs_config()["plugins"]
    assert isinstance(plugins, list)
    i18n = next(plugin["i18n"] for plugin in plugins if isinstance(plugin, dict) and "i18n" in plugin)
    english = next(language for language in i18n["languages"] if language["locale"] == "en")
    expected = {title.zh: title.en for title in registry_titles() if title.zh != title.en}
    assert english["nav_translations"] == expected


def test_a_page_added_to_the_nav_alone_is_caught() -> None:
    """A nav built from a registry missing one chapter, or with two swapped, is not the registry's nav."""
    nav = registry_nav(SITE_CHAPTERS)
    assert registry_nav(SITE_CHAPTERS[:-1]) != nav
    assert registry_nav((SITE_CHAPTERS[1], SITE_CHAPTERS[0], *SITE_CHAPTERS[2:])) != nav


def test_nested_sections_nest_once() -> None:
    """Consecutive chapters of one section share it; a section's own page is listed bare."""
    outer, inner = Text("外", "outer"), Text("内", "inner")
    chapters = (
        Chapter("a/index.md", None, (outer,)),
        Chapter("a/b.md", Text("乙", "b"), (outer, inner)),
        Chapter("a/c.md", Text("丙", "c"), (outer, inner)),
        Chapter("d.md", Text("丁", "d")),
    )
    assert registry_nav(chapters) == [
        {"外": ["a/index.md", {"内": [{"乙": "a/b.md"}, {"丙": "a/c.md"}]}]},
        {"丁": "d.md"},
    ]


def test_every_page_under_docs_is_a_chapter_in_both_languages() -> None:
    """Each Chinese page of docs/ is a chapter, and each chapter has its Chinese and English sources."""
    sources = {
        path.relative_to(DOCS).as_posix()
        for suffix in ("md", "ipynb")
        for path in DOCS.rglob(f"*.{suffix}")
        if ".en." not in path.name
    }
    assert sources == {chapter.file for chapter in SITE_CHAPTERS}
    for chapter in SITE_CHAPTERS:
        stem, _, suffix = chapter.file.rpartition(".")
        assert (DOCS / f"{stem}.en.{suffix}").is_file(), chapter.file


def test_keys_are_unique_and_urls_are_the_sites() -> None:
    """One chapter per key; a page's URL is its folder for an index page, the empty path for the home page."""
    assert len(CHAPTERS_BY_KEY) == len(SITE_CHAPTERS)
    assert chapter_named("index").url == ""
    assert chapter_named("design/index").url == "design/"
    assert chapter_named("design/what-if").url == "design/what-if/"
    assert chapter_named("discussion/heads-per-core").url == "discussion/heads-per-core/"


def test_a_section_page_is_named_by_its_section() -> None:
    """A chapter without a title reads as its innermost section."""
    assert chapter_named("design/index").name == Text("设计空间", "Design space")
    assert chapter_named("pipeline").name == Text("流水线", "The pipeline")


def test_each_ledger_names_its_chapters_from_the_registry() -> None:
    """A chapter's ledger is a ledger there is, and each ledger's chapters are the registry's for it."""
    assert {chapter.ledger for chapter in SITE_CHAPTERS} - {""} <= set(LEDGERS)
    for key, ledger in LEDGERS.items():
        assert ledger.chapters == ledger_chapters(key)
    assert ledger_chapters("report") == CHAPTERS


def test_primers_sit_in_the_algorithm_section_outside_every_ledger() -> None:
    """The three primers are marked, under the algorithm recap, and no ledger's chapter (no claims)."""
    assert primer_chapters() == ("algorithm/double-buffering", "algorithm/roofline", "algorithm/nd-nz")
    for key in primer_chapters():
        chapter = chapter_named(key)
        assert chapter.sections == (Text("算法回顾", "Algorithm recap"),)
        assert chapter.ledger == ""
        assert key not in CHAPTERS
    with pytest.raises(ValueError, match=r"^a primer is no chapter of the report and carries no claims, got ledger"):
        Chapter("algorithm/x.md", Text("甲", "x"), primer=True, ledger="report")


@pytest.mark.parametrize(
    ("file", "title", "message"),
    [
        ("pipeline", Text("流水线", "The pipeline"), r"^file must be a page's path under docs/ ending in .md or "),
        ("/pipeline.md", Text("流水线", "The pipeline"), r"^file must be a page's path under docs/"),
        ("design/index.md", None, r"^a chapter without a title must be a section's own page, got 'design/index.md'$"),
    ],
)
def test_a_malformed_chapter_is_rejected(file: str, title: Text | None, message: str) -> None:
    """A file that is no page's source, or a titleless chapter outside every section, raises in one line."""
    with pytest.raises(ValueError, match=message):
        Chapter(file, title)


def test_an_unknown_chapter_is_named() -> None:
    """Looking up a chapter that is not in the registry names it and gives an example."""
    with pytest.raises(ValueError, match=r"^chapter must be a page of the site such as 'pipeline', got 'pipelines'$"):
        chapter_named("pipelines")


def test_a_reading_path_names_chapters_the_site_has_once_each() -> None:
    """A stop must be a chapter of the site, and a path must list its chapters once each."""
    assert all(stop.chapter in CHAPTERS_BY_KEY for path in READING_PATHS for stop in path.stops)
    with pytest.raises(ValueError, match="chapter must be a page of the site"):
        ReadingStop("design", Text("问", "question"))
    stop = ReadingStop("pipeline", Text("问", "question"))
    with pytest.raises(ValueError, match="path twice must list its chapters once each"):
        ReadingPath("twice", Text("读者", "reader"), (stop, stop))
    with pytest.raises(ValueError, match="path none must list its chapters once each"):
        ReadingPath("none", Text("读者", "reader"), ())


def test_the_student_path_goes_through_the_primers_before_the_chapters_that_use_them() -> None:
    """A student reads the three primers (issue 26 item 4), the roofline one before the heads-per-core chapter."""
    student = next(path for path in READING_PATHS if path.key == "student")
    keys = [stop.chapter for stop in student.stops]
    primers = ["algorithm/nd-nz", "algorithm/double-buffering", "algorithm/roofline"]
    assert [key for key in keys if key in primers] == primers
    assert keys.index("algorithm/roofline") < keys.index("discussion/heads-per-core")
