"""Griffe extension: a constant documented by ``#:`` comment lines above it gets them as its docstring.

The package documents module and class constants the Sphinx way (``#: what it is`` above the assignment); Griffe
reads only string docstrings, so without this the API pages would leave those constants out and a cross-reference
to one (``[`LIMITS`][]``) would not resolve. mkdocs.yml loads it through mkdocstrings' ``extensions`` option
(``ascend_dsa.site.doc_comments:DocComments``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import griffe

if TYPE_CHECKING:
    import ast

#: What starts a documentation comment line.
DOC_COMMENT: Final = "#:"


def comment_docstring(lines: list[str], lineno: int) -> str | None:
    """The ``#:`` lines directly above line ``lineno`` (1-based) joined into one text, or None if there are none."""
    found: list[str] = []
    index = lineno - 2
    while index >= 0 and lines[index].lstrip().startswith(DOC_COMMENT):
        found.append(lines[index].lstrip().removeprefix(DOC_COMMENT).strip())
        index -= 1
    return "\n".join(reversed(found)) or None


def _document(obj: griffe.Object, lines: list[str]) -> None:
    """Give every undocumented attribute below ``obj`` (classes included) its comment docstring."""
    for member in obj.members.values():
        if member.is_alias:
            continue
        if isinstance(member, griffe.Attribute) and member.docstring is None and member.lineno is not None:
            text = comment_docstring(lines, member.lineno)
            if text is not None:
                member.docstring = griffe.Docstring(text, lineno=member.lineno - 1, parent=member)
        elif isinstance(member, griffe.Class):
            _document(member, lines)


class DocComments(griffe.Extension):
    """Turns ``#:`` comments into the docstrings of the attributes they precede."""

    def on_module_members(self, *, node: ast.AST | griffe.ObjectNode, mod: griffe.Module, **kwargs: object) -> None:  # noqa: ARG002 - Griffe passes these by keyword
        """Document the module's attributes once its members are known."""
        if isinstance(mod.filepath, list):  # a namespace package has no source of its own
            return
        if mod.filepath in mod.lines_collection:
            _document(mod, mod.lines_collection[mod.filepath])
