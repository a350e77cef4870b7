"""The ND/NZ primer: one small KV tile drawn twice, each cell numbered by where it sits in memory.

The tile is one fractal tall (``fractal_rows`` tokens) and a few fractals across; a cell is one row of one fractal,
``fractal_cols`` bf16 values (32 B), the piece the CUBE's fractals and the ND2NZ stores are made of. On the left the
cells are numbered in ND order (row-major, the KV cache's order in global memory), on the right in NZ order (column
block after column block, ``models.nz_layout``). Each fractal has its own colour, so the eye sees a fractal's cells
numbered one after another in NZ and scattered in ND.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Final

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.models.nz_layout import block_bytes, nd_offset_bytes, nz_offset_bytes
from ascend_dsa.render.svg import Label, hand_drawn_svg, labels_overlap, min_text_units, svg_text
from ascend_dsa.report.scenarios import PRIMER_TILE_FRACTALS_ACROSS
from ascend_dsa.validate import require_instance

#: One cell: a fractal row of 32 B, drawn this wide and this tall (a row of text: a CJK line box is ~1.45 em tall).
CELL_W, CELL_H = 46.0, 24.0
#: Left edge of the first grid (the token names sit left of it), the gap between the grids, and the right margin.
_LEFT, _GAP, _RIGHT = 46.0, 60.0, 12.0
#: Width of the drawing, in SVG user units: both grids of the tile, as many fractals across as the primer draws.
WIDTH: Final = _LEFT + 2 * PRIMER_TILE_FRACTALS_ACROSS * CELL_W + _GAP + _RIGHT
#: Font size of the labels, in user units: the smallest that reads at 11 px in the 1280 px layout and at 10 px on a
#: phone once the drawing is scaled to the column (render/svg.py `READING_VIEWS`).
FONT_SIZE: Final = math.ceil(min_text_units(WIDTH))
#: Baseline to baseline of stacked rows of text, and room left of the drawing's texts, in user units.
_LINE: Final = math.ceil(1.5 * FONT_SIZE)
_MARGIN: Final = 8.0
#: Baselines of the grids' headings, of their "dims" line and of their column names; then the top of the cells.
_HEAD_Y: Final = FONT_SIZE + 5.0
_DIMS_Y, _COLUMNS_Y = _HEAD_Y + _LINE, _HEAD_Y + 2 * _LINE
_CELLS_TOP: Final = _COLUMNS_Y + 10.0
#: From a cell's top to the baseline of the text centred in it.
_CELL_BASELINE: Final = CELL_H / 2 + 0.35 * FONT_SIZE
#: Light fills, one per fractal across the tile, dark text readable on each.
FRACTAL_FILLS: Final = ("#dbe7f4", "#fde2c7", "#d9eed6", "#f6d5d5", "#e6dcef", "#f3ead0")


def _tile(config: KernelConfig) -> tuple[int, int, int]:
    """Tokens, dims and column blocks of the primer's tile: one fractal tall, ``PRIMER_TILE_FRACTALS_ACROSS`` across."""
    across = PRIMER_TILE_FRACTALS_ACROSS
    return config.fractal_rows, across * config.fractal_cols, across


def _grid_lefts(config: KernelConfig) -> tuple[float, float]:
    """Left edges of the ND grid and the NZ grid."""
    return _LEFT, _LEFT + _tile(config)[2] * CELL_W + _GAP


def _height(labels: tuple[Label, ...]) -> float:
    """Height of the drawing, in user units: down to the bottom of its lowest text, and a margin."""
    return math.ceil(max(label.box[3] for label in labels) + _MARGIN)


def fractal_cells(config: KernelConfig = SHIPPED_KERNEL) -> tuple[tuple[int, int, int, int], ...]:
    """Every cell of the tile as ``(token, column block, ND position, NZ position)``, positions in 32 B pieces.

    A position is the cell's byte offset over one fractal row's bytes: [`ascend_dsa.models.nz_layout.nd_offset_bytes`][]
    and [`ascend_dsa.models.nz_layout.nz_offset_bytes`][] of its first value.
    """
    config = require_instance("config", config, KernelConfig)
    tokens, dims, across = _tile(config)
    piece = block_bytes(config)
    return tuple(
        (
            token,
            column,
            nd_offset_bytes(token, column * config.fractal_cols, dims=dims) // piece,
            nz_offset_bytes(token, column * config.fractal_cols, tokens, config=config, dims=dims) // piece,
        )
        for token in range(tokens)
        for column in range(across)
    )


