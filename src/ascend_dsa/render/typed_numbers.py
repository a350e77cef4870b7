r"""The one scanner for numbers typed by hand: in page prose, in renderers' labels and in the command line's help.

No text a reader sees types a number: each comes from the package (a page writes ``{{ name }}``, a label or a help
formats a constant). `typed_numbers` reads a page's Markdown, `typed_in_text` a plain text (a label, a help); both
find the same numbers and let through the same `EXEMPTIONS`, so a number one of them lets pass, the other does too.

A number is any run of digits not glued to a Latin letter or ``_`` (so ``FP8``, ``e4m3``, ``L0C``, ``H_Q`` and
``1C2V`` are names, but ``74个`` is a number), with its decimals, exponent (``5e12``) or ``%``, and any Chinese
numeral (``一`` to ``万``, ``两``) that counts or measures: a run of two or more (``六十四``), or one followed by a
measure word (``两个``, ``六个实例``, ``七个步骤``). An ordinal (``第一``, ``第二`` ...) and a lone ``一``
(``一个`` as an article, ``一起``, ``统一``) are words, not numbers.

In a page it is looked for everywhere a reader sees text: prose, headings (``## 67. ...``), footnote definitions,
math, inline code, HTML attribute values, notebook markdown cells, and the comments and printed output of code
blocks that are not executed (an executed block prints what the package computes; the code of a shown block is
code). A real list's item markers (``1.`` at the start of a list) are Markdown; ``83.`` inside a paragraph is text.

The only numbers any text may type are those `EXEMPTIONS` lists, each with its reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ascend_dsa.render.fences import CODE_SPAN, Fence, fences

#: Product names that carry a number, and the chip preset named after one.
NAMES: Final = ("Ascend 950", "昇腾 950", "DeepSeek V4.1", "ascend-950")
#: Math in a page: ``$$...$$`` or ``$...$``.
MATH: Final = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)

_NUM = r"\d+(?:[.,]\d+)*"
_LIST = rf"{_NUM}(?:\s*(?:[-–~、,，和及与]|and|to)\s*{_NUM})*"
_SPAN = rf"{_NUM}(?:\s*[-–]\s*{_NUM})?"
_SUPERSCRIPT = "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"


@dataclass(frozen=True)
class Exemption:
    """A kind of number text may type: its name, the text it matches, why it is not a quantity, and where.

    ``inside`` limits the exemption to the spans it matches (math); None means everywhere.
    """

    name: str
    pattern: re.Pattern[str]
    reason: str
    inside: re.Pattern[str] | None = None


#: Every number a page, a label or a help may type, in one list. Anything else is a typed number.
EXEMPTIONS: Final = (
    Exemption(
        "line citation",
        re.compile(rf"\b(?i:lines)\s+{_LIST}|\b(?i:line)\s+{_SPAN}|第\s*{_LIST}\s*行"),
        "a line number of the report or of a source file is an address, not a quantity (one line or one range "
        "after 'line', a list after 'lines' or inside 第 ... 行)",
    ),
    Exemption(
        "file:line citation",
        re.compile(rf"[\w./-]+\.(?:h|hpp|cpp|py|md|txt|toml|yml|ipynb):{_SPAN}"),
        "a source line cited as file:line (config.h:74)",
    ),
    Exemption(
        "commit",
        re.compile(r"(?:@|\bcommit|提交)\s*`?[0-9a-f]{7,40}\b|\b[0-9a-f]{40}\b"),
        "a commit named after @, 'commit' or 提交, or written out in full",
    ),
    Exemption(
        "report date",
        re.compile(r"\b20\d{2}-[01]\d-[0-3]\d\b|\b20\d{2}[01]\d[0-3]\d(?=-ascend-)"),
        "the report's publication date, and the same date in its file name",
    ),
    Exemption(
        "version",
        re.compile(r"\b(?:[Vv]|Python |python |版本 ?)\d+(?:\.\d+)+\+?"),
        "a version number names a release, not a quantity",
    ),
    Exemption(
        "product name",
        re.compile("|".join(re.escape(name) for name in NAMES)),
        "the number is part of the product's name (or of the chip preset named after it)",
    ),
    Exemption(
        "page title",
        re.compile("两块芯片，一把尺子"),
        "the title of the page comparing the Ascend 950 with the H800 is a phrase (Two chips, one ruler), not a count",
    ),
    Exemption(
        "neighbour index",
        re.compile(r"(?<=\b[ijkt])\s*[+-]\s*1\b|(?<=\b2p)\+1\b|(?:\boffset|偏移) \+ 1\b"),
        "the next or previous index (SV[i-1], QK[i+1], 2p+1) and the count of offsets numbered from 0 (largest "
        "offset + 1) are notation",
    ),
    Exemption(
        "numbered from 0",
        re.compile(r"(?:\bslot|位置) [01]\b|[(（]0-"),
        "slots and indices are numbered from 0: slot 0 and slot 1 are names, and a range of slots starts at 0",
    ),
    Exemption(
        "math notation",
        re.compile(r"(?<=[_^])[01]\b|(?<=[_^]\{)[^{}]*|(?<![\w.,])1(?=\s*/)|(?<=\\frac\{)1(?=\})"),
        "in math, a 0 or 1 in a sub- or superscript, and a numerator of one (1/, \\frac{1}), are notation",
        inside=MATH,
    ),
    Exemption(
        "reciprocal",
        re.compile(r"\b1/(?:√|sqrt\()"),
        "the softmax scale 1/√d is a formula; d comes from the package",
    ),
    Exemption(
        "power of two",
        re.compile(rf"(?<![\w.])2(?=[{_SUPERSCRIPT}])|(?<![\w.])2·(?=2[{_SUPERSCRIPT}]|\()"),
        "a power of two written with a superscript (2⁻⁸, a unit roundoff) and a formula's coefficient before such a "
        "power or a bracket (the reference's tolerance, 2·2⁻⁸ + 2·(d_qk + topk)·2⁻²⁴) are notation",
    ),
    Exemption(
        "FLOP per FMA",
        re.compile(r"[×x] 2 FLOP\b"),
        "a fused multiply-add is two floating-point operations by definition",
    ),
    Exemption(
        "one as the unit",
        re.compile(r"\babove 1\b|(?<![\d.])1 之上|\bfraction of 1\b|\bsum to at most 1\b|之和不超过 1\b"),
        "a ratio compared with its balance point 1, a fraction of 1, and normalised weights that sum to at most 1: "
        "1 is the unit of the definition",
    ),
    Exemption(
        "negative sign",
        re.compile(r"[(（]< 0[)）]"),
        "an index below zero, marked (< 0), is invalid by its sign",
    ),
    Exemption(
        "adjacent pair",
        re.compile(r"相邻两(?=[个段块])|两条直线交"),
        "a gap, a distance or a crossing lies between a pair: 两 here says 'between', not how many",
    ),
)

_FENCE_COMMENT: Final = {"bash": "#", "sh": "#", "shell": "#", "python": "#", "py": "#", "toml": "#", "yaml": "#"}
_FENCE_COMMENT.update(dict.fromkeys(("c", "cpp", "c++", "h"), "//"))
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
#: A page's YAML front matter (``search: boost: ...``): settings for MkDocs, never shown to the reader.
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_TAG = re.compile(r"</?[A-Za-z][^>\n]*>")
_ATTRIBUTE_VALUE = re.compile(r"""=\s*("[^"]*"|'[^']*'|[^\s>]+)""")
_LINK_TARGET = re.compile(
    r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|\]\[[^\]]*\]|^[ \t]*\[(?!\^)[^\]]+\]:[ \t]*\S+", re.MULTILINE
)
_FOOTNOTE_LABEL = re.compile(r"\[\^[^\]]+\]")
_LIST_ITEM = re.compile(r"^(?P<lead>[ \t>]*)(?P<number>\d+)[.)](?=[ \t])")
_BULLET = re.compile(r"^[ \t>]*(?:[-*+]|\d+[.)])[ \t]")
#: A number: digits not glued to a Latin letter, ``_`` or another number part (a CJK character is not a letter here).
_NUMBER = re.compile(rf"(?<![A-Za-z0-9_.,]){_NUM}(?:e[+-]?\d+)?%?(?![A-Za-z0-9_])")
_CJK_DIGITS = "零〇一二三四五六七八九十百千万亿两"
#: Measure words: a Chinese numeral before one of these counts or measures something.
MEASURE_WORDS: Final = (
    "个", "步", "次", "倍", "条", "种", "行", "列", "位", "块", "层", "组", "项", "类", "份", "路", "张", "段",
    "轮", "遍", "批", "对", "件", "片", "道", "处", "句", "章", "节", "级", "阶", "维", "元", "颗", "台", "套",
    "帧", "拍", "成", "半", "字节", "周期", "核", "周", "字", "根", "部", "名",
)  # fmt: skip
_CJK_NUMERAL = re.compile(rf"(?<!第)(?<![{_CJK_DIGITS}])[{_CJK_DIGITS}]+")
#: Words made of numerals that do not count: 万一 (in case), 一一 (one by one), 千万 (by all means).
_CJK_WORDS: Final = ("万一", "一一", "千万")
_BLANK_LINE_CHARS: Final = re.compile(r"[^\n]")
#: Most characters of its line a found problem quotes as its context.
CONTEXT_CHARS: Final = 80


