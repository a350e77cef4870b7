"""The double-buffering primer: a ring of buffers as a timeline, and the kernel's buffer counts explained.

The figure draws [`ascend_dsa.report.scenarios.primer_ring`][] for one, two and three buffers on one time axis:
the load of each block (MTE2) above the compute that uses it (CUBE), each block coloured by the buffer it sits in,
and the cycles the CUBE or MTE2 sits waiting shaded. The table says, for each ring the AI Core figure draws (KV x3 in
UB, KV x4 and Q x2 in L1) and the index ring, how far its writer runs ahead of its reader and so how many buffers that
takes, next to the count in the kernel's configuration.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.provenance import ReportLines, Source
from ascend_dsa.lang import Lang, Text, check_lang, pick, term
from ascend_dsa.models.memory_plans import JOB_PARITY_BUFFERS
from ascend_dsa.models.pipeline import buffer_depth
from ascend_dsa.models.schedule import vector_stage
from ascend_dsa.render.format import group_digits
from ascend_dsa.render.markdown import citation, table
from ascend_dsa.render.svg import Label, hand_drawn_svg, min_text_units, svg_text
from ascend_dsa.report.scenarios import PRIMER_RING_BUFFERS, primer_ring
from ascend_dsa.validate import require_instance

#: Width of the timeline, in SVG user units (the page scales it to the text column, a phone's too).
WIDTH: Final = 560
#: Font size of the labels, in user units: the smallest that reads at 11 px in the 1280 px layout and at 10 px on a
#: phone once the drawing is scaled to the column (render/svg.py `READING_VIEWS`).
FONT_SIZE: Final = math.ceil(min_text_units(WIDTH))
#: Baseline to baseline of stacked rows of text: a CJK line box is about 1.45 em tall in the browser.
_LINE: Final = math.ceil(1.5 * FONT_SIZE)
#: Room left and right of the drawing's texts, in user units.
_MARGIN: Final = 8.0
#: Where the time axis starts and ends, in user units (the lane names sit left of it).
_X0, _X1 = _MARGIN + math.ceil(0.6 * len("CUBE compute") * FONT_SIZE) + 8.0, WIDTH - 12.0  # the widest lane name
#: Height of one bar (a lane's label is centred on it), the gap between a panel's two lanes, and a panel's title row.
_BAR, _LANE_GAP, _TITLE = float(_LINE), 6.0, 30.0
#: Top of the first panel, and the height of one panel: its title, two lanes and a gap to the next title.
_TOP, _PANEL = 4.0, _TITLE + 2 * _BAR + _LANE_GAP + 12.0
#: Legend rows under the axis (its entries wrap to a second row when one is not wide enough).
LEGEND_ROWS: Final = 2
#: Height of the drawing: the panels, the axis and its labels, then the legend's rows.
HEIGHT: Final = math.ceil(
    _TOP + len(PRIMER_RING_BUFFERS) * _PANEL + 8 + FONT_SIZE + LEGEND_ROWS * _LINE + 0.5 * FONT_SIZE
)
#: One fill per buffer of a ring (buffer 0, 1, 2), then the waits: the CUBE's (red) and MTE2's (grey).
BUFFER_COLOURS: Final = ("#4e79a7", "#f28e2b", "#59a14f")
_CUBE_IDLE, _LOADER_IDLE = "#f4c7c3", "#d9d9d9"
#: Most ticks on the time axis, past the one at 0: a tick every compute while they fit, every few computes after.
MAX_TICKS: Final = 7
#: From a bar's top to the baseline of the text centred on it.
_BAR_BASELINE: Final = _BAR / 2 + 0.35 * FONT_SIZE


@dataclass(frozen=True)
class _Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str


def _scale(spec: AscendSpec) -> float:
    """User units per cycle: the slowest ring's timeline fills the axis."""
    longest = max(primer_ring(n, spec).makespan for n in PRIMER_RING_BUFFERS)
    return (_X1 - _X0) / longest


