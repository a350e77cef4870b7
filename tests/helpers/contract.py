"""Public functions by example: ``Ok`` (a call and the value it must give) and ``Fails`` (a call, the error it must
raise and the words its message must contain), and the closed-form models' table of them.

The values are the report's or the kernel's (cited per row); the messages name the argument and the value given.
tests/models/test_contract_examples.py runs the table and keeps it complete for the modules in ``COVERED``;
tests/test_public_contract.py runs its own rows for the rest of ``ascend_dsa.__all__`` with the same two records.
"""

from __future__ import annotations

import math
import re
import types
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pytest

from ascend_dsa.errors import ForbiddenDesign, OutsideModel
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import Mode
from ascend_dsa.models import (
    block_cycles,
    design_point,
    l1_banks,
    memory_plans,
    nd2nz_stride,
    peak_clock,
    roofline,
    schedule,
    throughput,
)
from ascend_dsa.units import KiB

if TYPE_CHECKING:
    from collections.abc import Callable

S, K = ASCEND_950, SHIPPED_KERNEL
#: Modules whose every public function must have a success and a failure example below.
COVERED = (block_cycles, design_point, l1_banks, memory_plans, nd2nz_stride, peak_clock, roofline, schedule, throughput)


@dataclass(frozen=True)
class Ok:
    """A call that succeeds; ``check`` is the expected value or a predicate on the result."""

    function: Callable[..., Any]
    call: Callable[[], Any]
    expected: Any

    def run(self) -> None:
        """The call returns ``expected`` (or ``expected(result)`` holds, for a predicate)."""
        result = self.call()
        if isinstance(self.expected, types.FunctionType):
            assert self.expected(result), result
        else:
            assert result == self.expected


@dataclass(frozen=True)
class Fails:
    """A call that fails with ``error`` and a message matching ``words`` (a regular expression)."""

    function: Callable[..., Any]
    call: Callable[[], Any]
    error: type[Exception]
    words: str

    def run(self) -> None:
        """The call raises exactly ``error`` (not a subclass of ValueError standing in for it) naming ``words``."""
        with pytest.raises(Exception) as caught:  # noqa: PT011 - the exact class is asserted below
            self.call()
        assert type(caught.value) is self.error, caught.value
        assert re.search(self.words, str(caught.value)), str(caught.value)
        assert "\n" not in str(caught.value)