@dataclass(frozen=True)
class TypedNumber:
    """A number typed by hand: the number, its line in the text (from 1) and the text around it."""

    number: str
    line: int
    context: str


def typed_numbers(markdown: str) -> list[TypedNumber]:
    """Every number a reader sees in the page ``markdown`` that is neither a ``{{ name }}`` nor exempt, in order."""
    text = blank(_FRONT_MATTER, _shown_code_only(markdown))
    text = blank(_COMMENT, text)
    text = _TAG.sub(lambda m: _keep(_ATTRIBUTE_VALUE, m.group(0)), text)
    for pattern in (_LINK_TARGET, _FOOTNOTE_LABEL):
        text = blank(pattern, text)
    return _found(markdown, _blank_list_markers(_without_exempt(text, unquote=True)))


def typed_in_text(text: str) -> list[TypedNumber]:
    """Every number ``text`` (a label, a help text: no Markdown structure) types that is not exempt, in order."""
    return _found(text, _without_exempt(text, unquote=False))


def _without_exempt(text: str, *, unquote: bool) -> str:
    """``text`` with every exempt number blanked; with ``unquote``, inline code's backticks too (its text is read)."""
    for exemption in EXEMPTIONS:
        if exemption.inside is None:
            text = blank(exemption.pattern, text)
    if unquote:
        text = CODE_SPAN.sub(_unquote, text)
    for exemption in EXEMPTIONS:
        if exemption.inside is not None:
            text = _blank_inside(exemption.inside, exemption.pattern, text)
    return text


