"""The kernel's software pipeline, simulated block by block (report (zh) lines 170-200).

The CUBE Core runs ``QK[0]`` and then, for each block ``i``, ``QK[i+1]`` followed by ``SV[i]``: the ``S V`` of a
block is deferred by one so that the VECTOR Cores have time to turn ``P[i]`` into ``S[i]``. The VECTOR side is a
"systolic array" of depth 6: at each step it works on six blocks at once, each task at a fixed offset from the
oldest block ``i`` (kernel_body.h ``ACTIVATE(offset, task)``).

The simulation places every task of a job on its hardware unit in program order (each unit issues in order, as
the report says the PIPEs do, line 206) and starts it when its inputs and its buffer are ready. CUBE and FixPipe
costs come from the hardware preset; the VECTOR Core and MTE3 costs are stated assumptions, because the report
gives none. Both VECTOR Cores do the same work on their halves at the same time, so one VECTOR row stands for
both.

Why one module: it is one model in three sections that change together, not three ideas. The
[`Task`][] vocabulary, the VECTOR schedule that places each task at an offset (and the buffer depths those offsets
imply), the per-task cycle costs, and the simulation that runs them: adding or re-timing a task touches all three,
and each section reads the others' names. The block offsets themselves are already apart, in ``models.schedule``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.assumptions import (
    FIXPIPE_1C2V,
    MTE3_BYTES_PER_CYCLE,
    MTE3_RATE,
    ND2NZ_PASSES,
    PROCESS_INDEX_PASSES,
    SCALE_O_PASSES,
    SOFTMAX_PASSES,
    VECTOR_BYTES_PER_CYCLE,
    VECTOR_PASSES,
    VECTOR_RATE,
    based_on,
)
from ascend_dsa.facts.hardware import AscendSpec
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig, require_spec_config_model
from ascend_dsa.facts.kv_formats import KvFormat, kv_bytes_per_token
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import Source, code_line, report_line, report_lines, what_if_source
from ascend_dsa.lang import Text
from ascend_dsa.models.design_point import fixpipe_bytes_per_cycle
from ascend_dsa.models.schedule import SYSTOLIC_ARRAY_DEPTH, VECTOR_STAGES, pipeline_depth
from ascend_dsa.units import BF16_BYTES, FP32_BYTES
from ascend_dsa.validate import (
    Choice,
    Plausible,
    door,
    require_bool,
    require_finite,
    require_instance,
    require_int,
    require_items,
    shown,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


class Unit(Choice):
    """The hardware units of one AI Core that the pipeline keeps busy."""

    CUBE = "CUBE"
    FIXPIPE = "FixPipe"
    VECTOR = "VECTOR"
    MTE2 = "MTE2"
    MTE3 = "MTE3"


class Task(Choice):
    """The work done for one KV block, by unit."""

    INDEX_FETCH = "index-fetch"  # MTE2: indices of an index group, GM -> UB
    PROCESS_INDEX = "process-index"  # VECTOR: gather2 base offsets and strides of an index group
    GATHER = "gather"  # MTE2: the block's KV tokens, GM -> UB (gather2)
    ND2NZ = "nd2nz"  # VECTOR: KV from ND to the CUBE's NZ layout
    KV_TO_L1 = "kv-to-l1"  # MTE3: the NZ KV, UB -> L1
    QK = "qk"  # CUBE: P = Q K^T
    P_OUT = "p-out"  # FixPipe: P, L0C -> UB
    SOFTMAX = "softmax"  # VECTOR: online softmax of P, giving S
    S_TO_L1 = "s-to-l1"  # MTE3: S, UB -> L1
    O_OUT = "o-out"  # FixPipe: O, L0C -> UB, when the block rescales (or at the last block)
    SCALE_O = "scale-o"  # VECTOR: rescale and add O into the UB accumulator
    SV = "sv"  # CUBE: O += S V


#: The unit each task runs on.
TASK_UNIT: Final = MappingProxyType(
    {
        Task.INDEX_FETCH: Unit.MTE2,
        Task.PROCESS_INDEX: Unit.VECTOR,
        Task.GATHER: Unit.MTE2,
        Task.ND2NZ: Unit.VECTOR,
        Task.KV_TO_L1: Unit.MTE3,
        Task.QK: Unit.CUBE,
        Task.P_OUT: Unit.FIXPIPE,
        Task.SOFTMAX: Unit.VECTOR,
        Task.S_TO_L1: Unit.MTE3,
        Task.O_OUT: Unit.FIXPIPE,
        Task.SCALE_O: Unit.VECTOR,
        Task.SV: Unit.CUBE,
    }
)


@dataclass(frozen=True)
class Activation:
    """One step of the VECTOR side's schedule: at step ``order`` it works on block ``i + offset``."""

    order: int
    offset: int
    tasks: tuple[Task, ...]  # what the step issues (empty: a scalar-only step)
    label: str
    source: Source

    def __post_init__(self) -> None:
        """Reject a step or an offset that is not a whole number of at least 0: the depths trust them."""
        object.__setattr__(self, "order", require_int("order", self.order, minimum=0))
        object.__setattr__(self, "offset", require_int("offset", self.offset, minimum=0))


