"""The AI Core figure: computed labels, none over another, all inside the drawing, in both editions."""

from __future__ import annotations

import re

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.design_point import fixpipe_bytes_per_cycle
from ascend_dsa.render.ai_core import (
    FONT_SIZE,
    HEIGHT,
    PHONE_FONT_SIZE,
    PHONE_WIDTH,
    WIDTH,
    ai_core_labels,
    ai_core_phone_labels,
    ai_core_phone_size,
    render_ai_core_figure,
    render_ai_core_sketch,
)
from ascend_dsa.render.svg import COLUMN_PX_ON_PHONE, MIN_TEXT_PX_ON_PHONE, NARROW_CLASS, WIDE_CLASS
from ascend_dsa.units import KiB
from tests.helpers.drawings import assert_apart_and_inside

#: The text column at the 1280 px layout, measured in Chromium (Material's content column with both sidebars).
COLUMN_PX_AT_1280 = 688


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labels_do_not_overlap_and_stay_inside(lang: str) -> None:
    """The wide layout and the phone layout each keep their labels apart and inside their drawing."""
    assert_apart_and_inside(ai_core_labels(lang=lang), WIDTH, HEIGHT)  # type: ignore[arg-type]
    assert_apart_and_inside(ai_core_phone_labels(lang=lang), *ai_core_phone_size(lang=lang))  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_phone_layout_shows_both_vector_cores_and_every_text(lang: str) -> None:
    """The phone layout holds every text of the wide one (long ones broken at their dots), both VECTOR Cores too."""
    wide = " ".join(label.text for label in ai_core_labels(lang=lang))  # type: ignore[arg-type]
    phone = [label.text for label in ai_core_phone_labels(lang=lang)]  # type: ignore[arg-type]
    assert sum(text.startswith("VECTOR Core ") for text in phone) == SHIPPED_KERNEL.vector_cores_per_cube == 2
    assert all(text in wide for text in phone), [text for text in phone if text not in wide]
    assert {label.size for label in ai_core_phone_labels(lang=lang)} == {PHONE_FONT_SIZE}  # type: ignore[arg-type]


def test_text_is_at_least_11_px_at_1280_and_10_px_on_a_phone() -> None:
    """The drawing is scaled to the column, so its font size times the scale is what a reader sees."""
    assert FONT_SIZE * COLUMN_PX_AT_1280 / WIDTH >= 11
    assert PHONE_FONT_SIZE * min(1, COLUMN_PX_ON_PHONE / PHONE_WIDTH) >= MIN_TEXT_PX_ON_PHONE


def test_labels_are_computed_from_the_constants() -> None:
    """Capacities, rates and counts follow the preset: a larger L1 and a faster FixPipe change their labels."""
    text = " ".join(label.text for label in ai_core_labels(lang="en"))
    for needle in ("512 KiB in 2 banks", "256 KiB", "4096 FMA/cycle", "94.7 B/cycle", "rows 32-63"):
        assert needle in text
    for needle in ("O (fp32): 128 KiB", "P (fp32): 16 KiB", "free: 112 KiB", "KV block, 4 buffers: 256 KiB"):
        assert needle in text
    bigger = ASCEND_950.with_overrides(l1_bytes=1024 * KiB, fixpipe_bytes_per_cycle_1c1v=256)
    changed = " ".join(label.text for label in ai_core_labels(bigger, SHIPPED_KERNEL, lang="en"))
    assert "1024 KiB in 2 banks" in changed
    faster = fixpipe_bytes_per_cycle(bigger, SHIPPED_KERNEL.vector_cores_per_cube)
    assert f"{faster} B/cycle per AI Core" in changed


def test_fixpipe_label_takes_the_rate_of_the_layout_drawn() -> None:
    """The figure draws the shipped kernel's VECTOR Cores (1C2V), so FixPipe's label gives that layout's rate."""
    cores = SHIPPED_KERNEL.vector_cores_per_cube
    text = " ".join(label.text for label in ai_core_labels(lang="en"))
    rate = fixpipe_bytes_per_cycle(ASCEND_950, cores)
    assert f"FixPipe: {rate} B/cycle per AI Core (1C{cores}V)" in text
    assert rate != ASCEND_950.ascend.fixpipe_bytes_per_cycle_1c1v  # the 1C1V rate, which it showed before
    assert "1C1V" not in text
    zh = " ".join(label.text for label in ai_core_labels(lang="zh"))
    assert f"每周期 {rate} B（1C{cores}V）" in zh


def test_figure_is_one_svg_named_for_screen_readers() -> None:
    """Two <svg>s (wide, phone), each named, every label in them, and arrow markers unique to each and the edition."""
    for lang in ("zh", "en"):
        html = render_ai_core_figure(lang=lang)  # type: ignore[arg-type]
        assert html.count("<svg") == 2
        assert html.count('role="img"') == html.count("<title>") == 2
        assert f'class="{WIDE_CLASS}"' in html
        assert f'class="{NARROW_CLASS}"' in html
        labels = ai_core_labels(lang=lang) + ai_core_phone_labels(lang=lang)  # type: ignore[arg-type]
        assert len(re.findall(r"<text ", html)) == len(labels)
        assert f'id="ai-core-arrow-{lang}-' in html
        assert f'id="ai-core-phone-arrow-{lang}-' in html
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
