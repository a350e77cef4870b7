r"""Numbers in page prose: fill ``{{ name }}`` from the package, and find any number typed by hand.

Prose (Markdown outside code, notebook markdown cells, both languages) never types a number. It writes
``{{ name }}`` instead, and the site's build (`ascend_dsa.site.app`) replaces it at build time with
`ascend_dsa.report.prose_values.PROSE_VALUES` ``[name]()``, formatted by `format_quantity` (digits grouped by
commas from 10,000 on; a percentage with its ``%``; the unit is written in the prose, in the page's language).
Inside math (``$...$``) the marker works the same way.

`typed_numbers` then lists every other number left in a page, and `malformed_markers` every marker written wrong;
the build reports each page's problems in one line (`problems`) and fails after the last page. A number is any run
of digits not glued to a Latin letter or ``_`` (so ``FP8``, ``e4m3``,
``L0C``, ``H_Q`` and ``1C2V`` are names, but ``74个`` is a number), and any Chinese numeral (一 to 万, 两) that
counts or measures: a run of two or more (六十四), or one followed by a measure word (两个, 六个实例, 七个步骤).
It is looked for everywhere a reader sees text: prose, headings (``## 67. ...``), footnote definitions, math,
inline code, HTML attribute values, notebook markdown cells, and the comments and printed output of code blocks
that are not executed (an executed block prints what the package computes; the code of a shown block is code).

Two rules, not exemptions, keep words that are not quantities: an ordinal (第一, 第二 ...) and a lone 一 (一个 as an
article, 一起, 统一) are words; in math, a 0 or 1 in a sub- or superscript (``\sum_{j=1}``, ``x^{-1}``), as the
numerator of ``1/`` or ``\frac{1}``, and the neighbour step ``i+1``, ``i-1`` are notation. A real list's item
markers (``1.`` at the start of a list) are Markdown; a line that starts with ``83.`` inside a paragraph is text.

The only numbers prose may type are those in `EXEMPTIONS`, each with its reason: citations of a line of the report
or of a source file, of a commit, the report's date, version numbers and the product names in `NAMES`.

To put a new number in prose: add ``"name": lambda: Quantity(<computed from the package>, "unit", decimals)`` to
`ascend_dsa.report.prose_values`, write ``{{ name }}`` in both ``x.md`` and ``x.en.md``, and write the unit in words.
A ``{{ name }}`` is filled in prose, math, inline code and shown (not executed) code blocks alike.
A number a table already shows is better referred to ("see the table") than repeated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ascend_dsa.lang import Lang, check_lang
from ascend_dsa.render.fences import CODE_SPAN, Fence, fences
from ascend_dsa.render.format import format_quantity
from ascend_dsa.report.prose_values import PROSE_VALUES, Quantity

#: ``{{ name }}``: a value from the package.
MARKER: Final = re.compile(r"\{\{\s*([a-z][a-z0-9_]*)\s*\}\}")
#: Marker braces, whole or not: what `malformed_markers` checks each occurrence of.
_BRACES: Final = re.compile(r"\{\{|\}\}")
#: A marker written wrong is quoted up to this many characters from where it goes wrong.
_QUOTED: Final = 16
#: In math, braces are LaTeX's: only a ``{{`` that starts like a marker (``{{ name``) is one.
_MATH_MARKER_START: Final = re.compile(r"\{\{\s*[A-Za-z_]")
#: Product names that carry a number.
NAMES: Final = ("Ascend 950", "昇腾 950", "DeepSeek V4.1")

_NUM = r"\d+(?:[.,]\d+)*"
_LIST = rf"{_NUM}(?:\s*(?:[-–~、,，和及与]|and|to)\s*{_NUM})*"
_SPAN = rf"{_NUM}(?:\s*[-–]\s*{_NUM})?"


@dataclass(frozen=True)
class Exemption:
    """A kind of number prose may type: its name, the text it matches and why it is not a quantity."""

    name: str
    pattern: re.Pattern[str]
    reason: str


#: Every number prose may type, in one list. Anything else is a typed number.
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
        "the number is part of the product's name",
    ),
    Exemption(
        "page title",
        re.compile("两块芯片，一把尺子"),
        "the title of the page comparing the Ascend 950 with the H800 is a phrase (Two chips, one ruler), not a count",
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
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)
#: A 0 or 1 that is notation in math: in a sub- or superscript, a numerator of one, the neighbour step i +- 1.
_MATH_NOTATION = re.compile(r"(?<=[_^])[01]\b|(?<=[_^]\{)[^{}]*|(?<![\w.,])1(?=\s*/)|(?<=\\frac\{)1(?=\})")
#: The neighbour step of an index, in prose or math: ``SV[i-1]``, ``QK[i+1]``.
_NEIGHBOUR = re.compile(r"(?<=\b[ijkt])\s*[+-]\s*1\b")
#: A number: digits not glued to a Latin letter, ``_`` or another number part (a CJK character is not a letter here).
_NUMBER = re.compile(rf"(?<![A-Za-z0-9_.,]){_NUM}%?(?![A-Za-z0-9_])")
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


@dataclass(frozen=True)
class TypedNumber:
    """A number typed by hand in prose: the number, its line in the page source and the text around it."""

    number: str
    line: int
    context: str


def fill(markdown: str, lang: Lang, values: dict[str, Quantity] | None = None) -> str:
    """``markdown`` with every ``{{ name }}`` replaced by the package's value for ``lang``, except in executed code.

    Prose, math, inline code and shown code blocks are filled; an executed block is Python and stays as written.
    ``values`` keeps the values computed so far (by name) for the next pages.
    """
    check_lang(lang)

    def value(match: re.Match[str]) -> str:
        return format_quantity(quantity(match.group(1), values), lang)

    parts, position = [], 0
    for fence in fences(markdown):
        if fence.executed:
            parts.append(MARKER.sub(value, markdown[position : fence.start]))
            parts.append(markdown[fence.start : fence.end])
            position = fence.end
    parts.append(MARKER.sub(value, markdown[position:]))
    return "".join(parts)


def fill_html(html: str, lang: Lang, values: dict[str, Quantity] | None = None) -> str:
    """``html`` (a rendered notebook) with every ``{{ name }}`` replaced, as `fill` does in Markdown."""
    check_lang(lang)
    return MARKER.sub(lambda m: format_quantity(quantity(m.group(1), values), lang), html)


@dataclass(frozen=True)
class MalformedMarker:
    """A ``{{ name }}`` written wrong: the text at fault, its line in the page source and the line's text."""

    text: str
    line: int
    context: str