#: What each of the report's VECTOR steps issues in this model, by the step's key in [`VECTOR_STAGES`][].
_STAGE_TASKS: Final = MappingProxyType(
    {
        "index-read": ((Task.INDEX_FETCH,), "index read"),
        "nd2nz-and-copy-to-l1": ((Task.ND2NZ, Task.KV_TO_L1), "ND2NZ + MTE3 to L1"),
        "softmax": ((Task.SOFTMAX, Task.S_TO_L1), "softmax + S to L1"),
        "index-preprocess": ((Task.PROCESS_INDEX,), "index preprocess"),
        "scale-o": ((Task.SCALE_O,), "O scale"),
        "skip-scale-flag": ((), "skip-scale flag to SS buffer"),
        "kv-gather": ((Task.GATHER,), "MTE2 gather"),
    }
)

#: The VECTOR side's schedule: the steps and offsets of [`ascend_dsa.models.schedule.VECTOR_STAGES`][] (report (zh)
#: lines 188-200, kernel_body.h ``ACTIVATE``), each with the tasks it issues.
VECTOR_SCHEDULE: Final = tuple(
    Activation(stage.report_step, stage.offset, *_STAGE_TASKS[stage.key], stage.source) for stage in VECTOR_STAGES
)


def _activation(task: Task, schedule: Iterable[Activation]) -> Activation:
    for a in schedule:
        if task in a.tasks:
            return a
    raise ValueError(f"task {task.value!r} is not in the schedule")


@dataclass(frozen=True)
class BufferDepth:
    """How many buffers one ring needs so its writer never waits for its reader, and what the kernel has."""

    name: str
    writer: Task
    reader: Task
    implied: int
    shipped: int
    rule: str


def _buffer_depth(writer_offset: int, reader_offset: int, *, reader_first_in_order: bool) -> int:
    """[`buffer_depth`][] of whole, non-negative offsets (a schedule's, checked by its Activations)."""
    if writer_offset < reader_offset:
        raise ValueError(f"writer_offset must be at least reader_offset ({reader_offset}), got {writer_offset}")
    return writer_offset - reader_offset + (0 if reader_first_in_order else 1)


@door(_buffer_depth)
def buffer_depth(writer_offset: int, reader_offset: int, *, reader_first_in_order: bool) -> int:
    """Buffers a ring needs when block ``i + writer_offset`` is written while ``i + reader_offset`` is read.

    Blocks ``i + reader_offset`` .. ``i + writer_offset`` are alive at once; when the reader runs earlier in the
    same in-order pipe within the step, its buffer is already free for the writer, which saves one.
    """
    writer_offset = require_int("writer_offset", writer_offset, minimum=0)
    reader_offset = require_int("reader_offset", reader_offset, minimum=0)
    reader_first_in_order = require_bool("reader_first_in_order", reader_first_in_order)
    return _buffer_depth(writer_offset, reader_offset, reader_first_in_order=reader_first_in_order)


