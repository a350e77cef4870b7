import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.pipeline import (
    VECTOR_SCHEDULE,
    StageCosts,
    Task,
    Unit,
    bounding_unit,
    buffer_depth,
    cube_wait_bounds,
    first_waiting_cycles,
    implied_buffer_depths,
    simulate,
    stage_costs,
    steady_busy_share,
)
from ascend_dsa.models.schedule import SYSTOLIC_ARRAY_DEPTH, VECTOR_STAGES, pipeline_depth

COSTS = stage_costs(ASCEND_950)


def test_schedule_offsets_are_the_reports() -> None:
    """The seven VECTOR steps work on blocks i+5, i+3, i+1, i+5, i, i+1, i+5 (report (zh) lines 188-200)."""
    assert [a.offset for a in VECTOR_SCHEDULE] == [5, 3, 1, 5, 0, 1, 5]
    assert pipeline_depth(VECTOR_SCHEDULE) == pipeline_depth() == SYSTOLIC_ARRAY_DEPTH == 6
    assert [(a.order, a.offset, a.source) for a in VECTOR_SCHEDULE] == [
        (s.report_step, s.offset, s.source) for s in VECTOR_STAGES
    ]


def test_buffer_depths_match_the_kernel() -> None:
    """The offsets imply 6 pipeline slots, 3 UB KV, 4 index and 4 L1 KV buffers, as config.h and kernel_body.h."""
    depths = {d.name: (d.implied, d.shipped) for d in implied_buffer_depths()}
    assert depths == {
        "pipeline (systolic array)": (6, 6),
        "UB KV buffers": (3, SHIPPED_KERNEL.ub_kv_buffers),
        "index buffers": (4, SHIPPED_KERNEL.index_buffers),
        "L1 KV buffers": (4, SHIPPED_KERNEL.l1_kv_buffers),
    }


def test_buffer_depth_rule() -> None:
    """Offsets 5 and 3 on different pipes need 3 buffers; 5 and 1 on one in-order pipe, reader first, need 4."""
    assert buffer_depth(5, 3, reader_first_in_order=False) == 3
    assert buffer_depth(5, 1, reader_first_in_order=True) == 4
    with pytest.raises(ValueError, match="writer_offset must be at least reader_offset"):
        buffer_depth(1, 3, reader_first_in_order=False)


def test_costs_from_the_preset() -> None:
    """QK and SV take 512 cycles each at 64 x 64 x 512; P leaves L0C in 64 cycles at 1C2V, O in 512."""
    assert COSTS.cycles[Task.QK] == COSTS.cycles[Task.SV] == 512
    assert COSTS.cycles[Task.P_OUT] == 64
    assert COSTS.cycles[Task.O_OUT] == 512
    assert {s.kind for s in COSTS.sources.values()} <= {"derived", "assumed"}
    assert COSTS.sources[Task.SOFTMAX].kind == "assumed"


def test_shipped_steady_state() -> None:
    """The CUBE is busy all the time; P[i] is ready about 1024 cycles before SV[i] uses it (report (zh) line 184)."""
    timeline = simulate(COSTS)
    assert timeline.cube_utilisation == pytest.approx(1.0)
    assert timeline.cycles_per_block == pytest.approx(1024)
    assert timeline.steady(timeline.p_ready_to_used) == pytest.approx(1024)
    assert 0 < timeline.steady(timeline.spare) < 1024 - COSTS.vector_path_cycles + 1
    qk, sv = timeline.op(Task.QK, 10), timeline.op(Task.SV, 10)
    assert sv.start - qk.end == pytest.approx(1024)


def test_cube_order_is_qk_next_then_sv() -> None:
    """On the CUBE, QK[i+1] runs before SV[i] (report (zh) lines 174-182)."""
    timeline = simulate(COSTS)
    assert timeline.op(Task.QK, 5).end <= timeline.op(Task.SV, 4).start
    assert timeline.op(Task.SV, 4).end <= timeline.op(Task.QK, 6).start


def test_a_slower_softmax_eats_the_margin_then_the_cube() -> None:
    """Up to a point a slower softmax only shrinks the margin; beyond it the CUBE waits."""
    base = simulate(COSTS).steady(simulate(COSTS).spare)
    slower = simulate(COSTS.with_cycles(softmax=512))
    slowest = simulate(COSTS.with_cycles(softmax=1024))
    assert slower.steady(slower.spare) < base
    assert slower.cube_utilisation == pytest.approx(1.0)
    assert slowest.steady(slowest.spare) == 0
    assert slowest.cube_utilisation < 0.9


