"""MkDocs hook: let mkdocs-jupyter render the notebooks that mkdocs-static-i18n has placed per language.

mkdocs-static-i18n rebuilds the file list last (priority -100) and turns mkdocs-jupyter's notebook pages back
into plain files, so ``page.ipynb`` would be copied, as raw JSON, to ``page/index.html``. This hook runs after it
and wraps each notebook again as mkdocs-jupyter's page file, keeping the language's destination and URL.
"""

from __future__ import annotations

from typing import Any

from mkdocs.plugins import event_priority
from mkdocs_jupyter.plugin import NotebookFile


@event_priority(-110)
def on_files(files: Any, config: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Re-wrap every notebook mkdocs-jupyter includes, at the destination mkdocs-static-i18n chose."""
    jupyter = config["plugins"].get("mkdocs-jupyter")
    if jupyter is None:
        return files
    for file in [f for f in files if not isinstance(f, NotebookFile) and jupyter.should_include(f)]:
        page = NotebookFile(file, use_directory_urls=config["use_directory_urls"], site_dir=config["site_dir"])
        page.dest_path, page.abs_dest_path, page.url = file.dest_path, file.abs_dest_path, file.url
        files.remove(file)
        files.append(page)
    return files
