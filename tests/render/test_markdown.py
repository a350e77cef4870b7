import base64
import json
import re

import pytest

from ascend_dsa.render.claims import render_claim_ledger
from ascend_dsa.render.markdown import (
    DATA_MARKER,
    NO_VALUE,
    Cell,
    Header,
    csv_text,
    data_files,
    data_marker,
    number,
    plain_text,
    status_cell,
    table,
)
from ascend_dsa.site.downloads import take_downloads


def _files(text: str) -> tuple[str, dict[str, object]]:
    """The CSV and the parsed JSON a table's data comment carries."""
    (csv_payload, json_payload) = re.findall(rf"<!-- {DATA_MARKER}:table:([^: ]*):([^: ]*) -->", text)[0]
    return base64.b64decode(csv_payload).decode(), json.loads(base64.b64decode(json_payload))


def test_table_shape() -> None:
    """Header, rule and one line per row, pipes escaped; then a blank line and the rows as CSV and JSON."""
    text = table(["a", "b"], [[1, "x|y"]], ("left", "right"))
    assert text.splitlines()[:4] == ["| a | b |", "| :-- | --: |", "| 1 | x\\|y |", ""]
    assert text.splitlines()[4].startswith(f"<!-- {DATA_MARKER}:table:")
    assert len(text.splitlines()) == 5
    assert _files(text)[0] == "a,b\r\n1,x|y\r\n"


def test_data_files_hold_values_not_the_shown_text() -> None:
    """A number shown grouped with its unit is a bare number in CSV and JSON, its unit in the column's name."""
    rows = [
        [number(6920.58, "6,920.6", "cycles"), number(84.5, "84.5%", "%"), status_cell(passed=True, lang="zh")],
        [NO_VALUE, number(100, "100%", "%"), status_cell(passed=False, lang="zh")],
    ]
    csv_file, document = _files(table(["L2", "use", "状态"], rows, citation="report (zh) line 85"))
    assert csv_file.splitlines() == ["L2 (cycles),use (%),状态", "6920.58,84.5,一致", ",100,不一致"]
    assert document["columns"] == [
        {"name": "L2 (cycles)", "header": "L2", "unit": "cycles"},
        {"name": "use (%)", "header": "use", "unit": "%"},
        {"name": "状态", "header": "状态", "unit": None},
    ]
    assert document["rows"] == [
        {"L2 (cycles)": 6920.58, "use (%)": 84.5, "状态": "一致"},
        {"L2 (cycles)": None, "use (%)": 100, "状态": "不一致"},
    ]
    assert document["source"] == {
        "computed_by": "tests.render.test_markdown.test_data_files_hold_values_not_the_shown_text",
        "citation": "report (zh) line 85",
    }


def test_mixed_units_get_a_unit_column() -> None:
    """A column whose rows have different units keeps bare numbers and gains a column naming each row's unit."""
    csv_file, _ = data_files(["v"], [[number(5, "5 TB/s", "TB/s")], [number(32, "32 KiB", "KiB")]], computed_by="f")
    assert csv_file.splitlines() == ["v,v [unit]", "5,TB/s", "32,KiB"]


def test_a_number_as_text_html_or_a_repeated_name_is_refused() -> None:
    """A formatted number or a status mark given as text, and two columns of one name, each fail naming it."""
    with pytest.raises(ValueError, match=r"must be given as number.*'6,920.6'"):
        table(["a"], [["6,920.6"]])
    with pytest.raises(ValueError, match=r"must be given as number.*'128 KiB'"):
        table(["a"], [["128 KiB"]])
    with pytest.raises(ValueError, match="HTML must be given as a Cell"):
        table(["a"], [['<span class="x">ok</span>']])
    with pytest.raises(ValueError, match=r"unique \(name one with Header\), got \['r'\] twice"):
        table(["r", "r"], [[1, 2]])
    assert _files(table(["r", Header("r", "r2")], [[1, 2]]))[0].splitlines()[0] == "r,r2"
    with pytest.raises(ValueError, match="value must be finite"):
        Cell(float("inf"), "inf")


def test_data_files_hold_what_the_reader_sees() -> None:
    """Links keep their text, code marks and bold go, a comma or quote is quoted as CSV wants."""
    assert plain_text("[pipeline](../pipeline/) and [`Task`][ascend_dsa.Task]") == "pipeline and Task"
    assert plain_text("**1024** `qk`") == "1024 qk"
    assert csv_text(["x, y"], [['say "hi"']]) == '"x, y"\r\n"say ""hi"""\r\n'
    with pytest.raises(ValueError, match="kind must be 'csv', 'json' or 'table', got 'xml'"):
        data_marker("xml", "")  # type: ignore[arg-type]


def test_comments_become_links_and_files_in_page_order() -> None:
    """Each table's comment becomes a link to table-N.csv, named in the page's language, with the same rows."""
    html = (
        "<table></table>\n" + data_marker("csv", "a\r\n1\r\n") + "\n<table></table>\n<p>" + data_marker("csv", "b\r\n")
    )
    out, files = take_downloads(html + "</p>", "en")
    assert files == {"table-1.csv": b"a\r\n1\r\n", "table-2.csv": b"b\r\n"}
    link = '<p class="ascend-download" data-search-exclude><a href="table-2.csv" download>Download CSV</a></p>'
    assert out.count(link) == 1
    assert DATA_MARKER not in out
    assert "下载 CSV" in take_downloads(html, "zh")[0]


def test_a_table_comment_becomes_a_csv_and_a_json_link() -> None:
    """A table's comment gives table-N.csv and table-N.json, both linked in one paragraph."""
    out, files = take_downloads("<table></table>\n" + table(["a"], [[1]]).split("\n\n")[1], "en")
    assert set(files) == {"table-1.csv", "table-1.json"}
    assert '<a href="table-1.csv" download>Download CSV</a> · <a href="table-1.json" download>Download JSON</a>' in out
    assert json.loads(files["table-1.json"])["rows"] == [{"a": 1}]


def test_claims_ledger_carries_every_claim_as_json() -> None:
    """The ledger's JSON has one record per claim, the same count its summary states."""
    ledger = render_claim_ledger(lang="en")
    (payload,) = re.findall(rf"<!-- {DATA_MARKER}:json:([^ ]*) -->", ledger)
    records = json.loads(base64.b64decode(payload))
    assert ledger.startswith(f"{len(records)} claims, {sum(r['agrees'] for r in records)} agree.")
    assert {"id", "chapter", "report_zh_line", "claim", "ours", "report", "rule", "agrees"} == set(records[0])


def test_ragged_row_rejected() -> None:
    """A row with the wrong number of cells names its number."""
    with pytest.raises(ValueError, match="row 1 must have 2 cells, got 1"):
        table(["a", "b"], [[1]])
