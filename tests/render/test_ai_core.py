"""The AI Core figure: computed labels, none over another, all inside the drawing, in both editions."""

from __future__ import annotations

import re

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.render.ai_core import (
    FONT_SIZE,
    HEIGHT,
    WIDTH,
    ai_core_labels,
    render_ai_core_figure,
    render_ai_core_sketch,
)
from ascend_dsa.units import KiB

#: The text column at the 1280 px layout, measured in Chromium (Material's content column with both sidebars).
COLUMN_PX_AT_1280 = 688


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labels_do_not_overlap_and_stay_inside(lang: str) -> None:
    """No two labels' boxes (a generous width estimate) intersect, and every box is inside the drawing."""
    labels = ai_core_labels(lang=lang)  # type: ignore[arg-type]
    for label in labels:
        left, top, right, bottom = label.box
        assert min(left, top) >= 0, label.text
        assert right <= WIDTH, label.text
        assert bottom <= HEIGHT, label.text
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            al, at, ar, ab = a.box
            bl, bt, br, bb = b.box
            assert ar <= bl or br <= al or ab <= bt or bb <= at, (a.text, b.text)


def test_text_is_at_least_11_px_at_1280() -> None:
    """The drawing is scaled to the column, so its font size times the scale is what a reader sees."""
    assert FONT_SIZE * COLUMN_PX_AT_1280 / WIDTH >= 11


def test_labels_are_computed_from_the_constants() -> None:
    """Capacities, rates and counts follow the preset: a larger L1 and a faster FixPipe change their labels."""
    text = " ".join(label.text for label in ai_core_labels(lang="en"))
    for needle in ("512 KiB in 2 banks", "256 KiB", "4096 FMA/cycle", "94.7 B/cycle", "128 B/cycle", "rows 32-63"):
        assert needle in text
    for needle in ("O (fp32): 128 KiB", "P (fp32): 16 KiB", "free: 112 KiB", "KV block, 4 buffers: 256 KiB"):
        assert needle in text
    bigger = ASCEND_950.with_overrides(l1_bytes=1024 * KiB, fixpipe_bytes_per_cycle_1c1v=256)
    changed = " ".join(label.text for label in ai_core_labels(bigger, SHIPPED_KERNEL, lang="en"))
    assert "1024 KiB in 2 banks" in changed
    assert "256 B/cycle per AI Core" in changed


def test_figure_is_one_svg_named_for_screen_readers() -> None:
    """One <svg> with its title and caption, every label in it, and arrow markers unique to the edition."""
    for lang in ("zh", "en"):
        html = render_ai_core_figure(lang=lang)  # type: ignore[arg-type]
        assert html.count("<svg") == 1
        assert 'role="img"' in html
        assert len(re.findall(r"<text ", html)) == len(ai_core_labels(lang=lang))  # type: ignore[arg-type]
        assert f'id="ai-core-arrow-{lang}-' in html
    assert render_ai_core_figure(lang="zh") != render_ai_core_figure(lang="en")


def test_the_sketch_draws_the_configs_buffer_counts_and_links_each_unit() -> None:
    """The home page's sketch labels the buffer counts of the config it is given, and links names to the glossary."""
    sketch = render_ai_core_sketch(lang="en", glossary_url="../reference/glossary/")
    assert f"KV ×{SHIPPED_KERNEL.ub_kv_buffers}" in sketch
    assert f"Q ×{SHIPPED_KERNEL.l1_q_buffers} · KV ×{SHIPPED_KERNEL.l1_kv_buffers}" in sketch
    assert 'href="../reference/glossary/#mte2"' in sketch
    wider = SHIPPED_KERNEL.with_overrides(ub_kv_buffers=SHIPPED_KERNEL.ub_kv_buffers + 1)
    assert f"KV ×{wider.ub_kv_buffers}" in render_ai_core_sketch(config=wider, lang="zh")
    with pytest.raises(ValueError, match="glossary_url must be a relative URL"):
        render_ai_core_sketch(glossary_url='x" onload="y')
