import dataclasses

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.memory_plans import (
    l0c_output_bytes,
    l0c_scores_bytes,
    l0c_used_bytes,
    vector_cores_for_accumulator,
)
from ascend_dsa.units import KiB


def test_l0c_plans() -> None:
    """O at 128 heads fills 256 KiB; at 64 heads O + P use 144 KiB (report (zh) line 116; P: config.h:28, 55)."""
    assert l0c_output_bytes(128) == 256 * KiB
    assert l0c_scores_bytes(SHIPPED_KERNEL) == 16 * KiB
    assert l0c_used_bytes(SHIPPED_KERNEL) == 144 * KiB


import pytest  # noqa: E402

from ascend_dsa.errors import ForbiddenDesign  # noqa: E402
from ascend_dsa.facts.code_figures import SHIPPED_UB_TOTALS  # noqa: E402
from ascend_dsa.facts.hardware import ASCEND_950  # noqa: E402
from ascend_dsa.facts.kv_formats import KvFormat, Mode  # noqa: E402
from ascend_dsa.models.memory_plans import (  # noqa: E402
    SHIPPED_L1_LAYOUT,
    l1_plan,
    layout_bytes_per_bank,
    shipped_ub_plans,
    ub_plan,
)


@pytest.mark.parametrize("shipped", SHIPPED_UB_TOTALS, ids=lambda t: t.instantiation)
def test_ub_plan_reproduces_each_shipped_total(shipped: object) -> None:
    """Each of the six instantiations sums, field by field, to its sizeof (config.h:77-125) and fits 256 KiB."""
    plan = ub_plan(SHIPPED_KERNEL, shipped.mode, fp4_extra=shipped.fp4_extra, sink=shipped.sink)  # type: ignore[attr-defined]
    assert plan.total_bytes == shipped.total_bytes  # type: ignore[attr-defined]
    assert plan.total_bytes == sum(f.bytes for f in plan.fields)  # every field 32 B aligned but the last
    assert plan.fits(ASCEND_950)


def test_prefill_field_sizes() -> None:
    """Prefill: gathered_kv 3 x 32 x 512 bf16 = 96 KiB, the padded NZ tile 33 x 512 bf16, O 32 x 512 fp32."""
    fields = {f.name: f for f in ub_plan(SHIPPED_KERNEL, Mode.PREFILL).fields}
    assert fields["gathered_kv"].bytes == 96 * KiB
    assert fields["gathered_kv_in_nz"].bytes == 33 * 512 * 2
    assert fields["output_accum"].bytes == 64 * KiB
    assert fields["fp8_scales_bf16"].bytes == 0
    assert fields["row_max_max_delta"].bytes == 16
    assert len(fields) == 20


def test_prefill_headroom_is_2544_bytes() -> None:
    """Prefill leaves 262144 - 259600 = 2544 B of UB."""
    assert shipped_ub_plans()[0].headroom_bytes(ASCEND_950) == 2544


def test_one_vector_core_doubles_the_per_core_plan() -> None:
    """With 1C1V one VECTOR Core holds all 64 rows and 64 tokens: the plan no longer fits UB."""
    plan = ub_plan(SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=1), Mode.PREFILL)
    assert plan.total_bytes > 256 * KiB
    assert not plan.fits(ASCEND_950)


def test_forbidden_plans_raise_naming_the_rule() -> None:
    """B_TOPK 96 with INDEX_BLOCK_SIZE 640, and FP4 as the main cache, raise ForbiddenDesign."""
    with pytest.raises(ForbiddenDesign, match="index-block-multiple-of-b-topk"):
        ub_plan(SHIPPED_KERNEL.with_overrides(b_topk=96), Mode.PREFILL)
    with pytest.raises(ForbiddenDesign, match="fp4-not-main-cache"):
        ub_plan(SHIPPED_KERNEL, Mode.DECODE, KvFormat.FP4)


