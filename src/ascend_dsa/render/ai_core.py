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
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.glossary import glossary_term
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.models.design_point import fixpipe_bytes_per_cycle
from ascend_dsa.models.memory_plans import l0c_output_bytes, l0c_scores_bytes, l1_plan, ub_plan
from ascend_dsa.render.format import count_word, kib
from ascend_dsa.render.svg import FONT_FAMILIES, LABEL_FONT_SIZE, Label, svg_text, wrap_svg
from ascend_dsa.units import TB, MHz
from ascend_dsa.validate import require_instance, shown

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Width and height of the drawing, in SVG user units (the page scales it to the text column).
WIDTH: Final = 860
HEIGHT: Final = 770
#: Font size of every label, in user units: at the 1280 px layout the column is 688 px wide, so a label
#: is drawn at 11.2 px or more.
FONT_SIZE: Final = LABEL_FONT_SIZE
_LINE: Final = 21  # baseline to baseline
#: The phone layout (issue 27): the same labels stacked in a drawing narrow enough that, scaled to the narrowest
#: phone column (`COLUMN_PX_ON_PHONE`), every label is at least `MIN_TEXT_PX_ON_PHONE`: both VECTOR Cores above
#: the CUBE, one under the other, instead of side by side.
PHONE_WIDTH: Final = 420
PHONE_FONT_SIZE: Final = 13
_PHONE_LINE: Final = 20


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


@dataclass(frozen=True)
class _CoreTexts:
    """The texts of one VECTOR Core's box."""

    title: str
    unit: str
    ub: str
    ub_fields: tuple[str, str, str]


@dataclass(frozen=True)
class _Texts:
    """Every text of the figure, computed once, for either layout to place."""

    hbm: str
    l2: tuple[str, str]  # what the L2 offers; what it holds
    ai_core: str
    cores: tuple[_CoreTexts, ...]
    mte3: str
    mte2_q: str
    cube_core: str
    l1: str
    l1_fields: tuple[str, ...]
    l0a: str
    l0b: str
    cube: str
    products: str
    l0c: str
    l0c_fields: tuple[str, ...]
    fixpipe_moves: str
    fixpipe_rate: str


