"""The one scanner for typed numbers: what a number is, in a page, a label and a help, and each exemption's reach.

A page is read by `typed_numbers` (Markdown: code, math, links, lists), a label or a help text by `typed_in_text`;
both find the same forms and let through the same `EXEMPTIONS`.
"""

from __future__ import annotations

import pytest

from ascend_dsa.render import typed_numbers as scanner
from ascend_dsa.render.typed_numbers import EXEMPTIONS, typed_in_text, typed_numbers
from tests.helpers.project import TYPED_FORMS

#: One text per exemption, keyed by its name: exempt as a whole, and holding a number that the exemption alone lets
#: through (so each example fails once its exemption is taken out of the list).
EXEMPT_EXAMPLES: dict[str, str] = {
    "line citation": "report (zh) lines 104-111, 第 85、89 行",
    "file:line citation": "config.h:74 and kernel_body.h:1297",
    "commit": "commit 2035117 and tests/quant.py @ 9017265, or 1234567890123456789012345678901234567890 in full",
    "report date": "published 2026-09-30",
    "version": "Python 3.11+",
    "product name": "the Ascend 950, 昇腾 950 and --chip ascend-950",
    "page title": "两块芯片，一把尺子",
    "neighbour index": "SV[i-1] and QK[i+1], indices at 2p, 2p+1, largest offset + 1 = ",
    "numbered from 0": "copied first (UB slot 0), 先拷（UB 位置 1），槽（0-",
    "math notation": "$\\sum_{j=1}^{n} x_j$ and $1/\\sqrt{d}$ and $e^{-1}$ and $x_0$ and $\\frac{1}{n}$",
    "reciprocal": "sm_scale = 1/√d, or 1/sqrt(d)",
    "power of two": "(2·2⁻⁸ + 2·(d_qk + topk)·2⁻²⁴) × max|V|",
    "FLOP per FMA": "FMA × 2 FLOP, FMA x 2 FLOP",
    "one as the unit": "above 1 compute-bound; 1 之上; a fraction of 1; weights sum to at most 1; 之和不超过 1",
    "negative sign": "index（< 0） and (< 0)",
    "adjacent pair": "相邻两个可表示值、相邻两段、相邻两块；两条直线交于",
}


def test_every_exemption_is_named_with_a_reason_and_an_example() -> None:
    """The exemptions are one list, each with a name, a reason of its own and an example here."""
    assert len({e.name for e in EXEMPTIONS}) == len(EXEMPTIONS)
    assert all(e.reason and e.pattern.pattern for e in EXEMPTIONS)
    assert set(EXEMPT_EXAMPLES) == {e.name for e in EXEMPTIONS}


@pytest.mark.parametrize("name", EXEMPT_EXAMPLES)
def test_each_exemption_lets_its_example_through_everywhere(name: str) -> None:
    """An exempt text is no typed number in a page's prose nor in a label or help."""
    text = EXEMPT_EXAMPLES[name]
    assert typed_numbers(f"# T\n\n{text}\n") == []
    assert typed_in_text(text) == []


