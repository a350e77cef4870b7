"""One search index per edition, each in its own language, written as UTF-8.

mkdocs-static-i18n merges both editions into one index configured for Chinese and English together, so English
words went through jieba and Chinese trimmers and an English query found nothing. `split_site_index` splits that index:
``search/search_index.json`` holds the Chinese pages (jieba-segmented, Chinese pipeline) and
``en/search/search_index.json`` the English pages (English separator, stop words, lunr's English stemmer,
British spellings also indexed, in a field of their own, under their American twins). `ascend_dsa.site.editions`
points English pages at their index.

Figures (SVG tick labels), tables (cell dumps), code and notebook cells, each chapter's opening "Covers report
(zh) lines ..." note and notebook permalinks (a "¶" after each heading) are left out of the index, so a result's
snippet is prose. Material's browser-side Chinese query segmenter never tries the whole query as one word, so
算存比 became 算 / 存; `patch_worker` fixes that bound in the built worker, and appends
``search_stemming.js`` (beside this module), which stems an English query word despite Material's trailing wildcard
(accumulators, pipelining and layouts then find accumulator, pipeline and layout).

To answer questions rather than titles, each entry also holds, in fields searched but never shown, the synonyms of
its words (`ascend_dsa.site.search_words`: "double buffering" where a page says "buffer depths") and its page's
outline (title and headings, with their synonyms; the glossary terms and letters its chapter defines, per
`ascend_dsa.facts.glossary`) and the phrases it holds as one word each ("online softmax" as online_softmax); each
index's configuration names the question words ("why", "怎么办") the worker drops from a query and the phrases it adds
to one, and the worker ranks pages by how many of the query's words they hold, weighted by rarity and by headings
(search_stemming.js).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ascend_dsa.facts.chapters import CHAPTERS_BY_KEY
from ascend_dsa.facts.glossary import GLOSSARY_TERMS, NOTATION
from ascend_dsa.render.exercises import OPENING
from ascend_dsa.site.editions import ENGLISH_PREFIX
from ascend_dsa.site.search_words import QUESTION_WORDS, phrases, synonyms_for

if TYPE_CHECKING:
    from ascend_dsa.lang import Lang

ZWSP = "\u200b"
#: Material's documented default separator for English: whitespace, punctuation, dots not inside a number.
ENGLISH_SEPARATOR = r'[\s\-,:!=\[\]()"`/]+|\.(?!\d)|&[lg]t;'
#: Material's default Chinese separator (whitespace, jieba's zero-width space, the ideographic space, "-" and the
#: full-width 、。，．？！；) with the other full-width and ASCII punctuation the pages put against a word
#: ("（1C1V）", "bank：", "(zh)"), which otherwise stayed part of the indexed word so that a query missed it.
IDEOGRAPHIC_SPACE = "\u3000"
CHINESE_SEPARATOR = (
    rf'[\s{ZWSP}{IDEOGRAPHIC_SPACE}\-、。，．？！；：（）《》「」【】“”‘’…—,:;!?()\[\]"`/]+|\.(?!\d)|&[lg]t;'
)
#: The index is stemmed (pipelining -> pipelin); the worker stems each query word too, before Material's wildcard
#: (search_stemming.js), so any inflected form meets any other. The spellings field covers -ise / -ize.
ENGLISH_PIPELINE = ["trimmer", "stopWordFilter", "stemmer"]
#: Run in the search worker after Material's code: English query words are stemmed like the index.
STEMMING_SCRIPT: Final = Path(__file__).with_name("search_stemming.js")

#: Elements whose text would only clutter a result: inline SVG figures, tables, code (Markdown's and a notebook's:
#: input cells with their prompt and hidden copy text, and outputs, which are numbers), a chapter's opening citation
#: note, nbconvert's heading permalinks. Material's parser ends an exclusion at the first nested end tag of the
#: same name, so an output is marked at its innermost div (``jp-OutputArea-output``), which holds no other div.
_EXCLUDED_OPENINGS = re.compile(
    r"<(svg|table|pre|clipboard-copy)((?:\s[^>]*)?)>"
    r"|<(blockquote)()>(?=\s*<p>(?:Covers |对应报告))"
    r'|<a class="anchor-link"'
    r'|<(div)( class="(?:[^"]*\s)?(?:jp-InputArea|jp-OutputPrompt|jp-OutputArea-output|clipboard-copy-txt|exercise)'
    r'(?:\s[^"]*)?"[^>]*)>'
)
#: British -ise/-isation spellings; their -ize twins go into an extra field so both queries stem alike.
_BRITISH = re.compile(r"\b([A-Za-z]{3,}?)is(e|ed|es|ing|ation|ations|er|ers)\b")
#: The extra field (searched, never shown) and its weight, equal to the text's.
SPELLINGS_FIELD = "spellings"
SPELLINGS_SPEC = {"boost": 1.0}
#: The synonyms of a section's words (`ascend_dsa.site.search_words`): searched, never shown, weighing as the text.
SYNONYMS_FIELD = "synonyms"
SYNONYMS_SPEC = {"boost": 1.0}
#: A page's entry also holds the page's outline (its title and headings), so that the page a query's words head wins
#: over one that only mentions them: searched, never shown, weighing between a heading and the text. Only the page's
#: own entry holds it (its sections are grouped under it): a copy on every section made the index a third larger.
OUTLINE_FIELD = "outline"
OUTLINE_SPEC = {"boost": 100.0}
#: The synonyms of a section's title: searched, never shown, weighing as the title itself (Material's title boost), so
#: that a heading is found by a reader's word for it ("UB plan" finds "The UB budget") as strongly as by its own.
HEADING_SYNONYMS_FIELD = "heading_synonyms"
#: The fields whose words head a page: a query word found there counts as headed in the worker's coverage score.
HEADED_FIELDS = ("title", OUTLINE_FIELD, HEADING_SYNONYMS_FIELD)
#: The index configuration's key for `HEADED_FIELDS` (search_stemming.js reads it).
HEADED_FIELDS_KEY = "headed_fields"
#: The index configuration's key for the words of a question the worker drops from a query (search_stemming.js).
QUESTION_WORDS_KEY = "question_words"
#: The index configuration's key for the phrases ("online softmax") the worker adds to a query as one word each.
PHRASES_KEY = "phrases"

#: Material's worker code (workers/search.*.min.js) and what replaces it: the query segmenter with the whole query as
#: a candidate, and the query handed to ``self.ascendQuery`` (search_stemming.js) before Chinese words are segmented,
#: so that the words of a question ("有多高", "什么时候") leave it before they can be cut into topic-like pieces.
_WORKER_PATCHES = (
    ("for(let o=s+1;o<t.length;o++)t.slice(s,o)in e", "for(let o=s+1;o<=t.length;o++)t.slice(s,o)in e"),
    ("n[a]&&a<t.length-1&&", "n[a]&&a<t.length&&"),
    ("search(e){if(e=e.replace(", "search(e){if(e=(self.ascendQuery||String)(e),e=e.replace("),
)


def _with_script(code: str, script: str) -> str:
    """The worker's code with ``script`` run after it (before its source-map comment, which must stay last)."""
    body, marker, source_map = code.rpartition("\n//# sourceMappingURL=")
    if not marker:
        return f"{code}\n{script}"
    return f"{body}\n{script}{marker}{source_map}"


