"""Every assumption is kept once, in ascend_dsa.facts.assumptions, and every page uses the same value for it."""

from __future__ import annotations

import re

import pytest

import ascend_dsa
from ascend_dsa.facts.assumptions import ASSUMPTIONS, FIXPIPE_1C2V, Assumption
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.provenance import report_line
from ascend_dsa.lang import Text
from ascend_dsa.models.block_cycles import fixpipe_bytes_per_block
from ascend_dsa.models.design_point import DesignPoint, Limit, evaluate, fixpipe_bytes_per_cycle, fixpipe_cycles
from ascend_dsa.models.pipeline import Task, stage_costs
from ascend_dsa.models.skip_scale import RescaleMeasurement, fixpipe_cycles_per_block_with
from ascend_dsa.report.prose_values import PROSE_VALUES
from tests.helpers.project import ROOT


def test_keys_are_unique_and_sources_assumed() -> None:
    """Each assumption has its own key and a source of kind 'assumed'."""
    keys = [a.key for a in ASSUMPTIONS]
    assert len(keys) == len(set(keys))
    assert {a.source.kind for a in ASSUMPTIONS} == {"assumed"}


def test_a_non_assumed_source_is_rejected() -> None:
    """An Assumption whose source is not an assumption raises naming its key."""
    with pytest.raises(ValueError, match="bad"):
        Assumption("bad", Text("量", "quantity"), 1, "", Text("为什么", "why"), report_line(1), ("render_x",))


def test_every_listed_renderer_is_public() -> None:
    """The renderers an assumption names exist in ascend_dsa's public API."""
    named = {r for a in ASSUMPTIONS for r in a.renderers}
    assert named - set(ascend_dsa.__all__) == set()


def test_no_module_types_its_own_assumption() -> None:
    """Outside assumptions.py, no module builds an 'assumed' Source except what-if overrides."""
    pattern = re.compile(r"Source\((?:[^()]|\([^()]*\))*?\"assumed\"", re.DOTALL)
    offenders = [
        f"{path.name}: {match.group(0)[:60]}"
        for path in (ROOT / "src" / "ascend_dsa").rglob("*.py")
        if path.name != "assumptions.py"
        for match in pattern.finditer(path.read_text(encoding="utf-8"))
        if "WHAT_IF_OVERRIDE" not in match.group(0)
    ]
    assert offenders == []


def test_fixpipe_rate_is_one_value_on_every_page() -> None:
    """The skip-scale, pipeline, design and one-vector-core pages use one FixPipe rate for the shipped kernel."""
    spec, config = ASCEND_950, SHIPPED_KERNEL
    rate = fixpipe_bytes_per_cycle(spec, config.vector_cores_per_cube)
    assert rate == spec.ascend.fixpipe_bytes_per_cycle_1c1v * FIXPIPE_1C2V.value
    p_bytes = fixpipe_bytes_per_block(config, o_leaves=False)
    o_bytes = fixpipe_bytes_per_block(config, o_leaves=True) - p_bytes
    blocks = 32
    one_copy = RescaleMeasurement("random", 1.0, 2048, config.b_topk, 0.0, 64, 32, blocks, (0,), ((0, 0),))
    per_page = {
        "skip-scale": float(fixpipe_cycles_per_block_with(one_copy, spec, config) - o_bytes / rate / blocks),
        "pipeline": stage_costs(spec, config).cycles[Task.P_OUT],
        "design": evaluate(DesignPoint(), spec).check(Limit.FIXPIPE_P_ONLY).demand,
        "one-vector-core": float(fixpipe_cycles(spec, config, o_leaves=False)),
    }
    assert per_page == dict.fromkeys(per_page, p_bytes / rate)


def test_prose_values_of_assumptions_exist() -> None:
    """Every prose value an assumption names is defined in ascend_dsa.report.prose_values."""
    named = {name for a in ASSUMPTIONS for name in a.prose_values}
    assert named - set(PROSE_VALUES) == set()


def test_vector_passes_add_up_the_four_tasks() -> None:
    """13 passes: ND2NZ reads, writes (2); softmax max, exp, sum, cast (4); O scale 2 reads + 1 write (3); index 4."""
    passes = {a.key: a for a in ASSUMPTIONS}["vector-passes"]
    assert passes.value == 13
    assert passes.unit == "passes (2 + 4 + 3 + 4)"


def test_ub_slots_are_one_nz_block() -> None:
    """The slot model cuts a UB row into 32 B slots: one NZ block of 16 bf16 values (config.h's fractal)."""
    slots = {a.key: a for a in ASSUMPTIONS}["ub-row-bytes"]
    assert "(cut into 32 B slots)" in slots.quantity.en
    assert "分成 32 B 的槽位" in slots.quantity.zh
