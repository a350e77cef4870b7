"""The project's citation record: authors, and texts a one-line YAML or BibTeX value can hold."""

from __future__ import annotations

import dataclasses

import pytest

from ascend_dsa.facts.citation import PROJECT_CITATION
from ascend_dsa.lang import Text


def test_the_record_names_an_author_and_the_report_it_accompanies() -> None:
    """At least one author; the companion names the report's path and commit."""
    assert PROJECT_CITATION.authors
    assert "a123d0b" in PROJECT_CITATION.companion_to.en


def test_a_citation_without_an_author_is_refused() -> None:
    """Every citation has an author."""
    with pytest.raises(ValueError, match="at least one author"):
        dataclasses.replace(PROJECT_CITATION, authors=())


@pytest.mark.parametrize("title", ['a "quoted" title', "two\nlines", "a {brace}"])
def test_a_text_a_citation_cannot_hold_is_refused(title: str) -> None:
    """A quote, a line break or a brace would break the YAML or the BibTeX."""
    with pytest.raises(ValueError, match="citation text must be one line"):
        dataclasses.replace(PROJECT_CITATION, title=Text("标题", title))
