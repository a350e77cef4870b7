import pytest

from ascend_dsa.facts.provenance import Citation, ReportLines, Source, check_sources, code_line, report_line


def test_report_and_code_citations() -> None:
    """Report lines and code lines are cited in the site's short forms."""
    assert report_line(104, 111).citation == "report (zh) lines 104-111"
    assert report_line(85).citation == "report (zh) line 85"
    assert code_line("config.h", 55).citation == "config.h:55"


def test_citation_forms() -> None:
    """A citation gives a short form for prose and a full one with repository, path and commit."""
    citation = Citation("docs/20260930-ascend-prefill-deep-dive-zh.md", "a123d0b0191e" + "0" * 28, 104, 111)
    assert citation.short == "report (zh) lines 104-111"
    assert "deepseek-ai/FlashMLA" in citation.full
    assert "@a123d0b0191e" in citation.full


def test_check_sources_names_missing_and_unknown() -> None:
    """A preset whose sources miss a field, or name an extra one, is refused with the names."""
    source = report_line(1)
    with pytest.raises(ValueError, match="missing b"):
        check_sources({"a": source}, ("a", "b"), "test")
    with pytest.raises(ValueError, match="unknown fields c"):
        check_sources({"a": source, "c": source}, ("a",), "test")
    check_sources({"a": source}, ("a",), "test")


def test_empty_citation_refused() -> None:
    """A source must say where it comes from."""
    with pytest.raises(ValueError, match="citation must be non-empty"):
        Source(" ", "report")


def test_citations_carry_both_languages() -> None:
    """Report lines and worded parts are cited in the page's language; a file:line reads the same in both."""
    source = Source((ReportLines(((85, 99), (116, 116))), "config.h:74"), "report")
    assert source.cite("en") == "report (zh) lines 85-99, 116; config.h:74"
    assert source.cite("zh") == "报告 (zh) 第 85-99, 116 行; config.h:74"
    assert source.citation == source.cite("en")


@pytest.mark.parametrize("spans", [(), ((0, 1),), ((5, 4),)])
def test_report_lines_refuse_impossible_spans(spans: tuple[tuple[int, int], ...]) -> None:
    """No lines, a line 0 or a span that ends before it starts is refused with the spans."""
    with pytest.raises(ValueError, match="spans must be"):
        ReportLines(spans)


def test_report_cited_in_words_refused() -> None:
    """The report is cited with report_lines, so a Chinese page can say its lines in Chinese."""
    with pytest.raises(ValueError, match="cite the report with report_lines"):
        Source("report (zh) line 1", "report")


def test_one_line_past_256_is_still_one_line() -> None:
    """(300, 300) from two separately made ints (CPython shares only small ones) reads "line 300", not "lines"."""
    first, last = int("300"), int("3000") // 10
    assert ReportLines(spans=((first, last),)).in_("en") == "report (zh) line 300"
    assert ReportLines(spans=((300, 301),)).in_("en") == "report (zh) lines 300-301"


def test_a_citation_names_its_line_or_its_range() -> None:
    """One line is its number; a range is first-last, and the short form says line or lines to match."""
    one = Citation("flashmla/docs/blog.md", "9241ae3" + "0" * 33, 17, 17)
    many = Citation("flashmla/docs/blog.md", "9241ae3" + "0" * 33, 26, 27)
    assert (one.lines, many.lines) == ("17", "26-27")
    assert (one.short, many.short) == ("blog.md line 17", "blog.md lines 26-27")