def malformed_markers(markdown: str) -> list[MalformedMarker]:
    """Every marker written wrong in ``markdown``, in page order: braces that open or close no ``{{ name }}``.

    Outside math, a ``{{`` or ``}}`` that is not part of a marker, and a marker with a brace glued to it
    (``{{ clock_ghz }}}``), are wrong; inside math, where LaTeX's own braces nest, only a ``{{ name`` that is not a
    whole marker is. Executed code is Python and is not looked at.
    """
    text = _blank_executed(markdown)
    maths = [(m.start(), m.end()) for m in _MATH.finditer(text)]

    def in_math(index: int) -> bool:
        return any(start <= index < end for start, end in maths)

    markers = [(m.start(), m.end()) for m in MARKER.finditer(text)]
    spans = {index for start, end in markers for index in (start, end - 2)}
    found: list[tuple[int, str]] = []
    for start, end in markers:
        glued = (start > 0 and text[start - 1] == "{") or (end < len(text) and text[end] == "}")
        if glued and not in_math(start):
            found.append((start, text[max(start - 1, 0) : end + 1]))
    for match in _BRACES.finditer(text):
        if match.start() in spans or in_math(match.start()):
            continue
        found.append((match.start(), text[match.start() : match.start() + _QUOTED].split("\n")[0]))
    found += [
        (match.start(), text[match.start() : match.start() + _QUOTED].split("\n")[0])
        for match in _MATH_MARKER_START.finditer(text)
        if match.start() not in spans and in_math(match.start())
    ]
    lines = markdown.splitlines()
    numbered = [(text.count("\n", 0, start) + 1, fault) for start, fault in sorted(set(found))]
    return [MalformedMarker(fault, line, lines[line - 1].strip()[:80]) for line, fault in numbered]


def _blank_executed(markdown: str) -> str:
    """``markdown`` with its executed blocks blanked (line breaks kept)."""
    text = markdown
    for fence in reversed(fences(markdown)):
        if fence.executed:
            text = text[: fence.start] + _BLANK_LINE_CHARS.sub(" ", text[fence.start : fence.end]) + text[fence.end :]
    return text


