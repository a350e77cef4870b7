"""The ND/NZ primer: one small KV tile drawn twice, each cell numbered by where it sits in memory.

The tile is one fractal tall (``fractal_rows`` tokens) and a few fractals across; a cell is one row of one fractal,
``fractal_cols`` bf16 values (32 B), the piece the CUBE's fractals and the ND2NZ stores are made of. On the left the
cells are numbered in ND order (row-major, the KV cache's order in global memory), on the right in NZ order (column
block after column block, ``models.nz_layout``). Each fractal has its own colour, so the eye sees a fractal's cells
numbered one after another in NZ and scattered in ND.
"""

from __future__ import annotations

from typing import Final

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.models.nz_layout import block_bytes, nd_offset_bytes, nz_offset_bytes
from ascend_dsa.render.svg import Label, hand_drawn_svg, svg_text
from ascend_dsa.report.scenarios import PRIMER_TILE_FRACTALS_ACROSS
from ascend_dsa.validate import require_instance

#: Font size of the labels, in SVG user units (the figure is drawn at its own width up to the column's).
FONT_SIZE: Final = 13
#: One cell: a fractal row of 32 B, drawn this wide and this tall.
CELL_W, CELL_H = 44.0, 20.0
#: Left edge of the first grid, the gap between the grids, and the top of the cells, in user units.
_LEFT, _GAP, _CELLS_TOP = 46.0, 88.0, 66.0
#: Light fills, one per fractal across the tile, dark text readable on each.
FRACTAL_FILLS: Final = ("#dbe7f4", "#fde2c7", "#d9eed6", "#f6d5d5", "#e6dcef", "#f3ead0")


def _tile(config: KernelConfig) -> tuple[int, int, int]:
    """Tokens, dims and column blocks of the primer's tile: one fractal tall, ``PRIMER_TILE_FRACTALS_ACROSS`` across."""
    across = PRIMER_TILE_FRACTALS_ACROSS
    return config.fractal_rows, across * config.fractal_cols, across


def _grid_lefts(config: KernelConfig) -> tuple[float, float]:
    """Left edges of the ND grid and the NZ grid."""
    return _LEFT, _LEFT + _tile(config)[2] * CELL_W + _GAP


def _size(config: KernelConfig) -> tuple[float, float]:
    """Width and height of the drawing, in user units: both grids, their headings and the two lines below."""
    tokens, _, across = _tile(config)
    return _grid_lefts(config)[1] + across * CELL_W + 12, _CELLS_TOP + tokens * CELL_H + 60


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
        labels.append(Label(head, left + across * CELL_W / 2, 18, "middle", bold=True, size=FONT_SIZE))
        labels += [
            Label(f"{c * fc}-{(c + 1) * fc - 1}", left + (c + 0.5) * CELL_W, _CELLS_TOP - 8, "middle", size=FONT_SIZE)
            for c in range(across)
        ]
        labels.append(Label(pick(lang, "维", "dims"), left + across * CELL_W / 2, 40, "middle", size=FONT_SIZE))
    labels += [
        Label(f"t{t}", left - 6, _CELLS_TOP + (t + 0.5) * CELL_H + 4.5, "end", size=FONT_SIZE)
        for left in lefts
        for t in range(tokens)
    ]
    for token, column, nd, nz in fractal_cells(config):
        for grid, number in enumerate((nd, nz)):
            x = lefts[grid] + (column + 0.5) * CELL_W
            labels.append(Label(f"{number}", x, _CELLS_TOP + (token + 0.5) * CELL_H + 4.5, "middle", size=FONT_SIZE))
    bottom = _CELLS_TOP + tokens * CELL_H
    fractal_bytes = config.fractal_rows * piece
    captions = (
        pick(
            lang, f"一个分形：{tokens} 段，段距 {token_stride} B", f"a fractal: {tokens} pieces, {token_stride} B apart"
        ),
        pick(lang, f"一个分形：连续的 {fractal_bytes} B", f"a fractal: one run of {fractal_bytes} B"),
    )
    labels += [
        Label(caption, left + across * CELL_W / 2, bottom + 22, "middle", size=FONT_SIZE)
        for left, caption in zip(lefts, captions, strict=True)
    ]
    labels.append(
        Label(
            pick(
                lang,
                f"格子里的数：它在内存中是第几个 {piece} B（{fc} 个 bf16）",
                f"In each cell: its place in memory, in {piece} B pieces ({fc} bf16)",
            ),
            8,
            bottom + 48,
            size=FONT_SIZE,
        )
    )
    return tuple(labels)


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
    width, height = _size(config)
    return hand_drawn_svg(body, width=width, height=height, title=title)