def _texts(spec: AscendSpec, config: KernelConfig, lang: Lang) -> _Texts:
    """The figure's texts from ``spec``, ``config`` and the memory plans (values already checked)."""
    l2_share = spec.bandwidth_bytes_per_cycle_per_core
    l1 = {t.name: t for t in l1_plan(spec, config).tensors}
    ub = {f.name: f.bytes for f in ub_plan(config, Mode.PREFILL).fields}
    o_bytes = l0c_output_bytes(config.heads_per_core, DSA_V41)
    p_bytes = l0c_scores_bytes(config)
    rows = config.mma_m_per_vector_core
    kv_buffers = config.ub_kv_buffers
    cores = tuple(
        _CoreTexts(
            pick(
                lang,
                f"VECTOR Core {core}：第 {core * rows}-{core * rows + rows - 1} 行",
                f"VECTOR Core {core}: rows {core * rows}-{core * rows + rows - 1}",
            ),
            pick(lang, "VECTOR：softmax、ND2NZ、O scale", "VECTOR: softmax, ND2NZ, O scale"),
            f"UB · {kib(spec.staging_bytes_per_core)}",
            (
                pick(
                    lang,
                    f"KV 块（ND）{kv_buffers} 份：{kib(ub['gathered_kv'])}",
                    f"KV block (ND), {kv_buffers} buffers: {kib(ub['gathered_kv'])}",
                ),
                pick(lang, f"P → softmax → S：{kib(ub['p'])}", f"P → softmax → S: {kib(ub['p'])}"),
                pick(
                    lang,
                    f"O 累加器（fp32）：{kib(ub['output_accum'])}",
                    f"O accumulator (fp32): {kib(ub['output_accum'])}",
                ),
            ),
        )
        for core in range(config.vector_cores_per_cube)
    )
    q, kv, s = kib(l1["Q"].bytes), kib(l1["KV"].bytes), kib(l1["S"].bytes)
    o, p, free = kib(o_bytes), kib(p_bytes), kib(spec.accumulator_bytes_per_core - o_bytes - p_bytes)
    q_buffers, l1_kv_buffers = config.l1_q_buffers, config.l1_kv_buffers
    # The rate of the layout the figure draws (1C2V: FixPipe feeds both VECTOR Cores), as the pages assume it.
    fixpipe_rate = fixpipe_bytes_per_cycle(spec, config.vector_cores_per_cube)
    layout = f"1C{config.vector_cores_per_cube}V"
    return _Texts(
        hbm=pick(lang, f"HBM 与 L2：{spec.cores} 个 AI Core 共用", f"HBM and L2, shared by {spec.cores} AI Cores"),
        l2=(
            pick(
                lang,
                f"L2 共 {spec.bandwidth_bytes_per_s / TB:g} TB/s，每个 AI Core 每周期 {l2_share:.1f} B；",
                f"L2 {spec.bandwidth_bytes_per_s / TB:g} TB/s in all, {l2_share:.1f} B/cycle per AI Core; ",
            ),
            pick(lang, "存放 Q、KV cache、index 和 O", "holds Q, the KV cache, indices and O"),
        ),
        ai_core=pick(
            lang, f"一个 AI Core（{spec.clock_hz / MHz:g} MHz）", f"one AI Core ({spec.clock_hz / MHz:g} MHz)"
        ),
        cores=cores,
        mte3=pick(lang, "MTE3：KV（NZ）、S", "MTE3: KV (NZ), S"),
        mte2_q=pick(lang, "MTE2：Q", "MTE2: Q"),
        cube_core="CUBE Core",
        l1=pick(
            lang,
            f"L1 · {kib(spec.ascend.l1_bytes)}，{spec.ascend.l1_banks} 个 bank",
            f"L1 · {kib(spec.ascend.l1_bytes)} in {spec.ascend.l1_banks} banks",
        ),
        l1_fields=(
            pick(lang, f"Q {q_buffers} 份 {q}", f"Q, {q_buffers} buffers: {q}"),
            pick(lang, f"KV 块 {l1_kv_buffers} 份 {kv}", f"KV block, {l1_kv_buffers} buffers: {kv}"),
            pick(lang, f"S {s}", f"S: {s}"),
        ),
        l0a=pick(lang, "L0A：Q 的一片", "L0A: a slice of Q"),
        l0b=pick(lang, "L0B：K 或 V 的一片", "L0B: a slice of K or V"),
        cube=pick(
            lang,
            f"CUBE：MMAD，每周期 {spec.matrix_fma_per_cycle_per_core} 次 FMA",
            f"CUBE: MMAD, {spec.matrix_fma_per_cycle_per_core} FMA/cycle",
        ),
        products=pick(lang, "QK：P = Q Kᵀ · SV：O += S V", "QK: P = Q Kᵀ · SV: O += S V"),
        l0c=f"L0C · {kib(spec.accumulator_bytes_per_core)}",
        l0c_fields=(
            pick(lang, f"O（fp32）{o}", f"O (fp32): {o}"),
            pick(lang, f"P（fp32）{p}", f"P (fp32): {p}"),
            pick(lang, f"空闲 {free}", f"free: {free}"),
        ),
        fixpipe_moves=pick(lang, "P、O", "P, O"),
        fixpipe_rate=pick(
            lang,
            f"FixPipe 每个 AI Core 每周期 {fixpipe_rate} B（{layout}）",
            f"FixPipe: {fixpipe_rate} B/cycle per AI Core ({layout})",
        ),
    )


_JOIN: Final = " · "


def ai_core_labels(
    spec: AscendSpec = ASCEND_950, config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh"
) -> tuple[Label, ...]:
    """Every text of the AI Core figure, computed from ``spec`` and ``config`` (for the figure and its tests)."""
    spec = require_ascend("spec", spec)
    config = require_instance("config", config, KernelConfig)
    return _wide_labels(_texts(spec, config, check_lang(lang)))


