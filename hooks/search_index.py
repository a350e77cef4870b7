"""MkDocs hook: one search index per edition, each in its own language, written as UTF-8.

mkdocs-static-i18n merges both editions into one index configured for Chinese and English together, so English
words went through jieba and Chinese trimmers and an English query found nothing. This hook splits that index:
``search/search_index.json`` holds the Chinese pages (jieba-segmented, Chinese pipeline) and
``en/search/search_index.json`` the English pages (English separator, stop words, prefix matching, British
spellings also indexed, in a field of their own, under their American twins). hooks/editions.py points
English pages at their index.

Figures (SVG tick labels), tables (cell dumps) and notebook permalinks (a "¶" after each heading) are left out
of the index, so a result's snippet is prose. Material's browser-side Chinese query segmenter never tries the
whole query as one word, so 算存比 became 算 / 存; ``_patch_segmenter`` fixes that bound in the built worker.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

ENGLISH_PREFIX = "en/"
ZWSP = "\u200b"
#: Material's documented default separator for English: whitespace, punctuation, dots not inside a number.
ENGLISH_SEPARATOR = r'[\s\-,:!=\[\]()"`/]+|\.(?!\d)|&[lg]t;'
#: No stemmer: Material adds a trailing wildcard to every query word, and lunr skips the pipeline for wildcard
#: terms, so a stemmed index ("pipelin") would never match the query "pipeline*". The wildcard already finds
#: longer forms (accumulator -> accumulators); the spellings field covers -ise / -ize.
ENGLISH_PIPELINE = ["trimmer", "stopWordFilter"]
CHINESE_LANG = ["zh"]

#: Elements whose text would only clutter a result: inline SVG figures, tables, nbconvert's heading permalinks.
_EXCLUDED_OPENINGS = re.compile(r'<(svg|table)((?:\s[^>]*)?)>|<a class="anchor-link"')
#: British -ise/-isation spellings; their -ize twins go into an extra field so both queries stem alike.
_BRITISH = re.compile(r"\b([A-Za-z]{3,}?)is(e|ed|es|ing|ation|ations|er|ers)\b")
#: The extra field (searched, never shown) and its weight, equal to the text's.
SPELLINGS_FIELD = "spellings"
SPELLINGS_SPEC = {"boost": 1.0}

#: Material's query segmenter (workers/search.*.min.js) and the same code with the whole query as a candidate.
_SEGMENTER_BOUNDS = (
    ("for(let o=s+1;o<t.length;o++)t.slice(s,o)in e", "for(let o=s+1;o<=t.length;o++)t.slice(s,o)in e"),
    ("n[a]&&a<t.length-1&&", "n[a]&&a<t.length&&"),
)


def exclude_from_search(html: str) -> str:
    """Mark figures, tables and heading permalinks with Material's ``data-search-exclude`` attribute."""

    def mark(match: re.Match[str]) -> str:
        if match.group(1):
            return f"<{match.group(1)}{match.group(2)} data-search-exclude>"
        return '<a data-search-exclude class="anchor-link"'

    return _EXCLUDED_OPENINGS.sub(mark, html)


@event_priority(100)  # before Material's search plugin reads the page in on_page_context
def on_page_content(html: str, **kwargs: Any) -> str:  # noqa: ANN401 - MkDocs hook signature
    """Leave figures, tables and permalinks out of the search index."""
    del kwargs
    return exclude_from_search(html)


def american_spellings(text: str) -> str:
    """The -iz- twins of the British -is- spellings in ``text`` (dequantisation -> dequantization), space-separated."""
    twins = {f"{m.group(1)}iz{m.group(2)}" for m in _BRITISH.finditer(text)}
    return " ".join(sorted(twins))


def english_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """An English entry relative to the English edition's root, without jieba's zero-width spaces."""
    location = str(doc["location"]).removeprefix(ENGLISH_PREFIX)
    title = str(doc["title"]).replace(ZWSP, "")
    text = str(doc["text"]).replace(ZWSP, "")
    entry = {**doc, "location": location, "title": title, "text": text}
    spellings = american_spellings(f"{title} {text}")
    if spellings:
        entry[SPELLINGS_FIELD] = spellings
    return entry


def split_index(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The merged index as (Chinese index, English index), each configured for its own language."""
    docs = data.get("docs", [])
    config = data.get("config", {})
    chinese = [doc for doc in docs if not str(doc["location"]).startswith(ENGLISH_PREFIX)]
    english = [english_doc(doc) for doc in docs if str(doc["location"]).startswith(ENGLISH_PREFIX)]
    zh_config = {**config, "lang": CHINESE_LANG}
    en_config = {
        **config,
        "lang": ["en"],
        "separator": ENGLISH_SEPARATOR,
        "pipeline": ENGLISH_PIPELINE,
        "fields": {**config.get("fields", {}), SPELLINGS_FIELD: SPELLINGS_SPEC},
    }
    return {**data, "config": zh_config, "docs": chinese}, {**data, "config": en_config, "docs": english}


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def _patch_segmenter(site: Path) -> None:
    """Let the browser's Chinese query segmenter keep a whole indexed word (算存比) as one term."""
    for worker in (site / "assets" / "javascripts" / "workers").glob("search.*.min.js"):
        code = worker.read_text(encoding="utf-8")
        for before, after in _SEGMENTER_BOUNDS:
            if after in code:  # patched by the other edition's build into the same site
                continue
            if before not in code:
                message = f"{worker.name}: Material's query segmenter changed; expected {before!r}"
                raise RuntimeError(message)
            code = code.replace(before, after)
        worker.write_text(code, encoding="utf-8")


@event_priority(-200)  # after Material's search plugin and the i18n plugin have written the merged index
def on_post_build(config: Any, **kwargs: Any) -> None:  # noqa: ANN401, ARG001 - MkDocs hook signature
    """Split the built search index, if there is one, into one compact UTF-8 index per edition."""
    site = Path(config["site_dir"])
    index = site / "search" / "search_index.json"
    if not index.is_file():
        return
    chinese, english = split_index(json.loads(index.read_text(encoding="utf-8")))
    _write(index, chinese)
    if english["docs"]:
        _write(site / ENGLISH_PREFIX / "search" / "search_index.json", english)
    _patch_segmenter(site)