def _panel(spec: AscendSpec, buffers: int, top: float, scale: float, lang: Lang) -> tuple[list[_Rect], list[Label]]:
    """One ring's panel: its title, the MTE2 lane above the CUBE lane, each bar numbered by its block."""
    ring = primer_ring(buffers, spec)
    load_y, use_y = top + _TITLE, top + _TITLE + _BAR + _LANE_GAP
    cycles, idle = group_digits(ring.cycles_per_block), group_digits(ring.consumer_waits[-1])
    labels = [
        Label(
            pick(
                lang,
                f"{buffers} 份缓冲：每块 {cycles} 周期，CUBE 每块空等 {idle} 周期",
                f"{buffers} buffer{'s' if buffers > 1 else ''}: {cycles} cycles per block, CUBE idle {idle}",
            ),
            8,
            top + _TITLE - 10,
            bold=True,
            size=FONT_SIZE,
        ),
        Label(pick(lang, "MTE2 载入", "MTE2 load"), _X0 - 8, load_y + _BAR_BASELINE, anchor="end", size=FONT_SIZE),
        Label(pick(lang, "CUBE 计算", "CUBE compute"), _X0 - 8, use_y + _BAR_BASELINE, anchor="end", size=FONT_SIZE),
    ]
    rects: list[_Rect] = []
    previous = None
    for block in ring.blocks:
        colour = BUFFER_COLOURS[block.buffer % len(BUFFER_COLOURS)]
        if previous is not None and block.load_start > previous.load_end:
            rects.append(
                _Rect(
                    _x(previous.load_end, scale),
                    load_y,
                    (block.load_start - previous.load_end) * scale,
                    _BAR,
                    _LOADER_IDLE,
                )
            )
        idle_from = previous.use_end if previous is not None else 0.0
        if block.use_start > idle_from:
            rects.append(_Rect(_x(idle_from, scale), use_y, (block.use_start - idle_from) * scale, _BAR, _CUBE_IDLE))
        for start, end, y in ((block.load_start, block.load_end, load_y), (block.use_start, block.use_end, use_y)):
            rects.append(_Rect(_x(start, scale), y, (end - start) * scale, _BAR, colour))
            labels.append(
                Label(
                    f"{block.block}",
                    _x((start + end) / 2, scale),
                    y + _BAR_BASELINE,
                    "middle",
                    bold=True,
                    colour="#ffffff",
                    size=FONT_SIZE,
                )
            )
        previous = block
    return rects, labels


def _x(cycles: float, scale: float) -> float:
    return round(_X0 + cycles * scale, 2)