def _implied_buffer_depths(schedule: tuple[Activation, ...], config: KernelConfig) -> tuple[BufferDepth, ...]:
    """[`implied_buffer_depths`][] of a checked schedule and configuration."""
    gather, nd2nz = _activation(Task.GATHER, schedule), _activation(Task.ND2NZ, schedule)
    index, softmax = _activation(Task.PROCESS_INDEX, schedule), _activation(Task.SOFTMAX, schedule)
    scale_o = _activation(Task.SCALE_O, schedule)
    same_pipe_reader_first = TASK_UNIT[Task.PROCESS_INDEX] is TASK_UNIT[Task.SOFTMAX] and softmax.order < index.order
    return (
        BufferDepth(
            "pipeline (systolic array)",
            Task.GATHER,
            Task.SCALE_O,
            pipeline_depth(schedule),
            SYSTOLIC_ARRAY_DEPTH,
            "largest offset + 1",
        ),
        BufferDepth(
            "UB KV buffers",
            Task.GATHER,
            Task.ND2NZ,
            _buffer_depth(gather.offset, nd2nz.offset, reader_first_in_order=False),
            config.ub_kv_buffers,
            "MTE2 writes i+5 while the VECTOR pipe reads i+3: different pipes, +1",
        ),
        BufferDepth(
            "index buffers",
            Task.PROCESS_INDEX,
            Task.SOFTMAX,
            _buffer_depth(index.offset, softmax.offset, reader_first_in_order=same_pipe_reader_first),
            config.index_buffers,
            "both on the VECTOR pipe and softmax (i+1) is issued before preprocessing (i+5)",
        ),
        BufferDepth(
            "L1 KV buffers",
            Task.KV_TO_L1,
            Task.SV,
            _buffer_depth(nd2nz.offset, scale_o.offset, reader_first_in_order=False),
            config.l1_kv_buffers,
            "MTE3 writes i+3 while the CUBE still runs SV[i]: different cores, +1",
        ),
    )


@door(_implied_buffer_depths)
def implied_buffer_depths(
    schedule: tuple[Activation, ...] = VECTOR_SCHEDULE, config: KernelConfig = SHIPPED_KERNEL
) -> tuple[BufferDepth, ...]:
    """The depths the schedule's offsets imply, next to the shipped kernel's (6, 3, 4, 4)."""
    config = require_instance("config", config, KernelConfig)
    return _implied_buffer_depths(require_items("schedule", schedule, Activation), config)


# --- cycle costs -------------------------------------------------------------------------------------------------

_ASSUMED_VECTOR = VECTOR_RATE.source.how("en")


@dataclass(frozen=True)
class StageCosts:
    """Cycles of each task for one block, and where each number comes from."""

    cycles: Mapping[Task, float]
    sources: Mapping[Task, Source] = field(compare=False)

    def __post_init__(self) -> None:
        """Reject a missing task, a missing source or a negative cost."""
        missing = sorted(t.value for t in Task if t not in self.cycles or t not in self.sources)
        if missing:
            raise ValueError(f"costs and sources must cover every task, missing {', '.join(missing)}")
        for task, value in self.cycles.items():
            if require_finite(f"cycles of {task.value}", value) < 0:
                raise ValueError(f"cycles of {task.value} must be a non-negative number, got {shown(value)}")
        object.__setattr__(self, "cycles", MappingProxyType(dict(self.cycles)))
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))

    def with_cycles(self, **changes: float) -> StageCosts:
        """A copy with some tasks' cycles replaced (keyword = task value with ``_`` for ``-``), marked assumed."""
        return _with_task_cycles(self, {Task(name.replace("_", "-")): value for name, value in changes.items()})

    @property
    def vector_path_cycles(self) -> float:
        """FixPipe of P, softmax and S to L1: the work between ``P[i]`` ready and ``S[i]`` in L1."""
        return self.cycles[Task.P_OUT] + self.cycles[Task.SOFTMAX] + self.cycles[Task.S_TO_L1]


def _with_task_cycles(costs: StageCosts, changes: Mapping[Task, float]) -> StageCosts:
    """``StageCosts.with_cycles`` keyed by the tasks themselves."""
    cycles, sources = dict(costs.cycles), dict(costs.sources)
    for task, value in changes.items():
        cycles[task] = float(value)
        sources[task] = what_if_source(f"{task.value} set to {value!r} cycles")
    return StageCosts(cycles, sources)


