"""The pipeline model's validation boundary on the pipeline page: what it includes and leaves out, how to measure.

The entries and steps are data in ``report.validation_boundary``; this module lays them out. The ``--compare``
example is computed when the page is built: the shipped job's own trace, written and read back as the command line
does, compared with the model that wrote it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.models.pipeline import simulate, stage_costs
from ascend_dsa.render.markdown import table
from ascend_dsa.render.trace import pipeline_trace, trace_json
from ascend_dsa.render.trace_compare import (
    MAX_TRACE_BYTES,
    MeasuredTrace,
    TraceComparison,
    compare_trace,
    comparison_text,
    read_measurement,
)
from ascend_dsa.report.scenarios import SIMULATED_BLOCKS
from ascend_dsa.report.validation_boundary import (
    COLLECTION_STEPS,
    DIRECTION_WORDS,
    VALIDATION_BOUNDARY,
    BoundaryEntry,
)

if TYPE_CHECKING:
    from collections.abc import Sequence


def _where(entry: BoundaryEntry) -> str:
    return f"`{entry.anchor.where()}`"


def render_validation_boundary(*, lang: Lang = "zh") -> str:
    """Two tables: what the pipeline model includes, and what it leaves out with the direction of its error."""
    check_lang(lang)
    return boundary_tables(VALIDATION_BOUNDARY, lang)


def boundary_tables(entries: Sequence[BoundaryEntry], lang: Lang) -> str:
    """The entries' two tables (included, left out), each row citing the file and line of its simplification."""
    what, model, where = pick(lang, "什么", "what"), pick(lang, "模型怎么做", "the model"), pick(lang, "代码", "code")
    included = [[e.title.in_(lang), e.model.in_(lang), _where(e)] for e in entries if e.included]
    omitted = [
        [e.title.in_(lang), e.model.in_(lang), DIRECTION_WORDS[e.direction].in_(lang), e.why.in_(lang), _where(e)]
        for e in entries
        if e.direction is not None and e.why is not None
    ]
    return (
        pick(lang, "**模型包含的**\n\n", "**What the model includes**\n\n")
        + table([what, model, where], included)
        + pick(
            lang,
            "\n\n**模型没有的，与它让误差偏向哪边**（乐观：模型比芯片快，它的上限偏高；悲观：反之）\n\n",
            "\n\n**What it leaves out, and which way that errs** (optimistic: the model is faster than the chip, "
            "so its bound is too high; pessimistic: the reverse)\n\n",
        )
        + table([what, model, pick(lang, "误差方向", "error"), pick(lang, "为什么", "why"), where], omitted)
        + "\n"
    )


def render_trace_collection(*, lang: Lang = "zh") -> str:
    """The steps from a built kernel to ``ascend-dsa pipeline --compare``, each with its command and its document."""
    check_lang(lang)
    parts = []
    for number, step in enumerate(COLLECTION_STEPS, start=1):
        links = ", ".join(f"[{d.title}]({d.url})" for d in step.documents)
        source = pick(lang, f"（出处：{links}）", f" (from {links})")
        item = f"{number}. {step.what.in_(lang)}{source}"
        if step.command:
            item += f"\n\n    ```sh\n    {step.command}\n    ```"
        parts.append(item)
    return "\n\n".join(parts) + "\n"


def self_comparison() -> TraceComparison:
    """The shipped job's trace, written and read back as ``--trace`` and ``--compare`` do, against its own model."""
    config = SHIPPED_KERNEL
    timeline = simulate(stage_costs(ASCEND_950, config), config, SIMULATED_BLOCKS)
    trace = pipeline_trace(timeline, ASCEND_950, vector_cores=config.vector_cores_per_cube, inputs={}, version="")
    measured = read_measurement(trace_json(trace).encode(), max_bytes=MAX_TRACE_BYTES)
    if not isinstance(measured, MeasuredTrace):
        raise TypeError("our own --trace output must read back as a trace, not as an op summary")
    return compare_trace(timeline, measured, ASCEND_950.clock_hz)


def render_compare_example(*, lang: Lang = "zh") -> str:
    """The commands and what ``--compare`` prints for our own trace, checked to be a zero residual on every lane."""
    check_lang(lang)
    comparison = self_comparison()
    off = [
        row.lane
        for row in (*comparison.lanes, *comparison.overlaps)
        if row.residual_percent is not None and round(row.residual_percent, 1) != 0
    ]
    if off:
        raise ValueError(f"our own trace must compare at a zero residual, but these lanes differ: {', '.join(off)}")
    commands = "ascend-dsa pipeline --trace t.json\nascend-dsa pipeline --compare t.json"
    return (
        pick(lang, "命令：\n\n", "The commands:\n\n")
        + f"```sh\n{commands}\n```\n\n"
        + pick(lang, "第二条命令打印：\n\n", "The second prints:\n\n")
        + f"```text\n{comparison_text(comparison)}\n```\n"
    )