def _axis(spec: AscendSpec, top: float, scale: float, lang: Lang) -> tuple[list[str], list[Label]]:
    """The time axis under the panels: a tick every whole number of computes, and the legend below it.

    The ticks are as many computes apart as keeps their labels from meeting, and at most `MAX_TICKS`; the legend's
    entries wrap to the next row when the drawing is not wide enough for them.
    """
    use = primer_ring(PRIMER_RING_BUFFERS[0], spec).use_cycles
    longest = max(primer_ring(n, spec).makespan for n in PRIMER_RING_BUFFERS)
    widest = Label(group_digits(longest), 0, 0, size=FONT_SIZE).width + 8
    step = use * max(math.ceil(longest / use / MAX_TICKS), math.ceil(widest / (use * scale)))
    ticks, labels = [f'<line x1="{_X0:g}" y1="{top:g}" x2="{_X1:g}" y2="{top:g}" stroke="#555"/>'], []
    baseline = top + 8 + FONT_SIZE
    for k in range(MAX_TICKS + 1):
        if k * step * scale > _X1 - _X0 + 0.5:
            break
        x = _x(k * step, scale)
        ticks.append(f'<line x1="{x:g}" y1="{top:g}" x2="{x:g}" y2="{top + 5:g}" stroke="#555"/>')
        label = Label(group_digits(k * step), x, baseline, "middle", size=FONT_SIZE)
        labels.append(
            label if label.box[2] <= WIDTH - 2 else Label(label.text, WIDTH - 2, baseline, "end", size=FONT_SIZE)
        )
    labels.append(Label(pick(lang, "周期", "cycles"), _X0 - 14, baseline, "end", size=FONT_SIZE))
    entries = [
        *(
            (colour, pick(lang, f"缓冲 {i}", f"buffer {i}"))
            for i, colour in enumerate(BUFFER_COLOURS[: max(PRIMER_RING_BUFFERS)])
        ),
        (_CUBE_IDLE, pick(lang, "CUBE 空等", "CUBE idle")),
        (_LOADER_IDLE, pick(lang, "MTE2 等空缓冲", "MTE2 waits")),
    ]
    x, legend_y = _MARGIN, baseline + _LINE
    swatch = math.ceil(0.8 * FONT_SIZE)
    for colour, text in entries:
        if x > _MARGIN and x + swatch + 5 + Label(text, 0, 0, size=FONT_SIZE).width > WIDTH - _MARGIN:
            x, legend_y = _MARGIN, legend_y + _LINE
        ticks.append(
            f'<rect x="{x:g}" y="{legend_y - swatch + 2:g}" width="{swatch}" height="{swatch}" fill="{colour}"/>'
        )
        label = Label(text, x + swatch + 5, legend_y, size=FONT_SIZE)
        labels.append(label)
        x = label.box[2] + 16
    return ticks, labels


