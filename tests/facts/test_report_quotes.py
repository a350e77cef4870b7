"""Every quotation the site attributes to the report is the report's own words, in both editions (issue 31).

The rule, for the pages' prose (both editions, and the Markdown cells of notebooks) and every string of the package
(docstrings, which the API pages show, and the texts the pages print):

- A quotation is text between “ and ”, between 「 and 」, or between two ASCII double quotes (not right after ``=``
  or a letter, as an HTML attribute's value is; holding a letter or digit and no ``\\``, ``<`` or ``>``). Fenced
  blocks, admonition titles and link targets are left out; quote marks inside inline code are not quotation marks,
  but a quotation may hold inline code.
- A quotation is attributed to the report when its sentence names the report (报告, report) or cites a line
  (第 N 行, line N: a bare line on this site is a line of the report). A sentence ends at 。！？； or at . ! ? ;
  before a space, and never runs past its paragraph, list item, heading or table row.
- An attributed quotation is either words of our own, listed in `OWN_WORDS` with the reason, or, with its
  ``{{ markers }}`` filled as the page shows them, exactly the words of an entry of ``REPORT_QUOTES``: of the Chinese
  edition if the quotation or its sentence is Chinese, else of the English one, and at a line the sentence cites if
  it cites any. ``REPORT_QUOTES`` was compared with the report at the pinned commit (`misquoted`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import pytest

from ascend_dsa.facts.provenance import REPORT_EN_PATH, REPORT_ZH_PATH
from ascend_dsa.facts.report_quotes import REPORT_QUOTES, ReportQuote, misquoted
from ascend_dsa.lang import Lang
from ascend_dsa.render.fences import CODE_SPAN, blank_fences, docs_pages, notebook_cells
from ascend_dsa.site.prose_numbers import fill
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ascend_dsa.report.prose_values import Quantity

#: Quoted words of our own in a sentence that names the report, as the source writes them, and why they are ours.
OWN_WORDS: Final = {
    "报告": "the name of a column of our table (heads-per-core)",
    "report": "the name of a column of our table (heads-per-core)",
    "报告 (zh) 第 N 行": "the form our citations take (home page)",
    "report (zh) line N": "the form our citations take (home page)",
    "每块都搬出 O": "the name of our FixPipe row (lang.CATALOGUE, limit:fixpipe-o-every-block)",
    "P[i] 就绪到被使用": "a row of our pipeline table (render.pipeline)",
    "P[i] ready to used": "a row of our pipeline table (render.pipeline)",
    "每周期处理一个 {{ vector_bytes_per_cycle }} 字节的向量": "an assumption of ours, not the report's (pipeline)",
    "one {{ vector_bytes_per_cycle }}-byte vector per cycle": "an assumption of ours, not the report's (pipeline)",
    "取自报告的常量": "the mark our claims table puts on a constant taken from the report (render.claims)",
    "constant taken from the report": "the mark our claims table puts on a constant taken from the report",
    "Stated": "the name of a kind of claim of ours (report.rules)",
    "Covers report (zh) lines ...": "the opening note of our chapters (site.search_index)",
}

_CJK: Final = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef"
_IS_CJK: Final = re.compile(f"[{_CJK}]")
#: Quote marks inside inline code are hidden from the quotation pattern behind these stand-ins, then put back.
_STAND_INS: Final = {"“": "\ue000", "”": "\ue001", "「": "\ue002", "」": "\ue003", '"': "\ue004"}
_HIDE: Final = str.maketrans(_STAND_INS)
_SHOW: Final = str.maketrans({stand_in: mark for mark, stand_in in _STAND_INS.items()})
_QUOTATION: Final = re.compile(
    r'“(?P<a>[^”]+)”|「(?P<b>[^」]+)」|(?<![=\w])"(?P<c>(?=[^"\n]*\w)(?=\S)[^"\n\\<>]+(?<=\S))"'
)
_SENTENCE_END: Final = re.compile(r"[。！？；]|[.!?;](?=\s)")
_NAMES_REPORT: Final = re.compile(r"报告|\breport\b", re.IGNORECASE)
_LIST_SEPARATOR: Final = r",\s*|、|\s+and\s+|\s*和\s*"
_NUMBERS: Final = rf"\d+(?:-\d+)?(?:(?:{_LIST_SEPARATOR})\d+(?:-\d+)?)*"
_CITED_LINES: Final = re.compile(rf"第\s*(?P<zh>{_NUMBERS})\s*行|\blines?\s+(?P<en>{_NUMBERS})")
_PARAGRAPH_BREAK: Final = re.compile(r"^\s*(?:$|[-*+]\s|\d+\.\s|#|\|)")
_ADMONITION_TITLE: Final = re.compile(r'^\s*(?:!!!|\?\?\?\+?)\s+\S+(?:\s+"[^"\n]*")?')
_LINK_TARGET: Final = re.compile(r"\]\([^)\n]*\)")


@dataclass(frozen=True)
class Quotation:
    """One quotation found in a sentence that names the report: where, the words as written, and what it claims."""

    where: str
    words: str
    edition: Lang
    lines: frozenset[int]  # the lines the sentence cites, empty if none
    page_lang: Lang  # the language markers are filled in


def _join(lines: list[str]) -> str:
    """Lines of one paragraph as one text: no space where a Chinese character meets the break, one elsewhere."""
    text = ""
    for line in (line.strip() for line in lines):
        cjk = _IS_CJK.match(text[-1:]) or _IS_CJK.match(line[:1])
        text += line if not text or cjk else " " + line
    return text


def _paragraphs(text: str) -> Iterator[tuple[int, str]]:
    """Each paragraph, list item, heading or table row of Markdown ``text``, joined, with its first line's number."""
    text = _LINK_TARGET.sub("]", blank_fences(text))
    lines, first = [], 0
    for number, line in enumerate(text.split("\n"), start=1):
        line = _ADMONITION_TITLE.sub("", line)  # noqa: PLW2901 - the line without its title
        if _PARAGRAPH_BREAK.match(line):
            if lines:
                yield first, _join(lines)
            lines, first = ([line.lstrip("#|-*+ ")], number) if line.strip() else ([], 0)
            continue
        if not lines:
            first = number
        lines.append(line)
    if lines:
        yield first, _join(lines)


