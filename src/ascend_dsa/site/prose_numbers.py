r"""Numbers in page prose: fill ``{{ name }}`` from the package, and find any number typed by hand.

Prose (Markdown outside code, notebook markdown cells, both languages) never types a number. It writes
``{{ name }}`` instead, and the site's build (`ascend_dsa.site.app`) replaces it at build time with
`ascend_dsa.report.prose_values.PROSE_VALUES` ``[name]()``, formatted by `format_quantity` (digits grouped by
commas from 10,000 on; a percentage with its ``%``; the unit is written in the prose, in the page's language).
Inside math (``$...$``) the marker works the same way.

`ascend_dsa.render.typed_numbers` then lists every other number left in a page (the one scanner, shared with the
tests of renderers' labels and of the command line's help, with its one list of exemptions), and `malformed_markers`
every marker written wrong; the build reports each page's problems in one line (`problems`) and fails after the
last page.

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
from ascend_dsa.render.fences import fences
from ascend_dsa.render.format import format_quantity
from ascend_dsa.render.typed_numbers import MATH, blank_executed, line_at, typed_numbers
from ascend_dsa.report.prose_values import PROSE_VALUES, Quantity

#: ``{{ name }}``: a value from the package. Its name has no number of its own (digits in it are glued to letters).
MARKER: Final = re.compile(r"\{\{\s*([a-z][a-z0-9_]*)\s*\}\}")

#: Marker braces, whole or not: what `malformed_markers` checks each occurrence of.
_BRACES: Final = re.compile(r"\{\{|\}\}")
#: A marker written wrong is quoted up to this many characters from where it goes wrong.
_QUOTED: Final = 16
#: In math, braces are LaTeX's: only a ``{{`` that starts like a marker (``{{ name``) is one.
_MATH_MARKER_START: Final = re.compile(r"\{\{\s*[A-Za-z_]")


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
    text = blank_executed(markdown)
    maths = [(m.start(), m.end()) for m in MATH.finditer(text)]

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
    return [MalformedMarker(fault, *line_at(lines, text, start)) for start, fault in sorted(set(found))]


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
