"""ascend_dsa.site.cjk: a source line break between two Chinese characters is no space; no Chinese left untranslated."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site import cjk
from ascend_dsa.site.cjk import UntranslatedChinese, check_translated, untranslated_chinese

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        pytest.param("<p>个输出、\n每个输出做</p>", "<p>个输出、每个输出做</p>", id="punctuation-then-ideograph"),
        pytest.param("<li>共用一次\n    搬进来的</li>", "<li>共用一次搬进来的</li>", id="indented-continuation"),
        pytest.param("<p>带宽 bound；\nhead 越多</p>", "<p>带宽 bound；\nhead 越多</p>", id="latin-after-break-stays"),
        pytest.param("<p>the\n中文</p>", "<p>the\n中文</p>", id="latin-before-break-stays"),
        pytest.param("<pre><code>注释\n代码</code></pre>", "<pre><code>注释\n代码</code></pre>", id="code-kept"),
        pytest.param(
            '<div class="arithmatex">\\[\\text{周\n期}\\]</div>中\n文',
            '<div class="arithmatex">\\[\\text{周\n期}\\]</div>中文',
            id="math-kept-text-after-joined",
        ),
    ],
)
def test_cjk_line_breaks_are_joined_outside_code(html: str, expected: str) -> None:
    """A source line break between two Chinese characters disappears; next to Latin text or in code it stays."""
    assert cjk.join_cjk_lines(html) == expected


def test_built_chinese_pages_have_no_break_between_ideographs(built_site: Path) -> None:
    """No Chinese page's text has a line break between two Chinese characters (which shows as a stray space)."""
    offenders = []
    for page in sorted(built_site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        outside_kept = cjk.KEEP.sub("\x00", html)  # a placeholder, so text around code is not made adjacent
        if cjk.BREAK.search(outside_kept):
            offenders.append(str(page.relative_to(built_site)))
    assert offenders == []


@pytest.mark.parametrize(
    "html",
    [
        "<p>Line 192 stops after “发起第 <code>i+1</code> 个 KV 块的 softmax 计算，并将结果” (issue the softmax</p>",
        "<td>1 (written <code>必须用两个 AIV</code>, English edition <code>requires two AIVs</code>)</td>",
        "<td><code>两</code> (2), <code>大致均衡</code> (roughly balanced)</td>",
        '<pre>中文 in a listing</pre><p abbr="中文">English only.</p>',
    ],
)
def test_chinese_with_english_beside_it_passes(html: str) -> None:
    """A quotation followed by its English in parentheses, an English edition's words or quotes, and code listings
    and attribute values pass."""
    assert untranslated_chinese(html) == []
    check_translated(html)


def test_chinese_alone_on_an_english_page_is_named() -> None:
    """Chinese words with no English after them are named, in page order, and the check fails naming the first."""
    html = "<p>kernel <code>必须用两个 AIV</code> here, and 中文 there.</p><td><code>两</code>, x</td>"
    assert untranslated_chinese(html) == ["必须用两个", "中文", "两"]
    with pytest.raises(UntranslatedChinese, match="'必须用两个' and 2 more; add the English"):
        check_translated(html)
