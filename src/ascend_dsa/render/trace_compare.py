"""A measured trace against the model: msprof's op-simulator ``trace.json`` read, bounded, and compared lane by lane.

The file is the layout ``render.trace`` writes and msprof's op simulator documents (processes per core named like
``core0.cubecore0`` / ``core0.veccore1``, threads named by their pipe lane, complete ``X`` events with ``ts`` and
``dur`` in microseconds), one core's file or all cores in one. Each lane's measured busy time is the union of its
events (nested or overlapping events count once), turned into cycles at the clock the model was given, so a trace we
wrote ourselves compares at a 0 % residual.

A hostile file is refused before it is parsed when it is too large, holds too many objects or nests too deep, and
while it is parsed when it spells NaN or infinity; a negative or non-numeric time is refused where it is read.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import statistics
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import BadTrace
from ascend_dsa.lang import Text
from ascend_dsa.models.pipeline import Unit
from ascend_dsa.render.trace import CUBE_UNITS, LANE, TIME_TOLERANCE_US, TRACE_START_US, event_time
from ascend_dsa.units import MiB

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ascend_dsa.models.pipeline import Timeline

#: Largest file read: our own trace of the longest job the model simulates (4,096 blocks, 1C2V) is about 19 MB.
MAX_TRACE_BYTES: Final = 32 * MiB
#: Most JSON objects (events, their ``args``) in a file: ours at 4,096 blocks (1C2V) holds about 200,000.
MAX_TRACE_OBJECTS: Final = 2**18
#: Most values (commas) and brackets per object allowed: an event of ours has 10 values over its two objects; the
#: caps keep a file of bare numbers or brackets (no objects) as bounded as a file of events. At all three caps
#: parsing takes about 1 s and 0.4 GB (measured on a file of 2^18 objects of 7 numbers, 16 MiB).
VALUES_PER_OBJECT: Final = 8
BRACKETS_PER_OBJECT: Final = 2
#: Deepest nesting of JSON objects and arrays: the format needs 4 (the file, ``traceEvents``, an event, its args).
MAX_TRACE_DEPTH: Final = 8
#: What a compared file must be, for every refusal's line.
EXPECTED: Final = Text(
    "msprof 算子仿真器的 trace.json：一个含 traceEvents 列表的 JSON 对象，进程名形如 core0.cubecore0 或 "
    "core0.veccore0，线程以所在流水线命名（CUBE、VECTOR、MTE2...）",
    "an msprof op-simulator trace.json: a JSON object with a traceEvents list, processes named like "
    "core0.cubecore0 or core0.veccore0, threads named by their lane (CUBE, VECTOR, MTE2...)",
)
#: msprof's process name: AI Core, core kind, index.
_PROCESS: Final = re.compile(r"core(\d+)\.(cubecore|veccore)(\d+)")
#: The kind of core each unit of the model runs on, as msprof's process names spell it.
CORE_KIND: Final = {unit: "cubecore" if unit in CUBE_UNITS else "veccore" for unit in Unit}
#: The overlaps compared: the CUBE with each of these lanes.
OVERLAPS: Final = (Unit.MTE2, Unit.FIXPIPE)
_STRING: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS: Final = bytes(b for b in range(256) if b not in b"[]{}")
_STEP: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_US_PER_S: Final = 1e6

#: msprof's op summary (``op_summary_*.csv``): the columns read, a kernel's name and one launch's time on the device.
OP_NAME: Final = "Op Name"
TASK_DURATION: Final = "Task Duration(us)"
#: Most rows of an op summary read: a profiled run of a model's layers launches a few thousand kernels.
MAX_OP_ROWS: Final = 2**16
EXPECTED_SUMMARY: Final = Text(
    f"含 {OP_NAME!r} 列与 {TASK_DURATION!r} 列的 msprof op summary CSV",
    f"an msprof op summary CSV with {OP_NAME!r} and {TASK_DURATION!r} columns",
)


def _refused(zh: str, en: str, expected: Text) -> BadTrace:
    """A `BadTrace` saying what is wrong (``zh``, ``en``) and then what file was ``expected``, in both languages."""
    return BadTrace(Text(f"{zh}；应为 {expected.zh}", f"{en}; expected {expected.en}"))


Intervals = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class MeasuredTrace:
    """A read trace: per (core kind, lane name), each core's busy intervals in µs, merged (sorted, disjoint)."""

    lanes: Mapping[tuple[str, str], tuple[Intervals, ...]]