def stage_costs(
    spec: AscendSpec,
    config: KernelConfig = SHIPPED_KERNEL,
    model: ModelShape = DSA_V41,
    kv_format: KvFormat = KvFormat.BF16,
) -> StageCosts:
    """Per-block cycles: CUBE, FixPipe and L2 from ``spec``; VECTOR and MTE3 from stated assumptions."""
    spec, config, model = require_spec_config_model(spec, config, model)
    m, b, nv = config.mma_m, config.b_topk, config.vector_cores_per_cube
    per_core_kv = config.b_topk_per_vector_core * model.d_qk * BF16_BYTES
    fixpipe = fixpipe_bytes_per_cycle(spec, nv)
    l2 = spec.bandwidth_bytes_per_cycle_per_core
    derived = "derived from the preset"
    cycles = {
        Task.QK: m * b * model.d_qk / spec.matrix_fma_per_cycle_per_core,
        Task.SV: m * b * model.d_v / spec.matrix_fma_per_cycle_per_core,
        Task.P_OUT: m * b * FP32_BYTES / fixpipe,
        Task.O_OUT: m * model.d_v * FP32_BYTES / fixpipe,
        Task.GATHER: b * kv_bytes_per_token(kv_format, model) / l2,
        Task.INDEX_FETCH: config.index_block_size * FP32_BYTES / l2,
        Task.ND2NZ: ND2NZ_PASSES * per_core_kv / VECTOR_BYTES_PER_CYCLE,
        Task.KV_TO_L1: per_core_kv / MTE3_BYTES_PER_CYCLE,
        Task.SOFTMAX: SOFTMAX_PASSES * config.mma_m_per_vector_core * b * FP32_BYTES / VECTOR_BYTES_PER_CYCLE,
        Task.S_TO_L1: config.mma_m_per_vector_core * b * BF16_BYTES / MTE3_BYTES_PER_CYCLE,
        Task.SCALE_O: SCALE_O_PASSES * config.mma_m_per_vector_core * model.d_v * FP32_BYTES / VECTOR_BYTES_PER_CYCLE,
        Task.PROCESS_INDEX: PROCESS_INDEX_PASSES * config.index_block_size * FP32_BYTES / VECTOR_BYTES_PER_CYCLE,
    }
    # Each note in both languages: a Chinese page says in a few words what the English spells out.
    fma, vector, mte3 = "每周期 FMA 数；由硬件参数推出", "VECTOR 的吞吐是假设", "MTE3 带宽是假设"
    on_fixpipe = "1C2V 的 FixPipe 带宽是假设"
    sources = {
        Task.QK: Source(
            report_lines(184),
            "derived",
            note=Text(f"MMA_M × B_TOPK × d_qk ÷ {fma}", f"MMA_M x B_TOPK x d_qk / FMA per cycle; {derived}"),
        ),
        Task.SV: Source(
            report_lines(184),
            "derived",
            note=Text(f"MMA_M × B_TOPK × d_v ÷ {fma}", f"MMA_M x B_TOPK x d_v / FMA per cycle; {derived}"),
        ),
        Task.P_OUT: based_on(FIXPIPE_1C2V, Text(f"fp32 的 P 经 FixPipe 搬出；{on_fixpipe}", "fp32 P over FixPipe")),
        Task.O_OUT: based_on(FIXPIPE_1C2V, Text(f"fp32 的 O 经 FixPipe 搬出；{on_fixpipe}", "fp32 O over FixPipe")),
        Task.GATHER: Source(
            report_lines(92),
            "derived",
            note=Text("B_TOPK 个 token 按本 AI Core 分到的 L2 带宽搬入", "B_TOPK tokens over the AI Core's L2 share"),
        ),
        Task.INDEX_FETCH: Source(
            report_lines(92),
            "derived",
            note=Text("INDEX_BLOCK_SIZE 个 int32 按分到的 L2 带宽读入", "INDEX_BLOCK_SIZE int32 over the L2 share"),
        ),
        Task.ND2NZ: based_on(
            VECTOR_PASSES, Text(f"读写本核的一半 KV；{vector}", f"read and write the core's KV half; {_ASSUMED_VECTOR}")
        ),
        Task.KV_TO_L1: based_on(
            MTE3_RATE, Text(f"本核的一半 KV 经 MTE3 搬到 L1；{mte3}", "the core's KV half over MTE3")
        ),
        Task.SOFTMAX: based_on(
            VECTOR_PASSES,
            Text(
                f"对本核的 P 做 max、exp、求和、转换；{vector}",
                f"max, exp, sum, cast over the core's P; {_ASSUMED_VECTOR}",
            ),
        ),
        Task.S_TO_L1: based_on(
            MTE3_RATE, Text(f"本核的 bf16 S 经 MTE3 搬到 L1；{mte3}", "the core's bf16 S over MTE3")
        ),
        Task.SCALE_O: based_on(
            VECTOR_PASSES,
            Text(
                f"读 O 和累加器、写回累加器；{vector}", f"read O and accumulator, write accumulator; {_ASSUMED_VECTOR}"
            ),
        ),
        Task.PROCESS_INDEX: based_on(
            VECTOR_PASSES,
            Text(
                f"读入 index，写出成对的 index 和 stride；{vector}",
                f"indices in, pairs and strides out; {_ASSUMED_VECTOR}",
            ),
        ),
    }
    return StageCosts(cycles, sources)


