"""ascend_dsa.site.search_index keeps the index's value and writes it as compact UTF-8."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.facts.chapters import CHAPTERS_BY_KEY
from ascend_dsa.facts.glossary import glossary_term, notation_symbol
from ascend_dsa.site import search_index

if TYPE_CHECKING:
    from pathlib import Path


def test_index_is_rewritten_as_utf8(tmp_path: Path) -> None:
    """Escaped Chinese and zero-width spaces become raw UTF-8; the parsed JSON is unchanged and smaller."""
    index = tmp_path / "search" / "search_index.json"
    index.parent.mkdir()
    data = {"config": {"lang": ["zh"]}, "docs": [{"location": "", "title": "前言", "text": "对应\u200b报告"}]}
    index.write_text(json.dumps(data), encoding="utf-8")
    search_index.split_site_index(tmp_path)
    text = index.read_text(encoding="utf-8")
    assert "\\u" not in text
    written = json.loads(text)
    assert [{key: doc[key] for key in ("location", "title", "text")} for doc in written["docs"]] == data["docs"]
    assert index.stat().st_size < len(json.dumps(written))  # smaller than the same value escaped and spaced


def test_index_is_split_per_edition(tmp_path: Path) -> None:
    """English pages go to en/search/ relative to en/, configured for English, British spellings twinned."""
    index = tmp_path / "search" / "search_index.json"
    index.parent.mkdir()
    zh = {"location": "pipeline/", "title": "流水线", "text": "流水\u200b线"}
    en = {"location": "en/pipeline/", "title": "The\u200bpipeline", "text": "dequantisation is synchronised"}
    index.write_text(json.dumps({"config": {"lang": ["zh", "en"], "fields": {}}, "docs": [zh, en]}), "utf-8")
    search_index.split_site_index(tmp_path)
    chinese = json.loads(index.read_text(encoding="utf-8"))
    english = json.loads((tmp_path / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert (chinese["config"]["lang"], chinese["docs"]) == (["zh"], [{**zh, "outline": "流水线"}])
    assert english["config"]["lang"] == ["en"]
    assert "stemmer" in english["config"]["pipeline"]  # the worker stems query words too (search_stemming.js)
    [doc] = english["docs"]
    assert (doc["location"], doc["title"]) == ("pipeline/", "Thepipeline")
    assert doc["spellings"] == "dequantization synchronized"
    assert "spellings" in english["config"]["fields"]


def test_entries_dropped_as_duplicates_come_back_to_the_english_index() -> None:
    """mkdocs-static-i18n drops an English entry equal to its Chinese twin; the English index gets it back."""
    zh_page = {"location": "gather2/", "title": "gather2", "text": ""}
    zh_section = {"location": "gather2/#x", "title": "问题", "text": "请求"}
    en_section = {"location": "en/gather2/#x", "title": "The problem", "text": "requests"}
    data = {"config": {"lang": ["zh", "en"], "fields": {}}, "docs": [zh_page, zh_section, en_section]}
    _, english = search_index.split_index(data)
    assert [doc["location"] for doc in english["docs"]] == ["gather2/", "gather2/#x"]  # page first, as Material needs


def test_figures_tables_and_permalinks_leave_the_index() -> None:
    """SVG, tables, code, citation notes and "¶" permalinks carry Material's data-search-exclude; prose does not."""
    html = (
        '<p>x</p><svg width="1"><text>0</text></svg><table>\n<tr></tr></table><a class="anchor-link">¶</a>'
        "<pre><code>x = 1</code></pre><blockquote>\n<p>Covers report (zh) lines 1-7.</p></blockquote>"
        "<blockquote>\n<p>对应报告 (zh) 第 1-7 行。</p></blockquote><blockquote><p>A quoted thought.</p></blockquote>"
        '<div class="jp-InputArea jp-Cell-inputArea">In [1]:</div><div class="clipboard-copy-txt" id="c">x = 1</div>'
        '<div class="jp-OutputPrompt">Out[1]:</div><div class="jp-RenderedMarkdown jp-OutputArea-output">1</div>'
        '<div class="jp-MarkdownOutput">prose</div>'
    )
    marked = search_index.exclude_from_search(html)
    assert marked.count("data-search-exclude") == 10
    exercises = (
        '<div class="exercises" data-search-exclude>\n'
        '<div class="exercise" id="e1">1</div>\n<div class="exercise" id="e2">2</div></div>'
    )
    # Material ends an exclusion at the first nested </div>: each exercise is marked, not only their wrapper.
    assert search_index.exclude_from_search(exercises).count('class="exercise" id="e1" data-search-exclude>') == 1
    assert search_index.exclude_from_search(exercises).count("data-search-exclude") == 3
    assert '<div class="jp-MarkdownOutput">prose' in marked
    assert "<p>x</p>" in marked
    assert '<svg width="1" data-search-exclude>' in marked
    assert "<pre data-search-exclude><code>" in marked
    assert "<blockquote><p>A quoted thought." in marked