@dataclass(frozen=True)
class LaneComparison:
    """One lane of the model against the trace: busy cycles of one core, modelled and measured (mean over cores)."""

    kind: str
    lane: str
    modelled_cycles: float
    measured_cycles: float | None  # None: the trace has no core of this kind
    cores: int

    @property
    def residual_percent(self) -> float | None:
        """(measured - modelled) / modelled in percent; None when either is missing or the model has no work here."""
        if self.measured_cycles is None or not self.modelled_cycles:
            return None
        return (self.measured_cycles - self.modelled_cycles) / self.modelled_cycles * 100


@dataclass(frozen=True)
class TraceComparison:
    """Every lane of the model against the trace, the CUBE's overlaps, and the measured lanes the model has not."""

    lanes: tuple[LaneComparison, ...]
    overlaps: tuple[LaneComparison, ...]  # lane: "CUBE & MTE2"...; cycles both are busy at once
    unmodelled: tuple[str, ...]  # "veccore SCALAR"...


@dataclass(frozen=True)
class MeasuredTasks:
    """A read op summary: each op name with its launches' task durations in µs, in the file's order."""

    durations: Mapping[str, tuple[float, ...]]


@dataclass(frozen=True)
class TaskComparison:
    """One op of an op summary against the model's job: its median launch in cycles and the model's makespan."""

    op: str
    launches: int
    modelled_cycles: float
    measured_cycles: float

    @property
    def residual_percent(self) -> float:
        """(measured - modelled) / modelled in percent."""
        return (self.measured_cycles - self.modelled_cycles) / self.modelled_cycles * 100


def read_measurement(data: bytes, *, max_bytes: int = MAX_TRACE_BYTES) -> MeasuredTrace | MeasuredTasks:
    """``data`` read as a trace (it starts with ``{`` or ``[``) or as an op summary (its header names the columns)."""
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if start in {b"{", b"["}:
        return read_trace(data, max_bytes=max_bytes)
    if TASK_DURATION.encode() in data.split(b"\n", 1)[0]:
        return read_op_summary(data, max_bytes=max_bytes)
    either = Text(f"{EXPECTED.zh}，或{EXPECTED_SUMMARY.zh}", f"{EXPECTED.en} or {EXPECTED_SUMMARY.en}")
    raise _refused(
        "这个文件既不是 JSON trace，也不是 op summary", "the file is neither a JSON trace nor an op summary", either
    )


def read_op_summary(data: bytes, *, max_bytes: int = MAX_TRACE_BYTES, max_rows: int = MAX_OP_ROWS) -> MeasuredTasks:
    """Each op's task durations in an msprof op summary, or `BadTrace` naming the row and what was expected."""
    if len(data) > max_bytes:
        raise _refused(f"文件大于 {max_bytes:,} 字节", f"the file is larger than {max_bytes:,} bytes", EXPECTED_SUMMARY)
    durations: dict[str, list[float]] = {}
    try:
        reader = csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline=""))
        if not {OP_NAME, TASK_DURATION} <= {name.strip() for name in reader.fieldnames or ()}:
            raise _refused("表头缺一列", "the header lacks a column", EXPECTED_SUMMARY)
        for number, raw in enumerate(reader, start=2):
            if number - 1 > max_rows:
                raise _refused(
                    f"文件多于 {max_rows:,} 行", f"the file has more than {max_rows:,} rows", EXPECTED_SUMMARY
                )
            row = {str(k).strip(): v for k, v in raw.items()}
            durations.setdefault(str(row[OP_NAME]).strip(), []).append(_duration(row[TASK_DURATION], number))
    except (UnicodeDecodeError, csv.Error) as error:
        raise _refused(
            f"文件不是 CSV 文本（{error}）", f"the file is not CSV text ({error})", EXPECTED_SUMMARY
        ) from None
    if not durations:
        raise _refused("文件没有数据行", "the file has no rows", EXPECTED_SUMMARY)
    return MeasuredTasks({op: tuple(values) for op, values in durations.items()})


def _duration(text: object, row: int) -> float:
    """A Task Duration cell as µs: a finite number from 0, else `BadTrace` naming the row."""
    try:
        value = float(str(text).strip())
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < TRACE_START_US:
        raise BadTrace(
            Text(
                f"第 {row} 行：{TASK_DURATION} 应为从 {TRACE_START_US} 起的有限微秒数，得到 {text!r:.40}",
                f"row {row}: {TASK_DURATION} must be a finite number of µs from {TRACE_START_US}, got {text!r:.40}",
            )
        )
    return value