# --- the simulation ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Op:
    """One task of one block, placed on its unit."""

    task: Task
    block: int
    unit: Unit
    start: float
    end: float


@dataclass(frozen=True)
class Timeline:
    """The simulated job: every op, and what the report's argument needs from it."""

    ops: tuple[Op, ...]
    blocks: int
    costs: StageCosts
    rescale_blocks: frozenset[int]
    cube_utilisation: float  # steady state: CUBE busy cycles over elapsed cycles, away from the job's ends
    cycles_per_block: float  # steady state
    p_ready_to_used: tuple[float, ...]  # per block: SV[i] start - QK[i] end (the report's ~1024 cycles)
    spare: tuple[float, ...]  # per block: SV[i] start - S[i] in L1 (0: the CUBE waited for the VECTOR side)
    makespan: float
    buffer_depths: tuple[BufferDepth, ...]

    def op(self, task: Task, block: int) -> Op:
        """The op of ``task`` for ``block``."""
        for o in self.ops:
            if o.task is task and o.block == block:
                return o
        raise ValueError(f"no {task.value} op for block {block} in this timeline")

    @property
    def steady_blocks(self) -> range:
        """The blocks the steady state is read over, away from the job's ends (what [`steady`][] takes the min of)."""
        return range(*_steady_window(self.blocks))

    def steady(self, values: tuple[float, ...]) -> float:
        """The smallest per-block value away from the job's ends (the steady state)."""
        first, last = _steady_window(self.blocks)
        return min(values[first:last])


def _steady_window(blocks: int) -> tuple[int, int]:
    first = SYSTOLIC_ARRAY_DEPTH
    return first, max(first + 1, blocks - 2)


@dataclass
class _Pending:
    task: Task
    block: int
    cost: float
    deps: list[tuple[Task, int]]


