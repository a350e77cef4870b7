"""The pipeline's Chrome Trace Event file: msprof's layout, and a checker that refuses each kind of bad trace."""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

import pytest

from ascend_dsa.errors import BadTrace
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.pipeline import Task, simulate, stage_costs
from ascend_dsa.render.trace import check_trace, pipeline_trace, trace_json

if TYPE_CHECKING:
    from collections.abc import Callable

TIMELINE = simulate(stage_costs(ASCEND_950), SHIPPED_KERNEL, 12, range(1, 12))


def _trace(vector_cores: int = 2) -> dict[str, Any]:
    return json.loads(
        trace_json(
            pipeline_trace(TIMELINE, ASCEND_950, vector_cores=vector_cores, inputs={"--blocks": 12}, version="9.9")
        )
    )


def _names(trace: dict[str, Any], kind: str) -> dict[tuple[int, int | None], str]:
    return {(e["pid"], e.get("tid")): e["args"]["name"] for e in trace["traceEvents"] if e["name"] == kind}


def test_the_written_trace_passes_the_checker() -> None:
    """The writer's output, read back from its JSON, follows every rule the checker knows."""
    check_trace(_trace())
    check_trace(_trace(vector_cores=1))


def test_processes_and_lanes_are_named_as_msprof_names_them() -> None:
    """One process per core (core0.cubecore0, core0.veccore0/1), one thread per pipe with msprof's lane names."""
    trace = _trace()
    assert sorted(_names(trace, "process_name").values()) == ["core0.cubecore0", "core0.veccore0", "core0.veccore1"]
    lanes = _names(trace, "thread_name")
    processes = _names(trace, "process_name")
    by_core = {processes[(pid, None)]: sorted(n for (p, _), n in lanes.items() if p == pid) for (pid, _) in processes}
    assert by_core == {
        "core0.cubecore0": ["CUBE", "FIXP"],
        "core0.veccore0": ["MTE2", "MTE3", "VECTOR"],
        "core0.veccore1": ["MTE2", "MTE3", "VECTOR"],
    }
    assert "core0.veccore1" not in _names(_trace(vector_cores=1), "process_name").values()


def test_complete_events_are_the_ops_in_microseconds_at_the_clock() -> None:
    """Each op is one X event per core it runs on, ts and dur its cycles over the clock, with a cycles argument."""
    trace = _trace()
    qk = TIMELINE.op(Task.QK, 3)
    (event,) = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["name"] == "qk[3]"]
    assert event["ts"] == pytest.approx(qk.start / ASCEND_950.clock_hz * 1e6)
    assert event["dur"] == pytest.approx((qk.end - qk.start) / ASCEND_950.clock_hz * 1e6)
    assert event["args"]["cycles"] == qk.end - qk.start
    softmax = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["name"] == "softmax[3]"]
    assert len(softmax) == 2  # one per VECTOR Core
    assert min(e["ts"] for e in trace["traceEvents"] if e["ph"] == "X") == 0


def test_hand_offs_are_flows_between_cores() -> None:
    """P out -> softmax goes from the CUBE Core to each VECTOR Core; S to L1 -> SV comes back; ids are distinct."""
    trace = _trace()
    flows = [e for e in trace["traceEvents"] if e["ph"] in {"s", "f"}]
    names = {e["name"] for e in flows}
    assert names == {"p-out->softmax", "o-out->scale-o", "s-to-l1->sv", "kv-to-l1->qk"}
    starts = [e["id"] for e in flows if e["ph"] == "s"]
    assert len(starts) == len(set(starts))
    # 12 blocks x 2 VECTOR Cores for P, S and KV; O leaves at blocks 1..11 (rescale) and once at the end, unscaled.
    assert len(starts) == 12 * 2 * 3 + 11 * 2


def test_other_data_names_the_model_its_inputs_and_the_version() -> None:
    """otherData carries what made the trace: the model, the inputs as given and the package version."""
    other = _trace()["otherData"]
    assert other["model"] == "ascend_dsa.models.pipeline.simulate"
    assert other["inputs"] == {"--blocks": 12}
    assert other["version"] == "9.9"
    assert other["clock_hz"] == ASCEND_950.clock_hz


def _first(trace: dict[str, Any], phase: str) -> dict[str, Any]:
    return next(e for e in trace["traceEvents"] if e["ph"] == phase)


def _missing_dur(t: dict[str, Any]) -> None:
    del _first(t, "X")["dur"]


def _string_ts(t: dict[str, Any]) -> None:
    _first(t, "X")["ts"] = "12.5"


def _negative_ts(t: dict[str, Any]) -> None:
    _first(t, "X")["ts"] = -1.0


def _nan_ts(t: dict[str, Any]) -> None:
    _first(t, "X")["ts"] = float("nan")


def _huge_id(t: dict[str, Any]) -> None:
    for e in t["traceEvents"]:
        if e["ph"] in {"s", "f"} and e["id"] == 1:
            e["id"] = 2**53


def _lonely_flow(t: dict[str, Any]) -> None:
    t["traceEvents"].remove(_first(t, "f"))


def _overlap(t: dict[str, Any]) -> None:
    x = _first(t, "X")
    t["traceEvents"].append({**x, "name": "late", "ts": x["ts"] + x["dur"] / 2, "dur": x["dur"]})


def _unnamed_lane(t: dict[str, Any]) -> None:
    t["traceEvents"].append({**_first(t, "X"), "tid": 99})


def _unknown_phase(t: dict[str, Any]) -> None:
    _first(t, "X")["ph"] = "Q"


def _no_events(t: dict[str, Any]) -> None:
    t["traceEvents"] = {"not": "a list"}


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (_missing_dur, "needs dur"),
        (_string_ts, "ts must be a finite number"),
        (_negative_ts, "ts must be relative"),
        (_nan_ts, "ts must be a finite number"),
        (_huge_id, r"below 2\^53"),
        (_lonely_flow, "one 's' and one 'f'"),
        (_overlap, "without nesting"),
        (_unnamed_lane, "no process_name or thread_name"),
        (_unknown_phase, "ph must be one of"),
        (_no_events, "traceEvents list"),
    ],
    ids=lambda v: getattr(v, "__name__", "")[1:],
)
def test_the_checker_refuses_each_kind_of_bad_trace(spoil: Callable[[dict[str, Any]], None], words: str) -> None:
    """A trace spoilt in one way fails the checker with a line naming the broken rule."""
    trace = copy.deepcopy(_trace())
    spoil(trace)
    with pytest.raises(BadTrace, match=words):
        check_trace(trace)


def test_nested_complete_events_are_allowed() -> None:
    """An event inside another on the same lane (a call inside its caller) is not an overlap."""
    trace = _trace()
    x = _first(trace, "X")
    trace["traceEvents"].append({**x, "name": "inner", "ts": x["ts"] + x["dur"] / 4, "dur": x["dur"] / 2})
    check_trace(trace)


def test_nan_is_never_written() -> None:
    """The JSON writer refuses NaN, which the Trace Event format cannot spell."""
    with pytest.raises(ValueError, match="Out of range float"):
        trace_json({"traceEvents": [{"ts": float("nan")}]})