def compare_tasks(timeline: Timeline, measured: MeasuredTasks, clock_hz: float) -> tuple[TaskComparison, ...]:
    """Each op's median launch (µs at ``clock_hz``, in cycles) against the model's makespan of one job."""
    cycles_per_us = clock_hz / _US_PER_S
    return tuple(
        TaskComparison(op, len(values), timeline.makespan, statistics.median(values) * cycles_per_us)
        for op, values in measured.durations.items()
    )


def tasks_text(comparisons: tuple[TaskComparison, ...]) -> str:
    """The op summary against the model: per op, its launches, the model's job and the median launch, in cycles."""
    rows = [
        "# the model's job against an op summary: makespan of one job vs each op's median Task Duration, in cycles",
        f"{'op':<40}{'launches':>9}{'modelled cycles':>18}{'measured cycles':>18}{'residual':>11}",
    ]
    rows.extend(
        f"{row.op[:39]:<40}{row.launches:>9}{_cycles(row.modelled_cycles):>18}{_cycles(row.measured_cycles):>18}"
        f"{_percent(row.residual_percent):>11}"
        for row in comparisons
    )
    return "\n".join(rows)


def _guarded(data: bytes, max_bytes: int, max_objects: int, max_depth: int) -> bytes:
    """``data`` when it is small and flat enough to parse, else `BadTrace`; strings are skipped before counting."""
    if len(data) > max_bytes:
        raise _refused(f"文件大于 {max_bytes:,} 字节", f"the file is larger than {max_bytes:,} bytes", EXPECTED)
    bare = _STRING.sub(b"", data)
    if bare.count(b",") > max_objects * VALUES_PER_OBJECT:
        values = f"{max_objects * VALUES_PER_OBJECT:,}"
        raise _refused(f"文件含有多于 {values} 个 JSON 值", f"the file holds more than {values} JSON values", EXPECTED)
    brackets = bare.translate(None, _BRACKETS)
    if brackets.count(b"{") > max_objects or len(brackets) > 2 * max_objects * BRACKETS_PER_OBJECT:
        raise _refused(
            f"文件含有多于 {max_objects:,} 个 JSON 对象或数组",
            f"the file holds more than {max_objects:,} JSON objects or arrays",
            EXPECTED,
        )
    depth = max(accumulate(_STEP[b] for b in brackets), default=0)
    if depth > max_depth:
        raise _refused(
            f"文件的 JSON 嵌套了 {depth} 层，多于 {max_depth} 层",
            f"the file nests JSON {depth} deep, more than {max_depth}",
            EXPECTED,
        )
    return data


def _no_constant(name: str) -> object:
    raise _refused(
        f"文件里写了 {name}，JSON 和 trace 格式都容不下它",
        f"the file spells {name}, which JSON and the trace format have no place for",
        EXPECTED,
    )