def _blank_inside(inside: re.Pattern[str], pattern: re.Pattern[str], text: str) -> str:
    """``text`` with the matches of ``pattern`` blanked within the spans ``inside`` matches, and nowhere else."""
    return inside.sub(lambda span: blank(pattern, span.group(0)), text)


def line_at(lines: list[str], text: str, start: int) -> tuple[int, str]:
    """The line (from 1) of offset ``start`` in ``text``, and that line of ``lines`` stripped and cut to context.

    ``text`` is the page blanked in place and ``lines`` the page's own lines, so a problem quotes what was written.
    """
    line = text.count("\n", 0, start) + 1
    return line, lines[line - 1].strip()[:CONTEXT_CHARS]


def _found(original: str, text: str) -> list[TypedNumber]:
    """The numbers left in ``text`` (``original`` blanked in place), each with its line of ``original``."""
    found = [(match.start(), match.group(0)) for match in _NUMBER.finditer(text)]
    found += _cjk_numbers(text)
    lines = original.splitlines()
    return [TypedNumber(number, *line_at(lines, text, start)) for start, number in sorted(found)]


def _unquote(span: re.Match[str]) -> str:
    """An inline code span with its backticks blanked: what it quotes is read like prose."""
    ticks = " " * len(span.group(1))
    return ticks + span.group(0)[len(ticks) : -len(ticks)] + ticks


