"""A measured trace against the model: msprof's layout read, our own trace at 0 %, and hostile files refused."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from ascend_dsa.errors import BadTrace
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.pipeline import Unit, simulate, stage_costs
from ascend_dsa.render.trace import pipeline_trace, trace_json
from ascend_dsa.render.trace_compare import (
    MAX_TRACE_DEPTH,
    MeasuredTasks,
    MeasuredTrace,
    compare_tasks,
    compare_trace,
    comparison_text,
    read_measurement,
    read_op_summary,
    read_trace,
    tasks_text,
)

TIMELINE = simulate(stage_costs(ASCEND_950), SHIPPED_KERNEL, 12, range(1, 12))
US_PER_CYCLE = 1e6 / ASCEND_950.clock_hz


def _own() -> bytes:
    trace = pipeline_trace(TIMELINE, ASCEND_950, vector_cores=2, inputs={}, version="9.9")
    return trace_json(trace).encode()


def _msprof(process: str, lanes: dict[str, list[tuple[float, float]]], extra: list[Any] | None = None) -> bytes:
    """One core's file as msprof's op simulator documents it: named process, named lane threads, X events in µs."""
    events: list[Any] = [{"name": "process_name", "ph": "M", "pid": 7, "args": {"name": process}}]
    for tid, (lane, spans) in enumerate(lanes.items(), start=1):
        events.append({"name": "thread_name", "ph": "M", "pid": 7, "tid": tid, "args": {"name": lane}})
        events += [
            {"name": f"op{n}", "ph": "X", "pid": 7, "tid": tid, "ts": ts, "dur": dur}
            for n, (ts, dur) in enumerate(spans)
        ]
    return json.dumps({"traceEvents": events + (extra or [])}).encode()


def test_our_own_trace_compares_at_zero_residual_on_every_lane() -> None:
    """The trace we write for a timeline, read back and compared with it: every lane and overlap at 0 %."""
    comparison = compare_trace(TIMELINE, read_trace(_own()), ASCEND_950.clock_hz)
    assert [(r.kind, r.lane) for r in comparison.lanes] == [
        ("cubecore", "CUBE"),
        ("cubecore", "FIXP"),
        ("veccore", "VECTOR"),
        ("veccore", "MTE2"),
        ("veccore", "MTE3"),
    ]
    for row in (*comparison.lanes, *comparison.overlaps):
        assert row.residual_percent == pytest.approx(0, abs=1e-9), row
    assert [r.cores for r in comparison.lanes] == [1, 1, 2, 2, 2]
    assert comparison.unmodelled == ()
    cube = sum(op.end - op.start for op in TIMELINE.ops if op.unit is Unit.CUBE)
    assert comparison.lanes[0].modelled_cycles == cube
    assert comparison.overlaps[0].modelled_cycles > 0
    text = comparison_text(comparison)
    assert text.count("+0.0 %") == 7
    assert "-0.0" not in text


def test_a_one_core_msprof_file_compares_its_lanes_only() -> None:
    """A veccore file: its VECTOR lane is the union of its events in cycles; CUBE lanes are not measured; SCALAR
    is named as not modelled."""
    data = _msprof(
        "core3.veccore1",
        {"VECTOR": [(0.0, 2.0), (1.0, 0.5), (1.5, 1.5), (10.0, 1.0)], "SCALAR": [(0.0, 1.0)]},
    )
    comparison = compare_trace(TIMELINE, read_trace(data), ASCEND_950.clock_hz)
    vector = next(r for r in comparison.lanes if r.lane == "VECTOR")
    assert vector.measured_cycles == pytest.approx(4.0 / US_PER_CYCLE)  # [0, 3] and [10, 11]: overlaps count once
    assert vector.cores == 1
    assert next(r for r in comparison.lanes if r.lane == "CUBE").measured_cycles is None
    assert all(r.measured_cycles is None for r in comparison.overlaps)
    assert comparison.unmodelled == ("veccore SCALAR",)
    assert "not modelled, not compared: veccore SCALAR" in comparison_text(comparison)


def test_measured_overlap_of_cube_and_mte2_across_cores() -> None:
    """CUBE on the cubecore and MTE2 on a veccore overlap by the time both are busy at once."""
    cube = json.loads(_msprof("core0.cubecore0", {"CUBE": [(0.0, 4.0)]}))["traceEvents"]
    vec = json.loads(_msprof("core0.veccore0", {"MTE2": [(3.0, 4.0)]}))["traceEvents"]
    for e in vec:
        e["pid"] = 8
    data = json.dumps({"traceEvents": cube + vec}).encode()
    comparison = compare_trace(TIMELINE, read_trace(data), ASCEND_950.clock_hz)
    assert comparison.overlaps[0].lane == "CUBE & MTE2"
    assert comparison.overlaps[0].measured_cycles == pytest.approx(1.0 / US_PER_CYCLE)


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    """An event name full of brackets is text, not depth."""
    data = _msprof("core0.veccore0", {"VECTOR": [(0.0, 1.0)]}, [{"name": "[[[[{{{{" * 10 + '\\"', "ph": "i"}])
    read_trace(data)


@pytest.mark.parametrize(
    ("data", "limits", "words"),
    [
        (b"{}" + b" " * 100, {"max_bytes": 64}, "larger than 64 bytes"),
        (b"[" + b"{}," * 10 + b"{}]", {"max_objects": 4}, "more than 4 JSON objects or arrays"),
        (b"[" * 10_000 + b"]" * 10_000, {}, f"nests JSON 10000 deep, more than {MAX_TRACE_DEPTH}"),
        (b"[" + b"1," * 100 + b"1]", {"max_objects": 4}, "more than 32 JSON values"),
        (b"[" + b"[]," * 10 + b"[]]", {"max_objects": 4}, "more than 4 JSON objects or arrays"),
        (b'{"traceEvents": [{"ts": NaN}]}', {}, "spells NaN"),
        (b'{"traceEvents": [{"ts": -Infinity}]}', {}, "spells -Infinity"),
        (_msprof("core0.veccore0", {"VECTOR": [(-1.0, 1.0)]}), {}, "ts must be relative"),
        (_msprof("core0.veccore0", {"VECTOR": [(0.0, -1.0)]}), {}, "dur must be relative"),
        (_msprof("core0.veccore0", {"VECTOR": [("1.0", 1.0)]}), {}, "ts must be a finite number"),
        (_msprof("core0.veccore0", {"VECTOR": [(1e309, 1.0)]}), {}, "spells Infinity"),
        (b"not json", {}, "not JSON text"),
        (b'"\xff"', {}, "not JSON text"),
        (b"[1, 2]", {}, "no list of event objects"),
        (b'{"traceEvents": {}}', {}, "no list of event objects"),
        (_msprof("gpu0", {"VECTOR": [(0.0, 1.0)]}), {}, "no complete events on an msprof core's lane"),
        (
            (
                b'{"traceEvents": [{"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "core0.veccore0"}},'
                b' {"ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 1}]}'
            ),
            {},
            "tid 1 has no thread_name",
        ),
    ],
    ids=[
        "too-large",
        "too-many-objects",
        "deep",
        "many-values",
        "many-arrays",
        "nan",
        "infinity",
        "negative-ts",
        "negative-dur",
        "string-ts",
        "overflowing-ts",
        "not-json",
        "not-utf8",
        "no-events",
        "events-not-a-list",
        "no-msprof-core",
        "unnamed-lane",
    ],
)
def test_hostile_and_foreign_files_are_refused_in_one_line(data: bytes, limits: dict[str, int], words: str) -> None:
    """Each bad file is refused with a BadTrace naming the fault (and, for a foreign file, what was expected)."""
    with pytest.raises(BadTrace, match=words) as caught:
        read_trace(data, **limits)
    assert "\n" not in str(caught.value)


def test_a_large_file_of_bare_numbers_is_refused_fast() -> None:
    """Six megabytes of numbers with no object are refused by the value cap before json parses them."""
    started = time.perf_counter()
    with pytest.raises(BadTrace, match="JSON values"):
        read_trace(b"[" + b"1," * (3 * 2**20) + b"1]")
    assert time.perf_counter() - started < 2


def test_a_deep_file_is_refused_fast() -> None:
    """A megabyte of open brackets is refused before the parser recurses into it, in well under a second."""
    started = time.perf_counter()
    with pytest.raises(BadTrace, match="nests JSON"):
        read_trace(b"[" * 1_000_000)
    assert time.perf_counter() - started < 1


SUMMARY = (
    "\ufeffDevice_id,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us)\n"
    "0,SparseFlashAttention,SFA,AI_CORE,0,10.5,0\n"
    "0,LightningIndexer,LI,AI_CORE,11,3,0\n"
    "0,SparseFlashAttention,SFA,AI_CORE,20,11.5,0\n"
    "0,SparseFlashAttention,SFA,AI_CORE,40,30,0\n"
)


def test_an_op_summary_compares_each_ops_median_launch_with_the_models_job() -> None:
    """Per op name: its launches and their median Task Duration in cycles at the clock, against the makespan."""
    measured = read_op_summary(SUMMARY.encode())
    assert measured.durations == {"SparseFlashAttention": (10.5, 11.5, 30.0), "LightningIndexer": (3.0,)}
    sfa, indexer = compare_tasks(TIMELINE, measured, ASCEND_950.clock_hz)
    assert (sfa.op, sfa.launches, indexer.launches) == ("SparseFlashAttention", 3, 1)
    assert sfa.measured_cycles == pytest.approx(11.5 / US_PER_CYCLE)
    assert sfa.modelled_cycles == TIMELINE.makespan
    assert sfa.residual_percent == pytest.approx((11.5 / US_PER_CYCLE / TIMELINE.makespan - 1) * 100)
    assert "SparseFlashAttention" in tasks_text((sfa, indexer))


def test_the_format_is_told_by_the_content() -> None:
    """A file starting with a bracket is a trace, one whose header names Task Duration(us) an op summary."""
    assert isinstance(read_measurement(_own()), MeasuredTrace)
    assert isinstance(read_measurement(SUMMARY.encode()), MeasuredTasks)
    with pytest.raises(BadTrace, match="neither a JSON trace nor an op summary"):
        read_measurement(b"a,b\n1,2\n")


_HEADER = "Op Name,Task Duration(us)\n"


@pytest.mark.parametrize(
    ("data", "limits", "words"),
    [
        ((_HEADER + "k,1\n" * 10).encode(), {"max_rows": 4}, "more than 4 rows"),
        ((_HEADER + "k,1\n" * 10).encode(), {"max_bytes": 32}, "larger than 32 bytes"),
        ((_HEADER + "k,nan\n").encode(), {}, "row 2: Task Duration.* got 'nan'"),
        ((_HEADER + "k,1\nk,inf\n").encode(), {}, "row 3: Task Duration"),
        ((_HEADER + "k,-1\n").encode(), {}, "got '-1'"),
        ((_HEADER + "k,fast\n").encode(), {}, "got 'fast'"),
        ((_HEADER + "k\n").encode(), {}, "got None"),
        (b"Op Name,Duration\nk,1\n", {}, "the header lacks a column"),
        ((_HEADER + 'k,"' + "x" * 200_000 + '"\n').encode(), {}, "not CSV text"),
        (_HEADER.encode() + b"\xff,1\n", {}, "not CSV text"),
        (_HEADER.encode(), {}, "no rows"),
    ],
    ids=[
        "too-many-rows",
        "too-large",
        "nan",
        "infinity",
        "negative",
        "text",
        "missing-cell",
        "no-duration-column",
        "huge-field",
        "not-utf8",
        "empty",
    ],
)
def test_a_bad_op_summary_is_refused_in_one_line(data: bytes, limits: dict[str, int], words: str) -> None:
    """Each bad op summary is refused with a BadTrace naming the row or the fault and what was expected."""
    with pytest.raises(BadTrace, match=words) as caught:
        read_op_summary(data, **limits)
    assert "\n" not in str(caught.value)
