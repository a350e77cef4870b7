"""``ascend-dsa pipeline``: the modelled schedule of one job, block by block and unit by unit, optionally as a trace."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from ascend_dsa.cli.exit_status import ExitStatus, error_message, fail
from ascend_dsa.cli.options import (
    BLOCKS,
    KV_TOKENS,
    Within,
    add_hardware_options,
    add_instantiation_options,
    hardware_of,
    positive_int,
)
from ascend_dsa.cli.svg_output import cannot_write
from ascend_dsa.cli.version import package_version
from ascend_dsa.errors import BadTrace, OutsideModel
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, TOKENS_RANGE
from ascend_dsa.facts.kv_formats import KvFormat, Mode, default_main_cache
from ascend_dsa.lang import Text
from ascend_dsa.models.pipeline import SIMULATED_BLOCKS_RANGE, simulate, stage_costs
from ascend_dsa.render.pipeline_schedule import pipeline_schedule_text, rows_line
from ascend_dsa.render.pipeline_timeline import pipeline_timeline_svg
from ascend_dsa.render.trace import pipeline_trace, trace_json
from ascend_dsa.render.trace_compare import (
    MAX_TRACE_BYTES,
    MeasuredTasks,
    MeasuredTrace,
    compare_tasks,
    compare_trace,
    comparison_text,
    read_measurement,
    tasks_text,
)
from ascend_dsa.report.scenarios import SIMULATED_BLOCKS

if TYPE_CHECKING:
    import argparse

    from ascend_dsa.facts.hardware import AscendSpec
    from ascend_dsa.lang import Lang
    from ascend_dsa.models.pipeline import Timeline

NAME = "pipeline"
HELP = (
    "The modelled pipeline of one job (models/pipeline.py), per block and per unit: start, end and waits in "
    "cycles, the steady-state period and the unit that bounds it; --trace FILE also writes it as a Chrome "
    "Trace Event file laid out like msprof's op simulator output, and --compare TRACE prints the model against such a "
    f"trace.json lane by lane, or against an op summary's task durations; --svg FILE draws the timeline; exit "
    f"{ExitStatus.OK}."
)
#: The same summary for the Chinese command-line reference page.
HELP_ZH = (
    "一个 job 的流水线模型（models/pipeline.py），逐块逐单元列出开始、结束与等待的周期、稳态周期和决定它的单元；"
    "--trace FILE 另写一个与 msprof 算子仿真输出同样布局的 Chrome Trace Event 文件；--compare TRACE 逐条流水线对比"
    f"模型与这样的 trace.json，或对比模型与 op summary 的任务耗时；--svg FILE 画出时间线；退出 {ExitStatus.OK}。"
)
FINDING = "not used: the command prints the schedule and checks nothing"
USAGE = (
    "; or --topk together with --blocks, a --trace or --svg FILE that cannot be written, or a --compare TRACE that "
    "cannot be read or is not an msprof op-simulator trace or op summary (the line says why)"
)

#: The file name that means stdout for --svg: then only the SVG is printed.
STDOUT = "-"
#: Options whose values are the model's inputs, kept in the trace's ``otherData`` (destination -> option).
_INPUTS = {
    "mode": "--mode",
    "main_cache": "--main-cache",
    "topk": "--topk",
    "blocks": "--blocks",
    "rescale_every_block": "--rescale-every-block",
    "b_topk": "--b-topk",
    "index_block_size": "--index-block-size",
    "vector_cores": "--vector-cores",
    "heads": "--heads",
    "l2_bandwidth": "--l2-bandwidth",
    "cores": "--cores",
    "clock": "--clock",
    "cube_fma": "--cube-fma",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the job's options (defaults: the shipped kernel in prefill), the hardware overrides and --trace."""
    parser.add_argument(
        "--mode",
        choices=[m.value for m in Mode],
        default=Mode.PREFILL.value,
        help="prefill or decode (default prefill)",
    )
    parser.add_argument(
        "--main-cache",
        choices=[f.value for f in KvFormat],
        help="format of the KV the MTE2 gathers (default: bf16 for prefill, fp8 for decode)",
    )
    parser.add_argument(
        "--topk",
        type=Within(positive_int, TOKENS_RANGE, KV_TOKENS),
        help="KV tokens per query: simulate topk / B_TOPK blocks (instead of --blocks)",
    )
    parser.add_argument(
        "--blocks",
        type=Within(positive_int, SIMULATED_BLOCKS_RANGE, BLOCKS),
        help=f"KV blocks to simulate (default {SIMULATED_BLOCKS})",
    )
    parser.add_argument(
        "--rescale-every-block",
        action="store_true",
        help="every block after the first moves O out of L0C and scales it",
    )
    add_instantiation_options(parser)
    add_hardware_options(parser)
    parser.add_argument(
        "--trace", metavar="FILE", help="also write the schedule to FILE as Chrome Trace Event JSON (msprof layout)"
    )
    parser.add_argument(
        "--compare",
        metavar="TRACE",
        help="instead of the schedule, print each lane's modelled and measured busy cycles in TRACE, an msprof "
        "op-simulator trace.json (one core or all), with the residual, and the CUBE's overlap with MTE2 and FIXP; "
        "or, for an msprof op summary CSV, the model's job against each op's median Task Duration",
    )
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="also draw the timeline to FILE as SVG, with --compare's measured lanes under the model's; '-' prints "
        "only the SVG",
    )