def test_rescaling_every_block_with_one_vector_core_starves_the_cube() -> None:
    """With 1C1V and O leaving L0C every block the CUBE is busy less than half the time."""
    one_v = SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=1)
    timeline = simulate(stage_costs(ASCEND_950, one_v), one_v, rescale_blocks=range(1, 32))
    assert timeline.cube_utilisation < 0.5
    assert simulate(stage_costs(ASCEND_950, one_v), one_v).cube_utilisation == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"blocks": 4}, "blocks must be an integer of at least 8"),
        ({"rescale_blocks": (0,)}, "rescale_blocks must lie in 1..31"),
    ],
)
def test_bad_simulation_input(kwargs: dict[str, object], message: str) -> None:
    """Too few blocks for a steady state, or a rescale at block 0, is refused."""
    with pytest.raises(ValueError, match=message):
        simulate(COSTS, **kwargs)  # type: ignore[arg-type]


def test_bad_costs() -> None:
    """A negative cost is refused, naming the task."""
    with pytest.raises(ValueError, match="cycles of softmax must be a non-negative number"):
        COSTS.with_cycles(softmax=-1)


def _cube_waits(costs: StageCosts, blocks: int = 64, rescale: range | tuple[int, ...] = ()) -> bool:
    timeline = simulate(costs, SHIPPED_KERNEL, blocks, rescale)
    return timeline.cycles_per_block > costs.cycles[Task.QK] + costs.cycles[Task.SV]


def test_margin_is_qk_minus_the_s_copy() -> None:
    """The shipped margin is QK[i+1] less the S copy (512 - 16 = 496 cycles), in closed form and simulated."""
    bounds = cube_wait_bounds(COSTS)
    assert bounds.margin_cycles == COSTS.cycles[Task.QK] - COSTS.cycles[Task.S_TO_L1] == 496
    timeline = simulate(COSTS)
    assert timeline.steady(timeline.spare) == pytest.approx(bounds.margin_cycles)
    assert bounds.never_waits
    assert not bounds.waits


def test_latency_condition_at_its_boundary() -> None:
    """Without other VECTOR work, the CUBE waits from the cycle P out + softmax + S to L1 exceeds QK + SV."""
    free = COSTS.with_cycles(nd2nz=0)
    limit = 1024 - COSTS.cycles[Task.P_OUT] - COSTS.cycles[Task.S_TO_L1]
    at, over = free.with_cycles(softmax=limit), free.with_cycles(softmax=limit + 1)
    assert cube_wait_bounds(at).margin_cycles == 0
    assert cube_wait_bounds(at).never_waits
    assert not _cube_waits(at)
    assert cube_wait_bounds(over).waits
    assert _cube_waits(over)
    assert first_waiting_cycles(free, Task.SOFTMAX) == limit + 1


def test_throughput_condition_brackets_the_first_wait() -> None:
    """The VECTOR keeps up if ND2NZ, softmax and the whole index burst fit in QK + SV; never if their average does not.

    The shipped softmax may grow to 728 cycles with no wait, must wait above 764, and first waits at 763: a VECTOR
    path of 843 cycles, well inside the 1024-cycle window.
    """
    first = first_waiting_cycles(COSTS, Task.SOFTMAX)
    assert first == 763
    sure_free = 1024 - COSTS.cycles[Task.ND2NZ] - COSTS.cycles[Task.PROCESS_INDEX]
    sure_wait = 1024 - COSTS.cycles[Task.ND2NZ] - COSTS.cycles[Task.PROCESS_INDEX] / 10 + 1
    assert sure_free < first <= sure_wait
    assert cube_wait_bounds(COSTS.with_cycles(softmax=sure_free)).never_waits
    assert not cube_wait_bounds(COSTS.with_cycles(softmax=sure_free + 1)).never_waits
    assert not cube_wait_bounds(COSTS.with_cycles(softmax=sure_wait - 1)).waits
    assert cube_wait_bounds(COSTS.with_cycles(softmax=sure_wait)).waits
    assert not _cube_waits(COSTS.with_cycles(softmax=first - 1))
    assert _cube_waits(COSTS.with_cycles(softmax=first))
    assert COSTS.with_cycles(softmax=first).vector_path_cycles < 1024


@pytest.mark.parametrize("nd2nz", [0, 128, 256, 384])
@pytest.mark.parametrize("process_index", [0, 40, 160])
@pytest.mark.parametrize("softmax", [128, 512, 700, 800, 950, 1100])
def test_closed_form_agrees_with_the_simulation(nd2nz: int, process_index: int, softmax: int) -> None:
    """Where the closed form says the CUBE waits, or cannot wait, the simulation agrees."""
    costs = COSTS.with_cycles(nd2nz=nd2nz, process_index=process_index, softmax=softmax)
    bounds = cube_wait_bounds(costs)
    if bounds.waits:
        assert _cube_waits(costs)
    if bounds.never_waits:
        assert not _cube_waits(costs)


def test_rescale_every_block_waits() -> None:
    """Rescaling every block adds O out and O scale (768 cycles) to a block's work: the VECTOR falls behind."""
    bounds = cube_wait_bounds(COSTS, rescale_every_block=True)
    assert bounds.unit_cycles[Unit.VECTOR] == 388 + COSTS.cycles[Task.SCALE_O]
    assert bounds.waits
    assert _cube_waits(COSTS, 200, range(1, 200))