def _cited(sentence: str) -> frozenset[int]:
    """The lines a sentence cites: ``第 104-111 行``, ``lines 5 and 252``, ``第 138、216 行``."""
    found: set[int] = set()
    for match in _CITED_LINES.finditer(sentence):
        for part in re.split(_LIST_SEPARATOR, match["zh"] or match["en"]):
            first, _, last = part.partition("-")
            found.update(range(int(first), int(last or first) + 1))
    return frozenset(found)


def quotations(text: str, where: str, page_lang: Lang, first_line: int = 1) -> Iterator[Quotation]:
    """Every quotation of ``text`` (Markdown or a docstring, from line ``first_line`` of ``where``) whose sentence
    names the report or cites a line."""
    for line, paragraph in _paragraphs(text):
        hidden = CODE_SPAN.sub(lambda span: span.group(0).translate(_HIDE), paragraph)
        found = list(_QUOTATION.finditer(hidden))
        inside = [range(m.start(), m.end()) for m in found]
        ends = [m.end() for m in _SENTENCE_END.finditer(hidden) if not any(m.start() in span for span in inside)]
        for match in found:
            start = max((end for end in ends if end <= match.start()), default=0)
            stop = min((end for end in ends if end >= match.end()), default=len(hidden))
            sentence = paragraph[start:stop]
            if not (_NAMES_REPORT.search(sentence) or _CITED_LINES.search(sentence)):
                continue
            words = (match["a"] or match["b"] or match["c"]).translate(_SHOW)
            edition: Lang = "zh" if _IS_CJK.search(words) or _IS_CJK.search(sentence) else "en"
            yield Quotation(f"{where}:{first_line + line - 1}", words, edition, _cited(sentence), page_lang)


def page_quotations() -> Iterator[Quotation]:
    """The quotations attributed to the report on every page, both editions, notebooks included."""
    for page in docs_pages(ROOT / "docs"):
        lang: Lang = "en" if page.name.endswith((".en.md", ".en.ipynb")) else "zh"
        source = page.read_text(encoding="utf-8")
        if page.suffix == ".ipynb":
            source = "\n\n".join(notebook_cells(source, "markdown"))
        yield from quotations(source, str(page.relative_to(ROOT)), lang)


