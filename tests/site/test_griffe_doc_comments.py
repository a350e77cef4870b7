"""The Griffe extension that turns ``#:`` comments into the docstrings of the constants below them."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import griffe

from tests.conftest import ROOT, load_module

if TYPE_CHECKING:
    from pathlib import Path
    from types import ModuleType


def load_extension() -> ModuleType:
    """hooks/griffe_doc_comments.py as a module (hooks/ is not a package)."""
    return load_module("griffe_doc_comments", ROOT / "hooks" / "griffe_doc_comments.py")


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
    extension = load_extension()
    lines = ["x = 0", "#: one", "  #: two", "y = 1", "# plain", "z = 2"]
    assert extension.comment_docstring(lines, 4) == "one\ntwo"
    assert extension.comment_docstring(lines, 6) is None
    assert extension.comment_docstring(lines, 1) is None


def test_extension_documents_module_and_class_constants(tmp_path: Path) -> None:
    """Loaded through Griffe, #: comments become docstrings; real docstrings and plain comments are left alone."""
    extension = load_extension()
    (tmp_path / "sample.py").write_text(SOURCE, encoding="utf-8")
    extensions = griffe.load_extensions(extension.DocComments())
    loaded = griffe.load("sample", search_paths=[tmp_path], extensions=extensions)
    assert loaded["DOCUMENTED"].docstring.value == "First line.\nSecond line."
    assert loaded["PLAIN"].docstring is None
    assert loaded["STRING"].docstring.value == "Its own docstring."
    assert loaded["Box"]["size"].docstring.value == "Inside a class."
