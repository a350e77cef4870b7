"""The peak page's tables: the percentages of peak and the clock range they hold for."""

from __future__ import annotations

import ascend_dsa as r


def test_peak_table() -> None:
    """94.79% and 83.23% of 432.54 TFLOPS, with the cycles per block each implies."""
    text = r.render_peak_table(lang="en")
    assert "94.79 %" in text
    assert "83.23 %" in text
    assert "432.54" in text
    assert "1080.3" in text
    assert "1230.3" in text


def test_peak_clock_range() -> None:
    """The two rounded percentages only hold together for 1.6447-1.6551 GHz."""
    assert "1.6447-1.6551 GHz" in r.render_peak_clock_table(lang="en")
