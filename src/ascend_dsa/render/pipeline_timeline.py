"""The simulated pipeline as a timeline drawn in SVG by the standard library, for the page and the reader's browser.

A lane per unit of each core, laid out as the trace file lays out its processes and threads (``render.trace``): the
CUBE Core's CUBE and FixPipe, then each VECTOR Core's VECTOR, MTE2 and MTE3. Bars are coloured by their block's
index, idle stretches before an op (its wait) are marked, the steady window is shaded and the heading names the
steady period and the unit that bounds it. A measured trace's lanes can be drawn under the model's, on one axis.

No matplotlib and no NumPy: ``ascend-dsa pipeline --svg -`` draws the same bytes on Pyodide as the build does,
which is how the page's live form redraws the figure ([`ascend_dsa.render.live.LIVE_FIGURES`][]).
[`pipeline_timeline_labels`][] lists each text with its box, so a test can check none overlaps another.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.models.pipeline import Task, Timeline, Unit, bounding_unit, simulate, stage_costs
from ascend_dsa.render.format import count_word, group_digits, percent, whole_or
from ascend_dsa.render.live import live_figure
from ascend_dsa.render.pipeline_schedule import op_waits
from ascend_dsa.render.svg import FONT_FAMILIES, Anchor, Label, min_text_units, svg_text
from ascend_dsa.render.trace import CUBE_UNITS, LANE, VECTOR_UNITS
from ascend_dsa.render.trace_compare import CORE_KIND, MeasuredTrace
from ascend_dsa.report.scenarios import SIMULATED_BLOCKS
from ascend_dsa.validate import require_finite, require_instance, require_int

if TYPE_CHECKING:
    from collections.abc import Iterable

#: Width of the drawing in SVG user units; it is drawn at the column's width (``width="100%"``).
WIDTH: Final = 600
#: Font size of every text in user units: the smallest that reads at every width the site checks (render.svg).
FONT_SIZE: Final = math.ceil(min_text_units(WIDTH))
#: Most blocks drawn: a longer job is drawn up to the start of this block's QK, and the heading says so.
TIMELINE_BLOCKS_MAX: Final = 64
#: Colours of the blocks, by index modulo their count: no red, which marks waits.
BLOCK_COLOURS: Final = ("#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac")
#: Fills of the marks: a wait, the steady window, a measured busy stretch.
IDLE_FILL: Final = "#d62728"
STEADY_FILL: Final = "#e4ebf5"
MEASURED_FILL: Final = "#7f7f7f"

_LEFT: Final = 104  # the lanes' labels end here; the plot starts here
_RIGHT: Final = 14  # margin right of the plot
_PLOT: Final = WIDTH - _LEFT - _RIGHT
_LANE: Final = math.ceil(1.3 * FONT_SIZE)  # a lane's height: with the gap, a CJK label's line box
_LANE_GAP: Final = 4
_CORE_GAP: Final = 10  # between the lanes of two cores
_LINE: Final = math.ceil(1.5 * FONT_SIZE)  # baseline to baseline of text rows (a CJK line box is ~1.45 em)
_TICKS: Final = 4  # about this many ticks on the axis
_SWATCH: Final = 22
_DARK: Final = "#1a1a1a"
_IDLE_MARK: Final = 4  # a wait's mark: a strip this high along the lane's base
_THINNEST: Final = 0.3  # a bar narrower than this (a zero-cycle op) is drawn this wide
_US_PER_S: Final = 1e6


def _label(text: str, x: float, y: float, anchor: Anchor = "start", *, bold: bool = False) -> Label:
    """One text of the figure at its font size, the shared hand-drawn figure label (its estimated box included)."""
    return Label(text, x, y, anchor, bold, size=FONT_SIZE)


@dataclass(frozen=True)
class _Lane:
    """One lane: its label, the unit it shows and which core (its kind's index) it belongs to."""

    unit: Unit
    core: int  # 0 for the CUBE Core; n for VECTOR Core n
    y: float  # top

    def label(self) -> str:
        return LANE[self.unit] if self.unit in CUBE_UNITS else f"V{self.core} {LANE[self.unit]}"


def _n(value: float) -> str:
    """A coordinate to a tenth of a unit, without trailing zeros."""
    return f"{round(value, 1) + 0.0:g}"


def _rule(y: float, colour: str = "#c8c8c8") -> str:
    """A horizontal line across the plot at ``y``: a lane's base, or the axis."""
    return f'<line x1="{_LEFT}" x2="{WIDTH - _RIGHT}" y1="{_n(y)}" y2="{_n(y)}" stroke="{colour}"/>'


def _lanes(vector_cores: int, top: float) -> tuple[list[_Lane], float]:
    """The lanes of the CUBE Core and each VECTOR Core from ``top``, and the bottom of the last one."""
    lanes: list[_Lane] = []
    y = top
    for core, units in ((0, CUBE_UNITS), *((n, VECTOR_UNITS) for n in range(vector_cores))):
        for unit in units:
            lanes.append(_Lane(unit, core, y))
            y += _LANE + _LANE_GAP
        y += _CORE_GAP - _LANE_GAP
    return lanes, y - _CORE_GAP


def _tick_step(end: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``_TICKS`` ticks from 0 to ``end``."""
    raw = end / _TICKS
    power = 10.0 ** math.floor(math.log10(raw))
    return next(f * power for f in (1, 2, 5, 10) if f * power >= raw)


def _measured_cycles(
    measured: MeasuredTrace, clock_hz: float
) -> dict[tuple[str, str], list[list[tuple[float, float]]]]:
    """Each lane's busy intervals per core in cycles from the trace's first event (µs at ``clock_hz``)."""
    starts = [span[0] for cores in measured.lanes.values() for core in cores for span in core[:1]]
    origin = min(starts, default=0.0)
    cycles_per_us = clock_hz / _US_PER_S
    return {
        key: [[((a - origin) * cycles_per_us, (b - origin) * cycles_per_us) for a, b in core] for core in cores]
        for key, cores in measured.lanes.items()
    }


def _bars(spans: Iterable[tuple[float, float]], scale: float, end: float) -> list[tuple[float, float]]:
    """Spans in cycles as (x, width) in user units, cut at ``end``, those closer than half a unit joined."""
    bars: list[tuple[float, float]] = []
    for start, stop in spans:
        if start >= end:
            continue
        left, right = _LEFT + start * scale, _LEFT + min(stop, end) * scale
        if bars and left - (bars[-1][0] + bars[-1][1]) < 0.5:  # noqa: PLR2004 - half a unit
            bars[-1] = (bars[-1][0], max(right, bars[-1][0] + bars[-1][1]) - bars[-1][0])
        else:
            bars.append((left, right - left))
    return bars


@dataclass(frozen=True)
class _Drawing:
    labels: tuple[Label, ...]
    shapes: str
    height: float


def _draw(  # noqa: PLR0915 - one figure, drawn top to bottom
    timeline: Timeline, vector_cores: int, clock_hz: float, lang: Lang, measured: MeasuredTrace | None
) -> _Drawing:
    """Every text and shape of the figure, top to bottom."""
    cut = timeline.blocks > TIMELINE_BLOCKS_MAX
    model_end = timeline.op(Task.QK, TIMELINE_BLOCKS_MAX).start if cut else timeline.makespan
    observed = _measured_cycles(measured, clock_hz) if measured is not None else {}
    measured_end = max((core[-1][1] for cores in observed.values() for core in cores if core), default=0.0)
    end = model_end if cut else max(model_end, measured_end)
    scale = _PLOT / end
    bound = bounding_unit(timeline)
    window = timeline.steady_blocks
    labels: list[Label] = []
    shapes: list[str] = [f'<rect width="{WIDTH}" height="100%" fill="#fff"/>']

    # The heading: the steady period and what bounds it.
    y: float = _LINE
    labels.append(
        _label(
            pick(
                lang,
                f"稳态：每块 {whole_or(timeline.cycles_per_block, 1)} 周期",
                f"steady state: {whole_or(timeline.cycles_per_block, 1)} cycles per block",
            ),
            8,
            y,
            bold=True,
        )
    )
    y += _LINE
    labels.append(
        _label(
            pick(
                lang,
                f"CUBE 利用率 {percent(timeline.cube_utilisation, 1)}",
                f"CUBE use {percent(timeline.cube_utilisation, 1)}",
            ),
            8,
            y,
        )
    )
    y += _LINE
    labels.append(
        _label(
            pick(lang, f"决定周期的单元：{bound.value}（从不空闲）", f"bounded by {bound.value}: never idle there")
            if bound is not None
            else pick(lang, "没有单元忙满：单元间的交接决定周期", "latency-bound: no unit is busy all the time"),
            8,
            y,
        )
    )
    if cut:
        y += _LINE
        labels.append(
            _label(
                pick(
                    lang,
                    f"只画前 {TIMELINE_BLOCKS_MAX} 个块（共 {timeline.blocks} 个）",
                    f"the first {TIMELINE_BLOCKS_MAX} of {timeline.blocks} blocks",
                ),
                8,
                y,
            )
        )
    # The steady window's label, over its band.
    y += _LINE
    steady_left = timeline.op(Task.QK, window.start).start * scale + _LEFT
    steady_right = min(timeline.op(Task.QK, window.stop).start, end) * scale + _LEFT
    steady_text = pick(
        lang, f"稳态区间 QK[{window.start}]–QK[{window.stop}]", f"steady window QK[{window.start}]–QK[{window.stop}]"
    )
    steady_label = _label(steady_text, (steady_left + steady_right) / 2, y, "middle")
    half = steady_label.width / 2
    labels.append(_label(steady_text, min(max(steady_label.x, half + 8), WIDTH - _RIGHT - half), y, "middle"))
    lanes_top = y + 8
    lanes, lanes_bottom = _lanes(vector_cores, lanes_top)
    shapes.append(
        f'<rect x="{_n(steady_left)}" y="{_n(lanes_top - 4)}" width="{_n(steady_right - steady_left)}" '
        f'height="{_n(lanes_bottom - lanes_top + 8)}" fill="{STEADY_FILL}"/>'
    )

    # The model's lanes: waits, then bars by block colour, then block numbers where they fit.
    waits = op_waits(timeline)
    for lane in lanes:  # the model has one VECTOR row for every VECTOR Core: each core's lanes show it
        ops = [op for op in timeline.ops if op.unit is lane.unit and op.start < end]
        idle = _bars(((op.start - waits[op], op.start) for op in ops if waits[op] > 0), scale, end)
        by_colour: dict[int, list[str]] = {}
        numbers: list[Label] = []
        for op in ops:
            x, w = _LEFT + op.start * scale, (min(op.end, end) - op.start) * scale
            by_colour.setdefault(op.block % len(BLOCK_COLOURS), []).append(
                f'<rect x="{_n(x)}" y="{_n(lane.y + 2)}" width="{_n(max(w, _THINNEST))}" height="{_LANE - 4}"/>'
            )
            number = _label(str(op.block), x + w / 2, lane.y + _LANE - 6, "middle")
            if number.width + 2 <= w:
                numbers.append(number)
        shapes.extend(
            [
                _rule(lane.y + _LANE),
                *(
                    f'<rect x="{_n(x)}" y="{_n(lane.y + _LANE - _IDLE_MARK)}" width="{_n(w)}" height="{_IDLE_MARK}" '
                    f'fill="{IDLE_FILL}"/>'
                    for x, w in idle
                ),
                *(f'<g fill="{BLOCK_COLOURS[c]}">{"".join(rects)}</g>' for c, rects in sorted(by_colour.items())),
            ]
        )
        labels.extend(numbers)
    labels.extend(_label(lane.label(), _LEFT - 6, lane.y + _LANE - 6, "end", bold=lane.unit is bound) for lane in lanes)
    y = lanes_bottom

    # The measured lanes, under the model's, in grey.
    if measured is not None:
        y += _LINE + 6
        labels.append(_label(pick(lang, "实测（trace.json）：", "measured (trace.json):"), 8, y, bold=True))
        measured_lanes, y = _lanes(vector_cores, y + 8)
        rects = []
        for lane in measured_lanes:
            cores = observed.get((CORE_KIND[lane.unit], LANE[lane.unit]), [])
            spans = cores[lane.core] if lane.core < len(cores) else []
            rects.append(_rule(lane.y + _LANE))
            rects.extend(
                f'<rect x="{_n(x)}" y="{_n(lane.y + 2)}" width="{_n(max(w, _THINNEST))}" height="{_LANE - 4}" '
                f'fill="{MEASURED_FILL}"/>'
                for x, w in _bars(spans, scale, end)
            )
            labels.append(_label(lane.label(), _LEFT - 6, lane.y + _LANE - 6, "end"))
        shapes.append("".join(rects))

    # The axis: ticks in cycles, its name left of them.
    y += 6
    step = _tick_step(end)
    shapes.append(_rule(y, _DARK))
    y += _LINE
    tick = 0.0
    while tick <= end:
        x = _LEFT + tick * scale
        shapes.append(
            f'<line x1="{_n(x)}" x2="{_n(x)}" y1="{_n(y - _LINE)}" y2="{_n(y - _LINE + 5)}" stroke="{_DARK}"/>'
        )
        text = group_digits(tick)
        width = _label(text, x, y).width
        anchor: Anchor = "end" if x + width / 2 > WIDTH else "middle"
        labels.append(_label(text, x, y, anchor))
        tick += step
    labels.append(_label(pick(lang, "周期", "cycles"), _LEFT - 12, y, "end"))

    # The legend: block colours, waits, the steady window, the VECTOR Cores' lanes.
    y += _LINE + 8
    key = _label(pick(lang, "块号（取模）：", "block (mod):"), 8, y)
    labels.append(key)
    x = key.box[2] + 6
    for index, colour in enumerate(BLOCK_COLOURS):
        shapes.append(f'<rect x="{_n(x)}" y="{_n(y - 16)}" width="{_SWATCH}" height="{_SWATCH}" fill="{colour}"/>')
        labels.append(_label(str(index), x + _SWATCH / 2, y, "middle"))
        x += _SWATCH + 4
    y += _LINE + 8
    x = 8.0
    for fill, high, text in (
        (IDLE_FILL, _IDLE_MARK, pick(lang, "单元空闲、等待", "the unit idles, waiting")),
        (STEADY_FILL, _SWATCH, pick(lang, "稳态区间", "steady window")),
    ):
        shapes.append(
            f'<rect x="{_n(x)}" y="{_n(y - 16 + _SWATCH - high)}" width="{_SWATCH}" height="{high}" fill="{fill}"/>'
        )
        label = _label(text, x + _SWATCH + 6, y)
        labels.append(label)
        x = label.box[2] + 18
    y += _LINE + 4
    names = ", ".join(f"V{n}" for n in range(vector_cores))
    labels.append(
        _label(
            pick(
                lang,
                f"{names}：{count_word(vector_cores, lang)}个 VECTOR Core 各自的流水线",
                f"{names}: the lanes of the {count_word(vector_cores, lang)} VECTOR Core"
                + ("s" if vector_cores > 1 else ""),
            ),
            8,
            y,
        )
    )
    return _Drawing(tuple(labels), "".join(shapes), y + 10)


def _title(lang: Lang, *, measured: bool) -> str:
    """What the figure shows, for screen readers and as its caption (no number: the live figure keeps it)."""
    return pick(
        lang,
        "流水线模型的一个 job：CUBE Core 与每个 VECTOR Core 的每个单元一行，条按块号着色，红线是等待"
        + ("；下方是实测 trace 的各行" if measured else ""),
        "The modelled pipeline of one job: a lane per unit of the CUBE Core and of each VECTOR Core, bars coloured by "
        "block, waits underlined in red" + ("; the measured trace's lanes below" if measured else ""),
    )


def pipeline_timeline_labels(
    timeline: Timeline,
    *,
    vector_cores: int,
    clock_hz: float,
    lang: Lang = "zh",
    measured: MeasuredTrace | None = None,
) -> tuple[Label, ...]:
    """Every text of [`pipeline_timeline_svg`][] with its box, for its tests."""
    timeline, vector_cores, clock_hz, lang, measured = _checked(timeline, vector_cores, clock_hz, lang, measured)
    return _draw(timeline, vector_cores, clock_hz, lang, measured).labels


def _checked(
    timeline: object, vector_cores: object, clock_hz: object, lang: str, measured: object
) -> tuple[Timeline, int, float, Lang, MeasuredTrace | None]:
    return (
        require_instance("timeline", timeline, Timeline),
        require_int("vector_cores", vector_cores, minimum=1),
        require_finite("clock_hz", clock_hz, positive=True),
        check_lang(lang),
        None if measured is None else require_instance("measured", measured, MeasuredTrace),
    )


def pipeline_timeline_svg(
    timeline: Timeline,
    *,
    vector_cores: int,
    clock_hz: float,
    lang: Lang = "zh",
    measured: MeasuredTrace | None = None,
) -> str:
    """The timeline as one standalone ``<svg>`` element (one line, the same bytes for the same inputs).

    ``vector_cores`` VECTOR Cores get a set of lanes each; ``measured``'s lanes, when given, are drawn under the
    model's, their µs turned into cycles at ``clock_hz`` and counted from the trace's first event.
    """
    timeline, vector_cores, clock_hz, lang, measured = _checked(timeline, vector_cores, clock_hz, lang, measured)
    drawing = _draw(timeline, vector_cores, clock_hz, lang, measured)
    title = escape(_title(lang, measured=measured is not None))
    height = _n(drawing.height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
        f'font-family="{", ".join((*FONT_FAMILIES, "sans-serif"))}" font-size="{FONT_SIZE}" fill="{_DARK}" '
        f'role="img" aria-label="{title}"><title>{title}</title>{drawing.shapes}'
        f"{''.join(svg_text(label) for label in drawing.labels)}</svg>"
    )


def render_pipeline_timeline(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """The page's timeline: the shipped kernel's job in prefill, in the container the live form redraws.

    The same figure as ``ascend-dsa pipeline --lang LANG --svg -`` with no other option.
    """
    spec = require_ascend("spec", spec)
    timeline = simulate(stage_costs(spec, SHIPPED_KERNEL), SHIPPED_KERNEL, SIMULATED_BLOCKS)
    svg = pipeline_timeline_svg(
        timeline, vector_cores=SHIPPED_KERNEL.vector_cores_per_cube, clock_hz=spec.clock_hz, lang=lang
    )
    return live_figure("pipeline", svg, caption=_title(lang, measured=False))
