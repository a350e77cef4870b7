"""The pipeline's timeline in standard-library SVG: well-formed, the same bytes each time, lanes, bound and labels."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.pipeline import Timeline, simulate, stage_costs
from ascend_dsa.render.pipeline_timeline import (
    FONT_SIZE,
    IDLE_FILL,
    MEASURED_FILL,
    TIMELINE_BLOCKS_MAX,
    WIDTH,
    pipeline_timeline_labels,
    pipeline_timeline_svg,
    render_pipeline_timeline,
)
from ascend_dsa.render.svg import READING_VIEWS
from ascend_dsa.render.trace import pipeline_trace, trace_json
from ascend_dsa.render.trace_compare import read_trace
from ascend_dsa.report.scenarios import SIMULATED_BLOCKS
from tests.helpers.drawings import assert_apart_and_inside

SVG = "{http://www.w3.org/2000/svg}"
CLOCK_HZ = ASCEND_950.clock_hz


def shipped(blocks: int = SIMULATED_BLOCKS, vector_cores: int = 2, *, rescale: bool = False) -> Timeline:
    """The shipped kernel's job (or with one VECTOR Core, or rescaling every block)."""
    config = SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=vector_cores)
    return simulate(stage_costs(ASCEND_950, config), config, blocks, range(1, blocks) if rescale else ())


def parse(svg: str) -> ET.Element:
    """The drawing as an XML tree: parsing it checks that it is well formed."""
    return ET.fromstring(svg)  # noqa: S314 - the package's own drawing, made by the test itself


