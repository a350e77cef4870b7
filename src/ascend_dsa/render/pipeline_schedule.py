"""The simulated pipeline as plain text for the command line: each block's work on each unit, and the steady state.

The standard library only (no matplotlib), so that ``ascend-dsa pipeline`` runs where the closed-form models do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.kernel_config import MMA_M_GRANULE_ROWS
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.pipeline import Unit, bounding_unit, steady_busy_share
from ascend_dsa.render.format import display_width, pad_to, whole_or

if TYPE_CHECKING:
    from ascend_dsa.facts.kernel_config import KernelConfig
    from ascend_dsa.models.pipeline import Op, Timeline

#: The units in the order the rows list them: the CUBE Core's first, then the VECTOR side's.
UNIT_ORDER: Final = (Unit.CUBE, Unit.FIXPIPE, Unit.VECTOR, Unit.MTE2, Unit.MTE3)


def op_waits(timeline: Timeline) -> dict[Op, float]:
    """Each op's wait: the cycles its unit stood idle just before it (0 when the unit went straight on to it)."""
    waits: dict[Op, float] = {}
    free = dict.fromkeys(Unit, 0.0)
    for op in sorted(timeline.ops, key=lambda o: (o.start, o.end)):
        waits[op] = op.start - free[op.unit]
        free[op.unit] = op.end
    return waits


def pipeline_schedule_text(timeline: Timeline, *, lang: Lang = "en") -> str:
    """Per block and per unit: its tasks, first start, last end and waits in cycles; then the steady period."""
    waits = op_waits(timeline)
    rows: dict[tuple[int, Unit], list[Op]] = {}
    for op in timeline.ops:
        rows.setdefault((op.block, op.unit), []).append(op)
    headers = [
        term("column:block", lang),
        term("column:unit", lang),
        pick(lang, "开始", "start"),
        pick(lang, "结束", "end"),
        pick(lang, "等待", "wait"),
        pick(lang, "任务", "tasks"),
    ]
    lines = [
        pick(
            lang,
            f"# 流水线模型：{timeline.blocks} 个块的一个 job，单位是周期；等待 = 单元在该块的任务前空闲的周期",
            f"# pipeline model: one job of {timeline.blocks} blocks, in cycles; wait = cycles the unit idled before "
            "the block's tasks",
        ),
        "  ".join(_cell(h, w, i) for i, (h, w) in enumerate(zip(headers, _WIDTHS, strict=True))).rstrip(),
    ]
    for block, unit in sorted(rows, key=lambda key: (key[0], UNIT_ORDER.index(key[1]))):
        ops = rows[(block, unit)]
        cells = [
            str(block),
            unit.value,
            whole_or(min(o.start for o in ops), 1),
            whole_or(max(o.end for o in ops), 1),
            whole_or(sum(waits[o] for o in ops), 1),
            ", ".join(o.task.value for o in ops),
        ]
        lines.append("  ".join(_cell(c, w, i) for i, (c, w) in enumerate(zip(cells, _WIDTHS, strict=True))).rstrip())
    lines += _steady_lines(timeline, lang)
    return "\n".join(lines)


def rows_line(config: KernelConfig, *, lang: Lang = "en") -> str:
    """What the heads change: the MMA rows they fill, padded to a granule (config.h:28), and the useful share.

    Every unit's work in the model scales with the rows, not the heads, so head counts that pad to the same rows
    (17 to 32, say) give the same cycles; only the share of the CUBE's work that is useful changes.
    """
    heads, rows = config.heads_per_core, config.mma_m
    low = rows - MMA_M_GRANULE_ROWS + 1
    return pick(
        lang,
        f"# 每个 AI Core {heads} 个 head 占 MMA_M = {rows} 行（向上取整到 {MMA_M_GRANULE_ROWS} 的倍数，config.h:28）；"
        f"各单元的工作随行数而变，{low} 到 {rows} 个 head 的周期都相同；CUBE 的工作中有用的占 {heads / rows:.1%}",
        f"# {heads} heads per AI Core fill MMA_M = {rows} rows (rounded up to a multiple of {MMA_M_GRANULE_ROWS}, "
        f"config.h:28); every unit's work follows the rows, so {low} to {rows} heads take the same cycles; "
        f"{heads / rows:.1%} of the CUBE's work is useful",
    )


#: Columns of each cell: block, unit, start, end, wait, tasks.
_WIDTHS: Final = (5, 7, 10, 10, 8, 0)
#: Cells aligned to the right: the numbers.
_RIGHT: Final = frozenset({0, 2, 3, 4})


def _cell(text: str, width: int, index: int) -> str:
    return " " * max(0, width - display_width(text)) + text if index in _RIGHT else pad_to(text, width)


def _steady_lines(timeline: Timeline, lang: Lang) -> list[str]:
    """The steady period, each unit's busy share of it, and the unit that bounds it (or the latency that does)."""
    shares = steady_busy_share(timeline)
    bound = bounding_unit(timeline)
    window = timeline.steady_blocks
    busy = ", ".join(f"{u.value} {shares[u]:.1%}" for u in UNIT_ORDER)
    bound_text = (
        pick(lang, f"{bound.value}（稳态中从不空闲）", f"{bound.value} (never idle in the steady state)")
        if bound is not None
        else pick(
            lang,
            "没有单元忙满：周期由单元之间的交接（延迟）决定",
            "no unit is busy all the time: the hand-offs between units (latency) set the period",
        )
    )
    return [
        pick(
            lang,
            f"稳态（从 QK[{window.start}] 到 QK[{window.stop}]）：每块 {whole_or(timeline.cycles_per_block, 1)} 周期，"
            f"CUBE 利用率 {timeline.cube_utilisation:.1%}",
            f"steady state (QK[{window.start}] to QK[{window.stop}]): {whole_or(timeline.cycles_per_block, 1)} "
            f"cycles per block, CUBE use {timeline.cube_utilisation:.1%}",
        ),
        pick(lang, f"各单元在稳态中忙的比例：{busy}", f"busy share of the steady period: {busy}"),
        pick(lang, f"决定周期的单元：{bound_text}", f"bounded by: {bound_text}"),
    ]
