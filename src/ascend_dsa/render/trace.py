"""The simulated pipeline as a Chrome Trace Event file laid out like msprof's op simulator output, and its checker.

Layout, after the msprof / msOpProf simulator documentation:

- one process per core, named as msprof names its per-core directories and trace processes: ``core0.cubecore0`` for
  the CUBE Core, ``core0.veccore0`` and ``core0.veccore1`` for the VECTOR Cores ("msopprof Simulator Mode Performance
  Data", https://gitcode.com/Ascend/msopprof/blob/master/docs/en/user_guide/msopprof_simulator_performance_data.md);
- one thread per pipe, with msprof's lane names CUBE, FIXP, VECTOR, MTE2, MTE3 (the "仿真指令流水图文件" page of
  the CANN tools guide, https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC2alpha002/devaids/
  auxiliarydevtool/atlasopdev_16_0098.html, which lists VECTOR, SCALAR, CUBE, MTE1, MTE2, MTE3, FIXP, FLOWCTRL);
- complete events (``ph: "X"``) with ``ts`` and ``dur`` in microseconds from the job's start, flow events
  (``ph: "s"`` / ``"f"``) for the hand-offs between the cores, and metadata events (``ph: "M"``) naming processes and
  threads, as the Trace Event Format defines them ("Trace Event Format", Google, https://docs.google.com/document/d/
  1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU; Perfetto's "Visualizing external trace formats" page,
  https://perfetto.dev/docs/getting-started/other-formats, which wants numeric timestamps and ids below 2^53).

The model has one VECTOR row for both VECTOR Cores (they do the same work on their halves at the same time,
``models.pipeline``), so each VECTOR Core's process shows the same VECTOR, MTE2 and MTE3 ops.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Final

from ascend_dsa.errors import BadTrace
from ascend_dsa.lang import Text
from ascend_dsa.models.pipeline import Task, Unit
from ascend_dsa.validate import LARGEST_EXACT_WHOLE

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from ascend_dsa.facts.hardware import AscendSpec
    from ascend_dsa.models.pipeline import Op, Timeline

#: msprof's process name of the CUBE Core and of VECTOR Core ``n`` of AI Core 0.
CUBE_CORE: Final = "core0.cubecore0"
VECTOR_CORE: Final = "core0.veccore{}"
#: msprof's lane name of each unit of the model.
LANE: Final = {Unit.CUBE: "CUBE", Unit.FIXPIPE: "FIXP", Unit.VECTOR: "VECTOR", Unit.MTE2: "MTE2", Unit.MTE3: "MTE3"}
#: The units on the CUBE Core; the others run on each VECTOR Core.
CUBE_UNITS: Final = (Unit.CUBE, Unit.FIXPIPE)
VECTOR_UNITS: Final = (Unit.VECTOR, Unit.MTE2, Unit.MTE3)
#: Hand-offs from one core to another: (producer task, consumer task of the same block).
HANDOFFS: Final = (
    (Task.P_OUT, Task.SOFTMAX),  # P leaves L0C for UB: CUBE -> VECTOR
    (Task.O_OUT, Task.SCALE_O),  # O leaves L0C for UB when the block rescales: CUBE -> VECTOR
    (Task.S_TO_L1, Task.SV),  # S reaches L1: VECTOR -> CUBE
    (Task.KV_TO_L1, Task.QK),  # the NZ KV reaches L1: VECTOR -> CUBE
)
#: The trace's start in µs: every event's time is relative to it, so none is earlier.
TRACE_START_US: Final = 0
#: Two times in microseconds closer than this (a picosecond, below a cycle of any plausible clock) are equal: the
#: rounding of ``ts + dur`` against the next ``ts``.
TIME_TOLERANCE_US: Final = 1e-6
_US_PER_S: Final = 1e6
_PHASES: Final = {
    "X": ("name", "ph", "ts", "dur", "pid", "tid"),
    "s": ("name", "cat", "ph", "id", "ts", "pid", "tid"),
    "f": ("name", "cat", "ph", "id", "ts", "pid", "tid"),
    "M": ("name", "ph", "pid", "args"),
}


def _processes(vector_cores: int) -> tuple[tuple[str, tuple[Unit, ...]], ...]:
    """(process name, its units) in pid order: the CUBE Core, then each VECTOR Core."""
    return ((CUBE_CORE, CUBE_UNITS), *((VECTOR_CORE.format(n), VECTOR_UNITS) for n in range(vector_cores)))


def pipeline_trace(
    timeline: Timeline,
    spec: AscendSpec,
    *,
    vector_cores: int,
    inputs: Mapping[str, object],
    version: str,
) -> dict[str, object]:
    """The timeline as a Trace Event object (``json.dumps`` it): lanes, ops, hand-offs, and what made it.

    ``inputs`` are the model's inputs as given (option -> value) and ``version`` the package's, both kept in
    ``otherData``; ``ts`` and ``dur`` are the ops' cycles at ``spec.clock_hz``, and each op keeps its ``cycles``.
    """
    us_per_cycle = _US_PER_S / spec.clock_hz
    processes = _processes(vector_cores)
    events: list[dict[str, object]] = []
    lane: dict[tuple[int, Unit], int] = {}
    for pid, (process, units) in enumerate(processes, start=1):
        events.append({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": process}})
        events.append({"name": "process_sort_index", "ph": "M", "pid": pid, "args": {"sort_index": pid}})
        for tid, unit in enumerate(units, start=1):
            lane[(pid, unit)] = tid
            events.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": LANE[unit]}})
            events.append({"name": "thread_sort_index", "ph": "M", "pid": pid, "tid": tid, "args": {"sort_index": tid}})
    placed: dict[tuple[Task, int], list[tuple[int, int, Op]]] = {}
    for op in timeline.ops:
        for pid, (_, units) in enumerate(processes, start=1):
            if op.unit not in units:
                continue
            tid = lane[(pid, op.unit)]
            placed.setdefault((op.task, op.block), []).append((pid, tid, op))
            start, end = op.start * us_per_cycle, op.end * us_per_cycle
            events.append(
                {
                    "name": f"{op.task.value}[{op.block}]",
                    "cat": op.unit.value,
                    "ph": "X",
                    "ts": start,
                    "dur": end - start,
                    "pid": pid,
                    "tid": tid,
                    "args": {"cycles": op.end - op.start, "block": op.block, "start_cycle": op.start},
                }
            )
    events += _flows(placed, us_per_cycle)
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {
            "model": "ascend_dsa.models.pipeline.simulate",
            "inputs": dict(inputs),
            "version": version,
            "clock_hz": spec.clock_hz,
            "blocks": timeline.blocks,
            "cycles_per_block": timeline.cycles_per_block,
        },
    }


def _flows(
    placed: Mapping[tuple[Task, int], list[tuple[int, int, Op]]], us_per_cycle: float
) -> Iterator[dict[str, object]]:
    """A flow (``s`` on the producer, ``f`` on the consumer) for every cross-core hand-off of every block."""
    flow_id = 0
    for (task, block), producers in sorted(placed.items(), key=lambda item: (item[0][1], item[0][0].value)):
        for producer_task, consumer_task in HANDOFFS:
            if task is not producer_task:
                continue
            for pid, tid, op in producers:
                for consumer_pid, consumer_tid, consumer in placed.get((consumer_task, block), ()):
                    if consumer_pid == pid:
                        continue
                    flow_id += 1
                    name = f"{producer_task.value}->{consumer_task.value}"
                    common = {"name": name, "cat": "handoff", "id": flow_id}
                    yield {**common, "ph": "s", "ts": op.start * us_per_cycle, "pid": pid, "tid": tid}
                    yield {
                        **common,
                        "ph": "f",
                        "bp": "e",
                        "ts": consumer.start * us_per_cycle,
                        "pid": consumer_pid,
                        "tid": consumer_tid,
                    }


def trace_json(trace: Mapping[str, object]) -> str:
    """The trace as JSON text, refusing NaN and infinities (which the format has no spelling for)."""
    return json.dumps(trace, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"


# --- the checker -----------------------------------------------------------------------------------------------


def event_time(event: Mapping[str, object], key: str) -> float:
    """``event[key]`` (a ``ts`` or ``dur``) as microseconds, or `BadTrace` unless it is a finite number from 0."""
    value = event[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadTrace(
            Text(
                f"{key} 应为有限的数，{event!r:.200} 里是 {value!r}",
                f"{key} must be a finite number, got {value!r} in {event!r:.200}",
            )
        )
    if value < TRACE_START_US:
        raise BadTrace(
            Text(
                f"{key} 应相对于 trace 的起点（至少为 {TRACE_START_US}），{event!r:.200} 里是 {value!r}",
                f"{key} must be relative to the trace's start (at least {TRACE_START_US}), got {value!r} in "
                f"{event!r:.200}",
            )
        )
    return float(value)


def _check_event(event: object) -> Mapping[str, object]:
    if not isinstance(event, dict):
        raise BadTrace(f"every event must be an object, got {event!r:.200}")
    phase = event.get("ph")
    if phase not in _PHASES:
        raise BadTrace(f"ph must be one of {', '.join(_PHASES)}, got {phase!r}")
    missing = [key for key in _PHASES[phase] if key not in event]
    if missing:
        raise BadTrace(f"a {phase!r} event needs {', '.join(missing)}, got {event!r:.200}")
    for key in ("ts", "dur"):
        if key in event:
            event_time(event, key)
    if "id" in event:
        ident = event["id"]
        if isinstance(ident, bool) or not isinstance(ident, int) or not 0 <= ident < LARGEST_EXACT_WHOLE:
            raise BadTrace(f"id must be a whole number below 2^53, got {ident!r}")
    return event


def check_trace(trace: object) -> None:
    """Raise `BadTrace` unless ``trace`` follows the Trace Event format's rules that chrome://tracing and Perfetto need.

    The rules: an object with a ``traceEvents`` list; each event's required keys for its phase; ``ts`` and ``dur``
    finite numbers from 0; flow ids whole numbers below 2^53, each ``s`` with one ``f`` no earlier; every lane with
    events named by a metadata event; no two complete events on one lane overlapping unless one nests in the other.
    """
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        raise BadTrace("a trace must be an object with a traceEvents list")
    events = [_check_event(e) for e in trace["traceEvents"]]
    named = {
        (e["pid"], e.get("tid")) for e in events if e["ph"] == "M" and e["name"] in {"process_name", "thread_name"}
    }
    lanes: dict[tuple[object, object], list[tuple[float, float, str]]] = {}
    flows: dict[object, list[Mapping[str, object]]] = {}
    for e in events:
        if e["ph"] in {"s", "f"}:
            flows.setdefault(e["id"], []).append(e)
        if e["ph"] != "X":
            continue
        if (e["pid"], None) not in named or (e["pid"], e["tid"]) not in named:
            raise BadTrace(f"pid {e['pid']!r} tid {e['tid']!r} has no process_name or thread_name metadata")
        lanes.setdefault((e["pid"], e["tid"]), []).append((event_time(e, "ts"), event_time(e, "dur"), str(e["name"])))
    for ident, pair in flows.items():
        phases = sorted(str(e["ph"]) for e in pair)
        if phases != ["f", "s"]:
            raise BadTrace(f"flow id {ident!r} must have one 's' and one 'f' event, got {phases}")
        start, finish = sorted(pair, key=lambda e: e["ph"] != "s")
        if event_time(finish, "ts") + TIME_TOLERANCE_US < event_time(start, "ts"):
            raise BadTrace(f"flow id {ident!r} finishes before it starts")
    for (pid, tid), slices in lanes.items():
        _check_nesting(pid, tid, slices)


def _check_nesting(pid: object, tid: object, slices: list[tuple[float, float, str]]) -> None:
    """Complete events on one lane either follow one another or nest (a stack of open ends)."""
    open_ends: list[tuple[float, str]] = []
    for ts, dur, name in sorted(slices, key=lambda s: (s[0], -s[1])):
        while open_ends and open_ends[-1][0] <= ts + TIME_TOLERANCE_US:
            open_ends.pop()
        if open_ends and ts + dur > open_ends[-1][0] + TIME_TOLERANCE_US:
            raise BadTrace(f"{name} overlaps {open_ends[-1][1]} on pid {pid!r} tid {tid!r} without nesting in it")
        open_ends.append((ts + dur, name))
