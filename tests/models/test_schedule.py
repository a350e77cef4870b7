import dataclasses

import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.schedule import (
    CUBE_STEPS,
    SYSTOLIC_ARRAY_DEPTH,
    VECTOR_STAGES,
    blocks_per_index_group,
    flag_before_gather,
    index_group_remainder,
    pipeline_depth,
    qk_cycles_per_block,
    report_order_share,
    softmax_slack_cycles,
    sv_cycles_per_block,
    vector_stage,
)


def test_offsets_in_report_order() -> None:
    """The code's ACTIVATE offsets, in the report's step order, are 5, 3, 1, 5, 0, 1, 5 (lines 188-200)."""
    assert [s.offset for s in VECTOR_STAGES] == [5, 3, 1, 5, 0, 1, 5]
    assert [s.report_line for s in VECTOR_STAGES] == [188, 190, 192, 194, 196, 198, 200]


def test_depth_equals_systolic_array() -> None:
    """Largest offset + 1 is the systolic array's depth of 6."""
    assert pipeline_depth() == SYSTOLIC_ARRAY_DEPTH == 6


def test_softmax_slack_is_1024_cycles() -> None:
    """SV[i-1] (512) + QK[i+1] (512) = 1024 cycles between P[i] ready and used (report (zh) line 184)."""
    assert qk_cycles_per_block(ASCEND_950, SHIPPED_KERNEL) == 512
    assert sv_cycles_per_block(ASCEND_950, SHIPPED_KERNEL) == 512
    assert softmax_slack_cycles(ASCEND_950, SHIPPED_KERNEL) == 1024


def test_report_order_only_at_group_starts() -> None:
    """Steps 6 and 7 run in the report's order only when block i+5 starts a group of 10 blocks."""
    assert blocks_per_index_group(SHIPPED_KERNEL) == 10
    assert [flag_before_gather(b, SHIPPED_KERNEL) for b in range(12)] == [True] + [False] * 9 + [True, False]
    assert report_order_share(SHIPPED_KERNEL) == pytest.approx(0.1)


def test_b_topk_96_does_not_divide_the_index_group() -> None:
    """640 mod 96 = 64: B_TOPK = 96 breaks config.h:57."""
    config = SHIPPED_KERNEL.with_overrides(b_topk=96)
    assert index_group_remainder(config) == 64
    with pytest.raises(ValueError, match="b_topk must divide"):
        blocks_per_index_group(config)


def test_unknown_stage() -> None:
    """An unknown stage name is an error listing the stages."""
    assert vector_stage("softmax").offset == 1
    with pytest.raises(ValueError, match="index-read"):
        vector_stage("nope")


def test_negative_block() -> None:
    """A negative block index is an error naming block_ahead."""
    with pytest.raises(ValueError, match="block_ahead"):
        flag_before_gather(-1, SHIPPED_KERNEL)


def test_the_cube_loop_is_the_reports_order() -> None:
    """Report (zh) lines 174-180: around block i the CUBE runs QK[i], SV[i-1], QK[i+1], SV[i]."""
    assert [(s.product, s.offset) for s in CUBE_STEPS] == [("qk", 0), ("sv", -1), ("qk", 1), ("sv", 0)]


def test_a_stage_is_frozen() -> None:
    """The stages are shared by every page: a field cannot be reassigned."""
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'offset'$"):
        VECTOR_STAGES[0].offset = 9  # type: ignore[misc]