def exclude_from_search(html: str) -> str:
    """Mark figures, tables and heading permalinks with Material's ``data-search-exclude`` attribute."""

    def mark(match: re.Match[str]) -> str:
        tag = match.group(1) or match.group(3) or match.group(5)
        attributes = match.group(2) or match.group(4) or match.group(6) or ""
        if tag:
            return f"<{tag}{attributes} data-search-exclude>"
        return '<a data-search-exclude class="anchor-link"'

    return _EXCLUDED_OPENINGS.sub(mark, html)


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


def with_synonyms(doc: dict[str, Any], lang: Lang) -> dict[str, Any]:
    """``doc`` with the synonyms of its title and text, and of its title alone, in fields of their own."""
    synonyms = synonyms_for(f"{doc['title']} {doc['text']}", lang)
    heading = synonyms_for(str(doc["title"]), lang)
    return {
        **doc,
        **({SYNONYMS_FIELD: synonyms} if synonyms else {}),
        **({HEADING_SYNONYMS_FIELD: heading} if heading else {}),
    }


def _opening_questions(lang: Lang) -> re.Pattern[str]:
    """The list of questions under a chapter's opening (`OPENING`), which jieba may have cut with zero-width spaces."""
    opening = f"{ZWSP}?".join(re.escape(char) for char in OPENING.in_(lang))
    return re.compile(rf"{opening}{ZWSP}?</p>\s*<ul>(.*?)</ul>", re.DOTALL)


def opening_questions(text: str, lang: Lang) -> str:
    """The questions a chapter opens with ("After this chapter you can answer:"), found in ``text``, without markup."""
    found = _opening_questions(lang).search(text)
    return re.sub(r"<[^>]*>", " ", found.group(1)).strip() if found else ""


def defined_terms(lang: Lang) -> dict[str, str]:
    """Per page (its location in the index), the glossary's terms and notation letters its chapter defines.

    A letter is written as ``lang``'s legends write it ("P (scores)"); a term the glossary defines alone is nowhere.
    """
    defined: dict[str, list[str]] = {}
    for entry in GLOSSARY_TERMS:
        if entry.chapter is not None:
            defined.setdefault(CHAPTERS_BY_KEY[entry.chapter].url, []).append(entry.term)
    for symbol in NOTATION:
        if symbol.chapter is not None:
            defined.setdefault(CHAPTERS_BY_KEY[symbol.chapter].url, []).append(symbol.legend.in_(lang))
    return {page: " ".join(words) for page, words in defined.items()}