def test_segmenter_bound_is_patched(tmp_path: Path) -> None:
    """The segmenter tries the whole query, which passes ``ascendQuery`` first; a changed worker fails the build."""
    workers = tmp_path / "assets" / "javascripts" / "workers"
    workers.mkdir(parents=True)
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text('{"docs": []}', encoding="utf-8")
    worker = workers / "search.abc.min.js"
    search = "search(e){if(e=e.replace("
    worker.write_text(f"for(let o=s+1;o<t.length;o++)t.slice(s,o)in e;n[a]&&a<t.length-1&&{search}", encoding="utf-8")
    search_index.split_site_index(tmp_path)
    patched = worker.read_text(encoding="utf-8")
    hooked = "search(e){if(e=(self.ascendQuery||String)(e),e=e.replace("
    assert patched.startswith(f"for(let o=s+1;o<=t.length;o++)t.slice(s,o)in e;n[a]&&a<t.length&&{hooked}\n")
    assert patched.endswith(search_index.STEMMING_SCRIPT.read_text(encoding="utf-8"))
    search_index.split_site_index(tmp_path)  # the other edition's build: already patched, unchanged
    assert worker.read_text(encoding="utf-8") == patched
    worker.write_text("something else", encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"search\.abc\.min\.js"):
        search_index.split_site_index(tmp_path)


def test_no_index_no_error(tmp_path: Path) -> None:
    """A build without search leaves nothing to rewrite and raises nothing."""
    search_index.split_site_index(tmp_path)
    assert not (tmp_path / "search").exists()


