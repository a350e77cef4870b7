"""Checks happen at the door (STYLE.md 1b): one render call checks its arguments once, and a bad one reads as before.

The count is the one ``benchmarks/require_calls.py`` prints: every ``require_*`` call one ``render_design_limits()``
makes. Checking a value again below the public function that took it would push it up.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ascend_dsa import validate
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kernel_rules import check_kernel_rules
from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.models.block_cycles import fixpipe_cycles_per_block, mma_cycles_per_block
from ascend_dsa.models.design_point import SHIPPED_DESIGN, evaluate, fixpipe_cycles, smallest_compute_bound_heads
from ascend_dsa.models.memory_plans import l0c_used_bytes, l1_plan, ub_plan
from ascend_dsa.models.mte2 import requests_per_block
from ascend_dsa.models.pipeline import VECTOR_SCHEDULE, Task, first_waiting_cycles, simulate, stage_costs
from ascend_dsa.models.roofline import cube_cycles, head_roofline, head_roofline_sweep, l2_bytes, l2_cycles
from ascend_dsa.render.design_space import render_design_limits
from tests.helpers.project import load_module

if TYPE_CHECKING:
    from collections.abc import Callable

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "require_calls.py"
require_calls = load_module("require_calls", BENCHMARK)


def test_render_design_limits_checks_its_arguments_once() -> None:
    """At most 35 require_* calls (76 before the checks moved to the door), none of them by a private helper."""
    tally = require_calls.count_render_design_limits()
    assert tally.require_calls <= require_calls.GOAL_REQUIRE_CALLS, tally.by_caller
    assert tally.require_calls <= 3, tally.by_caller  # evaluate: spec, model and point, once each
    private = {
        caller
        for caller, check in tally.by_caller
        if check.startswith("require_") and caller.rsplit(".", 1)[1].startswith("_") and not caller.endswith("__")
    }
    assert not private, f"private helpers re-check trusted values: {sorted(private)}"


def test_counting_puts_every_check_back() -> None:
    """The count wraps the checks only while it runs: afterwards each module holds the original function again."""
    originals = {name: getattr(validate, name) for name in ("require_int", "require_instance", "finite_result")}
    with require_calls.counting() as tally:
        validate.require_int("heads", 1)
        assert validate.require_int is not originals["require_int"]
    assert tally.by_check["require_int"] == 1
    assert {name: getattr(validate, name) for name in originals} == originals
    assert vars(sys.modules["ascend_dsa.models.roofline"])["require_int"] is originals["require_int"]


#: Bad arguments at the public functions of the chain, with the message each raised before the checks moved.
BAD_CALLS: tuple[tuple[Callable[..., Any], dict[str, Any], type[Exception], str], ...] = (
    (render_design_limits, {"spec": "950"}, TypeError, "spec must be a AscendSpec, got '950' (str)"),
    (render_design_limits, {"point": 64}, TypeError, "point must be a DesignPoint, got 64 (int)"),
    (evaluate, {"point": SHIPPED_DESIGN, "spec": ASCEND_950, "model": None}, TypeError, "model must be a ModelShape"),
    (cube_cycles, {"spec": ASCEND_950, "heads": 0, "topk": 512}, ValueError, "heads must be a positive integer, got 0"),
    (cube_cycles, {"spec": ASCEND_950, "heads": 64, "topk": 1.5}, TypeError, "topk must be a whole number, got 1.5"),
    (
        l2_cycles,
        {"spec": ASCEND_950, "heads": 0, "topk": 0, "kv_bytes_per_token": 0},
        ValueError,
        "kv_bytes_per_token must be a positive integer, got 0",
    ),
    (l2_bytes, {"heads": 64, "topk": -1}, ValueError, "topk must be a positive integer, got -1"),
    (
        head_roofline,
        {"spec": ASCEND_950, "heads": 64, "topk": 512, "kv_bytes_per_token": "1"},
        TypeError,
        "kv_bytes_per_token must be a whole number, got '1' (str)",
    ),
    (head_roofline_sweep, {"spec": ASCEND_950, "heads": (16, True)}, TypeError, "heads must be a whole number"),
    (mma_cycles_per_block, {"spec": ASCEND_950, "config": None}, TypeError, "config must be a KernelConfig"),
    (
        fixpipe_cycles_per_block,
        {"spec": ASCEND_950, "config": SHIPPED_KERNEL, "o_leaves": "no"},
        TypeError,
        "o_leaves must be True or False, got 'no' (str)",
    ),
    (
        fixpipe_cycles,
        {"spec": ASCEND_950, "config": SHIPPED_KERNEL, "o_leaves": 1},
        TypeError,
        "o_leaves must be True or False, got 1 (int)",
    ),
    (
        fixpipe_cycles,
        {"spec": ASCEND_950, "config": SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=4), "o_leaves": True},
        ValueError,
        "vector_cores must be 1 or 2 (VECTOR Cores per CUBE Core), got 4",
    ),
    (ub_plan, {"config": SHIPPED_KERNEL, "mode": Mode.DECODE, "sink": 0}, TypeError, "sink must be True or False"),
    (ub_plan, {"config": SHIPPED_KERNEL, "mode": "train"}, ValueError, "'train' is not a valid Mode"),
    (l1_plan, {"spec": None, "config": SHIPPED_KERNEL}, TypeError, "spec must be a AscendSpec, got None (NoneType)"),
    (l0c_used_bytes, {"config": SHIPPED_KERNEL, "model": 1}, TypeError, "model must be a ModelShape, got 1 (int)"),
    (
        check_kernel_rules,
        {"config": SHIPPED_KERNEL, "mode": Mode.PREFILL, "fp4_extra": "yes"},
        TypeError,
        "fp4_extra must be True or False, got 'yes' (str)",
    ),
    (
        requests_per_block,
        {"config": SHIPPED_KERNEL, "tokens_per_request": 0},
        ValueError,
        "tokens_per_request must be a positive integer, got 0",
    ),
    (smallest_compute_bound_heads, {"spec": ASCEND_950, "topk": 0}, ValueError, "topk must be a positive integer"),
)


@pytest.mark.parametrize(
    ("function", "kwargs", "error", "message"),
    BAD_CALLS,
    ids=[f"{f.__name__}-{'-'.join(k)}" for f, k, _, _ in BAD_CALLS],
)
def test_a_bad_argument_still_says_what_is_wrong(
    function: Callable[..., Any], kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    """Each public door raises the same error, with the same message, as before the checks inside went away."""
    with pytest.raises(error) as raised:
        function(**kwargs)
    assert str(raised.value).startswith(message)


def test_design_point_kernel_config_checks_its_base() -> None:
    """A base that is not a KernelConfig is a TypeError naming it; the values of the point are its own."""
    with pytest.raises(TypeError, match=r"^base must be a KernelConfig, got 'x' \(str\)$"):
        SHIPPED_DESIGN.kernel_config("x")  # type: ignore[arg-type]
    config = SHIPPED_DESIGN.kernel_config()
    assert config == SHIPPED_KERNEL.with_overrides(heads_per_core=64, b_topk=64, vector_cores_per_cube=2)
    assert config.sources["b_topk"] == SHIPPED_KERNEL.with_overrides(b_topk=64).sources["b_topk"]


def test_simulate_checks_its_configuration_once() -> None:
    """simulate checks config and the schedule at its door; the buffer depths it reports trust them (were twice)."""
    costs = stage_costs(ASCEND_950, SHIPPED_KERNEL)
    with require_calls.counting() as tally:
        simulate(costs, SHIPPED_KERNEL, 16)
    callers = {caller.rsplit(".", 1)[1] for caller, _ in tally.by_caller}
    assert callers == {"simulate", "_simulated_blocks"}, tally.by_caller
    assert tally.by_check["require_instance"] == 2  # config and costs


def test_first_waiting_cycles_checks_config_and_blocks_once() -> None:
    """The bisection runs the simulation many times on values checked once at its own door."""
    costs = stage_costs(ASCEND_950, SHIPPED_KERNEL)
    with require_calls.counting() as tally:
        first_waiting_cycles(costs, Task.SOFTMAX, limit_cycles=1 << 12)
    assert tally.by_check["require_int"] == 2, tally.by_caller  # blocks and limit_cycles
    assert not any(caller.endswith(".simulate") for caller, _ in tally.by_caller), tally.by_caller


def test_simulate_refuses_a_schedule_of_other_things_at_its_door() -> None:
    """A schedule that is not of Activations is a TypeError naming it before anything runs."""
    with pytest.raises(TypeError, match=r"^schedule must be an iterable of Activation, got NoneType None$"):
        simulate(stage_costs(ASCEND_950, SHIPPED_KERNEL), schedule=None)  # type: ignore[arg-type]


def test_an_activation_checks_its_step_and_offset() -> None:
    """A schedule's offsets are checked where they enter, in the Activation, so the buffer depths trust them."""
    step = VECTOR_SCHEDULE[0]
    with pytest.raises(ValueError, match=r"^offset must be a non-negative integer, got -1$"):
        dataclasses.replace(step, offset=-1)
    with pytest.raises(TypeError, match=r"^order must be a whole number, got 1.5"):
        dataclasses.replace(step, order=1.5)