def _wide_labels(texts: _Texts) -> tuple[Label, ...]:
    labels = [
        Label(texts.hbm, 30, 36, bold=True),
        Label("".join(texts.l2), 30, 60),
        Label(texts.ai_core, 22, 122, bold=True),
    ]
    for core, core_texts in enumerate(texts.cores):
        left = _vector_core_left(core) + 14
        labels += [
            Label(core_texts.title, left, 154, bold=True),
            Label(core_texts.unit, left + 8, 186),
            Label(core_texts.ub, left + 8, 228, bold=True),
            *(Label(text, left + 8, 228 + (row + 1) * _LINE) for row, text in enumerate(core_texts.ub_fields)),
            Label("MTE2", _vector_core_left(core) + 324, 88, colour=_MTE2),
            Label(texts.mte3, _vector_core_left(core) + 178, 364, colour=_MTE3),
        ]
    labels += [
        Label(texts.mte2_q, 438, 88, colour=_MTE2),
        Label(texts.cube_core, 74, 404, bold=True),
        Label(texts.l1, 90, 440, bold=True),
        Label(_JOIN.join(texts.l1_fields), 90, 440 + _LINE),
        Label(texts.l0a, 280, 530, anchor="middle"),
        Label(texts.l0b, 580, 530, anchor="middle"),
        Label(texts.cube, 430, 596, anchor="middle", bold=True),
        Label(texts.products, 430, 596 + _LINE, anchor="middle"),
        Label(texts.l0c, 430, 668, anchor="middle", bold=True),
        Label(_JOIN.join(texts.l0c_fields), 430, 668 + _LINE, anchor="middle"),
        Label("FixPipe", 70, 712, colour=_FIXPIPE, bold=True),
        Label(texts.fixpipe_moves, 70, 712 + _LINE, colour=_FIXPIPE),
        Label("FixPipe", 790, 712, anchor="end", colour=_FIXPIPE, bold=True),
        Label(texts.fixpipe_rate, 430, 757, anchor="middle", colour=_FIXPIPE),
        Label(texts.fixpipe_moves, 790, 712 + _LINE, anchor="end", colour=_FIXPIPE),
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


# The phone layout: lanes for the copy paths at the sides (FixPipe and MTE3 left, MTE2 right), the boxes between.
_PHONE_LEFT: Final = 28  # the boxes inside the AI Core
_PHONE_RIGHT: Final = 392
_PHONE_FIXPIPE_LANE: Final = 10
_PHONE_MTE3_LANE: Final = 19
_PHONE_MTE2_LANE: Final = 406
_PHONE_CORE_TOP: Final = 128
_PHONE_CORE_STEP: Final = 172


def _phone_core_top(core: int) -> float:
    return _PHONE_CORE_TOP + _PHONE_CORE_STEP * core


def _packed(parts: Sequence[str], width: float) -> tuple[str, ...]:
    """``parts`` joined with `_JOIN` into as few lines as fit ``width`` at the phone's font size."""
    lines: list[str] = []
    for part in parts:
        if lines and Label(lines[-1] + _JOIN + part, 0, 0, size=PHONE_FONT_SIZE).width <= width:
            lines[-1] += _JOIN + part
        else:
            lines.append(part)
    return tuple(lines)


@dataclass(frozen=True)
class _PhoneLayout:
    """Where the phone layout puts the CUBE's boxes, computed from how many lines each holds."""

    cores: int
    l1_lines: tuple[str, ...]
    l0c_lines: tuple[str, ...]

    @property
    def labels_row(self) -> float:  # the MTE3 and MTE2: Q labels, between the VECTOR Cores and the CUBE
        return _phone_core_top(self.cores) + 6

    @property
    def cube_top(self) -> float:
        return self.labels_row + 10

    @property
    def l1_top(self) -> float:
        return self.cube_top + 28

    @property
    def l1_bottom(self) -> float:
        return self.l1_top + 12 + _PHONE_LINE * (1 + len(self.l1_lines))

    @property
    def l0_top(self) -> float:
        return self.l1_bottom + 12

    @property
    def unit_top(self) -> float:
        return self.l0_top + 2 * 32 + 4

    @property
    def l0c_top(self) -> float:
        return self.unit_top + 48 + 12

    @property
    def l0c_bottom(self) -> float:
        return self.l0c_top + 12 + _PHONE_LINE * (1 + len(self.l0c_lines))

    @property
    def cube_bottom(self) -> float:
        return self.l0c_bottom + 12 + 2 * _PHONE_LINE

    @property
    def height(self) -> float:
        return self.cube_bottom + 16


def _phone_layout(texts: _Texts) -> _PhoneLayout:
    inner = _PHONE_RIGHT - _PHONE_LEFT - 32
    return _PhoneLayout(len(texts.cores), _packed(texts.l1_fields, inner), _packed(texts.l0c_fields, inner))


def _phone_labels(texts: _Texts, layout: _PhoneLayout) -> tuple[Label, ...]:
    def label(text: str, x: float, y: float, **style: object) -> Label:
        return Label(text, x, y, size=PHONE_FONT_SIZE, **style)  # type: ignore[arg-type]

    left = _PHONE_LEFT + 8
    labels = [
        label(texts.hbm, 16, 28, bold=True),
        label(texts.l2[0].strip(), 16, 28 + _PHONE_LINE + 2),
        label(texts.l2[1], 16, 28 + 2 * _PHONE_LINE + 2),
        label(texts.ai_core, 14, 116, bold=True),
        label("MTE2", _PHONE_RIGHT, 116, anchor="end", colour=_MTE2),
    ]
    for core, core_texts in enumerate(texts.cores):
        top = _phone_core_top(core)
        labels += [
            label(core_texts.title, left, top + 20, bold=True),
            label(core_texts.unit, left + 8, top + 46),
            label(core_texts.ub, left + 8, top + 80, bold=True),
            *(
                label(text, left + 8, top + 80 + (row + 1) * _PHONE_LINE)
                for row, text in enumerate(core_texts.ub_fields)
            ),
        ]
    labels += [
        label(texts.mte3, left, layout.labels_row, colour=_MTE3),
        label(texts.mte2_q, _PHONE_RIGHT, layout.labels_row, anchor="end", colour=_MTE2),
        label(texts.cube_core, left, layout.cube_top + 20, bold=True),
        label(texts.l1, left + 8, layout.l1_top + 20, bold=True),
        *(
            label(text, left + 8, layout.l1_top + 20 + (row + 1) * _PHONE_LINE)
            for row, text in enumerate(layout.l1_lines)
        ),
        label(texts.l0a, left + 8, layout.l0_top + 19),
        label(texts.l0b, left + 8, layout.l0_top + 32 + 19),
        label(texts.cube, left + 8, layout.unit_top + 20, bold=True),
        label(texts.products, left + 8, layout.unit_top + 20 + _PHONE_LINE),
        label(texts.l0c, left + 8, layout.l0c_top + 20, bold=True),
        *(
            label(text, left + 8, layout.l0c_top + 20 + (row + 1) * _PHONE_LINE)
            for row, text in enumerate(layout.l0c_lines)
        ),
        label("FixPipe", left, layout.l0c_bottom + 24, colour=_FIXPIPE, bold=True),
        label(
            texts.fixpipe_moves,
            left + Label("FixPipe ", 0, 0, bold=True, size=PHONE_FONT_SIZE).width,
            layout.l0c_bottom + 24,
            colour=_FIXPIPE,
        ),
        label(texts.fixpipe_rate, left, layout.l0c_bottom + 24 + _PHONE_LINE, colour=_FIXPIPE),
    ]
    return tuple(labels)


def _phone_boxes(layout: _PhoneLayout) -> tuple[_Box, ...]:
    inner_left, inner_width = _PHONE_LEFT + 8, _PHONE_RIGHT - _PHONE_LEFT - 16
    boxes = [
        _Box(8, 8, PHONE_WIDTH - 16, 70, _MEMORY_FILL),
        _Box(4, 96, PHONE_WIDTH - 8, layout.height - 100, "none", dashed=True),
    ]
    for core in range(layout.cores):
        top = _phone_core_top(core)
        boxes += [
            _Box(_PHONE_LEFT, top, _PHONE_RIGHT - _PHONE_LEFT, 160, _VECTOR_FILL),
            _Box(inner_left, top + 28, inner_width - 40, 26, _UNIT_FILL),
            _Box(inner_left, top + 62, inner_width, 90, _MEMORY_FILL),
        ]
    boxes += [
        _Box(
            _PHONE_LEFT, layout.cube_top, _PHONE_RIGHT - _PHONE_LEFT, layout.cube_bottom - layout.cube_top, _CUBE_FILL
        ),
        _Box(inner_left, layout.l1_top, inner_width, layout.l1_bottom - layout.l1_top, _MEMORY_FILL),
        _Box(inner_left, layout.l0_top, inner_width, 26, _MEMORY_FILL),
        _Box(inner_left, layout.l0_top + 32, inner_width, 26, _MEMORY_FILL),
        _Box(inner_left, layout.unit_top, inner_width, 48, _UNIT_FILL),
        _Box(inner_left, layout.l0c_top, inner_width, layout.l0c_bottom - layout.l0c_top, _MEMORY_FILL),
    ]
    return tuple(boxes)


def _phone_arrows(layout: _PhoneLayout) -> tuple[_Arrow, ...]:
    inner_left, inner_right = _PHONE_LEFT + 8, _PHONE_RIGHT - 8
    l1_middle = (layout.l1_top + layout.l1_bottom) / 2
    l0c_middle = (layout.l0c_top + layout.l0c_bottom) / 2
    arrows = [_Arrow(((_PHONE_MTE2_LANE, 78), (_PHONE_MTE2_LANE, l1_middle), (inner_right, l1_middle)), _MTE2)]
    for core in range(layout.cores):
        ub_top = _phone_core_top(core) + 62
        arrows += [
            _Arrow(((_PHONE_MTE2_LANE, 78), (_PHONE_MTE2_LANE, ub_top + 30), (inner_right, ub_top + 30)), _MTE2),
            _Arrow(
                (
                    (inner_left, ub_top + 60),
                    (_PHONE_MTE3_LANE, ub_top + 60),
                    (_PHONE_MTE3_LANE, l1_middle + 8),
                    (inner_left, l1_middle + 8),
                ),
                _MTE3,
            ),
            _Arrow(
                (
                    (inner_left, l0c_middle),
                    (_PHONE_FIXPIPE_LANE, l0c_middle),
                    (_PHONE_FIXPIPE_LANE, ub_top + 14),
                    (inner_left, ub_top + 14),
                ),
                _FIXPIPE,
            ),
        ]
    return tuple(arrows)


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


def _svg(
    width: float,
    height: float,
    font_size: float,
    boxes: Sequence[_Box],
    arrows: Sequence[_Arrow],
    labels: Sequence[Label],
    marker: str,
) -> str:
    body = "".join(
        [
            f"<defs>{_markers(sorted({a.colour for a in arrows}), marker)}</defs>",
            *(_svg_box(box) for box in boxes),
            *(_svg_arrow(arrow, marker) for arrow in arrows),
            f'<g font-size="{font_size}">',
            *(svg_text(label) for label in labels),
            "</g>",
        ]
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
        f'height="{height:g}" font-family="{", ".join((*FONT_FAMILIES, "sans-serif"))}">{body}</svg>'
    )


def ai_core_phone_labels(
    spec: AscendSpec = ASCEND_950, config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh"
) -> tuple[Label, ...]:
    """Every text of the AI Core figure's phone layout, with its place (for its tests).

    The same texts as [`ai_core_labels`][], long ones broken into lines at their `` · ``.
    """
    spec = require_ascend("spec", spec)
    config = require_instance("config", config, KernelConfig)
    texts = _texts(spec, config, check_lang(lang))
    return _phone_labels(texts, _phone_layout(texts))


def ai_core_phone_size(config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh") -> tuple[float, float]:
    """Width and height of the phone layout, in SVG user units (its height grows with the VECTOR Cores)."""
    config = require_instance("config", config, KernelConfig)
    return PHONE_WIDTH, _phone_layout(_texts(ASCEND_950, config, check_lang(lang))).height


def render_ai_core_figure(
    spec: AscendSpec = ASCEND_950, config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh"
) -> str:
    """One AI Core: CUBE with L1 and L0A/L0B/L0C, the VECTOR Cores with their UBs, the copy paths, where data sits.

    Two drawings of it: side by side for a wide screen, stacked for a phone (the page shows the one that fits).
    """
    spec = require_ascend("spec", spec)
    config = require_instance("config", config, KernelConfig)
    texts = _texts(spec, config, check_lang(lang))
    wide = _svg(WIDTH, HEIGHT, FONT_SIZE, _boxes(config), _arrows(config), _wide_labels(texts), f"ai-core-arrow-{lang}")
    layout = _phone_layout(texts)
    narrow = _svg(
        PHONE_WIDTH,
        layout.height,
        PHONE_FONT_SIZE,
        _phone_boxes(layout),
        _phone_arrows(layout),
        _phone_labels(texts, layout),
        f"ai-core-phone-arrow-{lang}",
    )
    vector_cores = count_word(spec.ascend.vector_cores_per_ai_core, lang)
    title = pick(
        lang,
        f"一个 AI Core：CUBE、{vector_cores}个 VECTOR Core、各级缓冲与搬运通路，以及本算子的数据放在哪里",
        f"One AI Core: the CUBE, {vector_cores} VECTOR Cores, their buffers and copy paths, and where this kernel's "
        "data sits",
    )
    return wrap_svg(wide, title=title, narrow=narrow)


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
