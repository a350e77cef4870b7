"""MkDocs hook: write the search index as UTF-8 rather than as ASCII escapes.

Material writes ``search/search_index.json`` with ASCII escapes; every Chinese character and every zero-width
space jieba puts between words then costs six bytes instead of three, and every page loads the index. The
rewrite keeps the same JSON value, so search behaves the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority


@event_priority(-200)  # after Material's search plugin and the i18n plugin have written the index
def on_post_build(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Re-encode the built search index, if there is one, as compact UTF-8."""
    index = Path(config["site_dir"]) / "search" / "search_index.json"
    if not index.is_file():
        return
    data = json.loads(index.read_text(encoding="utf-8"))
    index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
