"""ascend_dsa.site.doc_comments: ``#:`` comments become the docstrings of the constants below them."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import griffe

from ascend_dsa.site import doc_comments
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from pathlib import Path


SOURCE = textwrap.dedent(
    '''
    """A module."""

    # An ordinary comment.
    PLAIN = 1
    #: First line.
    #: Second line.
    DOCUMENTED = 2
    STRING = 3
    """Its own docstring."""


    class Box:
        """A class."""

        #: Inside a class.
        size: int = 4
    '''
)


def test_comment_docstring_joins_the_lines_directly_above() -> None:
    """Only the #: lines right above the assignment count, in order; anything else gives None."""
    lines = ["x = 0", "#: one", "  #: two", "y = 1", "# plain", "z = 2"]
    assert doc_comments.comment_docstring(lines, 4) == "one\ntwo"
    assert doc_comments.comment_docstring(lines, 6) is None
    assert doc_comments.comment_docstring(lines, 1) is None


def test_extension_documents_module_and_class_constants(tmp_path: Path) -> None:
    """Loaded through Griffe, #: comments become docstrings; real docstrings and plain comments are left alone."""
    (tmp_path / "sample.py").write_text(SOURCE, encoding="utf-8")
    extensions = griffe.load_extensions(doc_comments.DocComments())
    loaded = griffe.load("sample", search_paths=[tmp_path], extensions=extensions)
    assert loaded["DOCUMENTED"].docstring.value == "First line.\nSecond line."
    assert loaded["PLAIN"].docstring is None
    assert loaded["STRING"].docstring.value == "Its own docstring."
    assert loaded["Box"]["size"].docstring.value == "Inside a class."


def test_mkdocs_yml_loads_the_extension_by_its_import_path(tmp_path: Path) -> None:
    """mkdocs.yml names the extension by import path, and griffe loading it by that path documents constants."""
    path = "ascend_dsa.site.doc_comments:DocComments"
    assert f"- {path}" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (tmp_path / "sample.py").write_text(SOURCE, encoding="utf-8")
    loaded = griffe.load("sample", search_paths=[tmp_path], extensions=griffe.load_extensions(path))
    assert loaded["DOCUMENTED"].docstring.value == "First line.\nSecond line."