def package_quotations() -> Iterator[Quotation]:
    """The quotations attributed to the report in the package's strings (docstrings and the texts pages print)."""
    for path in sorted((ROOT / "src" / "ascend_dsa").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield from quotations(node.value, str(path.relative_to(ROOT)), "en", node.lineno)


def _problem(quotation: Quotation, values: dict[str, Quantity]) -> str | None:
    """Why ``quotation`` is not the report's words, or None when it is (or is ours)."""
    if quotation.words in OWN_WORDS:
        return None
    shown = fill(quotation.words, quotation.page_lang, values)
    matches = [q for q in REPORT_QUOTES if q.edition == quotation.edition and q.words == shown]
    if not matches:
        return f"{quotation.where}: {shown!r} is not the words of the report ({quotation.edition})"
    if quotation.lines and not any(q.line in quotation.lines for q in matches):
        cited = ", ".join(map(str, sorted(quotation.lines)))
        found = ", ".join(str(q.line) for q in matches)
        return f"{quotation.where}: {shown!r} stands on report ({quotation.edition}) line {found}, cited as {cited}"
    return None


@pytest.fixture(scope="module")
def attributed() -> list[Quotation]:
    """Every quotation attributed to the report, on the pages and in the package."""
    return [*page_quotations(), *package_quotations()]


def test_every_quotation_of_the_report_is_its_words(attributed: list[Quotation]) -> None:
    """A quotation the site attributes to the report is exactly a line's words in that edition, at the cited line."""
    values: dict[str, Quantity] = {}
    problems = [p for q in attributed if (p := _problem(q, values)) is not None]
    assert not problems, "\n".join(problems)


def test_every_quote_and_own_word_is_used(attributed: list[Quotation]) -> None:
    """Each registered quotation and each own word is quoted somewhere: the lists hold nothing the site lost."""
    values: dict[str, Quantity] = {}
    shown = {(q.edition, fill(q.words, q.page_lang, values)) for q in attributed}
    assert [q for q in REPORT_QUOTES if (q.edition, q.words) not in shown] == []
    assert sorted(set(OWN_WORDS) - {q.words for q in attributed}) == []


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        # issue 31: the report (zh) line 114 reads "compute 和 memory 大致均衡"
        ("报告说此时“算力和带宽大致均衡”（报告 (zh) 第 114 行）。", "zh", "is not the words of the report (zh)"),
        ("报告说此时“compute 和 memory 大致均衡”（报告 (zh) 第 114 行）。", "zh", None),
        ("报告说此时“compute 和 memory 大致均衡”（报告 (zh) 第 113 行）。", "zh", "line 114, cited as 113"),
        ('The report calls them "roughly\n  balanced" here (report (zh) line 114).', "en", None),
        ('The report calls them "about balanced" here.', "en", "is not the words of the report (en)"),
        ("这是一个“到目前为止”的量。报告另说了别的。", "zh", None),  # a quotation in a sentence of its own
        ("The Chinese line 192 stops after “发起第 `i+1` 个 KV 块的 softmax 计算，并将结果”.", "en", None),
        ('Run `x --name "report"` (report (zh) line 5).', "en", None),  # quote marks in code
        ("B_TOPK “一般取 {{ b_topk_choice_low }} 或 {{ b_topk_choice_high }}”（第 43 行）", "zh", None),
    ],
)
def test_the_rule_on_examples(text: str, lang: Lang, expected: str | None) -> None:
    """What counts as a quotation of the report, and how it is compared, on single sentences."""
    problems = [_problem(q, {}) for q in quotations(text, "page.md", lang)]
    found = [p for p in problems if p is not None]
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1
        assert expected in found[0]


def test_registered_quotes_are_whole_and_cite_their_edition() -> None:
    """Entries are unique, Chinese first, in line order, and cite the file of their edition."""
    keys = [(q.edition != "zh", q.line) for q in REPORT_QUOTES]
    assert keys == sorted(keys)
    assert len({(q.edition, q.words) for q in REPORT_QUOTES}) == len(REPORT_QUOTES)
    assert ReportQuote("zh", 114, "大致均衡").citation.path == REPORT_ZH_PATH
    assert ReportQuote("en", 114, "roughly balanced").citation.path == REPORT_EN_PATH
    assert ReportQuote("en", 114, "roughly balanced").citation.lines == "114"


@pytest.mark.parametrize(
    ("edition", "line", "words", "message"),
    [
        ("fr", 1, "x", "lang must be one of zh, en, got 'fr'"),
        ("zh", 0, "x", "line"),
        ("zh", 1, " x", "words must be non-empty text on one line"),
        ("zh", 1, "", "words must be non-empty text on one line"),
    ],
)
def test_a_quote_is_checked(edition: str, line: int, words: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        ReportQuote(edition, line, words)  # type: ignore[arg-type]


def _report_text(edition: Lang) -> str:
    """A stand-in for one edition of the report: each line holds the registered words of that line, nothing else."""
    last = max(q.line for q in REPORT_QUOTES)
    words = [
        " ".join(q.words for q in REPORT_QUOTES if (q.edition, q.line) == (edition, n)) for n in range(1, last + 1)
    ]
    return "\n".join(words)


def test_misquoted_names_the_entries_not_on_their_line() -> None:
    """An entry is misquoted when its words are not on its line of its edition (or the text has no such line)."""
    zh, en = _report_text("zh"), _report_text("en")
    assert misquoted(zh, en) == ()
    wrong = zh.replace("compute 和 memory 大致均衡", "算力和带宽大致均衡")
    assert [q.words for q in misquoted(wrong, en)] == ["compute 和 memory 大致均衡"]
    assert len(misquoted("", "")) == len(REPORT_QUOTES)
