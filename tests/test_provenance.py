import pytest

from ascend_dsa.facts.provenance import Citation, Source, check_sources, code_line, report_line


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
    source = Source("report (zh) line 1", "report")
    with pytest.raises(ValueError, match="missing b"):
        check_sources({"a": source}, ("a", "b"), "test")
    with pytest.raises(ValueError, match="unknown fields c"):
        check_sources({"a": source, "c": source}, ("a",), "test")
    check_sources({"a": source}, ("a",), "test")


def test_empty_citation_refused() -> None:
    """A source must say where it comes from."""
    with pytest.raises(ValueError, match="citation must be non-empty"):
        Source(" ", "report")
