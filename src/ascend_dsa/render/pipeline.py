"""The pipeline model on the page: the schedule, the simulated numbers, the sensitivity table and a Gantt chart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from matplotlib.patches import Patch

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.provenance import WHAT_IF_OVERRIDE
from ascend_dsa.facts.report_figures import published_number
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.pipeline import (
    P_READY_TO_USED_SOURCE,
    TASK_UNIT,
    VECTOR_SCHEDULE,
    Task,
    Timeline,
    Unit,
    cube_wait_bounds,
    simulate,
    stage_costs,
)
from ascend_dsa.render.markdown import NO_VALUE, citation, kind_name, number, table
from ascend_dsa.render.svg import figure, to_svg_with_legend_below
from ascend_dsa.report.checks import check_p_ready_to_used
from ascend_dsa.report.scenarios import SIMULATED_BLOCKS
from ascend_dsa.validate import require_int

if TYPE_CHECKING:
    from ascend_dsa.facts.hardware import AscendSpec
    from ascend_dsa.facts.provenance import Source

_TASK_COLOURS: Final = {
    Task.INDEX_FETCH: "#bab0ac",
    Task.PROCESS_INDEX: "#79706e",
    Task.GATHER: "#9c755f",
    Task.ND2NZ: "#edc948",
    Task.KV_TO_L1: "#b6992d",
    Task.QK: "#4e79a7",
    Task.P_OUT: "#76b7b2",
    Task.SOFTMAX: "#59a14f",
    Task.S_TO_L1: "#8cd17d",
    Task.O_OUT: "#e15759",
    Task.SCALE_O: "#ff9d9a",
    Task.SV: "#f28e2b",
}
#: Bars shorter than this share of the window get no block number (it would not fit at the figure's text size).
_MIN_LABELLED_SHARE: Final = 0.06
#: Gap between the frame and the label of a bar it cuts, in cycles (the axis spans a few thousand).
_FRAME_PAD_CYCLES: Final = 15


def task_name(task: Task, lang: Lang) -> str:
    """A task's name in the page's language."""
    return term(f"task:{task.value}", lang)


def render_pipeline_schedule(*, lang: Lang = "zh") -> str:
    """The VECTOR side's seven steps: offset, tasks and source (report (zh) lines 188-200)."""
    rows = []
    for a in VECTOR_SCHEDULE:
        tasks = " + ".join(task_name(t, lang) for t in a.tasks) or pick(
            lang, "写 SS buffer（标量）", "SS buffer (scalar)"
        )
        units = " + ".join(sorted({TASK_UNIT[t].value for t in a.tasks})) or "scalar"
        rows.append([a.order, f"i+{a.offset}" if a.offset else "i", tasks, units, citation(a.source, lang)])
    headers = [
        term("column:step", lang),
        term("column:block", lang),
        pick(lang, "做什么", "work"),
        term("column:unit", lang),
        term("column:source", lang),
    ]
    return table(headers, rows, ("right", "left", "left", "left", "left"))


def shipped_timeline(spec: AscendSpec = ASCEND_950, blocks: int = SIMULATED_BLOCKS) -> Timeline:
    """The shipped kernel's job of ``blocks`` blocks, no rescale, with the preset's costs."""
    return simulate(stage_costs(spec, SHIPPED_KERNEL), SHIPPED_KERNEL, blocks)


def _checked(timeline: Timeline) -> Timeline:
    check_p_ready_to_used(timeline.steady(timeline.p_ready_to_used))
    wrong = [d for d in timeline.buffer_depths if d.implied != d.shipped]
    if wrong:
        listed = "; ".join(f"{d.name}: offsets imply {d.implied}, kernel has {d.shipped}" for d in wrong)
        raise FigureMismatch(f"buffer depths implied by the schedule differ from the kernel's: {listed}")
    return timeline


def how_obtained(source: Source, lang: Lang) -> str:
    """How a task's cost per block is obtained, in the page's language, with its citation on a Chinese page."""
    if source.parts == (WHAT_IF_OVERRIDE,):
        return pick(lang, source.cite(lang), source.how(lang))
    return pick(lang, f"{source.how(lang)}（{source.cite(lang)}）", source.how(lang))