def _program(  # noqa: C901, PLR0912 - one branch per task keeps the program order readable
    blocks: int, config: KernelConfig, costs: StageCosts, rescale: frozenset[int], schedule: tuple[Activation, ...]
) -> dict[Unit, list[_Pending]]:
    """Each unit's ops in issue order, with the ops each must wait for."""
    per_group = config.index_block_size // config.b_topk
    c = costs.cycles
    units: dict[Unit, list[_Pending]] = {u: [] for u in Unit}

    def add(task: Task, block: int, deps: list[tuple[Task, int]]) -> None:
        units[TASK_UNIT[task]].append(_Pending(task, block, c[task], [d for d in deps if d[1] >= 0]))

    def group_start(block: int) -> int:
        return block - block % per_group

    # CUBE: QK[0], then QK[i+1], SV[i] (report (zh) lines 174-182).
    add(Task.QK, 0, [(Task.KV_TO_L1, 0)])
    for i in range(blocks):
        if i + 1 < blocks:
            add(Task.QK, i + 1, [(Task.KV_TO_L1, i + 1), (Task.P_OUT, i)])
        deps = [(Task.S_TO_L1, i)] + ([(Task.O_OUT, i)] if i in rescale else [])
        add(Task.SV, i, deps)
    # FixPipe: P[i] after QK[i] (and after S[i-1] left UB's single P buffer); O[i] after SV[i-1] when i rescales.
    for i in range(blocks):
        add(Task.P_OUT, i, [(Task.QK, i), (Task.S_TO_L1, i - 1)])
        if i in rescale:
            add(Task.O_OUT, i, [(Task.SV, i - 1)])
    add(Task.O_OUT, blocks, [(Task.SV, blocks - 1)])  # the final O leaves L0C once at the end
    # VECTOR side, MTE2 and MTE3: the systolic array, step by step (report (zh) lines 188-200).
    for step in range(blocks + pipeline_depth(schedule) - 1):
        i = step - (pipeline_depth(schedule) - 1)
        for activation in schedule:
            b = i + activation.offset
            if not 0 <= b < blocks:
                continue
            for task in activation.tasks:
                if task is Task.INDEX_FETCH and b % per_group == 0:
                    group = b // per_group
                    add(task, b, [(Task.SOFTMAX, (group - config.index_buffers + 1) * per_group - 1)])
                elif task is Task.PROCESS_INDEX and b % per_group == 0:
                    add(task, b, [(Task.INDEX_FETCH, b)])
                elif task is Task.GATHER:
                    add(task, b, [(Task.PROCESS_INDEX, group_start(b)), (Task.ND2NZ, b - config.ub_kv_buffers)])
                elif task is Task.ND2NZ:
                    add(task, b, [(Task.GATHER, b)])
                elif task is Task.KV_TO_L1:
                    add(task, b, [(Task.ND2NZ, b), (Task.SV, b - config.l1_kv_buffers)])
                elif task is Task.SOFTMAX:
                    add(task, b, [(Task.P_OUT, b), (Task.PROCESS_INDEX, group_start(b))])
                elif task is Task.S_TO_L1:
                    add(task, b, [(Task.SOFTMAX, b), (Task.SV, b - 1)])  # one S buffer in L1
                elif task is Task.SCALE_O and b in rescale:
                    add(task, b, [(Task.O_OUT, b)])
    return units


#: Most KV blocks [`simulate`][] runs in one job. A job holds topk / B_TOPK blocks (8 to 32 for the report's
#: topk); the steady state shows after a dozen, and the event loop grows faster than linearly, so we stop at a
#: size that still simulates in about a second.
MAX_SIMULATED_BLOCKS: Final = 4096


#: The blocks a job may simulate: from the fewest that reach a steady state to ``MAX_SIMULATED_BLOCKS``.
SIMULATED_BLOCKS_RANGE: Final = Plausible(SYSTOLIC_ARRAY_DEPTH + 2, MAX_SIMULATED_BLOCKS, "blocks")


def _simulated_blocks(blocks: object) -> int:
    """``blocks`` checked: a whole number of blocks that reaches a steady state, at most ``MAX_SIMULATED_BLOCKS``."""
    checked = require_int("blocks", blocks, maximum=MAX_SIMULATED_BLOCKS)
    first, _ = _steady_window(checked)
    if checked < first + 2:
        raise ValueError(
            f"blocks must be an integer of at least {first + 2} to reach a steady state, got {shown(checked)}"
        )
    return checked


def _simulate(
    costs: StageCosts,
    config: KernelConfig,
    blocks: int,
    rescale: frozenset[int],
    schedule: tuple[Activation, ...],
) -> Timeline:
    """[`simulate`][] of checked costs, configuration, blocks, rescale blocks (within 1..blocks - 1) and schedule."""
    queues = _program(blocks, config, costs, rescale, schedule)
    done: dict[tuple[Task, int], Op] = {}
    free = dict.fromkeys(Unit, 0.0)
    heads = dict.fromkeys(Unit, 0)
    remaining = sum(len(q) for q in queues.values())
    while remaining:
        progressed = False
        for unit, queue in queues.items():
            while heads[unit] < len(queue):
                pending = queue[heads[unit]]
                if any(d not in done for d in pending.deps):
                    break
                start = max([free[unit], *(done[d].end for d in pending.deps)])
                op = Op(pending.task, pending.block, unit, start, start + pending.cost)
                done[(pending.task, pending.block)] = op
                free[unit] = op.end
                heads[unit] += 1
                remaining -= 1
                progressed = True
        if not progressed:
            stuck = [f"{q[heads[u]].task.value}[{q[heads[u]].block}]" for u, q in queues.items() if heads[u] < len(q)]
            raise ValueError(f"the schedule deadlocks: every unit waits ({', '.join(stuck)})")
    ops = tuple(sorted(done.values(), key=lambda o: (o.start, list(Unit).index(o.unit))))
    first, last = _steady_window(blocks)
    period = (done[(Task.QK, last)].start - done[(Task.QK, first)].start) / (last - first)
    busy = costs.cycles[Task.QK] + costs.cycles[Task.SV]
    return Timeline(
        ops=ops,
        blocks=blocks,
        costs=costs,
        rescale_blocks=rescale,
        cube_utilisation=busy / period,
        cycles_per_block=period,
        p_ready_to_used=tuple(done[(Task.SV, i)].start - done[(Task.QK, i)].end for i in range(blocks)),
        spare=tuple(done[(Task.SV, i)].start - done[(Task.S_TO_L1, i)].end for i in range(blocks)),
        makespan=max(o.end for o in ops),
        buffer_depths=_implied_buffer_depths(schedule, config),
    )


