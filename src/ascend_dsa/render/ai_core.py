"""One AI Core as a block diagram: its units, buffers and copy paths, labelled with the package's constants.

The figure is an SVG written by hand, not drawn by matplotlib: boxes, arrows and text only, so the page carries
a few kilobytes and the build loads no plotting library. Every number on it is computed from the hardware preset,
the kernel's configuration and the memory plans (capacities, bandwidths, counts, where Q, the KV block, P/S and O
sit). [`ai_core_labels`][] lists each text with the box it takes, so a test can check that none overlaps another
and all stay inside the figure.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Final, Literal

from ascend_dsa.facts.glossary import glossary_term
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, pick
from ascend_dsa.models.memory_plans import l0c_output_bytes, l0c_scores_bytes, l1_plan, ub_plan
from ascend_dsa.render.format import count_word, is_wide, kib
from ascend_dsa.render.svg import FONT_FAMILIES, wrap_svg
from ascend_dsa.units import TB, MHz
from ascend_dsa.validate import require_instance, shown

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Width and height of the drawing, in SVG user units (the page scales it to the text column).
WIDTH: Final = 860
HEIGHT: Final = 770
#: Font size of every label, in user units: at the 1280 px layout the column is 688 px wide, so a label
#: is drawn at 11.2 px or more.
FONT_SIZE: Final = 14
_LINE: Final = 21  # baseline to baseline

Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class Label:
    """One text of the figure: where its baseline starts, how it is anchored, and its estimated box."""

    text: str
    x: float
    y: float
    anchor: Anchor = "start"
    bold: bool = False
    colour: str = "#1a1a1a"

    @property
    def width(self) -> float:
        """Estimated width: a CJK character is one em, anything else at most 0.6 em (a generous sans-serif)."""
        ems = sum(1.0 if is_wide(ch) else 0.6 for ch in self.text)
        return ems * FONT_SIZE * (1.05 if self.bold else 1.0)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` of the text, ascenders and descenders included."""
        left = {"start": self.x, "middle": self.x - self.width / 2, "end": self.x - self.width}[self.anchor]
        return left, self.y - 0.8 * FONT_SIZE, left + self.width, self.y + 0.25 * FONT_SIZE


@dataclass(frozen=True)
class _Box:
    x: float
    y: float
    w: float
    h: float
    fill: str
    dashed: bool = False


# Colours: light fills under dark text in both colour schemes (the figure sits on a white card); each copy path
# has its own colour, dark enough for its label to read on white.
_CUBE_FILL, _VECTOR_FILL, _MEMORY_FILL, _UNIT_FILL = "#e3ebf6", "#e6f2e2", "#ffffff", "#fdf1d6"
_MTE2, _MTE3, _FIXPIPE, _LOCAL = "#7a5230", "#a14f00", "#1d6f68", "#555555"


@dataclass(frozen=True)
class _Arrow:
    points: tuple[tuple[float, float], ...]
    colour: str


def _vector_core_left(core: int) -> float:
    return 60 + 400 * core


