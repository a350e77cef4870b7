import pytest

from ascend_dsa.render.markdown import table


def test_table_shape() -> None:
    """Header, rule and one line per row, pipes escaped."""
    text = table(["a", "b"], [[1, "x|y"]], ("left", "right"))
    assert text.splitlines() == ["| a | b |", "| :-- | --: |", "| 1 | x\\|y |"]


def test_ragged_row_rejected() -> None:
    """A row with the wrong number of cells names its number."""
    with pytest.raises(ValueError, match="row 1 must have 2 cells, got 1"):
        table(["a", "b"], [[1]])
