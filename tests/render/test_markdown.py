import base64
import json
import re

import pytest

from ascend_dsa.render.claims import render_claim_ledger
from ascend_dsa.render.markdown import DATA_MARKER, csv_text, data_marker, plain_text, table
from ascend_dsa.site.downloads import take_downloads


def test_table_shape() -> None:
    """Header, rule and one line per row, pipes escaped; then a blank line and the rows as CSV in a comment."""
    text = table(["a", "b"], [[1, "x|y"]], ("left", "right"))
    assert text.splitlines()[:4] == ["| a | b |", "| :-- | --: |", "| 1 | x\\|y |", ""]
    assert text.splitlines()[4] == data_marker("csv", "a,b\r\n1,x|y\r\n")
    assert len(text.splitlines()) == 5


def test_data_files_hold_what_the_reader_sees() -> None:
    """Links keep their text, code marks and bold go, a comma or quote is quoted as CSV wants."""
    assert plain_text("[pipeline](../pipeline/) and [`Task`][ascend_dsa.Task]") == "pipeline and Task"
    assert plain_text("**1024** `qk`") == "1024 qk"
    assert csv_text(["x, y"], [['say "hi"']]) == '"x, y"\r\n"say ""hi"""\r\n'
    with pytest.raises(ValueError, match="kind must be 'csv' or 'json', got 'xml'"):
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