def with_outlines(docs: list[dict[str, Any]], lang: Lang) -> list[dict[str, Any]]:
    """``docs`` (pages first, each before its sections) with each page's title, headings and opening questions.

    The page's own entry holds its outline; the questions a chapter says it answers weigh as its headings do, and so do
    the glossary terms its chapter defines (`defined_terms`: online softmax heads the computation chapter, which
    explains it, not the chapters that only use it) and the synonyms of all these words (a heading saying 双缓冲 heads
    its page for 乒乓缓冲 too).
    """
    defined = defined_terms(lang)
    outlines: dict[str, list[str]] = {}
    for doc in docs:
        outline = outlines.setdefault(str(doc["location"]).split("#")[0], [])
        outline.append(str(doc["title"]))
        questions = opening_questions(str(doc["text"]), lang)
        if questions:
            outline.append(questions)

    def with_synonyms_of(page: str) -> str:
        words = " ".join([*outlines[page], defined.get(page, "")]).strip()
        return f"{words} {synonyms_for(words, lang)}".strip()

    return [
        {**doc, OUTLINE_FIELD: with_synonyms_of(str(doc["location"]))} if "#" not in str(doc["location"]) else doc
        for doc in docs
    ]


def edition_config(config: dict[str, Any], lang: Lang) -> dict[str, Any]:
    """Material's index configuration for one edition: its language, fields, and the question words to drop."""
    fields = {**config.get("fields", {}), SYNONYMS_FIELD: SYNONYMS_SPEC, OUTLINE_FIELD: OUTLINE_SPEC}
    fields[HEADING_SYNONYMS_FIELD] = fields.get("title", {"boost": 1.0})
    edition = {
        **config,
        "lang": [lang],
        "fields": fields,
        HEADED_FIELDS_KEY: list(HEADED_FIELDS),
        QUESTION_WORDS_KEY: list(QUESTION_WORDS[lang]),
        PHRASES_KEY: list(phrases(lang)),
    }
    if lang == "zh":
        edition["separator"] = CHINESE_SEPARATOR
    if lang == "en":
        edition |= {"separator": ENGLISH_SEPARATOR, "pipeline": ENGLISH_PIPELINE}
        edition["fields"] = {**fields, SPELLINGS_FIELD: SPELLINGS_SPEC}
    return edition


def _dropped_twins(chinese: list[dict[str, Any]], english: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """English entries mkdocs-static-i18n dropped as duplicates of Chinese ones (same title and text).

    A page whose opening is only a heading (gather2, skip-scale) lost its page entry that way, and every section
    of it then led to "undefined" in the English results.
    """
    locations = {str(doc["location"]) for doc in english}
    pages = {location.split("#")[0] for location in locations}
    return [
        english_doc({**doc, "location": ENGLISH_PREFIX + str(doc["location"])})
        for doc in chinese
        if str(doc["location"]) not in locations and str(doc["location"]).split("#")[0] in pages
    ]


def _pages_first(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``docs`` with each page's entry just before its sections, pages in their first order (Material needs it)."""
    pages: dict[str, int] = {}
    for doc in docs:
        pages.setdefault(str(doc["location"]).split("#")[0], len(pages))

    def key(item: tuple[int, dict[str, Any]]) -> tuple[int, bool, int]:
        location = str(item[1]["location"])
        return pages[location.split("#", maxsplit=1)[0]], "#" in location, item[0]

    return [doc for _, doc in sorted(enumerate(docs), key=key)]


def split_index(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The merged index as (Chinese index, English index), each configured for its own language."""
    docs = data.get("docs", [])
    config = data.get("config", {})
    chinese = [doc for doc in docs if not str(doc["location"]).startswith(ENGLISH_PREFIX)]
    english = [english_doc(doc) for doc in docs if str(doc["location"]).startswith(ENGLISH_PREFIX)]
    english = _pages_first(english + _dropped_twins(chinese, english))
    chinese = with_outlines([with_synonyms(doc, "zh") for doc in chinese], "zh")
    english = with_outlines([with_synonyms(doc, "en") for doc in english], "en")
    zh_data = {**data, "config": edition_config(config, "zh"), "docs": chinese}
    return zh_data, {**data, "config": edition_config(config, "en"), "docs": english}


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def patch_worker(site: Path) -> None:
    """Let the browser's Chinese query segmenter keep a whole indexed word (算存比) as one term; stem English words."""
    stemming = STEMMING_SCRIPT.read_text(encoding="utf-8")
    for worker in (site / "assets" / "javascripts" / "workers").glob("search.*.min.js"):
        code = worker.read_text(encoding="utf-8")
        if stemming not in code:  # patched already by the other edition's build into the same site
            code = _with_script(code, stemming)
        for before, after in _WORKER_PATCHES:
            if after in code:  # patched by the other edition's build into the same site
                continue
            if before not in code:
                message = f"{worker.name}: Material's search worker changed; expected {before!r}"
                raise RuntimeError(message)
            code = code.replace(before, after)
        worker.write_text(code, encoding="utf-8")


def split_site_index(site: Path) -> None:
    """Split the built search index, if there is one, into one compact UTF-8 index per edition; patch the worker."""
    index = site / "search" / "search_index.json"
    if not index.is_file():
        return
    chinese, english = split_index(json.loads(index.read_text(encoding="utf-8")))
    _write(index, chinese)
    if english["docs"]:
        _write(site / ENGLISH_PREFIX / "search" / "search_index.json", english)
    patch_worker(site)
