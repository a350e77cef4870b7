import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.render import pipeline as render_pipeline
from ascend_dsa.render.pipeline import (
    render_pipeline_costs,
    render_pipeline_gantt,
    render_pipeline_schedule,
    render_pipeline_sensitivity,
    render_pipeline_summary,
)


def test_schedule_table() -> None:
    """Seven steps with offsets i+5, i+3, i+1, i+5, i, i+1, i+5."""
    table = render_pipeline_schedule(lang="en")
    offsets = [line.split("|")[2].strip() for line in table.splitlines()[2:] if line.startswith("|")]
    assert offsets == ["i+5", "i+3", "i+1", "i+5", "i", "i+1", "i+5"]


def test_summary_shows_1024_and_the_depths() -> None:
    """The summary shows about 1024 cycles with its report line and the four buffer depths next to the kernel's."""
    text = render_pipeline_summary(lang="en")
    assert "| 1024 | about 1024 (report (zh) line 184) |" in text
    for depth in ("kernel 6", "kernel 3", "kernel 4"):
        assert depth in text


def test_summary_is_guarded(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the model's window drifted from the report's ~1024 cycles, the page would fail to build."""

    def wrong(cycles: float) -> None:
        raise FigureMismatch(f"ours {cycles}")

    monkeypatch.setattr(render_pipeline, "check_p_ready_to_used", wrong)
    with pytest.raises(FigureMismatch, match=r"^ours \d"):
        render_pipeline_summary()


def test_costs_and_sensitivity() -> None:
    """Costs name their kind; the sensitivity table has the shipped case at 100% and 1C1V rescaling below half."""
    assert "assumed" in render_pipeline_costs(lang="en")
    table = render_pipeline_sensitivity(lang="en")
    assert "| as shipped (1C2V, no rescale) | 128 | 64 | 208 | 388 | 496 | 1024 | 100.0% |" in table
    # The row the page points to: the VECTOR path fits the window, the VECTOR's work per block does not.
    assert "| softmax 6x slower | 768 | 64 | 848 | 1028 | 0 | 1029 | 99.5% |" in table
    last = [line for line in table.splitlines() if line.startswith("|")][-1]
    assert last.startswith("| 1C1V, rescale every block")
    assert float(last.split("|")[-2].strip().rstrip("%")) < 50


def test_gantt_is_deterministic_and_localised() -> None:
    """The Gantt chart is the same SVG twice and labels its units in the page's language."""
    zh = render_pipeline_gantt(lang="zh")
    assert zh == render_pipeline_gantt(lang="zh")
    assert "周期" in zh
    assert "cycles" in render_pipeline_gantt(lang="en")


@pytest.mark.parametrize(
    ("first_block", "last_block", "words"),
    [
        (1, 1, r"^last_block must be at least 3, got 1$"),  # an empty window: matplotlib raised RuntimeError
        (5, 2, r"^last_block must be at least 7, got 2$"),  # a window drawn backwards
        (0, 900, r"^last_block must be at most 31, got 900$"),
        (-1, 4, r"^first_block must be a non-negative integer, got -1$"),
    ],
)
def test_gantt_window_is_checked(first_block: int, last_block: int, words: str) -> None:
    """The window must hold block first_block + 1 and lie in the simulated blocks: a ValueError naming the bound."""
    with pytest.raises(ValueError, match=words):
        render_pipeline_gantt(first_block=first_block, last_block=last_block)