def test_built_index_is_utf8(built_site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The site's own index carries its Chinese as UTF-8 and leaves the API reference out of search."""
    text = (built_site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "前言" in text
    assert "\\u524d" not in text
    locations = [doc["location"] for doc in json.loads(text)["docs"]]
    assert not [loc for loc in locations if loc.startswith(("reference/api", "en/reference/api"))]
    assert capsys.readouterr().err == ""


def test_sections_get_the_synonyms_of_their_words() -> None:
    """A section holding a word of a synonym group holds the group's other words in the synonyms field, per language."""
    zh = {"location": "pipeline/#x", "title": "流水线", "text": "各个\u200b缓冲\u200b深度"}
    en = {"location": "en/pipeline/#x", "title": "The pipeline", "text": "the four buffer depths"}
    plain = {"location": "en/pipeline/#y", "title": "Other", "text": "nothing here"}
    chinese, english = search_index.split_index({"config": {"fields": {}}, "docs": [zh, en, plain]})
    assert "双缓冲" in chinese["docs"][0][search_index.SYNONYMS_FIELD].split()
    assert "double buffering" in english["docs"][0][search_index.SYNONYMS_FIELD]
    assert search_index.SYNONYMS_FIELD not in english["docs"][1]
    for data in (chinese, english):
        assert search_index.SYNONYMS_FIELD in data["config"]["fields"]


def test_a_sections_heading_synonyms_weigh_as_its_heading() -> None:
    """A heading saying "The UB budget" is found by "plan" at the title's weight, and counts as headed in the worker;
    words of a group in the text alone add nothing to the heading's field."""
    headed = {"location": "en/design/#ub", "title": "The UB budget", "text": "what fits"}
    texted = {"location": "en/design/#x", "title": "Other", "text": "the UB budget"}
    config = {"fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}}}
    _, english = search_index.split_index({"config": config, "docs": [headed, texted]})
    by_location = {doc["location"]: doc for doc in english["docs"]}
    assert "plan" in by_location["design/#ub"][search_index.HEADING_SYNONYMS_FIELD].split()
    assert search_index.HEADING_SYNONYMS_FIELD not in by_location["design/#x"]
    assert english["config"]["fields"][search_index.HEADING_SYNONYMS_FIELD] == {"boost": 1000.0}
    assert search_index.HEADING_SYNONYMS_FIELD in english["config"][search_index.HEADED_FIELDS_KEY]


def test_each_page_entry_holds_its_pages_outline() -> None:
    """A page's own entry holds its title and headings (its sections hold none), so a heading's words lift the page."""
    docs = [
        {"location": "a/", "title": "Page A", "text": ""},
        {"location": "a/#one", "title": "First heading", "text": ""},
        {"location": "b/", "title": "Page B", "text": ""},
    ]
    outlines = [doc.get(search_index.OUTLINE_FIELD) for doc in search_index.with_outlines(docs, "en")]
    assert outlines == ["Page A First heading", None, "Page B"]


def test_a_pages_outline_holds_the_synonyms_of_its_headings() -> None:
    """A heading saying "Double buffering" heads its page for "ping-pong" too; one naming no group adds nothing."""
    docs = [
        {"location": "a/", "title": "Double buffering", "text": ""},
        {"location": "b/", "title": "Ping", "text": "double buffering"},
    ]
    outlines = [doc[search_index.OUTLINE_FIELD] for doc in search_index.with_outlines(docs, "en")]
    assert "ping-pong" in outlines[0]
    assert outlines[1] == "Ping"


def test_a_glossary_term_heads_the_chapter_that_defines_it_and_no_other() -> None:
    """The chapter the glossary names as a term's (or letter's) definer holds it in its outline; the others do not.

    English: online softmax (and its phrase token) in the computation chapter, not in the accumulator chapter that
    also explains the rescale. Chinese: the scores P (its legend, 打分) in the model chapter, not in the pipeline.
    """
    online = CHAPTERS_BY_KEY[glossary_term("online softmax").chapter or ""].url
    scores = CHAPTERS_BY_KEY[notation_symbol("P").chapter or ""].url
    pages = sorted({online, scores, "discussion/accumulator/", "pipeline/"})
    docs = [{"location": page, "title": "Title", "text": "online softmax 打分"} for page in pages]
    english = {doc["location"]: doc[search_index.OUTLINE_FIELD] for doc in search_index.with_outlines(docs, "en")}
    chinese = {doc["location"]: doc[search_index.OUTLINE_FIELD] for doc in search_index.with_outlines(docs, "zh")}
    assert (online, scores) == ("algorithm/flow/", "algorithm/model/")
    assert [page for page, outline in english.items() if "online softmax" in outline] == [online]
    assert "online_softmax" in english[online].split()
    assert [page for page, outline in chinese.items() if "打分" in outline] == [scores]
    assert "P（打分）" in chinese[scores]
    assert chinese["pipeline/"] == english["pipeline/"] == "Title"


def test_a_chapters_opening_questions_weigh_as_its_headings() -> None:
    """The questions under "After this chapter you can answer:" (cut by jieba in Chinese) join the page's outline."""
    zwsp = search_index.ZWSP
    opening = zwsp.join(["读完", "本章", "，", "你", "能", "回答", "："])
    docs = [
        {"location": "a/", "title": "A", "text": f"<p>{opening}</p><ul><li>NZ{zwsp}分形{zwsp}多大？</li></ul><p>x</p>"},
        {"location": "a/#one", "title": "One", "text": "<ul><li>not a question</li></ul>"},
        {"location": "b/", "title": "B", "text": "<p>读完本章</p><ul><li>no opening</li></ul>"},
    ]
    outlines = [doc.get(search_index.OUTLINE_FIELD) for doc in search_index.with_outlines(docs, "zh")]
    assert outlines[0] == f"A NZ{zwsp}分形{zwsp}多大？ One"
    assert outlines[1] is None
    assert outlines[2] == "B"
    english = "<p>After this chapter you can answer:</p>\n<ul><li><a href='#e'>Why?</a></li></ul>"
    assert search_index.opening_questions(english, "en") == "Why?"
    assert search_index.opening_questions(english, "zh") == ""


def test_each_edition_names_its_question_words() -> None:
    """The worker reads the words to drop from the index's configuration: Chinese ones in zh, English ones in en."""
    zh, en = (search_index.edition_config({"fields": {}}, lang) for lang in ("zh", "en"))
    assert "怎么办" in zh[search_index.QUESTION_WORDS_KEY]
    assert "why" in en[search_index.QUESTION_WORDS_KEY]
    assert "why" not in zh[search_index.QUESTION_WORDS_KEY]
    assert "online softmax" in en[search_index.PHRASES_KEY]
    assert "online softmax" in zh[search_index.PHRASES_KEY]
    assert "memory bottleneck" in en[search_index.PHRASES_KEY]
    assert "memory bottleneck" not in zh[search_index.PHRASES_KEY]
    assert en["pipeline"] == search_index.ENGLISH_PIPELINE
    assert zh["separator"] == search_index.CHINESE_SEPARATOR


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("能\u200b不能\u200b（1C1V）", ["能", "不能", "1C1V"]),
        ("bank：\u200b一个", ["bank", "一个"]),
        ("config.h:71-72 的 1.5 倍", ["config", "h", "71", "72", "的", "1.5", "倍"]),
        ("「双缓冲」与《指南》", ["双缓冲", "与", "指南"]),
    ],
)
def test_chinese_separator_parts_words_from_full_width_punctuation(text: str, words: list[str]) -> None:
    """Punctuation against a word ("（1C1V）", "bank：") is no part of it, so a query for the word finds it."""
    assert [word for word in re.split(search_index.CHINESE_SEPARATOR, text) if word] == words