def test_first_waiting_cycles_needs_a_bracket() -> None:
    """The bisection refuses a task whose cost cannot make the CUBE wait within its limit."""
    with pytest.raises(ValueError, match="must run free at 0 cycles of index-fetch and wait at 16"):
        first_waiting_cycles(COSTS, Task.INDEX_FETCH, limit_cycles=16)


def test_vector_costs_from_their_passes() -> None:
    """Softmax 128, index preprocessing 40 and gather 692.06 cycles a block, from the passes and the 950's rates."""
    # 256 B/cycle VECTOR, 64 KV tokens, 32 heads per VECTOR Core, 4 B floats: softmax 4 x 32 x 64 x 4 / 256 = 128,
    # the index 4 x 640 x 4 / 256 = 40; the gather 64 x 1024 B at 5 TB/s / (1.65 GHz x 32 cores), not rounded down.
    cycles = stage_costs(ASCEND_950).cycles
    assert cycles[Task.SOFTMAX] == 128
    assert cycles[Task.PROCESS_INDEX] == 40
    assert cycles[Task.GATHER] == pytest.approx(64 * 1024 * 1.65e9 * 32 / 5e12, rel=1e-12)


def test_simulation_needs_eight_blocks_for_a_steady_state() -> None:
    """8 blocks are the fewest (a steady window after the 6-step fill): 7 are refused naming the number."""
    costs = stage_costs(ASCEND_950)
    assert simulate(costs, blocks=8).blocks == 8
    with pytest.raises(ValueError, match=r"^blocks must be an integer of at least 8 to reach a steady state, got 7$"):
        simulate(costs, blocks=7)


def test_every_block_runs_every_vector_task_and_index_groups_start_every_ten_blocks() -> None:
    """Each task runs for each of 32 blocks; the index comes at blocks 0, 10, 20, 30 (640 indices, 64 a block)."""
    costs = stage_costs(ASCEND_950)
    # O made very slow to leave L0C: SV[5] waits past twice the end of S[5]'s move, where a remainder is no spare
    slow_o = StageCosts({**costs.cycles, Task.O_OUT: 100_000.0}, costs.sources)
    timeline = simulate(slow_o, blocks=32, rescale_blocks=(5, 31))
    done = {(o.task, o.block): o for o in timeline.ops}
    for task in (Task.GATHER, Task.ND2NZ, Task.KV_TO_L1, Task.SOFTMAX, Task.S_TO_L1, Task.QK, Task.SV, Task.P_OUT):
        assert sorted(b for t, b in done if t is task) == list(range(32)), task
    assert sorted(b for t, b in done if t is Task.INDEX_FETCH) == [0, 10, 20, 30]
    for b in range(32):
        assert done[(Task.GATHER, b)].start >= done[(Task.PROCESS_INDEX, b - b % 10)].end
        assert done[(Task.SOFTMAX, b)].start >= done[(Task.PROCESS_INDEX, b - b % 10)].end
    assert done[(Task.O_OUT, 5)].start >= done[(Task.SV, 4)].end  # O[5] leaves after SV[4], not SV[0]
    assert sorted(b for t, b in done if t is Task.SCALE_O) == [5, 31]  # the last block's O scale, in the last step
    assert done[(Task.SV, 5)].start > 2 * done[(Task.S_TO_L1, 5)].end
    assert timeline.spare == tuple(done[(Task.SV, b)].start - done[(Task.S_TO_L1, b)].end for b in range(32))


# --- what bounds the steady state --------------------------------------------------------------------------------


def test_the_shipped_kernel_is_bounded_by_the_cube() -> None:
    """As shipped the CUBE never idles in the steady state, every other unit does, and the CUBE bounds the period."""
    timeline = simulate(COSTS)
    shares = steady_busy_share(timeline)
    assert shares[Unit.CUBE] == pytest.approx(1.0)
    assert all(0 <= shares[u] < 1 for u in Unit if u is not Unit.CUBE)
    assert bounding_unit(timeline) is Unit.CUBE


def test_a_share_is_busy_cycles_over_the_window() -> None:
    """The CUBE's share is its QK + SV per block over the period: below 1 once a slow softmax makes it wait."""
    timeline = simulate(COSTS.with_cycles(softmax=COSTS.cycles[Task.SOFTMAX] * 8))
    cube = COSTS.cycles[Task.QK] + COSTS.cycles[Task.SV]
    assert steady_busy_share(timeline)[Unit.CUBE] == pytest.approx(cube / timeline.cycles_per_block)
    assert bounding_unit(timeline) is Unit.VECTOR


def test_a_late_s_is_a_latency_bound_with_no_unit_busy_all_the_time() -> None:
    """When S reaches L1 too late every unit idles at times: no unit bounds the period, the hand-offs do."""
    timeline = simulate(COSTS.with_cycles(s_to_l1=900))
    assert timeline.cube_utilisation < 1
    assert max(steady_busy_share(timeline).values()) < 1
    assert bounding_unit(timeline) is None
