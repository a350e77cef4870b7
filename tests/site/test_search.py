"""Search per edition: a Chinese index segmented by jieba, an English one of its own; a query finds the chapter.

The ranking here is a stand-in for lunr's (title matches weigh 1000 times text matches, as Material configures
them); tests/site/test_browser.py checks the real search in Chromium with the same queries.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.facts.chapters import SITE_CHAPTERS
from ascend_dsa.site.search_words import SYNONYMS, phrase_token, phrases
from tests.helpers.search import BROWSER_QUERIES, BROWSER_QUESTIONS, EN_BROWSER_QUERIES, EN_BROWSER_QUESTIONS

if TYPE_CHECKING:
    from pathlib import Path

ZWSP = "\u200b"

#: (query, chapters that may come first). Expected chapters follow the report's structure.
QUERIES = [
    pytest.param("算存比", ("discussion/heads-per-core",), id="compute-to-memory-ratio"),
    pytest.param("流水线", ("pipeline",), id="pipeline"),
    pytest.param("反量化", ("discussion/one-vector-core", "optimizations/kv-cache-layout"), id="dequantisation"),
    pytest.param("双 bank", ("optimizations/l1-banks",), id="two-banks"),
    pytest.param("FixPipe", ("discussion/one-vector-core",), id="fixpipe-zh"),
]

#: English queries a reader would type, on the English edition (chapters relative to en/).
EN_QUERIES = [
    pytest.param("pipeline", ("pipeline",), id="en-pipeline"),
    pytest.param("dequantization", ("discussion/one-vector-core",), id="en-dequantization"),
    pytest.param("dequantisation", ("discussion/one-vector-core",), id="en-dequantisation"),
    pytest.param("synchronised", ("discussion/skip-scale-sync",), id="en-synchronised"),
    pytest.param("accumulator", ("discussion/accumulator",), id="en-accumulator"),
    pytest.param("roofline", ("discussion/heads-per-core", "algorithm/roofline"), id="en-roofline"),
    pytest.param("FixPipe", ("discussion/one-vector-core",), id="en-fixpipe"),
]


def load_index(site: Path, edition: str = "") -> dict[str, object]:
    """The built search index of one edition ("" for Chinese, "en/" for English)."""
    path = site / edition / "search" / "search_index.json"
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def page_scores(site: Path, query: str, edition: str = "") -> Counter[str]:
    """Per page (URL path without anchor), its best section's score: query words counted, title hits weighing 1000.

    Lunr scores each section on its own and Material orders pages by their best section, so a page is as good as
    its best section, not the sum of all of them (a long API page would otherwise win on sheer length).
    """
    index = load_index(site, edition)
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
    assert ZWSP in config["separator"]
    docs = index["docs"]
    assert isinstance(docs, list)
    assert any(ZWSP in doc["text"] for doc in docs)


def test_project_words_stay_whole(built_site: Path) -> None:
    """Words jieba would split on its own (算存比; 分形 in 切成分形) are single tokens: the user dictionary."""
    index = load_index(built_site)
    docs = index["docs"]
    assert isinstance(docs, list)
    tokens = {token for doc in docs for token in re.split(f"[{ZWSP}\\s]+", doc["text"])}
    assert {"算存比", "分形"} <= tokens


def test_chinese_synonyms_are_whole_words_of_the_index(built_site: Path) -> None:
    """Each Chinese synonym some page's words call up (双缓冲, 访存瓶颈) is one token of the Chinese index.

    Besides them the field holds only the Chinese edition's phrases as one token each (online_softmax).
    """
    docs = load_index(built_site)["docs"]
    assert isinstance(docs, list)
    tokens = {token for doc in docs for token in doc.get("synonyms", "").split()}
    wanted = {word for group in SYNONYMS if group.lang == "zh" for word in group.words if " " not in word}
    assert {"双缓冲", "访存瓶颈", "算力利用率", "online_softmax"} <= tokens
    phrased = {phrase_token(phrase) for phrase in phrases("zh")}
    assert tokens <= wanted | {part for word in wanted for part in word.split("-")} | phrased


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


def test_each_edition_has_its_own_index(built_site: Path) -> None:
    """The Chinese index holds only Chinese pages, the English one only English pages, each in its language."""
    chinese, english = load_index(built_site), load_index(built_site, "en/")
    for data, lang in ((chinese, "zh"), (english, "en")):
        config = data["config"]
        assert isinstance(config, dict)
        assert config["lang"] == [lang]
    zh_docs, en_docs = chinese["docs"], english["docs"]
    assert isinstance(zh_docs, list)
    assert isinstance(en_docs, list)
    assert not [doc for doc in zh_docs if doc["location"].startswith("en/")]
    assert {doc["location"].split("#")[0] for doc in en_docs} == {doc["location"].split("#")[0] for doc in zh_docs}
    assert not [doc for doc in en_docs if ZWSP in doc["text"] or ZWSP in doc["title"]]


#: What a snippet must not show: citation notes, notebook prompts and copy labels, code.
_NOT_PROSE = re.compile(r"^<p>(?:Covers |对应报告)|In\xa0\[\d+\]|Out\[\d+\]|Copied!|^from |import \(")


def test_snippets_hold_no_figure_labels_tables_or_pilcrows(built_site: Path) -> None:
    """No indexed section carries an SVG's text, a table's cells, code, a citation note or a heading's "¶"."""
    for edition in ("", "en/"):
        docs = load_index(built_site, edition)["docs"]
        assert isinstance(docs, list)
        for doc in docs:
            assert "¶" not in doc["title"] + doc["text"], doc["location"]
            assert "✅" not in doc["text"], doc["location"]  # the claims tables' status cells
            assert "<pre>" not in doc["text"], doc["location"]
            assert not _NOT_PROSE.search(doc["text"].replace(ZWSP, "")), (doc["location"], doc["text"][:200])