@door(_simulate)
def simulate(
    costs: StageCosts,
    config: KernelConfig = SHIPPED_KERNEL,
    blocks: int = 32,
    rescale_blocks: Iterable[int] = (),
    schedule: tuple[Activation, ...] = VECTOR_SCHEDULE,
) -> Timeline:
    """Run one job of ``blocks`` KV blocks through the pipeline; ``rescale_blocks`` are blocks whose O leaves L0C."""
    config = require_instance("config", config, KernelConfig)
    costs = require_instance("costs", costs, StageCosts)
    blocks = _simulated_blocks(blocks)
    rescale = frozenset(rescale_blocks)
    outside = sorted(b for b in rescale if not 0 < b < blocks)
    if outside:
        raise ValueError(f"rescale_blocks must lie in 1..{blocks - 1} (block 0 has no O yet), got {outside[0]}")
    return _simulate(costs, config, blocks, rescale, require_items("schedule", schedule, Activation))


# --- what bounds the steady state ---------------------------------------------------------------------------------

#: A unit busy for at least this share of the steady period keeps the period as it is: it bounds it (the rest is
#: floating-point noise of summing a few hundred op lengths).
SATURATED_SHARE: Final = 1 - 1e-9


def steady_busy_share(timeline: Timeline) -> Mapping[Unit, float]:
    """Each unit's busy cycles over the steady window (``QK`` of its first block to ``QK`` of its end), as a share.

    A share of 1 means the unit never idles in the steady state, so the period is its work per block.
    """
    timeline = require_instance("timeline", timeline, Timeline)
    window = timeline.steady_blocks
    start, end = timeline.op(Task.QK, window.start).start, timeline.op(Task.QK, window.stop).start
    busy = dict.fromkeys(Unit, 0.0)
    for op in timeline.ops:
        busy[op.unit] += max(0.0, min(op.end, end) - max(op.start, start))
    return MappingProxyType({unit: cycles / (end - start) for unit, cycles in busy.items()})


def bounding_unit(timeline: Timeline) -> Unit | None:
    """The unit whose work sets the steady period (busy all of it), or ``None`` when none is: a latency bound.

    With ``None`` every unit idles at times and the period is set by a chain of hand-offs between units (the
    ``S[i]`` of [`CubeWaitBounds`][]'s margin), not by any one unit's work.
    """
    shares = steady_busy_share(timeline)
    unit = max(Unit, key=lambda u: (shares[u], u is Unit.CUBE))
    return unit if shares[unit] >= SATURATED_SHARE else None


# --- when the CUBE waits, in closed form ------------------------------------------------------------------------


