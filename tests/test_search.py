"""Chinese search: the index is segmented by jieba at build time, and a reader's query finds the right chapter.

The ranking here is a stand-in for lunr's (title matches weigh 1000 times text matches, as Material configures
them); tests/test_browser.py checks the real search in Chromium with the same queries.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

ZWSP = "\u200b"

#: (query, chapters that may come first). Expected chapters follow the report's structure.
QUERIES = [
    pytest.param("算存比", ("discussion/heads-per-core",), id="compute-to-memory-ratio"),
    pytest.param("流水线", ("pipeline",), id="pipeline"),
    pytest.param("反量化", ("discussion/one-vector-core", "optimizations/kv-cache-layout"), id="dequantisation"),
    pytest.param("双 bank", ("optimizations/l1-banks",), id="two-banks"),
]


def load_index(site: Path) -> dict[str, object]:
    """The built search index (one for both languages)."""
    data: dict[str, object] = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return data


def page_scores(site: Path, query: str) -> Counter[str]:
    """Per page (URL path without anchor), its best section's score: query words counted, title hits weighing 1000.

    Lunr scores each section on its own and Material orders pages by their best section, so a page is as good as
    its best section, not the sum of all of them (a long API page would otherwise win on sheer length).
    """
    index = load_index(site)
    terms = query.split()
    scores: Counter[str] = Counter()
    docs = index["docs"]
    assert isinstance(docs, list)
    for doc in docs:
        page = doc["location"].split("#")[0]
        title = doc["title"].replace(ZWSP, "").lower()
        text = doc["text"].replace(ZWSP, "").lower()
        score = sum(1000 * title.count(term.lower()) + text.count(term.lower()) for term in terms)
        scores[page] = max(scores[page], score)
    return +scores


def test_index_is_segmented_for_chinese(built_site: Path) -> None:
    """The index is configured for Chinese and its text is cut into words with zero-width spaces (jieba)."""
    index = load_index(built_site)
    config = index["config"]
    assert isinstance(config, dict)
    assert "zh" in config["lang"]
    assert "\\u200b" in config["separator"]
    docs = index["docs"]
    assert isinstance(docs, list)
    assert any(ZWSP in doc["text"] for doc in docs)


def test_project_words_stay_whole(built_site: Path) -> None:
    """Words jieba would split on its own (算存比) are single tokens in the index, thanks to the user dictionary."""
    index = load_index(built_site)
    docs = index["docs"]
    assert isinstance(docs, list)
    tokens = {token for doc in docs for token in re.split(f"[{ZWSP}\\s]+", doc["text"])}
    assert "算存比" in tokens


@pytest.mark.parametrize(("query", "expected"), QUERIES)
def test_query_ranks_the_chapter_first(built_site: Path, query: str, expected: tuple[str, ...]) -> None:
    """The pages where the query's words weigh most (titles first) are the expected chapter (its twin may tie)."""
    scores = page_scores(built_site, query)
    assert scores, f"no page contains {query!r}"
    top = max(scores.values())
    best = {page for page, score in scores.items() if score == top}
    chinese = {f"{chapter}/" for chapter in expected}
    assert best & chinese, scores.most_common(3)
    assert best <= chinese | {f"en/{page}" for page in chinese}, scores.most_common(3)
