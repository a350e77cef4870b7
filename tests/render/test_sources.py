import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.provenance import ReportLines, Source, report_line
from ascend_dsa.lang import Text
from ascend_dsa.render.format import quantity
from ascend_dsa.render.sources import citation, render_spec_sources


@pytest.mark.parametrize(
    ("value", "unit", "lang", "expected"),
    [
        (5e12, "B/s", "en", "5 TB/s"),
        (1.65e9, "Hz", "en", "1,650 MHz"),
        (262144, "B", "en", "256 KiB"),
        (4096, "FMA/cycle", "en", "4,096 FMA/cycle"),
        (32, "AI Cores", "zh", "32 个 AI Core"),
        (100, "B", "en", "100 B"),
    ],
)
def test_quantity_reads_like_a_person_writes_it(value: float, unit: str, lang: str, expected: str) -> None:
    """Rates in decimal prefixes, clocks in MHz, capacities in binary prefixes, counts in the page's language."""
    assert quantity(value, unit, lang) == expected  # type: ignore[arg-type]


def test_citation_in_chinese() -> None:
    """A Chinese page cites 报告 (zh) 第 N 行; the English keeps the citation; code citations stay as they are."""
    assert citation(report_line(184), "zh") == "报告 (zh) 第 184 行"
    assert citation(report_line(85, 99), "zh") == "报告 (zh) 第 85-99 行"
    assert citation(report_line(184), "en") == "report (zh) line 184"
    assert citation(report_line(138), "en") == "report (zh) line 138"
    several = Source((ReportLines(((138, 138), (216, 216))), "config.h:74"), "report")
    assert citation(several, "zh") == "报告 (zh) 第 138, 216 行; config.h:74"
    assert citation(several, "en") == "report (zh) lines 138, 216; config.h:74"
    either = Source(Text("kernel_body.h:1312 或 1316", "kernel_body.h:1312 or 1316"), "code")
    assert citation(either, "zh") == "kernel_body.h:1312 或 1316"


def test_spec_sources_have_no_scientific_notation_or_english_on_zh() -> None:
    """The constants table prints 5 TB/s and 1,650 MHz, and the Chinese one cites in Chinese."""
    fields = ("bandwidth_bytes_per_s", "clock_hz", "accumulator_bytes_per_core")
    zh, en = render_spec_sources(fields=fields, lang="zh"), render_spec_sources(fields=fields, lang="en")
    for text in (zh, en):
        assert "e+" not in text
        assert "5 TB/s" in text
        assert "1,650 MHz" in text
    assert "report (zh)" not in zh
    assert "报告 (zh) 第 85 行" in zh
    assert "derived: the report says" in en


def test_every_derived_or_assumed_constant_has_a_note_in_both_languages() -> None:
    """A Chinese page shows how a derived constant was obtained, as the English one does (no dropped notes)."""
    noted = [source.note for source in ASCEND_950.sources.values() if source.note]
    assert noted
    assert all(isinstance(note, Text) for note in noted)
    zh = render_spec_sources(fields=("accumulator_bytes_per_core",), lang="zh")
    assert "推导：报告说 128 × 512 的 fp32 O（256 KB）正好占满 L0C" in zh