def ai_core_labels(
    spec: AscendSpec = ASCEND_950, config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh"
) -> tuple[Label, ...]:
    """Every text of the AI Core figure, computed from ``spec`` and ``config`` (for the figure and its tests)."""
    spec = require_ascend("spec", spec)
    config = require_instance("config", config, KernelConfig)
    l2_share = spec.bandwidth_bytes_per_cycle_per_core
    l1 = {t.name: t for t in l1_plan(spec, config).tensors}
    ub = {f.name: f.bytes for f in ub_plan(config, Mode.PREFILL).fields}
    o_bytes = l0c_output_bytes(config.heads_per_core, DSA_V41)
    p_bytes = l0c_scores_bytes(config)
    labels = [
        Label(
            pick(lang, f"HBM 与 L2：{spec.cores} 个 AI Core 共用", f"HBM and L2, shared by {spec.cores} AI Cores"),
            30,
            36,
            bold=True,
        ),
        Label(
            pick(
                lang,
                f"L2 共 {spec.bandwidth_bytes_per_s / TB:g} TB/s，每个 AI Core 每周期 {l2_share:.1f} B；"
                "存放 Q、KV cache、index 和 O",
                f"L2 {spec.bandwidth_bytes_per_s / TB:g} TB/s in all, {l2_share:.1f} B/cycle per AI Core; "
                "holds Q, the KV cache, indices and O",
            ),
            30,
            60,
        ),
        Label(
            pick(
                lang,
                f"一个 AI Core（{spec.clock_hz / MHz:g} MHz）",
                f"one AI Core ({spec.clock_hz / MHz:g} MHz)",
            ),
            22,
            122,
            bold=True,
        ),
    ]
    rows = config.mma_m_per_vector_core
    kv_buffers = config.ub_kv_buffers
    for core in range(config.vector_cores_per_cube):
        left = _vector_core_left(core) + 14
        first = core * rows
        labels += [
            Label(
                pick(
                    lang,
                    f"VECTOR Core {core}：第 {first}-{first + rows - 1} 行",
                    f"VECTOR Core {core}: rows {first}-{first + rows - 1}",
                ),
                left,
                154,
                bold=True,
            ),
            Label(pick(lang, "VECTOR：softmax、ND2NZ、O scale", "VECTOR: softmax, ND2NZ, O scale"), left + 8, 186),
            Label(f"UB · {kib(spec.staging_bytes_per_core)}", left + 8, 228, bold=True),
            Label(
                pick(
                    lang,
                    f"KV 块（ND）{kv_buffers} 份：{kib(ub['gathered_kv'])}",
                    f"KV block (ND), {kv_buffers} buffers: {kib(ub['gathered_kv'])}",
                ),
                left + 8,
                228 + _LINE,
            ),
            Label(
                pick(lang, f"P → softmax → S：{kib(ub['p'])}", f"P → softmax → S: {kib(ub['p'])}"),
                left + 8,
                228 + 2 * _LINE,
            ),
            Label(
                pick(
                    lang,
                    f"O 累加器（fp32）：{kib(ub['output_accum'])}",
                    f"O accumulator (fp32): {kib(ub['output_accum'])}",
                ),
                left + 8,
                228 + 3 * _LINE,
            ),
            Label("MTE2", _vector_core_left(core) + 324, 88, colour=_MTE2),
            Label(
                pick(lang, "MTE3：KV（NZ）、S", "MTE3: KV (NZ), S"), _vector_core_left(core) + 178, 364, colour=_MTE3
            ),
        ]
    q, kv, s = kib(l1["Q"].bytes), kib(l1["KV"].bytes), kib(l1["S"].bytes)
    o, p, free = kib(o_bytes), kib(p_bytes), kib(spec.accumulator_bytes_per_core - o_bytes - p_bytes)
    q_buffers, l1_kv_buffers = config.l1_q_buffers, config.l1_kv_buffers
    labels += [
        Label(pick(lang, "MTE2：Q", "MTE2: Q"), 438, 88, colour=_MTE2),
        Label("CUBE Core", 74, 404, bold=True),
        Label(
            pick(
                lang,
                f"L1 · {kib(spec.ascend.l1_bytes)}，{spec.ascend.l1_banks} 个 bank",
                f"L1 · {kib(spec.ascend.l1_bytes)} in {spec.ascend.l1_banks} banks",
            ),
            90,
            440,
            bold=True,
        ),
        Label(
            pick(
                lang,
                f"Q {q_buffers} 份 {q} · KV 块 {l1_kv_buffers} 份 {kv} · S {s}",
                f"Q, {q_buffers} buffers: {q} · KV block, {l1_kv_buffers} buffers: {kv} · S: {s}",
            ),
            90,
            440 + _LINE,
        ),
        Label(pick(lang, "L0A：Q 的一片", "L0A: a slice of Q"), 280, 530, anchor="middle"),
        Label(pick(lang, "L0B：K 或 V 的一片", "L0B: a slice of K or V"), 580, 530, anchor="middle"),
        Label(
            pick(
                lang,
                f"CUBE：MMAD，每周期 {spec.matrix_fma_per_cycle_per_core} 次 FMA",
                f"CUBE: MMAD, {spec.matrix_fma_per_cycle_per_core} FMA/cycle",
            ),
            430,
            596,
            anchor="middle",
            bold=True,
        ),
        Label(
            pick(lang, "QK：P = Q Kᵀ · SV：O += S V", "QK: P = Q Kᵀ · SV: O += S V"), 430, 596 + _LINE, anchor="middle"
        ),
        Label(f"L0C · {kib(spec.accumulator_bytes_per_core)}", 430, 668, anchor="middle", bold=True),
        Label(
            pick(
                lang,
                f"O（fp32）{o} · P（fp32）{p} · 空闲 {free}",
                f"O (fp32): {o} · P (fp32): {p} · free: {free}",
            ),
            430,
            668 + _LINE,
            anchor="middle",
        ),
        Label("FixPipe", 70, 712, colour=_FIXPIPE, bold=True),
        Label(pick(lang, "P、O", "P, O"), 70, 712 + _LINE, colour=_FIXPIPE),
        Label("FixPipe", 790, 712, anchor="end", colour=_FIXPIPE, bold=True),
        Label(
            pick(
                lang,
                f"FixPipe 每个 AI Core 每周期 {spec.ascend.fixpipe_bytes_per_cycle_1c1v} B（1C1V）",
                f"FixPipe: {spec.ascend.fixpipe_bytes_per_cycle_1c1v} B/cycle per AI Core (1C1V)",
            ),
            430,
            757,
            anchor="middle",
            colour=_FIXPIPE,
        ),
        Label(pick(lang, "P、O", "P, O"), 790, 712 + _LINE, anchor="end", colour=_FIXPIPE),
    ]
    return tuple(labels)


