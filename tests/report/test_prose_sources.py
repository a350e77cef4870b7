"""No number borrowed: changing one sourced constant changes exactly the prose values that are that quantity or
are computed from it, and no other (issue 16, item 4).

Each case gives the loaded package a changed constant in-process (the way ``test_claims_guard`` changes a published
figure), evaluates every prose value, and compares the names whose value changed with the names that depend on the
constant. A value that borrows a number (the 128-head output read off the L0C capacity, a request count read off
the queue depth) changes where it must not, or stays where it must change, and the test names it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.design_point import SHIPPED_DESIGN
from ascend_dsa.report.prose_values import PROSE_VALUES
from ascend_dsa.units import KiB
from tests.helpers.figures import replace_everywhere


@dataclass(frozen=True)
class ConstantChange:
    """One sourced constant changed: the objects replaced (old, new) and the prose values that must change."""

    name: str
    replacements: tuple[tuple[object, object], ...]
    dependent: frozenset[str]


def _prose_values() -> dict[str, object]:
    """Every prose value as (value, unit), or the name of the error it raises."""
    values: dict[str, object] = {}
    for name, value in PROSE_VALUES.items():
        try:
            quantity = value()
        except Exception as error:  # noqa: BLE001 - a value that cannot be computed has changed too
            values[name] = type(error).__name__
        else:
            values[name] = (quantity.value, quantity.unit)
    return values


_HEADS = 96
CHANGES = (
    ConstantChange(
        "L0C capacity",
        ((ASCEND_950, ASCEND_950.with_overrides(accumulator_bytes_per_core=320 * KiB)),),
        frozenset({"l0c_kib", "l0c_free"}),
    ),
    ConstantChange(
        "MTE2 queue depth",
        ((ASCEND_950, ASCEND_950.with_overrides(mte2_outstanding_requests=24)),),
        frozenset({"mte2_outstanding_requests", "mte2_tokens_in_flight"}),
    ),
    ConstantChange(
        "UB size",
        ((ASCEND_950, ASCEND_950.with_overrides(staging_bytes_per_core=384 * KiB)),),
        frozenset({"ub_bytes", "ub_kib", "ub_prefill_headroom_bytes", "ub_prefill_headroom_kib"}),
    ),
    ConstantChange(
        "heads per AI Core",
        (
            (SHIPPED_KERNEL, SHIPPED_KERNEL.with_overrides(heads_per_core=_HEADS)),
            (SHIPPED_DESIGN, dataclasses.replace(SHIPPED_DESIGN, heads_per_core=_HEADS)),
        ),
        frozenset(
            {
                "heads_per_core",
                "mma_m",
                "mma_m_per_vector_core",
                "mma_cycles_per_block",
                "mma_cycles_per_b_topk",
                "mma_minus_fixpipe_per_b_topk",
                "mma_excess_above",
                "fixpipe_excess_below",
                "fixpipe_1c1v_o_cycles",
                "fixpipe_1c1v_cycles_per_b_topk",
                "fixpipe_1c1v_cycles_shipped",
                "fixpipe_1c1v_p_only_cycles_shipped",
                "o_block_kib",
                "p_block_kib",
                "l0c_free",
                "identity_rescale_cycles",
                "identity_rescale_hf32_cycles",
                "identity_rescale_blocks",
                "prefill_cycles_per_block",
                "prefill_idle_cycles_per_block",
                "decode_cycles_per_block",
                "decode_extra_cycles_per_block",
                "ub_prefill_bytes",
                "ub_decode_fp4_sink_bytes",
                "ub_prefill_headroom_bytes",
                "ub_prefill_headroom_kib",
                "l2_headroom",
                "qk_cycles",
                "sv_cycles",
                "p_out_cycles",
                "softmax_cycles",
                "s_to_l1_cycles",
                "vector_path_cycles",
                "pipeline_margin_cycles",
                "vector_cycles_per_block",
                "softmax_latency_limit_cycles",
                "softmax_burst_limit_cycles",
                "softmax_average_limit_cycles",
                "softmax_first_wait_cycles",
                "ring_one_buffer_cycles_per_block",
                "ring_two_buffers_cycles_per_block",
                "ring_two_buffers_loader_wait_cycles",
            }
        ),
    ),
)


@pytest.mark.parametrize("change", CHANGES, ids=[c.name for c in CHANGES])
def test_a_changed_constant_changes_only_what_depends_on_it(change: ConstantChange) -> None:
    """The prose values that change are exactly those computed from the changed constant."""
    before = _prose_values()
    with pytest.MonkeyPatch.context() as monkeypatch:
        for old, new in change.replacements:
            replace_everywhere(monkeypatch, old, new)
        after = _prose_values()
    changed = {name for name in before if after[name] != before[name]}
    assert sorted(changed - change.dependent) == [], "changed but does not depend on it"
    assert sorted(change.dependent - changed) == [], "depends on it but did not change"


def test_the_128_head_output_is_not_the_l0c_capacity() -> None:
    """The output size the pages quote at 128 heads is heads x d_v x 4 B, which equals L0C only on the Ascend 950."""
    assert PROSE_VALUES["roofline_o_kib_128"]().value == PROSE_VALUES["l0c_kib"]().value
    assert "roofline_o_kib_128" not in CHANGES[0].dependent