def texts(svg: str) -> list[str]:
    """Every ``<text>`` of the drawing."""
    return [t.text or "" for t in parse(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_well_formed_and_the_same_bytes_every_time(lang: str) -> None:
    """Two drawings of one job are identical, one line, and parse as an SVG element with a viewBox WIDTH wide."""
    first = pipeline_timeline_svg(shipped(), vector_cores=2, clock_hz=CLOCK_HZ, lang=lang)  # type: ignore[arg-type]
    assert first == pipeline_timeline_svg(shipped(), vector_cores=2, clock_hz=CLOCK_HZ, lang=lang)  # type: ignore[arg-type]
    assert "\n" not in first
    root = parse(first)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox", "").startswith(f"0 0 {WIDTH} ")
    assert root.get("width") == "100%"
    assert root.find(f"{SVG}title") is not None


@pytest.mark.parametrize(("vector_cores", "lanes"), [(2, 8), (1, 5)])
def test_a_lane_per_unit_of_each_core(vector_cores: int, lanes: int) -> None:
    """CUBE and FIXP for the CUBE Core, VECTOR, MTE2 and MTE3 for each VECTOR Core, named as the trace names them."""
    svg = pipeline_timeline_svg(shipped(vector_cores=vector_cores), vector_cores=vector_cores, clock_hz=CLOCK_HZ)
    names = [t for t in texts(svg) if re.fullmatch(r"(V\d )?(CUBE|FIXP|VECTOR|MTE2|MTE3)", t)]
    assert len(names) == lanes
    assert names[:2] == ["CUBE", "FIXP"]
    assert names[-3:] == [f"V{vector_cores - 1} {lane}" for lane in ("VECTOR", "MTE2", "MTE3")]


@pytest.mark.parametrize(
    ("timeline", "vector_cores", "en", "zh"),
    [
        (shipped(), 2, "bounded by CUBE: never idle there", "决定周期的单元：CUBE（从不空闲）"),
        (shipped(vector_cores=1, rescale=True), 1, "bounded by VECTOR", "决定周期的单元：VECTOR"),
    ],
)
def test_the_heading_names_the_steady_period_and_its_bound(
    timeline: Timeline, vector_cores: int, en: str, zh: str
) -> None:
    """The heading gives the steady cycles per block and the unit that bounds them, in each language."""
    english = texts(pipeline_timeline_svg(timeline, vector_cores=vector_cores, clock_hz=CLOCK_HZ, lang="en"))
    chinese = texts(pipeline_timeline_svg(timeline, vector_cores=vector_cores, clock_hz=CLOCK_HZ, lang="zh"))
    assert english[0].startswith(f"steady state: {timeline.cycles_per_block:,.0f} cycles per block")
    assert chinese[0].startswith(f"稳态：每块 {timeline.cycles_per_block:,.0f} 周期")
    assert english[1].startswith("CUBE use ")
    assert chinese[1].startswith("CUBE 利用率 ")
    assert english[2].startswith(en)
    assert chinese[2].startswith(zh)
    assert english != chinese


def test_waits_are_marked_and_blocks_coloured() -> None:
    """The CUBE waits for the first KV block: a wait mark is drawn; bars come in groups by block colour."""
    svg = pipeline_timeline_svg(shipped(), vector_cores=2, clock_hz=CLOCK_HZ)
    assert f'fill="{IDLE_FILL}"' in svg
    assert len(re.findall(r'<g fill="#[0-9a-f]{6}">', svg)) >= 8


def test_a_long_job_is_cut_and_says_so() -> None:
    """A job longer than TIMELINE_BLOCKS_MAX blocks is drawn up to that block, and the heading says how many."""
    blocks = TIMELINE_BLOCKS_MAX + 36
    svg = pipeline_timeline_svg(shipped(blocks), vector_cores=2, clock_hz=CLOCK_HZ, lang="en")
    assert f"the first {TIMELINE_BLOCKS_MAX} of {blocks} blocks" in texts(svg)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("blocks", [8, SIMULATED_BLOCKS, TIMELINE_BLOCKS_MAX * 2])
def test_labels_do_not_overlap_and_stay_inside(lang: str, blocks: int) -> None:
    """No two texts' boxes (a generous width estimate) intersect, and every box is inside the drawing."""
    timeline = shipped(blocks)
    svg = pipeline_timeline_svg(timeline, vector_cores=2, clock_hz=CLOCK_HZ, lang=lang)  # type: ignore[arg-type]
    height = float(parse(svg).get("viewBox", "").split()[3])
    labels = pipeline_timeline_labels(timeline, vector_cores=2, clock_hz=CLOCK_HZ, lang=lang)  # type: ignore[arg-type]
    assert len(labels) == len(texts(svg))
    assert_apart_and_inside(labels, WIDTH, height)


def test_text_is_readable_in_a_phones_column() -> None:
    """Every text is as large as the site's reading rule asks at every width it checks (render.svg.READING_VIEWS)."""
    for column_px, smallest_px in READING_VIEWS:
        assert FONT_SIZE * min(1.0, column_px / WIDTH) >= smallest_px


def test_a_measured_trace_is_drawn_under_the_model() -> None:
    """Our own trace of the job, read back, adds a 'measured' heading and a grey copy of every lane below."""
    timeline = shipped(12)
    trace = pipeline_trace(timeline, ASCEND_950, vector_cores=2, inputs={}, version="test")
    measured = read_trace(trace_json(trace).encode())
    plain = pipeline_timeline_svg(timeline, vector_cores=2, clock_hz=CLOCK_HZ, lang="en")
    both = pipeline_timeline_svg(timeline, vector_cores=2, clock_hz=CLOCK_HZ, lang="en", measured=measured)
    assert "measured (trace.json):" in texts(both)
    assert texts(both).count("CUBE") == texts(plain).count("CUBE") + 1
    grey = re.findall(rf'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="{MEASURED_FILL}"/>', both)
    assert grey
    # Our trace's CUBE lane is the model's: the measured bars start where the model's CUBE bars start.
    assert min(float(x) for x, _ in grey) == pytest.approx(float(re.findall(r'<rect x="([\d.]+)"', plain)[2]), abs=60)
    labels = pipeline_timeline_labels(timeline, vector_cores=2, clock_hz=CLOCK_HZ, lang="zh", measured=measured)
    assert "实测（trace.json）：" in [label.text for label in labels]
    assert json.loads(trace_json(trace))["otherData"]["blocks"] == 12


def test_bad_arguments_are_refused_at_the_door() -> None:
    """A timeline that is not one, no VECTOR Core, a zero clock or a language the site lacks: one-line errors."""
    with pytest.raises(TypeError, match="timeline must be a Timeline"):
        pipeline_timeline_svg("job", vector_cores=2, clock_hz=CLOCK_HZ)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="vector_cores"):
        pipeline_timeline_svg(shipped(), vector_cores=0, clock_hz=CLOCK_HZ)
    with pytest.raises(ValueError, match="clock_hz"):
        pipeline_timeline_svg(shipped(), vector_cores=2, clock_hz=0)
    with pytest.raises(ValueError, match="fr"):
        pipeline_timeline_svg(shipped(), vector_cores=2, clock_hz=CLOCK_HZ, lang="fr")  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_page_holds_the_shipped_job_in_the_live_container(lang: str) -> None:
    """The page's figure is the shipped job's SVG, in the container the pipeline form redraws, with a caption."""
    html = render_pipeline_timeline(lang=lang)  # type: ignore[arg-type]
    svg = pipeline_timeline_svg(shipped(), vector_cores=2, clock_hz=CLOCK_HZ, lang=lang)  # type: ignore[arg-type]
    assert f'<div class="live-figure" data-live-figure="pipeline">{svg}</div>' in html
    assert 'class="ascend-caption"' in html