def test_l1_plan_matches_the_shipped_layout() -> None:
    """Q 2 x 64 KiB, KV 4 x 64 KiB, S 8 KiB, split in two: 196 KiB in each bank, as the kernel's addresses say."""
    plan = l1_plan(ASCEND_950, SHIPPED_KERNEL)
    assert plan.bytes_per_bank == 196 * KiB
    assert plan.total_bytes == 392 * KiB
    assert plan.headroom_bytes(ASCEND_950) == 60 * KiB
    assert layout_bytes_per_bank(ASCEND_950, SHIPPED_L1_LAYOUT) == (196 * KiB, 196 * KiB)


def test_accumulator_needs_both_vector_cores_at_128_heads() -> None:
    """64 heads fit one UB with room to spare; 128 heads fill it, so two cores must share (report (zh) line 116)."""
    assert vector_cores_for_accumulator(ASCEND_950, 64) == 1
    assert vector_cores_for_accumulator(ASCEND_950, 128) == 2


def test_accumulator_too_large_for_every_core_raises() -> None:
    """256 heads exceed what both VECTOR Cores can share, and the message names the heads."""
    with pytest.raises(ValueError, match="got 256 heads"):
        vector_cores_for_accumulator(ASCEND_950, 256)


@pytest.mark.parametrize("flag", ["fp4_extra", "sink"])
@pytest.mark.parametrize("value", ["no", 0, None])
def test_flags_take_only_true_or_false(flag: str, value: object) -> None:
    """fp4_extra="no" or sink="no" is a TypeError naming the flag, not a silent True."""
    with pytest.raises(TypeError, match=f"{flag} must be True or False"):
        ub_plan(SHIPPED_KERNEL, Mode.DECODE, **{flag: value})  # type: ignore[arg-type]


def test_every_ub_field_cites_its_line_of_config_h_and_counts_whole_bytes() -> None:
    """Each field of UnifiedBufferMemoryPlan names its line of config.h; shapes and sizes are whole numbers."""
    plan = ub_plan(SHIPPED_KERNEL, Mode.DECODE, fp4_extra=True, sink=True)
    assert {f.name: f.source.citation for f in plan.fields} == {
        "gathered_kv": "config.h:78",
        "fp8_scales_bf16": "config.h:79",
        "gathered_kv_in_nz": "config.h:81",
        "output_accum": "config.h:83",
        "cur_output_frag": "config.h:84",
        "p": "config.h:86",
        "attn_sink": "config.h:88",
        "row_max": "config.h:91",
        "row_max_for_o": "config.h:92",
        "row_sum": "config.h:94",
        "row_denorm": "config.h:95",
        "row_scales": "config.h:98",
        "indices": "config.h:101",
        "global_kv_ptr_offset": "config.h:111",
        "src_stride_in_gather2": "config.h:112",
        "smaller_indices": "config.h:113",
        "larger_indices": "config.h:114",
        "gathered_kv_fp4": "config.h:119",
        "fp4_scales_bf16": "config.h:121",
        "row_max_max_delta": "config.h:123",
    }
    assert all(type(n) is int for f in plan.fields for n in f.shape)
    assert type(plan.total_bytes) is int


def test_row_statistics_widen_with_the_heads_past_one_vector() -> None:
    """config.h:91-94: row_max[2][max(MMA_M_PER_V * 2, 64)]; at 128 heads MMA_M_PER_V is 64, so 128 floats a row."""
    plan = ub_plan(SHIPPED_KERNEL.with_overrides(heads_per_core=128), Mode.PREFILL)
    shapes = {f.name: f.shape for f in plan.fields}
    assert shapes["row_max"] == shapes["row_max_for_o"] == shapes["row_sum"] == (2, 128)
    assert shapes["row_denorm"] == (2, 64)


def test_no_heads_is_refused_and_a_plan_is_frozen() -> None:
    """l0c_output_bytes(0) names the value; a UbPlan cannot be changed in place."""
    with pytest.raises(ValueError, match=r"^heads must be a positive integer, got 0$"):
        l0c_output_bytes(0)
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'sink'$"):
        ub_plan(SHIPPED_KERNEL, Mode.PREFILL).sink = True  # type: ignore[misc]