def render_pipeline_costs(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """Cycles per block of each task, and where each number comes from."""
    costs = stage_costs(spec, SHIPPED_KERNEL)
    rows = []
    for task in Task:
        source = costs.sources[task]
        kind = kind_name(source, lang)
        rows.append(
            [
                task_name(task, lang),
                TASK_UNIT[task].value,
                number(costs.cycles[task], f"{costs.cycles[task]:.0f}", "cycles/block"),
                kind,
                how_obtained(source, lang),
            ]
        )
    headers = [
        pick(lang, "任务", "task"),
        term("column:unit", lang),
        pick(lang, "周期/块", "cycles/block"),
        term("column:kind", lang),
        pick(lang, "怎么来的", "how"),
    ]
    return table(headers, rows, ("left", "left", "right", "left", "left"))


def render_pipeline_summary(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """The simulated steady state: CUBE use, the P-ready-to-used window (checked), the margin, buffer depths."""
    timeline = _checked(shipped_timeline(spec))
    window = timeline.steady(timeline.p_ready_to_used)
    spare = timeline.steady(timeline.spare)
    path = timeline.costs.vector_path_cycles
    reported = published_number("softmax-slack-cycles")
    steady = timeline.steady_blocks
    tail = timeline.blocks - steady.stop  # blocks at the job's end the steady state leaves out
    rows = [
        [
            pick(lang, "稳态 CUBE 利用率", "steady-state CUBE use"),
            number(100 * timeline.cube_utilisation, f"{timeline.cube_utilisation:.1%}", "%"),
            NO_VALUE,
        ],
        [
            pick(lang, "稳态每块周期数", "steady-state cycles per block"),
            number(timeline.cycles_per_block, f"{timeline.cycles_per_block:.0f}", "cycles"),
            NO_VALUE,
        ],
        [
            pick(lang, "P[i] 就绪到被使用（SV[i-1] + QK[i+1]）", "P[i] ready to used (SV[i-1] + QK[i+1])"),
            number(window, f"{window:.0f}", "cycles"),
            pick(
                lang,
                f"约 {reported:g}（{citation(P_READY_TO_USED_SOURCE, lang)}）",
                f"about {reported:g} ({P_READY_TO_USED_SOURCE.citation})",
            ),
        ],
        [
            pick(
                lang,
                "其中 VECTOR 路径（搬 P + softmax + 拷 S）",
                "of which the VECTOR path (P out + softmax + S to L1)",
            ),
            number(path, f"{path:.0f}", "cycles"),
            NO_VALUE,
        ],
        [
            pick(lang, "S[i] 到达 L1 后还剩的余量", "margin left after S[i] reaches L1"),
            number(spare, f"{spare:.0f}", "cycles"),
            NO_VALUE,
        ],
    ]
    rows += [
        [
            pick(lang, f"缓冲深度：{d.name}", f"buffer depth: {d.name}"),
            d.implied,
            pick(lang, f"内核 {d.shipped}", f"kernel {d.shipped}"),
        ]
        for d in timeline.buffer_depths
    ]
    headers = [term("column:quantity", lang), pick(lang, "模型", "model"), pick(lang, "对照", "reference")]
    caption = pick(
        lang,
        f"{timeline.blocks} 个块的一个 job；稳态取第 {steady.start} 块之后、倒数第 {tail} 块之前。",
        f"One job of {timeline.blocks} blocks; the steady state is taken after block {steady.start} and before the last"
        " two.",
    )
    return table(headers, rows, ("left", "right", "left")) + "\n\n" + caption + "\n"


def render_pipeline_sensitivity(spec: AscendSpec = ASCEND_950, *, lang: Lang = "zh") -> str:
    """How a slower softmax, a slower FixPipe or frequent rescales eat the margin and then the CUBE's time."""
    one_v = SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=1)
    base = stage_costs(spec, SHIPPED_KERNEL)
    blocks = SIMULATED_BLOCKS
    every = range(1, blocks)
    softmax = base.cycles[Task.SOFTMAX]
    scenarios = [
        (pick(lang, "内核原样（1C2V，不 rescale）", "as shipped (1C2V, no rescale)"), base, SHIPPED_KERNEL, ()),
        *[
            (
                pick(lang, f"softmax 慢 {f} 倍", f"softmax {f}x slower"),
                base.with_cycles(softmax=softmax * f),
                SHIPPED_KERNEL,
                (),
            )
            for f in (2, 4, 6, 8)
        ],
        (
            pick(lang, "每块都 rescale（O 每块搬出）", "rescale every block (O leaves every block)"),
            base,
            SHIPPED_KERNEL,
            every,
        ),
        (pick(lang, "1C1V，不 rescale", "1C1V, no rescale"), stage_costs(spec, one_v), one_v, ()),
        (pick(lang, "1C1V，每块都 rescale", "1C1V, rescale every block"), stage_costs(spec, one_v), one_v, every),
    ]
    rows = []
    for label, costs, config, rescale in scenarios:
        t = simulate(costs, config, blocks, rescale)
        bounds = cube_wait_bounds(costs, config, rescale_every_block=bool(rescale))
        rows.append(
            [
                label,
                *(
                    number(cycles, f"{cycles:.0f}", "cycles")
                    for cycles in (
                        costs.cycles[Task.SOFTMAX],
                        costs.cycles[Task.P_OUT],
                        costs.vector_path_cycles,
                        bounds.unit_cycles[Unit.VECTOR],
                        t.steady(t.spare),
                        t.cycles_per_block,
                    )
                ),
                number(100 * t.cube_utilisation, f"{t.cube_utilisation:.1%}", "%"),
            ]
        )
    headers = [
        term("column:scenario", lang),
        "softmax",
        pick(lang, "搬 P", "P out"),
        pick(lang, "VECTOR 路径", "VECTOR path"),
        pick(lang, "VECTOR 每块工作", "VECTOR work"),
        pick(lang, "余量", "margin"),
        pick(lang, "每块周期", "cycles per block"),
        pick(lang, "CUBE 利用率", "CUBE use"),
    ]
    return table(headers, rows, ("left", "right", "right", "right", "right", "right", "right", "right"))


def render_pipeline_gantt(
    spec: AscendSpec = ASCEND_950, first_block: int = 8, last_block: int = 12, *, lang: Lang = "zh"
) -> str:
    """A Gantt chart of the steady state: one row per unit, bars labelled with their block (inline SVG).

    The window runs from QK of ``first_block`` to QK of ``last_block``, which must leave block ``first_block + 1``
    (whose P the arrow follows) inside it.
    """
    timeline = _checked(shipped_timeline(spec))
    first_block = require_int("first_block", first_block, minimum=0, maximum=timeline.blocks - 3)
    last_block = require_int("last_block", last_block, minimum=first_block + 2, maximum=timeline.blocks - 1)
    start = timeline.op(Task.QK, first_block).start
    end = timeline.op(Task.QK, last_block).start
    rows = [Unit.MTE2, Unit.VECTOR, Unit.MTE3, Unit.FIXPIPE, Unit.CUBE]
    with figure(4.6, 3.4) as fig:
        ax = fig.add_subplot()
        shown = set()
        for op in timeline.ops:
            if op.end <= start or op.start >= end or op.end == op.start:
                continue
            y = rows.index(op.unit)
            left, right = max(op.start, start), min(op.end, end)
            ax.barh(y, right - left, left=left - start, color=_TASK_COLOURS[op.task], edgecolor="white", height=0.7)
            shown.add(op.task)
            if right - left >= _MIN_LABELLED_SHARE * (end - start):
                # A bar cut by the frame has its label against the frame's inside edge, so no label overhangs it.
                x, align = (left + right) / 2 - start, "center"
                if left == start:
                    x, align = left - start + _FRAME_PAD_CYCLES, "left"
                elif right == end:
                    x, align = right - start - _FRAME_PAD_CYCLES, "right"
                ax.text(x, y, str(op.block), ha=align, va="center")
        qk = timeline.op(Task.QK, first_block + 1)
        sv = timeline.op(Task.SV, first_block + 1)
        ax.annotate(
            "",
            xy=(sv.start - start, 4.55),
            xytext=(qk.end - start, 4.55),
            arrowprops={"arrowstyle": "<->", "color": "black", "linewidth": 0.8},
        )
        ax.text(
            (qk.end + sv.start) / 2 - start,
            4.75,
            pick(
                lang,
                f"P[{first_block + 1}] 就绪 → 被使用：{sv.start - qk.end:.0f} 周期",
                f"P[{first_block + 1}] ready → used: {sv.start - qk.end:.0f} cycles",
            ),
            ha="center",
            va="bottom",
        )
        ax.set_yticks(range(len(rows)), [u.value for u in rows])
        ax.set_ylim(-0.6, 5.3)
        ax.set_xlim(0, end - start)
        ax.set_xlabel(
            pick(
                lang,
                f"周期（从 QK[{first_block}] 开始算）；条上的数字是块号",
                f"cycles (from the start of QK[{first_block}]); numbers are block indices",
            )
        )
        handles = [Patch(color=_TASK_COLOURS[t], label=task_name(t, lang)) for t in Task if t in shown]
        title = pick(
            lang,
            "稳态下的流水线：每行一个硬件单元，条是它做的任务",
            "The pipeline in its steady state: one row per hardware unit, bars are its tasks",
        )
        return to_svg_with_legend_below(fig, ax, title=title, drop=0.3, columns=3, handles=handles)