def _cjk_numbers(text: str) -> list[tuple[int, str]]:
    """Chinese numerals that count or measure: a run of two or more, or one before a measure word (not 一)."""
    found = []
    for match in _CJK_NUMERAL.finditer(text):
        run = match.group(0)
        if run in _CJK_WORDS:
            continue
        after = text[match.end() :].lstrip(" ")
        if len(run) > 1 or (run != "一" and after.startswith(MEASURE_WORDS)):
            found.append((match.start(), run))
    return found


def blank_executed(markdown: str) -> str:
    """``markdown`` with its executed blocks blanked (line breaks kept)."""
    text = markdown
    for fence in reversed(fences(markdown)):
        if fence.executed:
            text = text[: fence.start] + _BLANK_LINE_CHARS.sub(" ", text[fence.start : fence.end]) + text[fence.end :]
    return text


def _shown_code_only(markdown: str) -> str:
    """``markdown`` with executed blocks blanked, and of a shown block only its comments and printed output kept."""
    text = markdown
    for fence in reversed(fences(markdown)):
        block = markdown[fence.start : fence.end]
        first, _, rest = block.partition("\n")
        body, _, last = rest.rpartition("\n")
        kept = _BLANK_LINE_CHARS.sub(" ", first) + "\n"
        kept += "\n".join(_shown_part(fence, line) for line in body.split("\n")) + "\n"
        kept += _BLANK_LINE_CHARS.sub(" ", last)
        text = text[: fence.start] + kept + text[fence.end :]
    return text


def _shown_part(fence: Fence, line: str) -> str:
    """What a reader of ``line`` of a shown block reads as a statement: its comment, or the whole line if output."""
    if fence.executed:
        return " " * len(line)
    marker = _FENCE_COMMENT.get(fence.language)
    if marker is None:  # console, text, plain: a line without a prompt is printed output
        prompt = line.lstrip().startswith(("$ ", ">>> ", "... "))
        return " " * len(line) if prompt else line
    at = line.find(f"{marker} ") if marker == "#" else line.find(marker)
    if at < 0 or (marker == "#" and at > 0 and not line[at - 1].isspace()):
        return " " * len(line)
    return " " * at + line[at:]


def _ends_list(line: str, *, previous_blank: bool) -> bool:
    """Whether ``line`` closes an ordered list: a heading, or unindented text after a blank line."""
    if line.lstrip(" \t>").startswith("#"):
        return True
    return previous_blank and not line.startswith((" ", "\t")) and not _BULLET.match(line)


def _keep(pattern: re.Pattern[str], text: str) -> str:
    """``text`` blanked except the matches of ``pattern`` (so line numbers and columns hold)."""
    kept = [" " if ch != "\n" else ch for ch in text]
    for match in pattern.finditer(text):
        kept[match.start() : match.end()] = match.group(0)
    return "".join(kept)


def _blank_list_markers(text: str) -> str:
    """``text`` with the item numbers of real ordered lists blanked; a number that opens a paragraph line stays."""
    lines = text.split("\n")
    in_list = False
    previous_blank = True
    for index, line in enumerate(lines):
        is_blank = not line.strip(" \t>")
        item = _LIST_ITEM.match(line)
        if item and (in_list or previous_blank or item["number"] == "1"):
            in_list = True
            lines[index] = " " * item.end() + line[item.end() :]
        elif not is_blank and _ends_list(line, previous_blank=previous_blank):
            in_list = False
        previous_blank = is_blank
    return "\n".join(lines)


def blank(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with every match of ``pattern`` replaced by spaces, keeping line breaks (so line numbers hold)."""
    return pattern.sub(lambda m: _BLANK_LINE_CHARS.sub(" ", m.group(0)), text)
