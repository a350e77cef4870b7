"""Folding white space between tags leaves what a browser shows, and every <pre>, unchanged."""

from __future__ import annotations

from ascend_dsa.site.compact_html import compact_html


def test_runs_between_tags_become_one_line_break() -> None:
    """Indentation between tags goes; text and single blanks stay."""
    html = "<nav>\n    <ul>\n      <li>a b</li> <li>c</li>\n    </ul>\n</nav>"
    assert compact_html(html) == "<nav>\n<ul>\n<li>a b</li> <li>c</li>\n</ul>\n</nav>"


def test_pre_script_and_style_are_kept() -> None:
    """Inside <pre>, <script>, <style> and <textarea> white space can matter, so it is left as it is."""
    kept = "<pre><code><span>a</span>\n    <span>b</span></code></pre><script>\n  x = 1;\n</script>"
    assert compact_html(f"<div>\n   {kept}\n   </div>") == f"<div>\n{kept}\n</div>"