def _boxes(config: KernelConfig) -> tuple[_Box, ...]:
    boxes = [
        _Box(20, 12, 820, 62, _MEMORY_FILL),
        _Box(10, 100, 840, 668, "none", dashed=True),
    ]
    for core in range(config.vector_cores_per_cube):
        left = _vector_core_left(core)
        boxes += [
            _Box(left, 130, 340, 196, _VECTOR_FILL),
            _Box(left + 14, 166, 290, 30, _UNIT_FILL),
            _Box(left + 14, 208, 312, 104, _MEMORY_FILL),
        ]
    boxes += [
        _Box(60, 382, 740, 358, _CUBE_FILL),
        _Box(74, 416, 712, 54, _MEMORY_FILL),
        _Box(150, 506, 260, 36, _MEMORY_FILL),
        _Box(450, 506, 260, 36, _MEMORY_FILL),
        _Box(150, 572, 560, 56, _UNIT_FILL),
        _Box(150, 646, 560, 56, _MEMORY_FILL),
    ]
    return tuple(boxes)


def _arrows(config: KernelConfig) -> tuple[_Arrow, ...]:
    arrows = [_Arrow(((430, 74), (430, 416)), _MTE2)]
    for core in range(config.vector_cores_per_cube):
        left = _vector_core_left(core)
        arrows += [
            _Arrow(((left + 316, 74), (left + 316, 208)), _MTE2),
            _Arrow(((left + 170, 312), (left + 170, 416)), _MTE3),
        ]
    arrows += [
        _Arrow(((280, 470), (280, 506)), _LOCAL),
        _Arrow(((580, 470), (580, 506)), _LOCAL),
        _Arrow(((280, 542), (280, 572)), _LOCAL),
        _Arrow(((580, 542), (580, 572)), _LOCAL),
        _Arrow(((430, 628), (430, 646)), _LOCAL),
        _Arrow(((150, 690), (36, 690), (36, 300), (74, 300)), _FIXPIPE),
        _Arrow(((710, 690), (824, 690), (824, 300), (786, 300)), _FIXPIPE),
    ]
    return tuple(arrows)