@pytest.mark.parametrize("name", EXEMPT_EXAMPLES)
def test_each_exemption_is_needed(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without its exemption, each example types a number: no exemption is dead, none hides behind another."""
    monkeypatch.setattr(scanner, "EXEMPTIONS", tuple(e for e in EXEMPTIONS if e.name != name))
    assert typed_numbers(f"# T\n\n{EXEMPT_EXAMPLES[name]}\n")
    assert typed_in_text(EXEMPT_EXAMPLES[name])


def test_typed_number_is_found_with_its_line() -> None:
    """A number typed in prose is reported with its line."""
    typed = typed_numbers("# Title\n\nThe block takes 1080 cycles.\n")
    assert [(t.number, t.line) for t in typed] == [("1080", 3)]


@pytest.mark.parametrize(
    "text",
    [
        "FP8, e4m3, fp32, bf16, 1C2V, ND2NZ, MTE2, L0C, H_Q, gather2 and V4.1",
        "1. first step\n2. second step",
        "text\n\n3. a list may start at any number after a blank line\n4. and go on",
        "```python\nprint(64)\n```",
        '```python exec="true"\nprint(64)  # 64\n```',
        "[link](../x/1.md) and a footnote[^1]",
        "<!-- 64 -->",
        '<span class="x">text</span>',
        "{{ any_name }} and `x[{{ any_name }}]`",
        "$P[i+1]$",
        "第一块、第二个 VECTOR Core",
        "一个 token、统一、一起、进一步、十分",
        "万一、一一对应",
    ],
)
def test_names_markdown_ordinals_and_articles_are_not_numbers(text: str) -> None:
    """Names with digits, real list markers, code, link targets, ordinals and articles are not typed numbers."""
    assert typed_numbers(text) == []


@pytest.mark.parametrize("form", TYPED_FORMS)
def test_every_form_of_a_typed_number_is_caught_in_prose(form: str) -> None:
    """A number typed in any form a reader of a page sees is reported, with its line."""
    text, number = TYPED_FORMS[form]
    typed = typed_numbers(f"# T\n\n{text}\n")
    assert number in [t.number for t in typed], typed
    assert all(t.line >= 3 for t in typed)  # the text starts on line 3


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("The block takes 1080 cycles", "1080"),
        ("94.79% of peak", "94.79%"),
        ("| 16 | 0.35 |", "16"),
        ("1,024 tokens", "1,024"),
        ("a bandwidth of 5e12 B/s", "5e12"),
        ("共74个周期", "74"),
        ("一个 AI Core：CUBE、两个 VECTOR Core", "两"),
        ("六个实例化的 UB 预算", "六"),
        ("每个 AI Core 负责六十四个 head", "六十四"),
        ("AI Cores (preset 32; SMs on h800)", "32"),
        ("(0-7)", "7"),
        ("$x > 0$", "0"),
        ("t1:16", "16"),
    ],
)
def test_every_form_is_caught_in_a_label_or_help(text: str, number: str) -> None:
    """Digits, percentages, table cells, exponents and Chinese numerals with measure words are caught in labels."""
    assert number in [t.number for t in typed_in_text(text)]


def test_a_label_and_a_page_find_the_same_numbers() -> None:
    """Plain text read as a label or as a page's prose yields the same numbers: one scanner, not two."""
    text = "两个 VECTOR Core, 1080 cycles, report (zh) line 116, 94.79%, the Ascend 950"
    assert (
        [t.number for t in typed_in_text(text)] == [t.number for t in typed_numbers(text)] == ["两", "1080", "94.79%"]
    )


def test_a_label_is_not_read_as_markdown() -> None:
    """A label has no Markdown structure: a number at the start of a line is a number, not a list marker."""
    assert [t.number for t in typed_in_text("1. step")] == ["1"]
    assert typed_numbers("1. step") == []


def test_front_matter_is_not_prose() -> None:
    """A page's front matter is settings for MkDocs, not text a reader sees; the same number in prose is typed."""
    assert typed_numbers("---\nsearch:\n  boost: 0.2\n---\n\n# Title\n") == []
    assert [t.number for t in typed_numbers("# Title\n\nboost: 0.2\n")] == ["0.2"]


def test_a_problem_names_its_line_and_quotes_what_was_written() -> None:
    """The line of an offset in the blanked text, and the original line stripped and cut to CONTEXT_CHARS."""
    original = "first\n   second " + "x" * 200 + "\nthird"
    blanked = "     \n" + " " * (len(original.splitlines()[1])) + "\nthird"
    line, context = scanner.line_at(original.splitlines(), blanked, blanked.index("third"))
    assert (line, context) == (3, "third")
    line, context = scanner.line_at(original.splitlines(), blanked, 8)
    assert line == 2
    assert context == ("second " + "x" * 200)[: scanner.CONTEXT_CHARS]