MODEL_EXAMPLES: tuple[Ok | Fails, ...] = (
    # --- roofline (report (zh) lines 85-111) ---------------------------------------------------------------------
    Ok(roofline.cube_cycles, lambda: roofline.cube_cycles(S, 64, 512), 8192),
    Fails(
        roofline.cube_cycles, lambda: roofline.cube_cycles(S, 0, 512), ValueError, r"^heads must be a positive .*got 0$"
    ),
    Ok(roofline.l2_bytes, lambda: roofline.l2_bytes(64, 512), 64 * 2048 + 512 * 1024),
    Fails(
        roofline.l2_bytes,
        lambda: roofline.l2_bytes(64, 512, kv_bytes_per_token=0),
        ValueError,
        r"^kv_bytes_per_token must be a positive integer, got 0$",
    ),
    Ok(roofline.l2_cycles, lambda: round(roofline.l2_cycles(S, 64, 512)), 6921),
    Fails(
        roofline.l2_cycles, lambda: roofline.l2_cycles(S, 64, 1.5), TypeError, r"^topk must be a whole number, got 1\.5"
    ),
    Ok(roofline.head_roofline, lambda: roofline.head_roofline(S, 64, 1024).cube_cycles, 16384),
    Fails(
        roofline.head_roofline, lambda: roofline.head_roofline(None, 64, 512), TypeError, r"^spec must be .*got None"
    ),
    Ok(roofline.head_roofline_sweep, lambda: len(roofline.head_roofline_sweep(S)), 8),
    Fails(
        roofline.head_roofline_sweep,
        lambda: roofline.head_roofline_sweep(S, ()),
        ValueError,
        r"^heads must list at least one value, got an empty grid$",
    ),
    # --- memory plans (report (zh) line 116, config.h:77-125) ----------------------------------------------------
    Ok(memory_plans.l0c_output_bytes, lambda: memory_plans.l0c_output_bytes(128), 256 * KiB),
    Fails(memory_plans.l0c_output_bytes, lambda: memory_plans.l0c_output_bytes(0), ValueError, r"^heads .* got 0$"),
    Ok(memory_plans.l0c_scores_bytes, lambda: memory_plans.l0c_scores_bytes(K), 16 * KiB),
    Fails(memory_plans.l0c_scores_bytes, lambda: memory_plans.l0c_scores_bytes(None), TypeError, r"^config must be"),
    Ok(memory_plans.l0c_used_bytes, lambda: memory_plans.l0c_used_bytes(K), 144 * KiB),
    Fails(memory_plans.l0c_used_bytes, lambda: memory_plans.l0c_used_bytes(K, None), TypeError, r"^model must be"),
    Ok(memory_plans.vector_cores_for_accumulator, lambda: memory_plans.vector_cores_for_accumulator(S, 128), 2),
    Fails(
        memory_plans.vector_cores_for_accumulator,
        lambda: memory_plans.vector_cores_for_accumulator(S, 256),
        ValueError,
        r"got 256 heads \(524288 B\)$",
    ),
    Ok(memory_plans.ub_plan, lambda: memory_plans.ub_plan(K, Mode.PREFILL).total_bytes, 259600),
    Fails(
        memory_plans.ub_plan, lambda: memory_plans.ub_plan(K, "decode", "fp4"), ForbiddenDesign, r"fp4-not-main-cache"
    ),
    Fails(memory_plans.ub_plan, lambda: memory_plans.ub_plan(K, "train"), ValueError, r"'train'"),
    Ok(
        memory_plans.shipped_ub_plans,
        lambda: tuple(p.total_bytes for p in memory_plans.shipped_ub_plans()),
        lambda totals: len(totals) == 6 and totals[0] == 259600,
    ),
    Fails(memory_plans.shipped_ub_plans, lambda: memory_plans.shipped_ub_plans(None), TypeError, r"^config must be"),
    Ok(memory_plans.l1_plan, lambda: memory_plans.l1_plan(S, K).bytes_per_bank, 196 * KiB),
    Fails(memory_plans.l1_plan, lambda: memory_plans.l1_plan(S, None), TypeError, r"^config must be .*got None"),
    Ok(memory_plans.layout_bytes_per_bank, lambda: memory_plans.layout_bytes_per_bank(S), (196 * KiB, 196 * KiB)),
    Fails(
        memory_plans.layout_bytes_per_bank,
        lambda: memory_plans.layout_bytes_per_bank(S, ((0, 1),)),
        TypeError,
        r"^layout item must be .*L1Region, got \(0, 1\)",
    ),
    # --- design point ----------------------------------------------------------------------------------------------
    Ok(design_point.fixpipe_bytes_per_cycle, lambda: design_point.fixpipe_bytes_per_cycle(S, 2), 256),
    Fails(
        design_point.fixpipe_bytes_per_cycle,
        lambda: design_point.fixpipe_bytes_per_cycle(S, 3),
        ValueError,
        r"^vector_cores must be 1 or 2 .*got 3$",
    ),
    Ok(design_point.fixpipe_cycles, lambda: design_point.fixpipe_cycles(S, K, o_leaves=True), Fraction(576)),
    Fails(
        design_point.fixpipe_cycles,
        lambda: design_point.fixpipe_cycles(S, K, o_leaves="y"),
        TypeError,
        r"^o_leaves must be True or False, got 'y'",
    ),
    Ok(design_point.evaluate, lambda: design_point.evaluate(design_point.DesignPoint(), S).fits, True),  # noqa: FBT003
    Fails(design_point.evaluate, lambda: design_point.evaluate(None, S), TypeError, r"^point must be .*got None"),
    Ok(design_point.smallest_compute_bound_heads, lambda: design_point.smallest_compute_bound_heads(S, 512), 64),
    Fails(
        design_point.smallest_compute_bound_heads,
        lambda: design_point.smallest_compute_bound_heads(S, 0),
        ValueError,
        r"^topk must be a positive integer, got 0$",
    ),
    # --- block cycles (report (zh) lines 138-142) ------------------------------------------------------------------
    Ok(block_cycles.mma_cycles_per_block, lambda: block_cycles.mma_cycles_per_block(S, K), Fraction(1024)),
    Fails(
        block_cycles.mma_cycles_per_block, lambda: block_cycles.mma_cycles_per_block(1, K), TypeError, r"^spec .*got 1"
    ),
    Ok(block_cycles.fixpipe_bytes_per_block, lambda: block_cycles.fixpipe_bytes_per_block(K), 144 * KiB),
    Fails(
        block_cycles.fixpipe_bytes_per_block,
        lambda: block_cycles.fixpipe_bytes_per_block(K, o_leaves=None),
        TypeError,
        r"^o_leaves must be True or False, got None",
    ),
    Ok(
        block_cycles.fixpipe_cycles_per_block,
        lambda: block_cycles.fixpipe_cycles_per_block(S, K),
        Fraction(1024 + 2 * 64),
    ),
    Fails(
        block_cycles.fixpipe_cycles_per_block,
        lambda: block_cycles.fixpipe_cycles_per_block(S, 1),
        TypeError,
        r"^config ",
    ),
    Ok(block_cycles.fixpipe_break_even_b_topk, lambda: block_cycles.fixpipe_break_even_b_topk(S, K), Fraction(512, 7)),
    Fails(
        block_cycles.fixpipe_break_even_b_topk,
        lambda: block_cycles.fixpipe_break_even_b_topk(S.with_overrides(fixpipe_bytes_per_cycle_1c1v=16), K),
        OutsideModel,
        r"^no B_TOPK lets MMA outlast FixPipe: .*fixpipe_bytes_per_cycle_1c1v = 16",
    ),
    Ok(block_cycles.hf32_fma_per_cycle, lambda: block_cycles.hf32_fma_per_cycle(S), 4096),
    Fails(block_cycles.hf32_fma_per_cycle, lambda: block_cycles.hf32_fma_per_cycle("950"), TypeError, r"^spec .*'950'"),
    Ok(
        block_cycles.identity_rescale_cycles,
        lambda: block_cycles.identity_rescale_cycles(S, 64, 64, 512),
        Fraction(8192),
    ),
    Fails(
        block_cycles.identity_rescale_cycles,
        lambda: block_cycles.identity_rescale_cycles(S, 0, 64, 512),
        ValueError,
        r"^m must be a positive integer, got 0$",
    ),
    # --- throughput and the peak clock (report (zh) lines 23-24) ---------------------------------------------------
    Ok(throughput.fraction_of_peak, lambda: round(throughput.fraction_of_peak(410e12, S), 4), 0.9479),
    Fails(
        throughput.fraction_of_peak,
        lambda: throughput.fraction_of_peak(math.nan, S),
        ValueError,
        r"^achieved_flops must be a finite number, got nan$",
    ),
    Ok(throughput.cycles_per_block_at, lambda: round(throughput.cycles_per_block_at(410e12, S, K)), 1080),
    Fails(
        throughput.cycles_per_block_at,
        lambda: throughput.cycles_per_block_at(-1.0, S, K),
        ValueError,
        r"^achieved_flops .* got -1\.0$",
    ),
    Ok(throughput.pipeline_bound_flops, lambda: throughput.pipeline_bound_flops(S, K), 2 * 4096 * 32 * 1.65e9),
    Fails(
        throughput.pipeline_bound_flops,
        lambda: throughput.pipeline_bound_flops(S, K, blocks=3),
        ValueError,
        r"^blocks must be an integer of at least \d+ to reach a steady state, got 3$",
    ),
    Ok(throughput.share_of_pipeline_bound, lambda: throughput.share_of_pipeline_bound(3.0, 4.0), 0.75),
    Fails(
        throughput.share_of_pipeline_bound,
        lambda: throughput.share_of_pipeline_bound(1.0, -2.0),
        ValueError,
        r"^bound_flops must be positive, got -2\.0$",
    ),
    Ok(peak_clock.flops_per_cycle, lambda: peak_clock.flops_per_cycle(S), 2 * 4096 * 32),
    Fails(peak_clock.flops_per_cycle, lambda: peak_clock.flops_per_cycle(None), TypeError, r"^spec .*got None"),
    Ok(
        peak_clock.clock_range_for_percent,
        lambda: peak_clock.clock_range_for_percent(410e12, 95, S),
        lambda r: r[0] < 1.65e9 < r[1],  # 95 % of the peak at 1650 MHz rounds to 95
    ),
    Fails(
        peak_clock.clock_range_for_percent,
        lambda: peak_clock.clock_range_for_percent(410e12, 0, S),
        ValueError,
        r"^percent must be a positive integer, got 0$",
    ),
    Ok(peak_clock.intersect, lambda: peak_clock.intersect((1.0, 3.0), (2.0, 4.0)), (2.0, 3.0)),
    Ok(peak_clock.intersect, lambda: peak_clock.intersect((1.0, 2.0), (3.0, 4.0)), None),
    Fails(
        peak_clock.intersect,
        lambda: peak_clock.intersect((3.0, 1.0)),
        ValueError,
        r"^each range must be \(low, high\) with low <= high, got \(3\.0, 1\.0\)$",
    ),
    # --- L1 banks (report (zh) line 242) -----------------------------------------------------------------------------
    Ok(l1_banks.l1_bank_bytes, lambda: l1_banks.l1_bank_bytes(S), 256 * KiB),
    Fails(l1_banks.l1_bank_bytes, lambda: l1_banks.l1_bank_bytes(None), TypeError, r"^spec "),
    Ok(l1_banks.l1_bank_ranges, lambda: l1_banks.l1_bank_ranges(S), ((0, 256 * KiB), (256 * KiB, 512 * KiB))),
    Fails(l1_banks.l1_bank_ranges, lambda: l1_banks.l1_bank_ranges(K), TypeError, r"^spec must be .*KernelConfig"),
    Ok(l1_banks.l1_bank_of, lambda: (l1_banks.l1_bank_of(256 * KiB - 1, S), l1_banks.l1_bank_of(256 * KiB, S)), (0, 1)),
    Fails(
        l1_banks.l1_bank_of,
        lambda: l1_banks.l1_bank_of(512 * KiB, S),
        ValueError,
        r"^address must be a byte offset in \[0, 524288\), got 524288$",
    ),
    # --- the schedule (report (zh) lines 166-208) --------------------------------------------------------------------
    Ok(schedule.vector_stage, lambda: schedule.vector_stage("softmax").offset, 1),
    Fails(
        schedule.vector_stage,
        lambda: schedule.vector_stage("nope"),
        ValueError,
        r"^key must name a VECTOR stage .*'nope'$",
    ),
    Ok(schedule.pipeline_depth, schedule.pipeline_depth, 6),
    Fails(
        schedule.pipeline_depth,
        lambda: schedule.pipeline_depth(()),
        ValueError,
        r"^stages must list at least one stage, got none$",
    ),
    Ok(
        schedule.steps_between_scores_and_use,
        schedule.steps_between_scores_and_use,
        (schedule.CubeStep("sv", -1), schedule.CubeStep("qk", 1)),  # report (zh) lines 174-180: SV[i-1], QK[i+1]
    ),
    Fails(
        schedule.steps_between_scores_and_use,
        lambda: schedule.steps_between_scores_and_use((schedule.CubeStep("sv", 0), schedule.CubeStep("qk", 0))),
        ValueError,
        r"^steps must hold QK\[i\] before SV\[i\]",
    ),
    Ok(schedule.qk_cycles_per_block, lambda: schedule.qk_cycles_per_block(S, K), Fraction(512)),
    Fails(schedule.qk_cycles_per_block, lambda: schedule.qk_cycles_per_block(S, None), TypeError, r"^config "),
    Ok(schedule.sv_cycles_per_block, lambda: schedule.sv_cycles_per_block(S, K), Fraction(512)),
    Fails(schedule.sv_cycles_per_block, lambda: schedule.sv_cycles_per_block(None, K), TypeError, r"^spec "),
    Ok(schedule.softmax_slack_cycles, lambda: schedule.softmax_slack_cycles(S, K), Fraction(1024)),
    Fails(schedule.softmax_slack_cycles, lambda: schedule.softmax_slack_cycles(S, K, None), TypeError, r"^model "),
    Ok(schedule.index_group_remainder, lambda: schedule.index_group_remainder(K.with_overrides(b_topk=96)), 640 % 96),
    Fails(schedule.index_group_remainder, lambda: schedule.index_group_remainder(None), TypeError, r"^config "),
    Ok(schedule.blocks_per_index_group, lambda: schedule.blocks_per_index_group(K), 10),
    Fails(schedule.blocks_per_index_group, lambda: schedule.blocks_per_index_group("K"), TypeError, r"^config .*'K'"),
    Ok(schedule.flag_before_gather, lambda: schedule.flag_before_gather(1, K), False),  # noqa: FBT003
    Fails(
        schedule.flag_before_gather,
        lambda: schedule.flag_before_gather(-1, K),
        ValueError,
        r"^block_ahead must be a non-negative integer, got -1$",
    ),
    Ok(schedule.report_order_share, lambda: schedule.report_order_share(K), Fraction(1, 10)),
    Fails(schedule.report_order_share, lambda: schedule.report_order_share(None), TypeError, r"^config "),
    # --- ND to NZ strides (report (zh) lines 150-152, 222-234) ------------------------------------------------------
    Ok(nd2nz_stride.token_bytes, nd2nz_stride.token_bytes, 1024),
    Fails(nd2nz_stride.token_bytes, lambda: nd2nz_stride.token_bytes(None), TypeError, r"^model "),
    Ok(nd2nz_stride.nz_block_bytes, lambda: nd2nz_stride.nz_block_bytes(K), 32),
    Fails(nd2nz_stride.nz_block_bytes, lambda: nd2nz_stride.nz_block_bytes(None), TypeError, r"^config "),
    Ok(nd2nz_stride.blocks_per_token, lambda: nd2nz_stride.blocks_per_token(K), 32),
    Fails(nd2nz_stride.blocks_per_token, lambda: nd2nz_stride.blocks_per_token(K, 1), TypeError, r"^model .*got 1"),
    Ok(nd2nz_stride.l1_nz_stride_bytes, lambda: nd2nz_stride.l1_nz_stride_bytes(K), 64 * 32),
    Fails(nd2nz_stride.l1_nz_stride_bytes, lambda: nd2nz_stride.l1_nz_stride_bytes(None), TypeError, r"^config "),
    Ok(nd2nz_stride.ub_nz_stride_bytes, lambda: nd2nz_stride.ub_nz_stride_bytes(K), 33 * 32),
    Fails(
        nd2nz_stride.ub_nz_stride_bytes,
        lambda: nd2nz_stride.ub_nz_stride_bytes(K, pad_rows=-1),
        ValueError,
        r"^pad_rows must be .*got -1$",
    ),
    Ok(nd2nz_stride.bank_slots, lambda: nd2nz_stride.bank_slots(1056), (0, 1, 2, 3, 4, 5, 6, 7)),
    Fails(
        nd2nz_stride.bank_slots,
        lambda: nd2nz_stride.bank_slots(0),
        ValueError,
        r"^stride_bytes must be a positive integer, got 0$",
    ),
    Ok(nd2nz_stride.worst_slot_conflict, lambda: nd2nz_stride.worst_slot_conflict(1024), 8),
    Fails(
        nd2nz_stride.worst_slot_conflict,
        lambda: nd2nz_stride.worst_slot_conflict(1024, 0),
        ValueError,
        r"^block_bytes .*got 0$",
    ),
    Ok(nd2nz_stride.min_conflict_free_padding, lambda: nd2nz_stride.min_conflict_free_padding(K), 1),
    Fails(
        nd2nz_stride.min_conflict_free_padding,
        lambda: nd2nz_stride.min_conflict_free_padding(K, limit=0),
        ValueError,
        r"^no padding up to limit = 0 rows avoids conflicts for B_TOPK = 64$",
    ),
)
