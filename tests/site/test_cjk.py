"""ascend_dsa.site.cjk: a source line break between two Chinese characters is no space in the page."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site import cjk

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