def read_trace(
    data: bytes,
    *,
    max_bytes: int = MAX_TRACE_BYTES,
    max_objects: int = MAX_TRACE_OBJECTS,
    max_depth: int = MAX_TRACE_DEPTH,
) -> MeasuredTrace:
    """The busy intervals of each core's lanes in ``data``, or `BadTrace` with one line naming what was expected.

    The limits are parameters so that a test can reach them with a small file.
    """
    try:
        text = _guarded(data, max_bytes, max_objects, max_depth).decode("utf-8")
        trace = json.loads(text, parse_constant=_no_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _refused(f"文件不是 JSON 文本（{error}）", f"the file is not JSON text ({error})", EXPECTED) from None
    events = trace.get("traceEvents") if isinstance(trace, dict) else trace if isinstance(trace, list) else None
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise _refused("文件里没有事件对象的列表", "the file holds no list of event objects", EXPECTED)
    processes = {
        e.get("pid"): match
        for e in events
        if e.get("ph") == "M" and e.get("name") == "process_name"
        if (match := _PROCESS.fullmatch(_named(e))) is not None
    }
    threads = {
        (e.get("pid"), e.get("tid")): _named(e) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    spans: dict[tuple[str, str], dict[object, list[tuple[float, float]]]] = {}
    for e in events:
        if e.get("ph") != "X" or e.get("pid") not in processes:
            continue
        lane = threads.get((e.get("pid"), e.get("tid")))
        if lane is None:
            lane_id = f"pid {e.get('pid')!r} tid {e.get('tid')!r}"
            raise _refused(f"{lane_id} 没有 thread_name", f"{lane_id} has no thread_name", EXPECTED)
        if "ts" not in e or "dur" not in e:
            raise BadTrace(
                Text(
                    f"complete 事件需要 ts 和 dur，得到 {e!r:.200}",
                    f"a complete event needs ts and dur, got {e!r:.200}",
                )
            )
        start = event_time(e, "ts")
        kind = processes[e["pid"]].group(2)
        spans.setdefault((kind, lane), {}).setdefault(e["pid"], []).append((start, start + event_time(e, "dur")))
    if not spans:
        raise _refused(
            "文件里没有落在 msprof 核的流水线上的 complete 事件",
            "the file has no complete events on an msprof core's lane",
            EXPECTED,
        )
    return MeasuredTrace({key: tuple(_union(c) for c in cores.values()) for key, cores in spans.items()})


def _named(event: Mapping[str, object]) -> str:
    """The name a metadata event gives (``args.name``), or "" when it gives none."""
    args = event.get("args")
    return str(args.get("name", "")) if isinstance(args, dict) else ""


def _union(intervals: Iterable[tuple[float, float]]) -> Intervals:
    """The intervals merged: sorted, disjoint, touching ones (within the tolerance) joined."""
    merged: list[tuple[float, float]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1] + TIME_TOLERANCE_US:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


def _length(intervals: Intervals) -> float:
    return sum(end - start for start, end in intervals)


def _intersection(a: Intervals, b: Intervals) -> float:
    """How long two merged interval lists overlap (a walk over both)."""
    total, i, j = 0.0, 0, 0
    while i < len(a) and j < len(b):
        total += max(0.0, min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def compare_trace(timeline: Timeline, measured: MeasuredTrace, clock_hz: float) -> TraceComparison:
    """Each unit's busy cycles in ``timeline`` against its lane in ``measured`` (µs at ``clock_hz``), and overlaps."""
    cycles_per_us = clock_hz / _US_PER_S
    modelled = {u: _union((op.start, op.end) for op in timeline.ops if op.unit is u) for u in Unit}

    def key(unit: Unit) -> tuple[str, str]:
        return CORE_KIND[unit], LANE[unit]

    def all_cores(unit: Unit) -> Intervals | None:
        cores = measured.lanes.get(key(unit))
        return None if cores is None else _union(span for core in cores for span in core)

    lanes = []
    for unit in Unit:
        cores = measured.lanes.get(key(unit), ())
        mean = sum(map(_length, cores)) / len(cores) * cycles_per_us if cores else None
        lanes.append(LaneComparison(*key(unit), _length(modelled[unit]), mean, len(cores)))
    overlaps = []
    cube = all_cores(Unit.CUBE)
    for unit in OVERLAPS:
        other = all_cores(unit)
        both = None if cube is None or other is None else _intersection(cube, other) * cycles_per_us
        name = f"{LANE[Unit.CUBE]} & {LANE[unit]}"
        overlaps.append(LaneComparison("", name, _intersection(modelled[Unit.CUBE], modelled[unit]), both, 1))
    known = {key(u) for u in Unit}
    unmodelled = tuple(f"{kind} {lane}" for kind, lane in sorted(measured.lanes) if (kind, lane) not in known)
    return TraceComparison(tuple(lanes), tuple(overlaps), unmodelled)


def _cycles(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{round(value, 1) + 0.0:+.1f} %"


def comparison_text(comparison: TraceComparison) -> str:
    """The comparison as a plain table: per lane modelled, measured, residual; then the CUBE's overlaps."""
    header = f"{'core':<9}{'lane':<14}{'cores':>6}{'modelled cycles':>18}{'measured cycles':>18}{'residual':>11}"
    rows = [
        "# the model against a measured trace: busy cycles per core on each lane (measured: mean over the cores)",
        header,
    ]
    rows.extend(
        f"{row.kind or '-':<9}{row.lane:<14}{row.cores:>6}{_cycles(row.modelled_cycles):>18}"
        f"{_cycles(row.measured_cycles):>18}{_percent(row.residual_percent):>11}"
        for row in (*comparison.lanes, *comparison.overlaps)
    )
    if comparison.unmodelled:
        rows.append(f"not modelled, not compared: {', '.join(comparison.unmodelled)}")
    return "\n".join(rows)
