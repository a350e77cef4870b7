"""ascend_dsa.site.page_steps: the steps after a page's rendering, pure functions of the HTML, failures recorded."""

from __future__ import annotations

from ascend_dsa.site import page_steps


def _recorder() -> tuple[list[str], page_steps.Record]:
    seen: list[str] = []

    def record(what: str, error: Exception) -> None:
        seen.append(f"{what}: {type(error).__name__}")

    return seen, record


def test_content_joins_chinese_lines_and_takes_no_download_from_plain_html() -> None:
    """A source line break between two Chinese characters goes; no download, no failure."""
    seen, record = _recorder()
    assert page_steps.content("<p>中文\n句子</p>", "zh", record) == ("<p>中文句子</p>", {})
    assert seen == []


def test_content_records_a_cdn_diagram_and_goes_on() -> None:
    """A mermaid diagram is one failure of the page; the HTML is still processed."""
    seen, record = _recorder()
    html, files = page_steps.content('<pre class="mermaid">graph LR</pre><p>中\n文</p>', "zh", record)
    assert seen == ["the page: CdnDiagram"]
    assert html.endswith("<p>中文</p>")
    assert files == {}


def test_an_english_page_with_untranslated_chinese_is_a_failure() -> None:
    """Chinese alone on an English prose page is recorded; the same on a Chinese page or an API page is not."""
    html = "<p>the kernel <code>必须用两个 AIV</code>.</p>"
    for lang, prose, expected in (
        ("en", True, ["the page's language: UntranslatedChinese"]),
        ("zh", True, []),
        ("en", False, []),
    ):
        seen, record = _recorder()
        assert page_steps.content(html, lang, record, prose=prose)[0] == html  # type: ignore[arg-type]
        assert seen == expected


def test_output_folds_white_space_between_tags() -> None:
    """The written page's indentation between tags goes; a page without a notebook keeps its styles."""
    assert page_steps.output("<body>\n    <p>x</p>\n</body>", "a/", {}) == "<body>\n<p>x</p>\n</body>"