def run(args: argparse.Namespace) -> int:
    """Print the schedule, or with --compare the model against a trace; write --trace's and --svg's files too.

    With ``--svg -`` only the SVG is printed. Exit 0, or 2 for --topk with --blocks, an unwritable --trace or --svg
    file or an unreadable --compare file.
    """
    if args.topk is not None and args.blocks is not None:
        message = Text(
            "--topk 与 --blocks 只能给一个（--topk 决定块数）",
            "give --topk or --blocks, not both (--topk sets the blocks)",
        )
        return fail(ExitStatus.USAGE, message, NAME, lang=args.lang)
    config = SHIPPED_KERNEL.with_overrides(
        heads_per_core=args.heads,
        b_topk=args.b_topk,
        index_block_size=args.index_block_size,
        vector_cores_per_cube=args.vector_cores,
    )
    blocks = SIMULATED_BLOCKS if args.blocks is None else args.blocks
    if args.topk is not None:
        if args.topk % config.b_topk:
            raise OutsideModel(
                Text(
                    f"--topk {args.topk} 不是整数个块（每块 B_TOPK {config.b_topk} 个 token）",
                    f"--topk {args.topk} is not a whole number of blocks of B_TOPK {config.b_topk} tokens",
                )
            )
        blocks = args.topk // config.b_topk
    kv_format = default_main_cache(args.mode) if args.main_cache is None else KvFormat(args.main_cache)
    spec = hardware_of(args)
    rescale = range(1, blocks) if args.rescale_every_block else ()
    timeline = simulate(stage_costs(spec, config, kv_format=kv_format), config, blocks, rescale)
    measured: MeasuredTrace | MeasuredTasks | None = None
    if args.compare is not None:
        try:
            measured = read_measurement(_read_bounded(args.compare), max_bytes=MAX_TRACE_BYTES)
        except (OSError, ValueError) as error:  # ValueError: BadTrace, or a path with a NUL in it
            reason = error_message(error)
            if isinstance(error, OSError) and error.strerror:
                reason = Text.same(error.strerror)
            message = Text(f"--compare {args.compare}：{reason.zh}", f"--compare {args.compare}: {reason.en}")
            return fail(ExitStatus.USAGE, message, NAME, lang=args.lang)
    if (status := _write_files(args, timeline, spec, config.vector_cores_per_cube, measured)) is not None:
        return status
    if measured is None:
        print(rows_line(config, lang=args.lang))
        print(pipeline_schedule_text(timeline, lang=args.lang))
    elif isinstance(measured, MeasuredTrace):
        print(comparison_text(compare_trace(timeline, measured, spec.clock_hz)))
    else:
        print(tasks_text(compare_tasks(timeline, measured, spec.clock_hz)))
    return ExitStatus.OK


def _write_files(
    args: argparse.Namespace,
    timeline: Timeline,
    spec: AscendSpec,
    vector_cores: int,
    measured: MeasuredTrace | MeasuredTasks | None,
) -> int | None:
    """Write --trace's and --svg's files, or print only the SVG for ``--svg -``; a status when the command ends."""
    if args.trace is not None:
        inputs = {option: value for dest, option in _INPUTS.items() if (value := getattr(args, dest)) is not None}
        trace = pipeline_trace(timeline, spec, vector_cores=vector_cores, inputs=inputs, version=package_version())
        if (status := _write("--trace", args.trace, trace_json(trace), args.lang)) is not None:
            return status
    if args.svg is None:
        return None
    svg = pipeline_timeline_svg(
        timeline,
        vector_cores=vector_cores,
        clock_hz=spec.clock_hz,
        lang=args.lang,
        measured=measured if isinstance(measured, MeasuredTrace) else None,
    )
    if args.svg == STDOUT:
        print(svg)
        return ExitStatus.OK
    return _write("--svg", args.svg, svg + "\n", args.lang)


def _write(option: str, path: str, text: str, lang: Lang) -> int | None:
    """Write ``text`` to ``path``; on failure print the one line (in ``lang``) naming ``option`` and return status 2."""
    try:
        with open(path, "w", encoding="utf-8") as file:  # noqa: PTH123 - a path as typed
            file.write(text)
    except OSError as error:
        return fail(ExitStatus.USAGE, cannot_write(option, path, error.strerror or str(error)), NAME, lang=lang)
    return None


def _read_bounded(path: str) -> bytes:
    """The bytes of the regular file at ``path``, one more than the cap at most (so the reader sees it is too big).

    Opened without blocking, so that a FIFO or a device is refused instead of waited on.
    """
    with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise BadTrace(
                Text(
                    "不是普通文件；应为 msprof 算子仿真器的 trace.json 或 op summary CSV",
                    "not a regular file; expected an msprof op-simulator trace.json or op summary CSV",
                )
            )
        return file.read(MAX_TRACE_BYTES + 1)
