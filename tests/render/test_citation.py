"""CITATION.cff and the "cite this site" block come from one record; the file is valid CFF 1.2 as checked in."""

from __future__ import annotations

import re
import tomllib

import pytest

from ascend_dsa.facts.citation import PROJECT_CITATION
from ascend_dsa.render.citation import render_citation, render_citation_cff
from tests.helpers.project import ROOT

#: Keys CFF 1.2 requires at the top level.
REQUIRED_KEYS = ("cff-version", "message", "title", "authors")


def _pyproject_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])


def _top_level(cff: str) -> dict[str, str]:
    """The file's top-level keys and their one-line values (the standard library has no YAML reader)."""
    pairs = {}
    for line in cff.splitlines():
        match = re.fullmatch(r"([a-z][a-z-]*):(?: (.*))?", line)
        if match:
            pairs[match[1]] = (match[2] or "").strip('"')
    return pairs


def test_the_checked_in_file_is_what_the_record_gives() -> None:
    """CITATION.cff at the root is render_citation_cff at the project's version, byte for byte."""
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert text == render_citation_cff(version=_pyproject_version())


def test_the_file_is_cff_with_its_required_keys() -> None:
    """cff-version 1.2.0, a message, the title, at least one named author; the version is pyproject's."""
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    keys = _top_level(text)
    assert set(REQUIRED_KEYS) <= set(keys)
    assert keys["cff-version"] == "1.2.0"
    assert keys["title"] == PROJECT_CITATION.title.en
    assert keys["version"] == _pyproject_version()
    assert re.search(r'^authors:\n  - name: "[^"]+"$', text, re.MULTILINE)


def test_the_title_is_the_english_sites_name() -> None:
    """The citation's title is the English edition's site name in mkdocs.yml."""
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f'site_name: "{PROJECT_CITATION.title.en}"' in mkdocs


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_cite_block_gives_the_same_record_as_bibtex(lang: str) -> None:
    """The block names the title, authors and version, and its BibTeX carries the same."""
    block = render_citation(lang=lang, version="9.9.9")  # type: ignore[arg-type]
    assert "```bibtex\n@software{ascend_dsa," in block
    assert f"title = {{{PROJECT_CITATION.title.en}}}" in block
    assert "version = {9.9.9}" in block
    assert PROJECT_CITATION.title.in_(lang) in block.split("```", 1)[0]  # type: ignore[arg-type]


@pytest.mark.parametrize("version", ["", "1\n2", 'a"b'])
def test_a_version_that_cannot_be_written_is_refused(version: str) -> None:
    """A blank, two-line or quoted version would break the file, so it is refused."""
    with pytest.raises(ValueError, match="version must be a one-line version string"):
        render_citation_cff(version=version)