def test_english_index_is_stemmed(built_site: Path) -> None:
    """The English index holds stems (pipelining and pipeline both as "pipelin"), as the worker stems queries."""
    index = load_index(built_site, "en/")
    config = index["config"]
    assert isinstance(config, dict)
    assert "stemmer" in config["pipeline"]
    worker = next((built_site / "assets" / "javascripts" / "workers").glob("search.*.min.js")).read_text("utf-8")
    assert "lunr.QueryParser.prototype.parse = function" in worker


def test_browser_query_lists_are_long_enough_and_name_real_chapters(built_site: Path) -> None:
    """At least 30 term queries and 40 questions per edition, each expecting a chapter the edition has."""
    lists = ((BROWSER_QUERIES, "", 30), (EN_BROWSER_QUERIES, "en/", 30))
    lists += ((BROWSER_QUESTIONS, "", 40), (EN_BROWSER_QUESTIONS, "en/", 40))
    for queries, edition, least in lists:
        assert len(queries) >= least
        for chapters in queries.values():
            for chapter in chapters:
                assert (built_site / edition / chapter / "index.html").is_file(), (edition, chapter)


def test_every_query_expects_a_chapter_of_the_registry() -> None:
    """Each chapter a query expects (in the index tests and the browser's) is a page of ``SITE_CHAPTERS``."""
    urls = {chapter.url for chapter in SITE_CHAPTERS}
    lists = [param.values[1] for param in (*QUERIES, *EN_QUERIES)]
    lists += [*BROWSER_QUERIES.values(), *EN_BROWSER_QUERIES.values()]
    lists += [*BROWSER_QUESTIONS.values(), *EN_BROWSER_QUESTIONS.values()]
    expected = {chapter for found in lists for chapter in found}
    assert {chapter for chapter in expected if (f"{chapter}/" if chapter else "") not in urls} == set()


@pytest.mark.parametrize(("query", "expected"), EN_QUERIES)
def test_english_query_finds_the_chapter(built_site: Path, query: str, expected: tuple[str, ...]) -> None:
    """The English index holds the query (or its American twin, in the spellings field) in the expected chapter."""
    docs = load_index(built_site, "en/")["docs"]
    assert isinstance(docs, list)
    term = query.lower()
    pages = {
        doc["location"].split("#")[0]
        for doc in docs
        if term in " ".join((doc["title"], doc["text"], doc.get("spellings", ""))).lower()
    }
    assert {f"{chapter}/" for chapter in expected} <= pages, sorted(pages)
