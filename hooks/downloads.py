"""MkDocs hook: each computed table gets a download link beside it and its data as a file next to the page.

What the renderers leave and how it becomes a link is in :mod:`ascend_dsa.site.downloads`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any


def on_page_content(html: str, page: Any, config: Any, **_: Any) -> str:  # noqa: ANN401 - MkDocs' objects
    """Replace the data comments with links and write their files into the page's folder of the built site."""
    lang = importlib.import_module("ascend_dsa.site.pages").page_lang(page.file.src_uri)
    html, files = importlib.import_module("ascend_dsa.site.downloads").take_downloads(html, lang)
    folder = Path(config["site_dir"]) / page.url
    for name, data in files.items():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return str(html)
