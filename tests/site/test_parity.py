"""The English edition mirrors the Chinese one: same pages, same sections in the same order, same guarded figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ascend_dsa.render.fences import blank_fences, fences
from tests.helpers.project import ROOT
from tests.helpers.site_html import page_paths

DOCS = ROOT / "docs"
LANG_ARGUMENT = re.compile(r"""\blang=["'](?P<lang>\w+)["']""")
HAN = re.compile(r"[\u4e00-\u9fff]")


def chinese_pages() -> list[Path]:
    """Every Chinese (default-language) page below docs/."""
    return sorted(p for p in DOCS.rglob("*.md") if not p.name.endswith(".en.md") and "vendor" not in p.parts)


def twin(page: Path) -> Path:
    """The English twin of a Chinese page."""
    return page.with_name(page.name.removesuffix(".md") + ".en.md")


#: The comments a page uses to mark where its explanation and its figures start (outside code).
MARKER = re.compile(r"^<!-- (explanation|figures) -->$", re.MULTILINE)


def structure(text: str) -> list[str]:
    """The page's skeleton, in order: ``##`` per level-2 heading, ``exec:<id>`` per executed block, ``<!-- x -->``."""
    outside = blank_fences(text)
    found = [(fence.start, f"exec:{fence.block_id}") for fence in fences(text) if fence.executed]
    found += [(m.start(), "##") for m in re.finditer(r"^##\s", outside, flags=re.MULTILINE)]
    found += [(m.start(), f"<!-- {m[1]} -->") for m in MARKER.finditer(outside)]
    return [item for _, item in sorted(found)]


def exec_block_languages(text: str) -> set[str]:
    """The ``lang="..."`` arguments used inside executed blocks."""
    return {m["lang"] for fence in fences(text) if "exec=" in fence.info for m in LANG_ARGUMENT.finditer(fence.code)}


PAGES = [pytest.param(p, id=p.relative_to(DOCS).as_posix()) for p in chinese_pages()]


def test_every_page_has_a_twin() -> None:
    """Each Chinese page has an English twin and each English page a Chinese original."""
    english = sorted(DOCS.rglob("*.en.md"))
    assert [twin(p) for p in chinese_pages()] == english


@pytest.mark.parametrize("page", PAGES)
def test_same_sections_and_figures(page: Path) -> None:
    """Both languages have the same ## headings, exec block ids and explanation/figures markers, in the same order."""
    assert structure(page.read_text(encoding="utf-8")) == structure(twin(page).read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", PAGES)
def test_exec_blocks_have_unique_ids_and_the_page_language(page: Path) -> None:
    """Every executed block has an id, ids are unique per page, and each block asks for its page's language."""
    for path, lang in ((page, "zh"), (twin(page), "en")):
        text = path.read_text(encoding="utf-8")
        ids = [item for item in structure(text) if item.startswith("exec:")]
        assert "exec:<no id>" not in ids, path
        assert len(ids) == len(set(ids)), path
        assert exec_block_languages(text) <= {lang}, path


def test_structure_reader_sees_headings_blocks_markers_and_ignores_code() -> None:
    """The skeleton counts ## and markers outside code and exec ids; a ## or marker inside a fence is neither."""
    text = (
        "# T\n\n## A\n\n```bash\n## not a heading\n<!-- figures -->\n```\n\n<!-- explanation -->\n\n"
        '```python exec="true" id="x"\nprint(1)\n```\n\n## B\n'
    )
    assert structure(text) == ["##", "<!-- explanation -->", "exec:x", "##"]


def test_nav_titles_are_translated() -> None:
    """Every nav title with Chinese characters has an English nav_translation, so the English nav is English."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)  # noqa: S506 - BaseLoader builds only str, list and dict
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    english = next(lang for lang in i18n["languages"] if lang["locale"] == "en")
    translations = english.get("nav_translations", {})

    def titles(items: list[object]) -> list[str]:
        found = []
        for item in items:
            if isinstance(item, dict):
                for title, value in item.items():
                    found.append(title)
                    if isinstance(value, list):
                        found += titles(value)
        return found

    untranslated = [t for t in titles(config["nav"]) if HAN.search(t) and t not in translations]
    assert untranslated == []


def test_built_editions_have_the_same_pages_and_sections(built_site: Path) -> None:
    """The built site has every page under / and under /en/, with as many <h2> in each pair (generated ones too)."""
    paths = page_paths(built_site)
    chinese = [p for p in paths if not p.startswith("en/")]
    english = [p.removeprefix("en/") for p in paths if p.startswith("en/")]
    assert sorted(chinese) == sorted(english)
    for path in chinese:
        zh = (built_site / path / "index.html").read_text(encoding="utf-8")
        en = (built_site / "en" / path / "index.html").read_text(encoding="utf-8")
        assert zh.count("<h2") == en.count("<h2"), path