def _svg_text(label: Label) -> str:
    weight = ' font-weight="700"' if label.bold else ""
    return (
        f'<text x="{label.x:g}" y="{label.y:g}" text-anchor="{label.anchor}" fill="{label.colour}"{weight}>'
        f"{escape(label.text)}</text>"
    )


def _svg_box(box: _Box) -> str:
    dash = ' stroke-dasharray="6 4"' if box.dashed else ""
    return (
        f'<rect x="{box.x:g}" y="{box.y:g}" width="{box.w:g}" height="{box.h:g}" rx="4" fill="{box.fill}" '
        f'stroke="#555"{dash}/>'
    )


def _svg_arrow(arrow: _Arrow, marker: str) -> str:
    points = " ".join(f"{x:g},{y:g}" for x, y in arrow.points)
    return (
        f'<polyline points="{points}" fill="none" stroke="{arrow.colour}" stroke-width="2.5" '
        f'marker-end="url(#{marker}-{arrow.colour[1:]})"/>'
    )


def _markers(colours: Sequence[str], marker: str) -> str:
    return "".join(
        f'<marker id="{marker}-{colour[1:]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        f'markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="{colour}"/></marker>'
        for colour in colours
    )


def render_ai_core_figure(
    spec: AscendSpec = ASCEND_950, config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh"
) -> str:
    """One AI Core: CUBE with L1 and L0A/L0B/L0C, the VECTOR Cores with their UBs, the copy paths, where data sits."""
    labels = ai_core_labels(spec, config, lang=lang)  # checks spec, config and lang, once for the whole figure
    marker = f"ai-core-arrow-{lang}"
    arrows = _arrows(config)
    body = "".join(
        [
            f"<defs>{_markers(sorted({a.colour for a in arrows}), marker)}</defs>",
            *(_svg_box(box) for box in _boxes(config)),
            *(_svg_arrow(arrow, marker) for arrow in arrows),
            f'<g font-size="{FONT_SIZE}">',
            *(_svg_text(label) for label in labels),
            "</g>",
        ]
    )
    vector_cores = count_word(spec.ascend.vector_cores_per_ai_core, lang)
    title = pick(
        lang,
        f"一个 AI Core：CUBE、{vector_cores}个 VECTOR Core、各级缓冲与搬运通路，以及本算子的数据放在哪里",
        f"One AI Core: the CUBE, {vector_cores} VECTOR Cores, their buffers and copy paths, and where this kernel's "
        "data sits",
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" font-family="{", ".join((*FONT_FAMILIES, "sans-serif"))}">{body}</svg>'
    )
    return wrap_svg(svg, title=title)


#: The home page's sketch of an AI Core: its size in SVG user units and its font size (drawn at about its own size).
SKETCH_WIDTH: Final = 444
SKETCH_HEIGHT: Final = 352
SKETCH_FONT_SIZE: Final = 15


def _sketch_link(text: str, term: str, x: float, y: float, glossary_url: str, **style: str) -> str:
    """A text of the sketch linked to the glossary entry of ``term``."""
    anchor = glossary_term(term).anchor
    attributes = "".join(f' {name.replace("_", "-")}="{value}"' for name, value in style.items())
    return f'<a href="{escape(glossary_url)}#{anchor}"><text x="{x:g}" y="{y:g}"{attributes}>{escape(text)}</text></a>'