@dataclass(frozen=True)
class CubeWaitBounds:
    """When the CUBE waits in a steady state without rescale, from one block's costs (the simulation agrees).

    Two things can hold the CUBE up. Latency: ``S[i]`` must be in L1 when ``SV[i]`` starts, one QK and one SV after
    ``QK[i]`` ended, and L1's single S buffer is free only once ``SV[i-1]`` ends. Throughput: every other unit must
    do its work for a block in the CUBE's cycles per block; index work comes once per index group, as a burst.
    """

    cube_cycles: float  # QK + SV: the CUBE's cycles per block, which every other unit has for its own work
    margin_cycles: float  # cube_cycles - max(P out + softmax, SV) - S to L1: below 0, SV[i] waits for S[i]
    unit_cycles: Mapping[Unit, float]  # each unit's cycles per block, index work spread over its group
    burst_cycles: Mapping[Unit, float]  # the index work a group's first block adds on top

    @property
    def waits(self) -> bool:
        """True when the CUBE must wait: ``S[i]`` comes too late, or some unit has more work than the CUBE."""
        return self.margin_cycles < 0 or any(
            cycles > self.cube_cycles for unit, cycles in self.unit_cycles.items() if unit is not Unit.CUBE
        )

    @property
    def never_waits(self) -> bool:
        """True when the CUBE cannot wait: ``S[i]`` in time, and every unit keeps up even at a group's burst."""
        return self.margin_cycles >= 0 and all(
            cycles + self.burst_cycles[unit] <= self.cube_cycles
            for unit, cycles in self.unit_cycles.items()
            if unit is not Unit.CUBE
        )


def cube_wait_bounds(
    costs: StageCosts, config: KernelConfig = SHIPPED_KERNEL, *, rescale_every_block: bool = False
) -> CubeWaitBounds:
    """The closed-form conditions under which [`simulate`][] shows the CUBE waiting.

    With ``rescale_every_block`` every block also moves O out of L0C (FixPipe) and scales it (VECTOR), and ``SV[i]``
    waits for that O, which can leave only once ``SV[i-1]`` ends.
    """
    costs = require_instance("costs", costs, StageCosts)
    config = require_instance("config", config, KernelConfig)
    rescale_every_block = require_bool("rescale_every_block", rescale_every_block)
    c = costs.cycles
    per_group = config.index_block_size // config.b_topk
    once_per_group = {Task.INDEX_FETCH, Task.PROCESS_INDEX}
    skipped = set() if rescale_every_block else {Task.O_OUT, Task.SCALE_O}
    unit_cycles = dict.fromkeys(Unit, 0.0)
    burst_cycles = dict.fromkeys(Unit, 0.0)
    for task in Task:
        if task in skipped:
            continue
        unit = TASK_UNIT[task]
        if task in once_per_group:
            unit_cycles[unit] += c[task] / per_group
            burst_cycles[unit] += c[task] * (1 - 1 / per_group)
        else:
            unit_cycles[unit] += c[task]
    cube = c[Task.QK] + c[Task.SV]
    margin = cube - max(c[Task.P_OUT] + c[Task.SOFTMAX], c[Task.SV]) - c[Task.S_TO_L1]
    if rescale_every_block:
        margin = min(margin, cube - c[Task.SV] - c[Task.O_OUT])
    return CubeWaitBounds(cube, margin, MappingProxyType(unit_cycles), MappingProxyType(burst_cycles))


def first_waiting_cycles(
    costs: StageCosts,
    task: Task,
    config: KernelConfig = SHIPPED_KERNEL,
    blocks: int = 64,
    limit_cycles: int = 1 << 16,
) -> int:
    """The fewest whole cycles of ``task`` at which [`simulate`][] shows the CUBE waiting (bisection)."""
    costs = require_instance("costs", costs, StageCosts)
    task = require_instance("task", task, Task)
    config = require_instance("config", config, KernelConfig)
    blocks = _simulated_blocks(blocks)
    limit_cycles = require_int("limit_cycles", limit_cycles, minimum=1)

    def waits(cycles: int) -> bool:
        timeline = _simulate(_with_task_cycles(costs, {task: cycles}), config, blocks, frozenset(), VECTOR_SCHEDULE)
        return timeline.cycles_per_block > costs.cycles[Task.QK] + costs.cycles[Task.SV]

    low, high = 0, limit_cycles
    if waits(low) or not waits(high):
        raise ValueError(f"the CUBE must run free at 0 cycles of {task.value} and wait at {limit_cycles}")
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if waits(middle) else (middle, high)
    return high


#: Where the report states the ~1024 cycles between ``P[i]`` ready and used.
P_READY_TO_USED_SOURCE: Final = report_line(184)
#: Where the report states the CUBE-side order.
CUBE_ORDER_SOURCE: Final = report_line(174, 182)
#: Where the kernel states the L1 S buffer is single (one ``L1_S_EMPTY`` flag).
S_BUFFER_SOURCE: Final = code_line("config.h", 134)