def double_buffering_labels(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> tuple[Label, ...]:
    """Every text of the timeline, computed from ``spec`` through the pipeline model (for the figure and its tests)."""
    return _drawing(require_ascend("spec", spec), check_lang(lang))[1]


def _drawing(spec: AscendSpec, lang: Lang) -> tuple[list[str], tuple[Label, ...]]:
    scale = _scale(spec)
    shapes: list[str] = []
    labels: list[Label] = []
    for i, buffers in enumerate(PRIMER_RING_BUFFERS):
        rects, panel_labels = _panel(spec, buffers, _TOP + i * _PANEL, scale, lang)
        shapes += [f'<rect x="{r.x:g}" y="{r.y:g}" width="{r.w:.2f}" height="{r.h:g}" fill="{r.fill}"/>' for r in rects]
        labels += panel_labels
    ticks, axis_labels = _axis(spec, _TOP + len(PRIMER_RING_BUFFERS) * _PANEL, scale, lang)
    return shapes + ticks, (*labels, *axis_labels)


def render_double_buffering_figure(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """Loads and computes of a few KV blocks through one, two and three buffers, on one time axis (inline SVG)."""
    spec, lang = require_ascend("spec", spec), check_lang(lang)
    shapes, labels = _drawing(spec, lang)
    body = "".join([*shapes, f'<g font-size="{FONT_SIZE}">', *(svg_text(label) for label in labels), "</g>"])
    title = pick(
        lang,
        "同样的载入和计算，缓冲份数不同：单份时 CUBE 等载入，双份起载入藏在计算底下",
        "The same loads and computes through rings of different sizes: with one buffer the CUBE waits for each load, "
        "from two on the loads hide under the computes",
    )
    return hand_drawn_svg(body, width=WIDTH, height=HEIGHT, title=title)


# --- the kernel's buffer counts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BufferRing:
    """One ring of the kernel: where it sits, who writes and who reads it, how many buffers that takes and has."""

    name: Text
    writer: Text
    reader: Text
    implied: int
    shipped: int
    source: Source


def buffer_rings(config: KernelConfig = SHIPPED_KERNEL) -> tuple[BufferRing, ...]:
    """The rings the AI Core figure counts (UB KV, L1 KV, L1 Q) and the index ring, with what their leads imply.

    A ring whose writer works on block ``i + w`` while its reader works on ``i + r`` holds ``w - r + 1`` blocks at once
    ([`ascend_dsa.models.pipeline.buffer_depth`][]), one fewer when the reader goes first on the same in-order pipe.
    """
    config = require_instance("config", config, KernelConfig)
    gather, nd2nz = vector_stage("kv-gather").offset, vector_stage("nd2nz-and-copy-to-l1").offset
    softmax, index, scale_o = (vector_stage(k).offset for k in ("softmax", "index-preprocess", "scale-o"))
    return (
        BufferRing(
            Text("UB：KV 块（ND）", "UB: KV block (ND)"),
            Text(f"MTE2 搬入块 i+{gather}", f"MTE2 gathers block i+{gather}"),
            Text(f"VECTOR 对块 i+{nd2nz} 做 ND2NZ", f"VECTOR converts block i+{nd2nz} (ND2NZ)"),
            buffer_depth.trusted(gather, nd2nz, reader_first_in_order=False),
            config.ub_kv_buffers,
            Source(("config.h:68", _lines(190, 200)), "code"),
        ),
        BufferRing(
            Text("L1：KV 块（NZ）", "L1: KV block (NZ)"),
            Text(f"MTE3 送入块 i+{nd2nz}", f"MTE3 copies in block i+{nd2nz}"),
            Text(f"CUBE 的 SV[{_block(scale_o)}] 还在读", f"the CUBE's SV[{_block(scale_o)}] still reads"),
            buffer_depth.trusted(nd2nz, scale_o, reader_first_in_order=False),
            config.l1_kv_buffers,
            Source(("config.h:67", _lines(176, 190)), "code"),
        ),
        BufferRing(
            Text("L1：Q", "L1: Q"),
            Text("MTE2 载入下一个 job 的 Q", "MTE2 loads the next job's Q"),
            Text("CUBE 的 QK 读本 job 的 Q", "the CUBE's QK reads this job's Q"),
            JOB_PARITY_BUFFERS,
            config.l1_q_buffers,
            Source(("config.h:66", "kernel_body.h run_load_q (job_idx % NUM_L1_Q_BUFS)"), "code"),
        ),
        BufferRing(
            Text("UB：index", "UB: indices"),
            Text(f"VECTOR 预处理块 i+{index} 的 index", f"VECTOR preprocesses block i+{index}'s indices"),
            Text(
                f"同一条管线上先发射的 softmax（块 i+{softmax}）",
                f"softmax of block i+{softmax}, issued first on the same pipe",
            ),
            buffer_depth.trusted(index, softmax, reader_first_in_order=True),
            config.index_buffers,
            Source(("config.h:69", _lines(192, 194)), "code"),
        ),
    )


def _lines(*lines: int) -> ReportLines:
    """Report (zh) lines cited one by one (``lines 190, 200``), not as a range."""
    return ReportLines(tuple((line, line) for line in lines))


def _block(offset: int) -> str:
    """Block ``i + offset`` as the report writes it: ``i`` for the oldest block, ``i+3`` for one three ahead."""
    return f"i+{offset}" if offset else "i"


def render_buffer_counts(config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh") -> str:
    """The kernel's rings: writer, reader, the buffers their lead implies and the count the kernel ships (Markdown)."""
    lang = check_lang(lang)
    rows = [
        (
            ring.name.in_(lang),
            ring.writer.in_(lang),
            ring.reader.in_(lang),
            ring.implied,
            ring.shipped,
            citation(ring.source, lang),
        )
        for ring in buffer_rings(config)
    ]
    headers = [
        pick(lang, "缓冲", "ring"),
        pick(lang, "写入方", "writer"),
        pick(lang, "读取方", "reader"),
        pick(lang, "需要的份数", "buffers needed"),
        pick(lang, "内核的份数", "buffers shipped"),
        term("column:source", lang),
    ]
    return table(headers, rows, ("left", "left", "left", "right", "right", "left")) + "\n"