def render_ai_core_sketch(
    spec: AscendSpec = ASCEND_950,
    config: KernelConfig = SHIPPED_KERNEL,
    *,
    lang: Lang = "zh",
    glossary_url: str = "reference/glossary/",
) -> str:
    """A light AI Core for the home page: its units and buffer counts, each name linked to its glossary entry.

    ``glossary_url`` is the glossary page's URL relative to the page showing the sketch. The full figure, with
    capacities and bandwidths, is [`render_ai_core_figure`][].
    """
    spec = require_ascend("spec", spec)
    config = require_instance("config", config, KernelConfig)
    if not isinstance(glossary_url, str) or any(ch in glossary_url for ch in "\"'<> #"):
        raise ValueError(
            f"glossary_url must be a relative URL without quotes, blanks or '#', got {shown(glossary_url)}"
        )
    link = functools.partial(_sketch_link, glossary_url=glossary_url)
    boxes = [_Box(10, 8, 420, 36, _MEMORY_FILL), _Box(10, 196, 420, 124, _CUBE_FILL)]
    texts = [link("HBM · L2", "L2", 220, 31, text_anchor="middle", font_weight="700")]
    arrows = [_Arrow(((220, 44), (220, 206)), _MTE2)]
    for core in range(config.vector_cores_per_cube):
        left = 10 + 220 * core
        boxes += [_Box(left, 70, 200, 100, _VECTOR_FILL), _Box(left + 10, 106, 180, 52, _MEMORY_FILL)]
        texts += [
            link("VECTOR", "VECTOR", left + 10, 94, font_weight="700"),
            link("UB", "UB", left + 20, 138, font_weight="700"),
            link(f"KV ×{config.ub_kv_buffers}", "ping-pong", left + 60, 138),
        ]
        arrows += [
            _Arrow(((left + 170, 44), (left + 170, 106)), _MTE2),
            _Arrow(((left + 100, 158), (left + 100, 206)), _MTE3),
        ]
    boxes += [
        _Box(20, 206, 400, 30, _MEMORY_FILL),
        _Box(20, 250, 110, 26, _MEMORY_FILL),
        _Box(140, 250, 110, 26, _MEMORY_FILL),
        _Box(260, 250, 160, 26, _UNIT_FILL),
        _Box(260, 288, 160, 26, _MEMORY_FILL),
    ]
    texts += [
        link("L1", "L1", 30, 226, font_weight="700"),
        link(f"Q ×{config.l1_q_buffers} · KV ×{config.l1_kv_buffers}", "ping-pong", 60, 226),
        link("L0A", "L0A", 75, 268, text_anchor="middle"),
        link("L0B", "L0B", 195, 268, text_anchor="middle"),
        link("CUBE", "CUBE", 340, 268, text_anchor="middle", font_weight="700"),
        link("L0C", "L0C", 340, 306, text_anchor="middle"),
    ]
    arrows += [
        _Arrow(((75, 236), (75, 250)), _LOCAL),
        _Arrow(((195, 236), (195, 250)), _LOCAL),
        _Arrow(((340, 276), (340, 288)), _LOCAL),
        _Arrow(((420, 301), (436, 301), (436, 132), (420, 132)), _FIXPIPE),
    ]
    legend = [("MTE2", _MTE2), ("MTE3", _MTE3), ("MTE1", _LOCAL), ("FixPipe", _FIXPIPE)]
    for index, (name, colour) in enumerate(legend):
        x = 20 + 105 * index
        arrows.append(_Arrow(((x, 340), (x + 24, 340)), colour))
        texts.append(link(name, name, x + 30, 345, fill=colour))
    marker = f"ai-core-sketch-arrow-{lang}"
    body = "".join(
        [
            f"<defs>{_markers(sorted({a.colour for a in arrows}), marker)}</defs>",
            *(_svg_box(box) for box in boxes),
            *(_svg_arrow(arrow, marker) for arrow in arrows),
            f'<g font-size="{SKETCH_FONT_SIZE}" fill="#1a1a1a">',
            *texts,
            "</g>",
        ]
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SKETCH_WIDTH} {SKETCH_HEIGHT}" width="{SKETCH_WIDTH}" '
        f'height="{SKETCH_HEIGHT}" font-family="{", ".join((*FONT_FAMILIES, "sans-serif"))}">{body}</svg>'
    )
    title = pick(
        lang,
        "一个 AI Core：各单元、缓冲份数与搬运通路（点击名字看术语表）",
        "One AI Core: its units, buffer counts and copy paths (a name opens its glossary entry)",
    )
    return wrap_svg(svg, title=title)