class ProseProblem(ValueError):  # noqa: N818 - a problem of the page's prose, not an error of the code
    """A page's prose types a number, names an unknown value or writes a marker wrong (every case in one message)."""


def problems(markdown: str) -> ProseProblem | None:
    """Every problem of ``markdown``'s prose in one error (None if there is none): unknown names first."""
    found = [
        f"unknown prose value {{{{ {name} }}}}; define it in ascend_dsa.report.prose_values"
        for name in MARKER.findall(markdown)
        if name not in PROSE_VALUES
    ]
    malformed = malformed_markers(markdown)
    if malformed:
        listed = "; ".join(f"line {m.line}: {m.text.strip()!r}" for m in malformed)
        found.append(f"{len(malformed)} marker(s) written wrong ({listed}); write {{{{ name }}}}")
    typed = typed_numbers(markdown)
    if typed:
        listed = "; ".join(f"line {t.line}: {t.number} in {t.context!r}" for t in typed)
        found.append(
            f"{len(typed)} number(s) typed by hand in prose ({listed}); "
            "write {{ name }} with a value from ascend_dsa.report.prose_values, or cite"
        )
    return ProseProblem("; ".join(found)) if found else None


def unknown_shown(text: str) -> str:
    """``text`` with every ``{{ name }}`` that has no value shown as code (left unfilled), so the rest can be filled.

    The braces are written as HTML entities, in Markdown as in HTML: `fill` fills markers in inline code too, so a
    marker merely put in backticks would be filled (and fail) again.
    """

    def shown(match: re.Match[str]) -> str:
        if match.group(1) in PROSE_VALUES:
            return match.group(0)
        return f"<code>&#123;&#123; {match.group(1)} &#125;&#125;</code>"

    return MARKER.sub(shown, text)


def notebook_prose(source: str) -> str:
    """The markdown cells of a notebook's source (its JSON), joined: its prose."""
    import json  # noqa: PLC0415 - only for notebooks

    cells = json.loads(source)["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def quantity(name: str, values: dict[str, Quantity] | None = None) -> Quantity:
    """The package's value for ``name`` (kept in ``values`` once computed); an unknown name raises naming it."""
    if values is not None and name in values:
        return values[name]
    try:
        make = PROSE_VALUES[name]
    except KeyError:
        raise KeyError(f"unknown prose value {{{{ {name} }}}}; define it in ascend_dsa.report.prose_values") from None
    found = make()
    if values is not None:
        values[name] = found
    return found


def typed_numbers(markdown: str) -> list[TypedNumber]:
    """Every number a reader sees in ``markdown`` that is neither a ``{{ name }}`` nor exempt, in page order."""
    text = _blank(_FRONT_MATTER, _shown_code_only(markdown))
    text = _blank(_COMMENT, text)
    text = _TAG.sub(lambda m: _keep(_ATTRIBUTE_VALUE, m.group(0)), text)
    for pattern in (_LINK_TARGET, _FOOTNOTE_LABEL, MARKER, *(e.pattern for e in EXEMPTIONS)):
        text = _blank(pattern, text)
    text = CODE_SPAN.sub(_unquote, text)
    text = _blank(_NEIGHBOUR, text)
    text = _MATH.sub(lambda m: _blank(_MATH_NOTATION, m.group(0)), text)
    text = _blank_list_markers(text)
    lines = markdown.splitlines()
    found = [(match.start(), match.group(0)) for match in _NUMBER.finditer(text)]
    found += [(start, numeral) for start, numeral in _cjk_numbers(text)]
    typed = []
    for start, number in sorted(found):
        line = text.count("\n", 0, start) + 1
        typed.append(TypedNumber(number, line, lines[line - 1].strip()[:80]))
    return typed


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


_BLANK_LINE_CHARS = re.compile(r"[^\n]")


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
        blank = not line.strip(" \t>")
        item = _LIST_ITEM.match(line)
        if item and (in_list or previous_blank or item["number"] == "1"):
            in_list = True
            lines[index] = " " * item.end() + line[item.end() :]
        elif not blank and _ends_list(line, previous_blank=previous_blank):
            in_list = False
        previous_blank = blank
    return "\n".join(lines)


def _blank(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with every match of ``pattern`` replaced by spaces, keeping line breaks (so line numbers hold)."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
