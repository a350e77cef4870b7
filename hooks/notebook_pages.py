"""MkDocs hook: keep Jupyter notebooks as pages when mkdocs-static-i18n rebuilds the file list.

mkdocs-static-i18n replaces every file with a plain ``File`` for each language, and a plain ``File`` whose name
ends in ``.ipynb`` is not a documentation page, so mkdocs-jupyter never renders or executes it: the raw JSON is
copied to the site instead (ultrabug/mkdocs-static-i18n#198, open). This hook runs after the i18n plugin's
``on_files`` (priority -100) and marks the notebooks as pages again; mkdocs-jupyter then renders, executes and,
with ``include_source``, copies each one next to its page for download.
"""

from __future__ import annotations

from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files


class NotebookPage(File):
    """A file MkDocs treats as a documentation page although its name does not end in ``.md``."""

    def is_documentation_page(self) -> bool:
        """Always a page."""
        return True


@event_priority(-110)
def on_files(files: Files, config: Any, **kwargs: Any) -> Files:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Turn each ``.ipynb`` file back into a documentation page after the i18n plugin has replaced it."""
    for file in files:
        if file.src_uri.endswith(".ipynb") and not file.is_documentation_page():
            file.__class__ = NotebookPage
    return files