def fractal_labels(config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh") -> tuple[Label, ...]:
    """Every text of the figure, computed from ``config`` (for the figure and its tests)."""
    config, lang = require_instance("config", config, KernelConfig), check_lang(lang)
    return _labels(config, lang)


def _labels(config: KernelConfig, lang: Lang) -> tuple[Label, ...]:
    tokens, dims, across = _tile(config)
    piece, fc, lefts = block_bytes(config), config.fractal_cols, _grid_lefts(config)
    token_stride = nd_offset_bytes(1, 0, dims=dims)
    heads = (
        pick(lang, "ND：一个 token 接一个 token", "ND: token after token"),
        pick(lang, "NZ：一个分形接一个分形", "NZ: fractal after fractal"),
    )
    labels: list[Label] = []
    for grid, head in enumerate(heads):
        left = lefts[grid]
        labels.append(_inside(Label(head, left + across * CELL_W / 2, _HEAD_Y, "middle", bold=True, size=FONT_SIZE)))
        labels += [
            Label(f"{c * fc}-{(c + 1) * fc - 1}", left + (c + 0.5) * CELL_W, _COLUMNS_Y, "middle", size=FONT_SIZE)
            for c in range(across)
        ]
        labels.append(Label(pick(lang, "维", "dims"), left + across * CELL_W / 2, _DIMS_Y, "middle", size=FONT_SIZE))
    labels += [
        Label(f"t{t}", left - 6, _CELLS_TOP + t * CELL_H + _CELL_BASELINE, "end", size=FONT_SIZE)
        for left in lefts
        for t in range(tokens)
    ]
    for token, column, nd, nz in fractal_cells(config):
        for grid, number in enumerate((nd, nz)):
            x = lefts[grid] + (column + 0.5) * CELL_W
            labels.append(Label(f"{number}", x, _CELLS_TOP + token * CELL_H + _CELL_BASELINE, "middle", size=FONT_SIZE))
    bottom = _CELLS_TOP + tokens * CELL_H
    fractal_bytes = config.fractal_rows * piece
    captions = (
        pick(
            lang, f"一个分形：{tokens} 段，段距 {token_stride} B", f"a fractal: {tokens} pieces, {token_stride} B apart"
        ),
        pick(lang, f"一个分形：连续的 {fractal_bytes} B", f"a fractal: one run of {fractal_bytes} B"),
    )
    y = bottom + _LINE
    placed: list[Label] = []
    for left, caption in zip(lefts, captions, strict=True):  # under its grid; a row lower when the first is in the way
        label = _inside(Label(caption, left + across * CELL_W / 2, y, "middle", size=FONT_SIZE))
        if labels_overlap([*placed, label]):
            y += _LINE
            label = replace(label, y=y)
        placed.append(label)
    lines = pick(
        lang,
        f"格子里的数：它在内存中是第几个 {piece} B（{fc} 个 bf16）",
        f"In each cell: its place in memory,\ncounted in {piece} B pieces ({fc} bf16)",
    ).split("\n")
    labels += placed
    labels += [Label(line, _MARGIN, y + (row + 1) * _LINE + 4, size=FONT_SIZE) for row, line in enumerate(lines)]
    return tuple(labels)


def _inside(label: Label) -> Label:
    """``label`` moved to start or end at the drawing's margin when it would reach past it."""
    if label.box[0] < _MARGIN:
        return replace(label, x=_MARGIN, anchor="start")
    if label.box[2] > WIDTH - _MARGIN:
        return replace(label, x=WIDTH - _MARGIN, anchor="end")
    return label


def render_fractal_cells(config: KernelConfig = SHIPPED_KERNEL, *, lang: Lang = "zh") -> str:
    """The primer's tile in ND and in NZ, each 32 B cell numbered by its place in memory (inline SVG)."""
    config, lang = require_instance("config", config, KernelConfig), check_lang(lang)
    tokens, _, across = _tile(config)
    rects, lefts = [], _grid_lefts(config)
    for grid in range(2):
        for token in range(tokens):
            for column in range(across):
                x, y = lefts[grid] + column * CELL_W, _CELLS_TOP + token * CELL_H
                fill = FRACTAL_FILLS[column % len(FRACTAL_FILLS)]
                rects.append(
                    f'<rect x="{x:g}" y="{y:g}" width="{CELL_W:g}" height="{CELL_H:g}" fill="{fill}" stroke="#888"/>'
                )
    labels = _labels(config, lang)
    body = "".join([*rects, f'<g font-size="{FONT_SIZE}">', *(svg_text(label) for label in labels), "</g>"])
    title = pick(
        lang,
        f"同一块 {tokens} 个 token × {across * config.fractal_cols} 维的 bf16 数据按 ND 与按 NZ 排，"
        "每格标出它在内存中的位置",
        f"One tile of {tokens} tokens × {across * config.fractal_cols} bf16 dims, laid out ND and NZ: each cell "
        "numbered by its place in memory",
    )
    return hand_drawn_svg(body, width=WIDTH, height=_height(labels), title=title)
