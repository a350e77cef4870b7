"""The chapters' exercises, each solved by the package's models: recompute a figure, a what-if, reason with a number.

Every exercise is an `Exercise` (``report.exercise_rules``): its question quotes only numbers its solver
computes (``{name}``), its steps cite the report line or kernel line they rest on, and its answer comes from the
same model the chapter's tables use, for a `ClaimContext`, so a changed constant changes every answer with it.
The inputs a what-if changes (a head count, a bandwidth) are named constants here, read by the question, the solver
and the live link alike.

Why this module is long: it is data, one short solver per exercise (about forty), each with its sentences in both
languages; split by chapter, the shared helpers at the top would need a module of their own.
"""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import ASCEND_950, peak_flops, ridge_flop_per_byte
from ascend_dsa.facts.hopper import H800, H800_THROTTLED_CLOCK_HZ, HOPPER_HEADS_PER_CTA, MLA_V32
from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST, SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import FP8_V41, KvFormat, kv_bytes_per_token
from ascend_dsa.facts.provenance import Source, code_line, report_line
from ascend_dsa.facts.report_inputs import REPORT_ALTERNATIVE_B_TOPK
from ascend_dsa.lang import Text
from ascend_dsa.models.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_bytes_per_block,
    fixpipe_cycles_per_block,
    identity_rescale_cycles,
    mma_cycles_per_block,
)
from ascend_dsa.models.design_point import (
    SHIPPED_DESIGN,
    DesignPoint,
    KvCache,
    Limit,
    LimitCheck,
    evaluate,
    fixpipe_cycles,
)
from ascend_dsa.models.hopper import crossover_gain, dequant_cycles_per_token, mma_cycles_per_token
from ascend_dsa.models.memory_plans import (
    SHIPPED_L1_LAYOUT_SOURCE,
    l0c_output_bytes,
    l0c_scores_bytes,
    l0c_used_bytes,
    layout_bytes_per_bank,
)
from ascend_dsa.models.mte2 import requests_per_block, tokens_in_flight
from ascend_dsa.models.nd2nz_stride import (
    UB_VECTOR_BYTES,
    blocks_per_token,
    min_conflict_free_padding,
    nz_block_bytes,
    token_bytes,
    ub_nz_stride_bytes,
)
from ascend_dsa.models.nz_layout import nd_offset_bytes, nz_offset_bytes
from ascend_dsa.models.pipeline import Task, buffer_depth, cube_wait_bounds, stage_costs
from ascend_dsa.models.rescale_bound import rescale_factor_bound
from ascend_dsa.models.roofline import FLOP_PER_FMA, REPORT_TOPK, head_roofline
from ascend_dsa.models.schedule import VECTOR_STAGES, pipeline_depth, vector_stage
from ascend_dsa.models.ss_buffer import (
    SS_BLOCK_SLOTS,
    SS_FLAG_BYTES,
    SS_JOB_SLOTS,
    SS_LAYOUT_SOURCE,
    flag_offset_bytes,
    ss_buffer_bytes,
)
from ascend_dsa.report.exercise_rules import EXERCISE_CHAPTERS, RATIO_UNIT, Exercise, ExerciseKind, Solution, Step
from ascend_dsa.report.ledger_discussion import MARGIN_CANDIDATES
from ascend_dsa.report.prose_values import Quantity
from ascend_dsa.report.scenarios import (
    FEWER_HEADS,
    MORE_HEADS,
    ONE_VECTOR_CORE,
    PRIMER_TILE_FRACTALS_ACROSS,
    primer_ring,
)
from ascend_dsa.report.what_if import FEWER_AI_CORES, with_half_l2
from ascend_dsa.units import BF16_BYTES, FP32_BYTES, TB, TFLOPS, GHz, KiB
from ascend_dsa.validate import shown

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ascend_dsa.facts.hardware import AscendSpec
    from ascend_dsa.report.rules import ClaimContext

#: The what-if of heads-per-core: the head count midway between the report's grid points below and at the shipped.
WHAT_IF_HEADS: Final = (FEWER_HEADS.heads_per_core + SHIPPED_KERNEL.heads_per_core) // 2
#: The what-if of an L2 shared by half as much bandwidth: the divisor of the preset's.
L2_BANDWIDTH_DIVISOR: Final = 2
#: The skip-scale handshake example: job, block and VECTOR Core whose flag the reader locates.
FLAG_EXAMPLE: Final = MappingProxyType({"job": 3, "block": 5, "core": 1})
#: The ND/NZ primer's example: the element of its tile (one fractal tall) whose NZ offset the reader finds; its
#: column lies past the first fractal and off a fractal's edge, so every part of the offset counts.
NZ_EXAMPLE: Final = MappingProxyType({"token": 5, "dim": 37})


def _q(value: float | Fraction, unit: str, decimals: int = 0) -> Quantity:
    return Quantity(value, unit, decimals)


def _step(zh: str, en: str, value: Quantity, source: Source) -> Step:
    return Step(Text(zh, en), value, source)


def _count(value: int) -> Quantity:
    """A number the question quotes bare (a head count, a topk)."""
    return Quantity(value)


_ROOFLINE: Final = report_line(94, 99)
_ROOFLINE_CUBE: Final = report_line(96)
_ROOFLINE_KV: Final = report_line(98)
_PRIMER_MMA: Final = report_line(184)
_VECTOR_STEPS: Final = report_line(188, 200)
_UB_PLAN: Final = code_line("config.h", 77, 125)


# --- algorithm/model ------------------------------------------------------------------------------------------------


def _model_fma(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    topk, m = REPORT_TOPK[0], d.model
    qk, sv = topk * m.d_qk, topk * m.d_v
    return Solution(
        {"topk": _count(topk), "d_qk": _count(m.d_qk), "d_v": _count(m.d_v)},
        (
            _step("打分 QK^T：topk × d_qk", "scores QK^T: topk × d_qk", _q(qk, "FMA"), m.sources["d_qk"]),
            _step("输出 SV：topk × d_v", "output SV: topk × d_v", _q(sv, "FMA"), m.sources["d_v"]),
            _step("合计", "together", _q(qk + sv, "FMA"), _ROOFLINE_CUBE),
        ),
        _q(qk + sv, "FMA"),
    )


def _model_kv_token(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    m = d.model
    size = token_bytes(m)
    return Solution(
        {"d_qk": _count(m.d_qk)},
        (
            _step(
                "每个元素（bf16）的字节数",
                "bytes per element (bf16)",
                _q(m.element_bytes, "B"),
                m.sources["element_bytes"],
            ),
            _step("d_qk 个元素", "d_qk elements", _q(size, "B"), _ROOFLINE_KV),
        ),
        _q(size, "B"),
    )


def _model_o_bytes(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    heads, m = d.config.heads_per_core, d.model
    size = l0c_output_bytes(heads, m)
    return Solution(
        {"heads": _count(heads), "d_v": _count(m.d_v)},
        (
            _step("O 的元素：h_q × d_v", "elements of O: h_q × d_v", _q(heads * m.d_v, "rows"), report_line(116)),
            _step("每个 fp32 元素的字节数", "bytes per fp32 element", _q(FP32_BYTES, "B"), report_line(116)),
            _step("O 的大小", "size of O", _q(Fraction(size, KiB), "KiB"), report_line(116)),
        ),
        _q(Fraction(size, KiB), "KiB"),
    )


# --- algorithm/flow -------------------------------------------------------------------------------------------------


def _flow_rescale_bound(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    threshold = d.config.rescale_threshold
    bound = rescale_factor_bound(threshold)
    return Solution(
        {"threshold": _q(threshold, "", 1)},
        (
            _step(
                "阈值 RESCALE_THRES",
                "the threshold RESCALE_THRES",
                _q(threshold, RATIO_UNIT, 1),
                d.config.sources["rescale_threshold"],
            ),
            _step(
                "旧 max 偏小时 exp 的最大值 e^阈值",
                "the largest exp while the max lags: e^threshold",
                _q(bound, RATIO_UNIT, 1),
                report_line(57),
            ),
        ),
        _q(bound, RATIO_UNIT, 1),
    )


def _flow_index_groups(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c = d.config
    return Solution(
        {"index_block_size": _count(c.index_block_size), "b_topk": _count(c.b_topk)},
        (
            _step(
                "每组读取的 index 数",
                "indices read per group",
                _q(c.index_block_size, "tokens"),
                c.sources["index_block_size"],
            ),
            _step("每块的 token 数 B_TOPK", "tokens per block B_TOPK", _q(c.b_topk, "tokens"), c.sources["b_topk"]),
            _step("相除", "divided", _q(c.index_block_size // c.b_topk, "blocks"), report_line(43)),
        ),
        _q(c.index_block_size // c.b_topk, "blocks"),
    )


def _flow_remainder(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    c, b_topk = d.config, int(x["b-topk"])
    whole = c.index_block_size // b_topk
    left = c.index_block_size - whole * b_topk
    return Solution(
        {"index_block_size": _count(c.index_block_size), "b_topk": _count(b_topk)},
        (
            _step("整块数：向下取整", "whole blocks, rounded down", _q(whole, "blocks"), report_line(43)),
            _step("它们占用的 index", "indices they take", _q(whole * b_topk, "tokens"), report_line(43)),
            _step("剩下的 index", "indices left over", _q(left, "tokens"), c.sources["index_block_size"]),
        ),
        _q(left, "tokens"),
    )


# --- the primers: algorithm/double-buffering, algorithm/roofline, algorithm/nd-nz -----------------------------------


def _db_one_buffer(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    ring = primer_ring(1, d.spec)
    idle = ring.consumer_waits[-1] / ring.cycles_per_block
    return Solution(
        {
            "b_topk": _count(SHIPPED_KERNEL.b_topk),
            "load": _q(ring.load_cycles, "cycles"),
            "use": _q(ring.use_cycles, "cycles"),
        },
        (
            _step("MTE2 搬一块", "MTE2 gathers a block", _q(ring.load_cycles, "cycles"), report_line(142)),
            _step("CUBE 算一块：QK + SV", "the CUBE computes it: QK + SV", _q(ring.use_cycles, "cycles"), _PRIMER_MMA),
            _step(
                "单份缓冲：搬完再算，每块的周期",
                "one buffer: load, then compute, cycles per block",
                _q(ring.cycles_per_block, "cycles"),
                report_line(170),
            ),
            _step(
                "CUBE 每块空等：每块周期减去 CUBE 的工作",
                "the CUBE idles per block: the period less its own work",
                _q(ring.consumer_waits[-1], "cycles"),
                report_line(170),
            ),
            _step("空等的份额：空等 ÷ 每块周期", "idle share: idle ÷ period", _q(idle, "%", 1), report_line(170)),
        ),
        _q(idle, "%", 1),
    )


def _db_ub_ring(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    gather, nd2nz = vector_stage("kv-gather").offset, vector_stage("nd2nz-and-copy-to-l1").offset
    depth = buffer_depth(gather, nd2nz, reader_first_in_order=False)
    return Solution(
        {"gather": _count(gather), "nd2nz": _count(nd2nz)},
        (
            _step("写的一方（MTE2）的块", "the writer's (MTE2's) block", _q(gather, "blocks"), _VECTOR_STEPS),
            _step("读的一方（ND2NZ）的块", "the reader's (ND2NZ's) block", _q(nd2nz, "blocks"), _VECTOR_STEPS),
            _step(
                "同时活着的块：写的偏移 − 读的偏移 + 1",
                "blocks alive at once: writer's offset - reader's offset + 1",
                _q(depth, "blocks"),
                d.config.sources["ub_kv_buffers"],
            ),
        ),
        _q(depth, "blocks"),
    )


def _db_ub_bytes(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c, m = d.config, d.model
    block = c.b_topk_per_vector_core * token_bytes(m)
    total = Fraction(c.ub_kv_buffers * block, KiB)
    return Solution(
        {"buffers": _count(c.ub_kv_buffers), "tokens": _count(c.b_topk_per_vector_core), "d_qk": _count(m.d_qk)},
        (
            _step(
                "每个 VECTOR Core 的 token",
                "tokens per VECTOR Core",
                _q(c.b_topk_per_vector_core, "tokens"),
                c.sources["vector_cores_per_cube"],
            ),
            _step("一个 bf16 token", "one bf16 token", _q(token_bytes(m), "B"), _ROOFLINE_KV),
            _step("一份缓冲", "one buffer", _q(Fraction(block, KiB), "KiB"), report_line(216)),
            _step("UB 里 KV 的缓冲份数", "KV buffers in UB", _q(c.ub_kv_buffers, "blocks"), c.sources["ub_kv_buffers"]),
            _step("合计（gathered_kv）", "together (gathered_kv)", _q(total, "KiB"), code_line("config.h", 78)),
        ),
        _q(total, "KiB"),
    )


def _roofline_ridge(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    spec = d.spec
    peak, bandwidth = peak_flops(spec), spec.bandwidth_bytes_per_s
    ridge = ridge_flop_per_byte(spec)
    return Solution(
        {"peak": _q(peak / TFLOPS, "TFLOPS", 2), "bandwidth": _q(bandwidth / TB, "TB/s", 1)},
        (
            _step(
                "峰值：每核每周期 FLOP × 核数 × 频率",
                "peak: FLOP per core per cycle × cores × clock",
                _q(peak / TFLOPS, "TFLOPS", 2),
                spec.sources["clock_hz"],
            ),
            _step("L2 带宽", "L2 bandwidth", _q(bandwidth / TB, "TB/s", 1), spec.sources["bandwidth_bytes_per_s"]),
            _step("脊点：峰值 ÷ 带宽", "ridge point: peak ÷ bandwidth", _q(ridge, "FLOP/B", 2), report_line(85)),
        ),
        _q(ridge, "FLOP/B", 2),
    )


def _roofline_crossover(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    m, topk = d.model, int(x["topk"])
    ridge = ridge_flop_per_byte(d.spec)
    width, kv = m.d_qk + m.d_v, topk * token_bytes(m)
    flop_per_head = FLOP_PER_FMA * topk * width
    qo_per_head = width * m.element_bytes
    heads = ridge * kv / (flop_per_head - ridge * qo_per_head)
    return Solution(
        {"topk": _count(topk), "ridge": _q(ridge, "FLOP/B", 2)},
        (
            _step("芯片的脊点", "the chip's ridge point", _q(ridge, "FLOP/B", 2), report_line(85)),
            _step(
                "每个 head 的 FLOP：topk × (d + d) × 每次乘加的运算数",
                "FLOP per head: topk × (d + d) × FLOP per FMA",
                _q(flop_per_head, "FLOP"),
                _ROOFLINE_CUBE,
            ),
            _step(
                "每个 head 的 Q 与 O：(d + d) × bf16",
                "Q and O per head: (d + d) × bf16",
                _q(qo_per_head, "B"),
                report_line(97),
            ),
            _step(
                "与 head 数无关的 KV：topk × d × bf16",
                "KV, whatever the heads: topk × d × bf16",
                _q(kv, "B"),
                _ROOFLINE_KV,
            ),
            _step(
                "h × FLOP = 脊点 × (h × QO + KV)，解出 h",
                "h × FLOP = ridge × (h × QO + KV), solved for h",
                _q(heads, "heads", 1),
                report_line(114),
            ),
        ),
        _q(heads, "heads", 1),
    )


def _nz_offset(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    c = d.config
    token, dim = int(x["token"]), int(x["dim"])
    tokens, dims = c.fractal_rows, PRIMER_TILE_FRACTALS_ACROSS * c.fractal_cols
    row_bytes = nz_block_bytes(c, d.model)
    column_block, within = divmod(dim, c.fractal_cols)
    offset = nz_offset_bytes(token, dim, tokens, config=c, dims=dims)
    return Solution(
        {
            "tokens": _count(tokens),
            "dims": _count(dims),
            "token": _count(token),
            "dim": _count(dim),
            "nd": _q(nd_offset_bytes(token, dim, dims=dims), "B"),
        },
        (
            _step(
                "所在列块之前：列块号 × token 数 × 分形一行",
                "before its column block: column block × tokens × a fractal row",
                _q(column_block * tokens * row_bytes, "B"),
                c.sources["fractal_cols"],
            ),
            _step(
                "列块内之前的 token：token × 分形一行",
                "tokens before it in the column block: token × a fractal row",
                _q(token * row_bytes, "B"),
                report_line(150),
            ),
            _step(
                "行内：列块内的列 × bf16",
                "within the row: column in the block × bf16",
                _q(within * BF16_BYTES, "B"),
                report_line(150),
            ),
            _step("NZ 偏移", "NZ offset", _q(offset, "B"), report_line(150)),
        ),
        _q(offset, "B"),
    )


def _nz_fractals(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c, m = d.config, d.model
    down = -(-c.b_topk_per_vector_core // c.fractal_rows)
    across = blocks_per_token(c, m)
    return Solution(
        {
            "tokens": _count(c.b_topk_per_vector_core),
            "d_qk": _count(m.d_qk),
            "rows": _count(c.fractal_rows),
            "cols": _count(c.fractal_cols),
        },
        (
            _step(
                "竖向：token ÷ 分形行数（向上取整）",
                "down: tokens ÷ fractal rows (rounded up)",
                _q(down, "fractals"),
                c.sources["fractal_rows"],
            ),
            _step("横向：每个 token 的列块", "across: column blocks per token", _q(across, "blocks"), report_line(152)),
            _step("分形数", "fractals", _q(down * across, "fractals"), report_line(150)),
        ),
        _q(down * across, "fractals"),
    )


# --- discussion/heads-per-core --------------------------------------------------------------------------------------


def _roofline_given(d: ClaimContext, heads: int, topk: int) -> dict[str, Quantity]:
    return {"heads": _count(heads), "topk": _count(topk), "d": _count(d.model.d_qk)}


def _cube_steps(d: ClaimContext, heads: int, topk: int) -> tuple[Step, ...]:
    fma = heads * topk * (d.model.d_qk + d.model.d_v)
    point = head_roofline(d.spec, heads, topk, d.model)
    return (
        _step("乘加：h_q × topk × (d + d)", "multiply-adds: h_q × topk × (d + d)", _q(fma, "FMA"), _ROOFLINE_CUBE),
        _step(
            "CUBE 每周期乘加数",
            "CUBE multiply-adds per cycle",
            _q(d.spec.matrix_fma_per_cycle_per_core, "FMA"),
            d.spec.sources["matrix_fma_per_cycle_per_core"],
        ),
        _step("CUBE 周期（向下取整）", "CUBE cycles (rounded down)", _q(point.cube_cycles, "cycles"), _ROOFLINE_CUBE),
    )


def _l2_steps(d: ClaimContext, heads: int, topk: int) -> tuple[Step, ...]:
    m, spec = d.model, d.spec
    qo = heads * (m.d_qk + m.d_v) * m.element_bytes
    kv = topk * m.d_qk * m.element_bytes
    point = head_roofline(spec, heads, topk, m)
    return (
        _step(
            "Q 读入与 O 写出各一遍：h_q × d × bf16",
            "Q in and O out: h_q × d × bf16, twice",
            _q(qo, "B"),
            report_line(97),
        ),
        _step("KV：topk × d × bf16", "KV: topk × d × bf16", _q(kv, "B"), _ROOFLINE_KV),
        _step(
            "每核每周期的 L2 字节：总带宽 ÷ 核数 ÷ 频率",
            "L2 bytes per cycle per core: bandwidth ÷ cores ÷ clock",
            _q(spec.bandwidth_bytes_per_cycle_per_core, "B/cycle", 3),
            spec.sources["bandwidth_bytes_per_s"],
        ),
        _step("L2 周期", "L2 cycles", _q(point.l2_cycles, "cycles", 1), report_line(99)),
    )


def _heads_cube(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    heads, topk = d.config.heads_per_core, REPORT_TOPK[0]
    steps = _cube_steps(d, heads, topk)
    return Solution(_roofline_given(d, heads, topk), steps, steps[-1].value)


def _heads_l2(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    heads, topk = d.config.heads_per_core, REPORT_TOPK[-1]
    steps = _l2_steps(d, heads, topk)
    return Solution(_roofline_given(d, heads, topk), steps, steps[-1].value)


def _ratio_solution(d: ClaimContext, heads: int, topk: int, given: dict[str, Quantity]) -> Solution:
    point = head_roofline(d.spec, heads, topk, d.model)
    steps = (
        *_cube_steps(d, heads, topk)[-1:],
        *_l2_steps(d, heads, topk)[-2:],
        _step(
            "算存比：CUBE 周期 ÷ L2 周期",
            "ratio: CUBE cycles ÷ L2 cycles",
            _q(point.ratio, RATIO_UNIT, 2),
            report_line(114),
        ),
    )
    return Solution(given, steps, _q(point.ratio, RATIO_UNIT, 2))


def _heads_what_if(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    heads, topk = int(x["heads"]), int(x["topk"])
    return _ratio_solution(d, heads, topk, _roofline_given(d, heads, topk))


def _heads_half_l2(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    spec = d.spec.with_overrides(bandwidth_bytes_per_s=x["l2-bandwidth"])
    heads, topk = int(x["heads"]), int(x["topk"])
    given = _roofline_given(d, heads, topk) | {"divisor": _count(L2_BANDWIDTH_DIVISOR)}
    return _ratio_solution(d.__class__(spec, d.config, d.model), heads, topk, given)


# --- discussion/accumulator -----------------------------------------------------------------------------------------


def _acc_o_128(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    heads = int(x["heads"])
    size = l0c_output_bytes(heads, d.model)
    l0c = d.spec.accumulator_bytes_per_core
    return Solution(
        {"heads": _count(heads)},
        (
            _step("O：h_q × d_v 个 fp32", "O: h_q × d_v fp32 values", _q(Fraction(size, KiB), "KiB"), report_line(116)),
            _step(
                "L0C 容量", "L0C capacity", _q(Fraction(l0c, KiB), "KiB"), d.spec.sources["accumulator_bytes_per_core"]
            ),
            _step("O 占 L0C 的份额", "O's share of L0C", _q(Fraction(size, l0c), "%"), report_line(116)),
        ),
        _q(Fraction(size, l0c), "%"),
    )


def _acc_free(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c, l0c = d.config, d.spec.accumulator_bytes_per_core
    used = l0c_used_bytes(c, d.model)
    free = 1 - Fraction(used, l0c)
    return Solution(
        {"heads": _count(c.heads_per_core), "b_topk": _count(c.b_topk)},
        (
            _step(
                "O：MMA_M × d_v × fp32",
                "O: MMA_M × d_v × fp32",
                _q(Fraction(l0c_output_bytes(c.mma_m, d.model), KiB), "KiB"),
                report_line(116),
            ),
            _step(
                "P：MMA_M × B_TOPK × fp32",
                "P: MMA_M × B_TOPK × fp32",
                _q(Fraction(l0c_scores_bytes(c), KiB), "KiB"),
                c.sources["b_topk"],
            ),
            _step(
                "L0C 容量", "L0C capacity", _q(Fraction(l0c, KiB), "KiB"), d.spec.sources["accumulator_bytes_per_core"]
            ),
            _step("空闲份额", "share left free", _q(free, "%", 1), report_line(116)),
        ),
        _q(free, "%", 1),
    )


def _acc_identity(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    m = d.config.mma_m
    exact = d.spec.ascend.cube_fma_per_cycle_exact_fp32
    cycles = identity_rescale_cycles(d.spec, m, m, d.model.d_v, exact_fp32=True)
    return Solution(
        {"m": _count(m), "d_v": _count(d.model.d_v)},
        (
            _step(
                "乘加：MMA_M × MMA_M × d_v",
                "multiply-adds: MMA_M × MMA_M × d_v",
                _q(m * m * d.model.d_v, "FMA"),
                report_line(128),
            ),
            _step(
                "关闭 HF32 时 CUBE 每周期乘加数",
                "CUBE multiply-adds per cycle without HF32",
                _q(exact, "FMA"),
                d.spec.sources["cube_fma_per_cycle_exact_fp32"],
            ),
            _step("周期", "cycles", _q(cycles, "cycles"), report_line(128)),
        ),
        _q(cycles, "cycles"),
    )


# --- discussion/one-vector-core -------------------------------------------------------------------------------------


def _one_v_in_flight(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    queue = d.spec.ascend.mte2_outstanding_requests
    return Solution(
        {"queue": _count(queue), "per_request": _count(GATHER2_TOKENS_PER_REQUEST)},
        (
            _step(
                "MTE2 队列深度", "MTE2 queue depth", _q(queue, "requests"), d.spec.sources["mte2_outstanding_requests"]
            ),
            _step(
                "每个 gather2 请求的 token",
                "tokens per gather2 request",
                _q(GATHER2_TOKENS_PER_REQUEST, "tokens"),
                report_line(138),
            ),
            _step("在途 token", "tokens in flight", _q(tokens_in_flight(d.spec), "tokens"), report_line(138)),
        ),
        _q(tokens_in_flight(d.spec), "tokens"),
    )


def _one_v_break_even(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c, m = d.config, d.model
    one = c.with_overrides(b_topk=1)
    mma_per_token = mma_cycles_per_block(d.spec, one, m)
    p_per_token = fixpipe_cycles_per_block(d.spec, one, m, o_leaves=False)
    o_cycles = fixpipe_cycles_per_block(d.spec, one, m) - p_per_token
    even = fixpipe_break_even_b_topk(d.spec, c, m)
    return Solution(
        {"rate": _q(d.spec.ascend.fixpipe_bytes_per_cycle_1c1v, "")},
        (
            _step(
                "O 每块搬出的周期（与 B_TOPK 无关）",
                "cycles to move O out per block (whatever B_TOPK)",
                _q(o_cycles, "cycles"),
                d.spec.sources["fixpipe_bytes_per_cycle_1c1v"],
            ),
            _step("每个 token 的 MMA 周期", "MMA cycles per token", _q(mma_per_token, "cycles"), report_line(142)),
            _step(
                "每个 token 的 P 搬出周期", "FixPipe cycles of P per token", _q(p_per_token, "cycles"), report_line(142)
            ),
            _step(
                "平衡点：O 周期 ÷ 两者之差",
                "break-even: O cycles ÷ the difference",
                _q(even, "tokens", 2),
                report_line(142),
            ),
        ),
        _q(even, "tokens", 2),
    )


def _one_v_requests(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    c = d.config.with_overrides(vector_cores_per_cube=int(x["vector-cores"]))
    requests = requests_per_block(c)
    return Solution(
        {"b_topk": _count(c.b_topk), "queue": _count(d.spec.ascend.mte2_outstanding_requests)},
        (
            _step(
                "这个 VECTOR Core 的 token",
                "tokens on this VECTOR Core",
                _q(c.b_topk_per_vector_core, "tokens"),
                c.sources["vector_cores_per_cube"],
            ),
            _step("每个请求的 token", "tokens per request", _q(GATHER2_TOKENS_PER_REQUEST, "tokens"), report_line(138)),
            _step("每块的请求数", "requests per block", _q(requests, "requests"), report_line(138)),
        ),
        _q(requests, "requests"),
    )


# --- discussion/nd2nz-when ------------------------------------------------------------------------------------------


def _nd2nz_block(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c = d.config
    size = nz_block_bytes(c, d.model)
    return Solution(
        {"cols": _count(c.fractal_cols)},
        (
            _step("分形一行的元素", "elements in a fractal row", _q(c.fractal_cols, "rows"), c.sources["fractal_cols"]),
            _step(
                "每个元素（bf16）的字节数",
                "bytes per element (bf16)",
                _q(d.model.element_bytes, "B"),
                d.model.sources["element_bytes"],
            ),
            _step("一个数据块", "one block", _q(size, "B"), report_line(152)),
        ),
        _q(size, "B"),
    )


def _nd2nz_blocks(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    size = token_bytes(d.model)
    blocks = blocks_per_token(d.config, d.model)
    return Solution(
        {"d_qk": _count(d.model.d_qk)},
        (
            _step("一个 token 的字节数", "bytes of one token", _q(size, "B"), _ROOFLINE_KV),
            _step(
                "一个数据块的字节数", "bytes of one block", _q(nz_block_bytes(d.config, d.model), "B"), report_line(152)
            ),
            _step("数据块数", "blocks", _q(blocks, "blocks"), report_line(152)),
        ),
        _q(blocks, "blocks"),
    )


# --- discussion/skip-scale-sync -------------------------------------------------------------------------------------


def _ss_bytes(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c = d.config
    return Solution(
        {},
        (
            _step("作业槽", "job slots", _q(SS_JOB_SLOTS, "rows"), SS_LAYOUT_SOURCE),
            _step("每个作业的块槽", "block slots per job", _q(SS_BLOCK_SLOTS, "blocks"), SS_LAYOUT_SOURCE),
            _step(
                "VECTOR Core",
                "VECTOR Cores",
                _q(c.vector_cores_per_cube, "VECTOR Cores"),
                c.sources["vector_cores_per_cube"],
            ),
            _step("每个标志的字节数", "bytes per flag", _q(SS_FLAG_BYTES, "B"), SS_LAYOUT_SOURCE),
            _step("合计", "together", _q(ss_buffer_bytes(c), "B"), SS_LAYOUT_SOURCE),
        ),
        _q(ss_buffer_bytes(c), "B"),
    )


def _ss_offset(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    c = d.config
    job, block, core = int(x["job"]), int(x["block"]), int(x["core"])
    slot = (job % SS_JOB_SLOTS) * SS_BLOCK_SLOTS + block % SS_BLOCK_SLOTS
    offset = flag_offset_bytes(c, job, block, core)
    return Solution(
        {"job": _count(job), "block": _count(block), "core": _count(core)},
        (
            _step("槽号：作业 × 块槽数 + 块", "slot: job × block slots + block", _q(slot, "blocks"), SS_LAYOUT_SOURCE),
            _step(
                "标志序号：槽号 × VECTOR Core 数 + 核",
                "flag index: slot × VECTOR Cores + core",
                _q(slot * c.vector_cores_per_cube + core, "rows"),
                SS_LAYOUT_SOURCE,
            ),
            _step("偏移：序号 × 标志字节数", "offset: index × flag bytes", _q(offset, "B"), SS_LAYOUT_SOURCE),
        ),
        _q(offset, "B"),
    )


# --- discussion/two-chips -------------------------------------------------------------------------------------------

_HOPPER_MMA: Final = MLA_V32.sources["d_qk"]


def _two_mma(_d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    flop = HOPPER_HEADS_PER_CTA * (MLA_V32.d_qk + MLA_V32.d_v) * 2
    cycles = mma_cycles_per_token(H800)
    return Solution(
        {"heads": _count(HOPPER_HEADS_PER_CTA), "d_k": _count(MLA_V32.d_qk), "d_v": _count(MLA_V32.d_v)},
        (
            _step(
                "FLOP：heads × (d_k + d_v) × 每次乘加的运算数",
                "FLOP: heads × (d_k + d_v) × FLOP per FMA",
                _q(flop, "FLOP"),
                _HOPPER_MMA,
            ),
            _step(
                "每个 SM 每周期的 FLOP",
                "FLOP per cycle per SM",
                _q(H800.matrix_flop_per_cycle_per_core, "FLOP/cycle"),
                H800.sources["matrix_fma_per_cycle_per_core"],
            ),
            _step("每个 token 的 Tensor Core 周期", "Tensor Core cycles per token", _q(cycles, "cycles"), _HOPPER_MMA),
        ),
        _q(cycles, "cycles"),
    )


def _two_gain(_d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    mma, alone, shared = (
        mma_cycles_per_token(H800),
        dequant_cycles_per_token(),
        dequant_cycles_per_token(sharing_ctas=2),
    )
    gain = crossover_gain(H800)
    return Solution(
        {},
        (
            _step("每个 token 的 MMA 周期", "MMA cycles per token", _q(mma, "cycles", 1), _HOPPER_MMA),
            _step(
                "一个 CTA 独自反量化的周期", "dequantisation cycles, one CTA alone", _q(alone, "cycles", 1), _HOPPER_MMA
            ),
            _step(
                "成对的 CTA 分担后的周期",
                "dequantisation cycles, shared by the CTA pair",
                _q(shared, "cycles", 1),
                _HOPPER_MMA,
            ),
            _step("较慢者之比", "ratio of the slower unit", _q(gain, RATIO_UNIT, 2), _HOPPER_MMA),
        ),
        _q(gain, RATIO_UNIT, 2),
    )


def _two_peak(_d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    peak = peak_flops(H800, H800_THROTTLED_CLOCK_HZ) / TFLOPS
    return Solution(
        {"clock_ghz": _q(H800_THROTTLED_CLOCK_HZ / GHz, "", 1)},
        (
            _step("SM 数", "SMs", _q(H800.cores, "SMs"), H800.sources["cores"]),
            _step(
                "每个 SM 每周期的 FLOP",
                "FLOP per cycle per SM",
                _q(H800.matrix_flop_per_cycle_per_core, "FLOP/cycle"),
                H800.sources["matrix_fma_per_cycle_per_core"],
            ),
            _step(
                "峰值：SM × FLOP/周期 × 频率",
                "peak: SMs × FLOP/cycle × clock",
                _q(peak, "TFLOPS"),
                H800.sources["clock_hz"],
            ),
        ),
        _q(peak, "TFLOPS"),
    )


# --- pipeline -------------------------------------------------------------------------------------------------------


def _pipe_mma(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    costs = stage_costs(d.spec, d.config, d.model).cycles
    total = costs[Task.QK] + costs[Task.SV]
    return Solution(
        {"m": _count(d.config.mma_m), "b_topk": _count(d.config.b_topk)},
        (
            _step(
                "QK：MMA_M × B_TOPK × d_qk ÷ 每周期乘加",
                "QK: MMA_M × B_TOPK × d_qk ÷ FMA per cycle",
                _q(costs[Task.QK], "cycles"),
                report_line(174, 182),
            ),
            _step(
                "SV：MMA_M × B_TOPK × d_v ÷ 每周期乘加",
                "SV: MMA_M × B_TOPK × d_v ÷ FMA per cycle",
                _q(costs[Task.SV], "cycles"),
                report_line(174, 182),
            ),
            _step("CUBE 每块合计", "CUBE per block", _q(total, "cycles"), report_line(170)),
        ),
        _q(total, "cycles"),
    )


def _pipe_softmax_limit(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    costs = stage_costs(d.spec, d.config, d.model).cycles
    limit = costs[Task.QK] + costs[Task.SV] - costs[Task.P_OUT] - costs[Task.S_TO_L1]
    return Solution(
        {},
        (
            _step(
                "P[i] 就绪到 SV[i] 开始：QK + SV",
                "from P[i] ready to SV[i]: QK + SV",
                _q(costs[Task.QK] + costs[Task.SV], "cycles"),
                report_line(184),
            ),
            _step("FixPipe 搬出 P", "FixPipe moves P out", _q(costs[Task.P_OUT], "cycles"), report_line(184)),
            _step("S 拷到 L1", "S copied to L1", _q(costs[Task.S_TO_L1], "cycles"), report_line(184)),
            _step("softmax 最多可用", "the most softmax may take", _q(limit, "cycles"), report_line(184)),
        ),
        _q(limit, "cycles"),
    )


def _pipe_margin(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    config = d.config.with_overrides(b_topk=int(x["b-topk"]))
    costs = stage_costs(d.spec, config, d.model)
    bounds = cube_wait_bounds(costs, config)
    return Solution(
        {"b_topk": _count(config.b_topk)},
        (
            _step("CUBE 每块的周期", "CUBE cycles per block", _q(bounds.cube_cycles, "cycles"), report_line(170)),
            _step(
                "P 搬出 + softmax",
                "P out + softmax",
                _q(costs.cycles[Task.P_OUT] + costs.cycles[Task.SOFTMAX], "cycles"),
                report_line(184),
            ),
            _step(
                "余量（负数：SV 要等 S）",
                "margin (below zero: SV waits for S)",
                _q(bounds.margin_cycles, "cycles"),
                report_line(184),
            ),
        ),
        _q(bounds.margin_cycles, "cycles"),
    )


# --- optimizations/gather2 ------------------------------------------------------------------------------------------


def _gather_requests(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c = d.config
    return Solution(
        {"b_topk": _count(c.b_topk)},
        (
            _step(
                "每个 VECTOR Core 的 token",
                "tokens per VECTOR Core",
                _q(c.b_topk_per_vector_core, "tokens"),
                c.sources["vector_cores_per_cube"],
            ),
            _step(
                "每个 gather2 请求的 token",
                "tokens per gather2 request",
                _q(GATHER2_TOKENS_PER_REQUEST, "tokens"),
                report_line(216),
            ),
            _step("请求数", "requests", _q(requests_per_block(c), "requests"), report_line(216)),
        ),
        _q(requests_per_block(c), "requests"),
    )


def _gather_bigger(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    c = d.config.with_overrides(b_topk=int(x["b-topk"]))
    queue = d.spec.ascend.mte2_outstanding_requests
    requests = requests_per_block(c)
    return Solution(
        {"b_topk": _count(c.b_topk), "queue": _count(queue)},
        (
            _step("每块的请求数", "requests per block", _q(requests, "requests"), report_line(216)),
            _step(
                "MTE2 队列深度", "MTE2 queue depth", _q(queue, "requests"), d.spec.sources["mte2_outstanding_requests"]
            ),
            _step(
                "超出队列的请求",
                "requests beyond the queue",
                _q(max(0, requests - queue), "requests"),
                report_line(138),
            ),
        ),
        _q(max(0, requests - queue), "requests"),
    )


def _gather_bytes(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c = d.config
    size = c.b_topk_per_vector_core * token_bytes(d.model)
    return Solution(
        {"b_topk": _count(c.b_topk)},
        (
            _step(
                "每个 VECTOR Core 的 token",
                "tokens per VECTOR Core",
                _q(c.b_topk_per_vector_core, "tokens"),
                c.sources["vector_cores_per_cube"],
            ),
            _step("一个 bf16 token", "one bf16 token", _q(token_bytes(d.model), "B"), _ROOFLINE_KV),
            _step(
                "每块搬入 UB 的字节",
                "bytes gathered into UB per block",
                _q(Fraction(size, KiB), "KiB"),
                report_line(216),
            ),
        ),
        _q(Fraction(size, KiB), "KiB"),
    )


# --- optimizations/kv-cache-layout ----------------------------------------------------------------------------------

_KV_FORMAT: Final = FP8_V41.sources["dims_per_scale"]


def _kv_fp8_bytes(_d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    total = kv_bytes_per_token(KvFormat.FP8)
    return Solution(
        {"dims": _count(FP8_V41.dims), "per_scale": _count(FP8_V41.dims_per_scale or 0)},
        (
            _step("FP8 数据：每维一字节", "FP8 data: one byte per dimension", _q(FP8_V41.data_bytes, "B"), _KV_FORMAT),
            _step("scale 的字节", "bytes of the scales", _q(total - FP8_V41.data_bytes, "B"), _KV_FORMAT),
            _step("一个 token 合计", "one token, together", _q(total, "B"), _KV_FORMAT),
        ),
        _q(total, "B"),
    )


def _kv_fp8_ratio(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    heads, topk, token = int(x["heads"]), int(x["topk"]), int(x["kv-token-bytes"])
    point = head_roofline(d.spec, heads, topk, d.model, kv_bytes_per_token=token)
    return Solution(
        {"heads": _count(heads), "topk": _count(topk), "token": _q(token, "B")},
        (
            _step(
                "CUBE 周期（与 KV 格式无关）",
                "CUBE cycles (whatever the KV format)",
                _q(point.cube_cycles, "cycles"),
                _ROOFLINE_CUBE,
            ),
            _step("KV：topk × 每 token 字节", "KV: topk × bytes per token", _q(topk * token, "B"), _KV_FORMAT),
            _step("L2 周期", "L2 cycles", _q(point.l2_cycles, "cycles", 1), report_line(99)),
            _step("算存比", "ratio", _q(point.ratio, RATIO_UNIT, 2), report_line(114)),
        ),
        _q(point.ratio, RATIO_UNIT, 2),
    )


# --- optimizations/fast-nd2nz ---------------------------------------------------------------------------------------


def _fast_unpadded(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c = d.config
    stride = ub_nz_stride_bytes(c, d.model, pad_rows=0)
    return Solution(
        {"tokens": _count(c.b_topk_per_vector_core)},
        (
            _step(
                "每个 VECTOR Core 的 token",
                "tokens per VECTOR Core",
                _q(c.b_topk_per_vector_core, "tokens"),
                c.sources["vector_cores_per_cube"],
            ),
            _step("一个数据块", "one block", _q(nz_block_bytes(c, d.model), "B"), report_line(226)),
            _step("同一 token 相邻块的间隔", "stride between a token's blocks", _q(stride, "B"), report_line(226)),
            _step(
                "间隔对 UB 一行取余：为零即同一 bank",
                "stride modulo a UB row: zero means one bank",
                _q(stride % UB_VECTOR_BYTES, "B"),
                report_line(228),
            ),
        ),
        _q(stride % UB_VECTOR_BYTES, "B"),
    )


def _fast_padded(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c = d.config
    pad = min_conflict_free_padding(c, d.model)
    stride = ub_nz_stride_bytes(c, d.model, pad_rows=pad)
    return Solution(
        {"tokens": _count(c.b_topk_per_vector_core)},
        (
            _step(
                "无冲突所需的最少 pad 行", "fewest padding rows free of conflicts", _q(pad, "rows"), report_line(228)
            ),
            _step("加 pad 后的间隔", "the padded stride", _q(stride, "B"), report_line(228)),
        ),
        _q(stride, "B"),
    )


def _fast_pad_rows(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    c = d.config.with_overrides(b_topk=int(x["b-topk"]))
    pad = min_conflict_free_padding(c, d.model)
    return Solution(
        {"b_topk": _count(c.b_topk)},
        (
            _step(
                "每个 VECTOR Core 的 token",
                "tokens per VECTOR Core",
                _q(c.b_topk_per_vector_core, "tokens"),
                c.sources["b_topk"],
            ),
            _step(
                "不加 pad 的间隔",
                "the unpadded stride",
                _q(ub_nz_stride_bytes(c, d.model, pad_rows=0), "B"),
                report_line(226),
            ),
            _step(
                "无冲突所需的最少 pad 行", "fewest padding rows free of conflicts", _q(pad, "rows"), report_line(228)
            ),
        ),
        _q(pad, "rows"),
    )


# --- optimizations/icache -------------------------------------------------------------------------------------------


def _icache_depth(_d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    last = max(VECTOR_STAGES, key=lambda stage: stage.offset)
    return Solution(
        {"stages": _count(len(VECTOR_STAGES))},
        (
            _step("最靠后的步骤的偏移", "offset of the latest step", _q(last.offset, "blocks"), report_line(174, 182)),
            _step(
                "加上这一块本身",
                "plus the block itself",
                _q(pipeline_depth(), "blocks"),
                code_line("kernel_body.h", 1664),
            ),
        ),
        _q(pipeline_depth(), "blocks"),
    )


def _icache_ratio(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    a = d.spec.ascend
    ratio = Fraction(a.icache_cube_bytes, a.icache_simd_vf_bytes)
    return Solution(
        {},
        (
            _step(
                "CUBE Core 的 icache",
                "the CUBE Core's icache",
                _q(Fraction(a.icache_cube_bytes, KiB), "KiB"),
                d.spec.sources["icache_cube_bytes"],
            ),
            _step(
                "SIMD VF 的 icache",
                "the SIMD VF's icache",
                _q(Fraction(a.icache_simd_vf_bytes, KiB), "KiB"),
                d.spec.sources["icache_simd_vf_bytes"],
            ),
            _step("之比", "ratio", _q(ratio, RATIO_UNIT), report_line(238)),
        ),
        _q(ratio, RATIO_UNIT),
    )


# --- optimizations/l1-banks -----------------------------------------------------------------------------------------


def _l1_bank(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    a = d.spec.ascend
    bank = Fraction(a.l1_bytes // a.l1_banks, KiB)
    return Solution(
        {},
        (
            _step("L1 容量", "L1 capacity", _q(Fraction(a.l1_bytes, KiB), "KiB"), d.spec.sources["l1_bytes"]),
            _step("bank 数", "banks", _q(a.l1_banks, "banks"), d.spec.sources["l1_banks"]),
            _step("每个 bank", "per bank", _q(bank, "KiB"), report_line(242)),
        ),
        _q(bank, "KiB"),
    )


def _l1_fuller(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    a = d.spec.ascend
    bank = a.l1_bytes // a.l1_banks
    used = max(layout_bytes_per_bank(d.spec))
    return Solution(
        {},
        (
            _step(
                "较满 bank 里的 Q、KV 与 S",
                "Q, KV and S in the fuller bank",
                _q(Fraction(used, KiB), "KiB"),
                SHIPPED_L1_LAYOUT_SOURCE,
            ),
            _step("每个 bank", "per bank", _q(Fraction(bank, KiB), "KiB"), report_line(242)),
            _step("余量", "headroom", _q(Fraction(bank - used, KiB), "KiB"), SHIPPED_L1_LAYOUT_SOURCE),
        ),
        _q(Fraction(bank - used, KiB), "KiB"),
    )


def _l1_kv_buffer(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c, m = d.config, d.model
    size = c.b_topk * token_bytes(m)
    return Solution(
        {"b_topk": _count(c.b_topk)},
        (
            _step(
                "一块 KV：B_TOPK × 一个 token",
                "one KV block: B_TOPK × one token",
                _q(Fraction(size, KiB), "KiB"),
                c.sources["b_topk"],
            ),
            _step("L1 里 KV 的缓冲数", "KV buffers in L1", _q(c.l1_kv_buffers, "blocks"), c.sources["l1_kv_buffers"]),
            _step("合计", "together", _q(Fraction(size * c.l1_kv_buffers, KiB), "KiB"), c.sources["l1_kv_buffers"]),
        ),
        _q(Fraction(size * c.l1_kv_buffers, KiB), "KiB"),
    )


# --- optimizations/skip-scale ---------------------------------------------------------------------------------------


def _skip_saved(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c, m = d.config, d.model
    with_o = fixpipe_cycles(d.spec, c, m, o_leaves=True)
    p_only = fixpipe_cycles(d.spec, c, m, o_leaves=False)
    return Solution(
        {"b_topk": _count(c.b_topk)},
        (
            _step(
                "O 每块都搬出时的 FixPipe 周期",
                "FixPipe cycles when O leaves every block",
                _q(with_o, "cycles"),
                report_line(160),
            ),
            _step("skip-scale 后只搬 P", "only P under skip-scale", _q(p_only, "cycles"), report_line(246, 252)),
            _step("每块省下", "saved per block", _q(with_o - p_only, "cycles"), report_line(160)),
        ),
        _q(with_o - p_only, "cycles"),
    )


def _skip_bytes(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    c, m = d.config, d.model
    o_bytes = fixpipe_bytes_per_block(c, m) - fixpipe_bytes_per_block(c, m, o_leaves=False)
    return Solution(
        {"m": _count(c.mma_m), "d_v": _count(m.d_v)},
        (
            _step("O 的元素：MMA_M × d_v", "elements of O: MMA_M × d_v", _q(c.mma_m * m.d_v, "rows"), report_line(160)),
            _step("每个 fp32 元素的字节数", "bytes per fp32 element", _q(FP32_BYTES, "B"), report_line(116)),
            _step(
                "skip 一次省下的搬运", "bytes not moved per skip", _q(Fraction(o_bytes, KiB), "KiB"), report_line(250)
            ),
        ),
        _q(Fraction(o_bytes, KiB), "KiB"),
    )


def _skip_one_v(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    c, m = d.config.with_overrides(vector_cores_per_cube=int(x["vector-cores"])), d.model
    with_o = fixpipe_cycles(d.spec, c, m, o_leaves=True)
    mma = mma_cycles_per_block(d.spec, c, m)
    return Solution(
        {"vector_cores": _count(c.vector_cores_per_cube)},
        (
            _step(
                "O 每块都搬出时的 FixPipe 周期",
                "FixPipe cycles when O leaves every block",
                _q(with_o, "cycles"),
                d.spec.sources["fixpipe_bytes_per_cycle_1c1v"],
            ),
            _step("CUBE 每块的周期", "CUBE cycles per block", _q(mma, "cycles"), report_line(170)),
            _step(
                "FixPipe 超出 CUBE 的周期",
                "FixPipe cycles beyond the CUBE's",
                _q(max(Fraction(0), with_o - mma), "cycles"),
                report_line(142),
            ),
        ),
        _q(max(Fraction(0), with_o - mma), "cycles"),
    )


def _ss_flag_lead(_d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    """The skip-scale flag's step of the VECTOR schedule: how many blocks from the index read it lies."""
    read, flag = vector_stage("index-read"), vector_stage("skip-scale-flag")
    return Solution(
        {},
        (
            _step("读 index 的偏移", "offset of reading the indices", _q(read.offset, "blocks"), report_line(174, 182)),
            _step(
                "skip-scale 标志的偏移", "offset of the skip-scale flag", _q(flag.offset, "blocks"), report_line(162)
            ),
            _step("相差", "difference", _q(abs(flag.offset - read.offset), "blocks"), report_line(162)),
        ),
        _q(abs(flag.offset - read.offset), "blocks"),
    )


# --- design/index ---------------------------------------------------------------------------------------------------


def _design_ub_headroom(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    ub = evaluate(SHIPPED_DESIGN, d.spec, d.model).check(Limit.UB)
    return Solution(
        {},
        (
            _step(
                "prefill 的 UB 规划合计",
                "the prefill UB plan, in all",
                _q(Fraction(int(ub.demand), KiB), "KiB", 1),
                _UB_PLAN,
            ),
            _step(
                "每个 VECTOR Core 的 UB",
                "UB per VECTOR Core",
                _q(Fraction(int(ub.capacity), KiB), "KiB"),
                d.spec.sources["staging_bytes_per_core"],
            ),
            _step("余量", "headroom", _q(Fraction(int(ub.headroom), KiB), "KiB", 1), report_line(142)),
        ),
        _q(Fraction(int(ub.headroom), KiB), "KiB", 1),
    )


def _design_ub_bigger_block(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    point = DesignPoint(b_topk=int(x["b-topk"]))
    ub = evaluate(point, d.spec, d.model).check(Limit.UB)
    share = Fraction(int(ub.demand), int(ub.capacity))
    return Solution(
        {"b_topk": _count(point.b_topk)},
        (
            _step(
                "UB 规划合计（KV 缓冲随 B_TOPK 变大）",
                "the UB plan in all (its KV buffers grow with B_TOPK)",
                _q(Fraction(int(ub.demand), KiB), "KiB", 1),
                _UB_PLAN,
            ),
            _step(
                "每个 VECTOR Core 的 UB",
                "UB per VECTOR Core",
                _q(Fraction(int(ub.capacity), KiB), "KiB"),
                d.spec.sources["staging_bytes_per_core"],
            ),
            _step("占用：需要 ÷ 容量", "use: demand ÷ capacity", _q(share, "%", 1), report_line(142)),
        ),
        _q(share, "%", 1),
    )


def _l2_use_steps(l2: LimitCheck) -> tuple[Step, ...]:
    """How a design point's L2 roofline use is found: L2 cycles and CUBE cycles per token, and their ratio."""
    return (
        _step("每个 token 的 L2 周期", "L2 cycles per token", _q(l2.demand, "cycles", 1), report_line(99)),
        _step("每个 token 的 CUBE 周期", "CUBE cycles per token", _q(l2.capacity, "cycles"), _ROOFLINE_CUBE),
        _step("占用：L2 ÷ CUBE", "use: L2 ÷ CUBE", _q(l2.utilisation, "%", 1), report_line(114)),
    )


def _design_l2_fewer_heads(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    point = DesignPoint(heads_per_core=int(x["heads"]))
    l2 = evaluate(point, d.spec, d.model).check(Limit.L2_ROOFLINE)
    return Solution(
        {"heads": _count(point.heads_per_core), "topk": _count(point.topk)},
        _l2_use_steps(l2),
        _q(l2.utilisation, "%", 1),
    )


# --- design/what-if ------------------------------------------------------------------------------------------------


def _what_if_l2_use(d: ClaimContext, spec: AscendSpec, given: dict[str, Quantity]) -> Solution:
    """The L2 roofline's use of the shipped design on ``spec``, a what-if variant of ``d``'s chip."""
    l2 = evaluate(SHIPPED_DESIGN, spec, d.model).check(Limit.L2_ROOFLINE)
    return Solution(
        given,
        (
            _step(
                "每核每周期的 L2 字节：总带宽 ÷ 核数 ÷ 频率",
                "L2 bytes per cycle per core: bandwidth ÷ cores ÷ clock",
                _q(spec.bandwidth_bytes_per_cycle_per_core, "B/cycle", 3),
                spec.sources["bandwidth_bytes_per_s"],
            ),
            *_l2_use_steps(l2),
        ),
        _q(l2.utilisation, "%", 1),
    )


def _what_if_given(spec: AscendSpec) -> dict[str, Quantity]:
    return {
        "bandwidth": _q(spec.bandwidth_bytes_per_s / TB, "TB/s", 1),
        "cores": _count(spec.cores),
        "heads": _count(SHIPPED_DESIGN.heads_per_core),
        "topk": _count(SHIPPED_DESIGN.topk),
    }


def _what_if_half_l2(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    spec = d.spec.with_overrides(bandwidth_bytes_per_s=x["l2-bandwidth"])
    return _what_if_l2_use(d, spec, _what_if_given(spec))


def _what_if_fewer_cores(d: ClaimContext, x: Mapping[str, int | float]) -> Solution:
    spec = d.spec.with_overrides(cores=int(x["cores"]))
    return _what_if_l2_use(d, spec, _what_if_given(spec))


def _what_if_fp8_balance(d: ClaimContext, _x: Mapping[str, int | float]) -> Solution:
    spec, m, topk = d.spec, d.model, SHIPPED_DESIGN.topk
    fp8, bf16 = kv_bytes_per_token(KvCache.FP8.main_cache, m), kv_bytes_per_token(KvCache.BF16.main_cache, m)
    per_cycle = spec.bandwidth_bytes_per_cycle_per_core
    cube_per_head = Fraction(topk * (m.d_qk + m.d_v), spec.matrix_fma_per_cycle_per_core)
    qo_per_head = (m.d_qk + m.d_v) * m.element_bytes / per_cycle
    kv = topk * fp8 / per_cycle
    heads = kv / (float(cube_per_head) - qo_per_head)
    return Solution(
        {"fp8": _q(fp8, "B"), "bf16": _q(bf16, "B"), "topk": _count(topk)},
        (
            _step(
                "每个 head 的 CUBE 周期：topk × (d + d) ÷ CUBE 每周期乘加数",
                "CUBE cycles per head: topk × (d + d) ÷ CUBE multiply-adds per cycle",
                _q(cube_per_head, "cycles"),
                _ROOFLINE_CUBE,
            ),
            _step(
                "每个 head 的 L2 周期（Q 读入与 O 写出）：(d + d) × bf16 ÷ 每核每周期的 L2 字节",
                "L2 cycles per head (Q in and O out): (d + d) × bf16 ÷ L2 bytes per cycle per core",
                _q(qo_per_head, "cycles", 2),
                report_line(97),
            ),
            _step(
                "与 head 数无关的 KV 的 L2 周期：topk × FP8 token ÷ 每核每周期的 L2 字节",
                "L2 cycles of the KV, whatever the heads: topk × FP8 token ÷ L2 bytes per cycle per core",
                _q(kv, "cycles", 1),
                _KV_FORMAT,
            ),
            _step(
                "h × CUBE = h × Q/O + KV，解出 h",
                "h × CUBE = h × Q/O + KV, solved for h",
                _q(heads, "heads", 1),
                report_line(114),
            ),
        ),
        _q(heads, "heads", 1),
    )


def _e(  # noqa: PLR0913 - an exercise's fields, named at each call
    key: str,
    chapter: str,
    kind: ExerciseKind,
    question: Text,
    solve: Callable[[ClaimContext, Mapping[str, int | float]], Solution],
    unit: str,
    source: Source,
    *,
    inputs: Mapping[str, int | float] | None = None,
    live: str = "",
    relative_tolerance: float = 0.0,
) -> Exercise:
    """One exercise, its options by keyword."""
    return Exercise(
        key,
        chapter,
        kind,
        question,
        solve,
        unit,
        source,
        inputs=inputs or {},
        live=live,
        relative_tolerance=relative_tolerance,
    )


#: A reader's rounding of a rate (L2 bytes per cycle, a clock) moves a float answer by about this share.
READER_ROUNDING: Final = 0.002


_R, _W, _N = ExerciseKind.RECOMPUTE, ExerciseKind.WHAT_IF, ExerciseKind.REASON
#: The L2 what-if's inputs: the shipped heads at the report's smaller topk, the preset bandwidth divided.
HALF_L2_INPUTS: Final = MappingProxyType(
    {
        "heads": SHIPPED_KERNEL.heads_per_core,
        "topk": REPORT_TOPK[0],
        "l2-bandwidth": ASCEND_950.bandwidth_bytes_per_s / L2_BANDWIDTH_DIVISOR,
    }
)

#: Every exercise, by chapter in the site's order.
EXERCISES: Final[tuple[Exercise, ...]] = (
    # algorithm/model
    _e(
        "model-fma-per-head",
        "algorithm/model",
        _N,
        Text(
            "一个 q token 的一个 q head 选了 topk = {topk} 个 KV token，d_qk = {d_qk}、d_v = "
            "{d_v}。CUBE 要为它做多少次乘加（QK^T 与 SV 合计）？",
            "One q head of one q token selected topk = {topk} KV tokens, with d_qk = {d_qk} and d_v "
            "= {d_v}. How many multiply-adds does the CUBE do for it (QK^T and SV together)?",
        ),
        _model_fma,
        "FMA",
        _ROOFLINE_CUBE,
    ),
    _e(
        "model-kv-token-bytes",
        "algorithm/model",
        _R,
        Text(
            "一个 bf16 的 KV token 有 d_qk = {d_qk} 维。它占多少字节？",
            "A bf16 KV token has d_qk = {d_qk} dimensions. How many bytes does it take?",
        ),
        _model_kv_token,
        "B",
        _ROOFLINE_KV,
    ),
    _e(
        "model-o-size",
        "algorithm/model",
        _N,
        Text(
            "一个 AI Core 负责 h_q = {heads} 个 head，d_v = {d_v}，输出 O 以 fp32 累加。O 有多大？",
            "An AI Core owns h_q = {heads} heads, d_v = {d_v}, and accumulates the output O in fp32. How large is O?",
        ),
        _model_o_bytes,
        "KiB",
        report_line(116),
    ),
    # algorithm/flow
    _e(
        "flow-rescale-bound",
        "algorithm/flow",
        _R,
        Text(
            "skip-scale 的阈值是 {threshold}：max 最多落后这么多时不重新缩放。此时 exp 的值最大可能是多少？",
            "The skip-scale threshold is {threshold}: while the max lags by at most this much, "
            "nothing is rescaled. How large can an exp then get?",
        ),
        _flow_rescale_bound,
        RATIO_UNIT,
        report_line(57),
        relative_tolerance=READER_ROUNDING,
    ),
    _e(
        "flow-index-groups",
        "algorithm/flow",
        _N,
        Text(
            "每组读取 {index_block_size} 个 index，每块 B_TOPK = {b_topk} 个 token。一组 index 够多少块？",
            "Each group reads {index_block_size} indices and each block holds B_TOPK = {b_topk} "
            "tokens. How many blocks does one group of indices feed?",
        ),
        _flow_index_groups,
        "blocks",
        report_line(43),
    ),
    _e(
        "flow-other-b-topk",
        "algorithm/flow",
        _W,
        Text(
            "报告也提到 B_TOPK = {b_topk}。每组仍读取 {index_block_size} 个 index，分完整块后剩下多少个 index？",
            "The report also names B_TOPK = {b_topk}. With {index_block_size} indices per group "
            "still, how many are left over after the whole blocks?",
        ),
        _flow_remainder,
        "tokens",
        report_line(43),
        inputs={"b-topk": REPORT_ALTERNATIVE_B_TOPK},
    ),
    # algorithm/double-buffering
    _e(
        "db-one-buffer-idle",
        "algorithm/double-buffering",
        _N,
        Text(
            "只有一份缓冲时，MTE2 搬一个 {b_topk} 个 token 的 KV 块要 {load}，CUBE 算这一块要 {use}。"
            "CUBE 有多少份额的时间在空等？",
            "With a single buffer, MTE2 gathers a KV block of {b_topk} tokens in {load} and the CUBE computes it in "
            "{use}. What share of the time does the CUBE sit idle?",
        ),
        _db_one_buffer,
        "%",
        report_line(170),
    ),
    _e(
        "db-ub-ring-depth",
        "algorithm/double-buffering",
        _N,
        Text(
            "VECTOR 的流水线里，MTE2 往 UB 搬第 i+{gather} 块时，ND2NZ 在读第 i+{nd2nz} 块。UB 里的 KV 环要几份缓冲？",
            "In the VECTOR pipeline MTE2 gathers block i+{gather} into UB while ND2NZ reads block i+{nd2nz}. "
            "How many buffers does the UB's KV ring need?",
        ),
        _db_ub_ring,
        "blocks",
        SHIPPED_KERNEL.sources["ub_kv_buffers"],
    ),
    _e(
        "db-ub-kv-bytes",
        "algorithm/double-buffering",
        _N,
        Text(
            "每个 VECTOR Core 的 UB 里有 {buffers} 份 KV 缓冲，每份放 {tokens} 个 d_qk = {d_qk} 的 bf16 "
            "token。它们一共占多少？",
            "Each VECTOR Core's UB keeps {buffers} KV buffers, each holding {tokens} bf16 tokens of "
            "d_qk = {d_qk}. How much do they take together?",
        ),
        _db_ub_bytes,
        "KiB",
        code_line("config.h", 78),
    ),
    # algorithm/roofline
    _e(
        "roofline-ridge",
        "algorithm/roofline",
        _R,
        Text(
            "昇腾 950 的矩阵峰值是 {peak}，L2 带宽是 {bandwidth}。它的脊点是多少 FLOP/B？",
            "The Ascend 950 peaks at {peak} of matrix products and its L2 delivers {bandwidth}. What is its "
            "ridge point in FLOP/B?",
        ),
        _roofline_ridge,
        "FLOP/B",
        report_line(85),
        relative_tolerance=READER_ROUNDING,
    ),
    _e(
        "roofline-crossover-heads",
        "algorithm/roofline",
        _N,
        Text(
            "head 越多，算术强度越高。topk = {topk} 时，h_q 为多少，算术强度正好等于脊点 {ridge}？",
            "More heads, higher intensity. At topk = {topk}, at which h_q does the arithmetic intensity equal "
            "the ridge point of {ridge}?",
        ),
        _roofline_crossover,
        "heads",
        report_line(114),
        inputs={"topk": REPORT_TOPK[0]},
        relative_tolerance=READER_ROUNDING,
    ),
    # algorithm/nd-nz
    _e(
        "nz-offset",
        "algorithm/nd-nz",
        _N,
        Text(
            "本章图中的小块有 {tokens} 个 token、{dims} 维（bf16）。token {token}、第 {dim} 维的元素在 ND 里的偏移是 "
            "{nd}；在 NZ 里的偏移是多少？",
            "The tile of this chapter's figure has {tokens} tokens of {dims} bf16 dims. The element of token "
            "{token}, dim {dim} sits at offset {nd} in ND; at which byte offset does NZ put it?",
        ),
        _nz_offset,
        "B",
        report_line(150),
        inputs=NZ_EXAMPLE,
    ),
    _e(
        "nz-fractals-per-block",
        "algorithm/nd-nz",
        _R,
        Text(
            "每个 VECTOR Core 的 KV 块有 {tokens} 个 token，每个 d_qk = {d_qk}。转成 NZ 后它由多少个 {rows} × {cols} "
            "的分形组成？",
            "Each VECTOR Core's KV block holds {tokens} tokens of d_qk = {d_qk}. Into how many fractals of "
            "{rows} × {cols} does NZ cut it?",
        ),
        _nz_fractals,
        "fractals",
        report_line(152),
    ),
    # discussion/heads-per-core
    _e(
        "heads-cube-cycles",
        "discussion/heads-per-core",
        _R,
        Text(
            "按报告的模型，h_q = {heads}、topk = {topk}、d = {d} 时，每个 AI Core 的 CUBE 周期是多少？",
            "In the report's model, how many CUBE cycles per AI Core do h_q = {heads}, topk = {topk} and d = {d} take?",
        ),
        _heads_cube,
        "cycles",
        _ROOFLINE_CUBE,
    ),
    _e(
        "heads-l2-cycles",
        "discussion/heads-per-core",
        _R,
        Text(
            "同一模型下，h_q = {heads}、topk = {topk} 时，每个 AI Core 搬运 Q、O 与 KV 要多少个 L2 周期？",
            "In the same model, how many L2 cycles per AI Core does moving Q, O and KV take at h_q "
            "= {heads}, topk = {topk}?",
        ),
        _heads_l2,
        "cycles",
        report_line(99),
        relative_tolerance=READER_ROUNDING,
    ),
    _e(
        "heads-what-if-between",
        "discussion/heads-per-core",
        _W,
        Text(
            "若每个 AI Core 负责 h_q = {heads} 个 head（介于报告的网格点之间），topk = "
            "{topk}，算存比（CUBE 周期 ÷ L2 周期）是多少？是否 compute bound？",
            "With h_q = {heads} heads per AI Core (between the report's grid points) and topk = "
            "{topk}, what is the ratio of CUBE to L2 cycles? Is it compute-bound?",
        ),
        _heads_what_if,
        RATIO_UNIT,
        report_line(114),
        inputs={"heads": WHAT_IF_HEADS, "topk": REPORT_TOPK[0]},
        live="head-roofline",
        relative_tolerance=READER_ROUNDING,
    ),
    _e(
        "heads-what-if-half-l2",
        "discussion/heads-per-core",
        _W,
        Text(
            "若 L2 带宽变为预设值除以 {divisor}，h_q = {heads}、topk = {topk} 的算存比变成多少？",
            "If the L2 bandwidth were the preset's divided by {divisor}, what would the ratio at "
            "h_q = {heads}, topk = {topk} become?",
        ),
        _heads_half_l2,
        RATIO_UNIT,
        report_line(85),
        inputs=HALF_L2_INPUTS,
        live="head-roofline",
        relative_tolerance=READER_ROUNDING,
    ),
    # discussion/accumulator
    _e(
        "acc-o-fills-l0c",
        "discussion/accumulator",
        _R,
        Text(
            "h_q = {heads} 时，fp32 的 O 占 L0C 的多少？",
            "At h_q = {heads}, what share of L0C does the fp32 O take?",
        ),
        _acc_o_128,
        "%",
        report_line(116),
        inputs={"heads": MORE_HEADS.heads_per_core},
    ),
    _e(
        "acc-l0c-free",
        "discussion/accumulator",
        _N,
        Text(
            "出货的内核每核 {heads} 个 head、B_TOPK = {b_topk}，L0C 里放 O 与 P。L0C 还空着多少？",
            "The shipped kernel, with {heads} heads per core and B_TOPK = {b_topk}, keeps O and P "
            "in L0C. What share of L0C is left free?",
        ),
        _acc_free,
        "%",
        report_line(116),
    ),
    _e(
        "acc-identity-rescale",
        "discussion/accumulator",
        _R,
        Text(
            "用单位矩阵乘法把缩放后的 O（{m} × {d_v}）送回 L0C，且不开 HF32 以免损失精度。CUBE 要多少周期？",
            "Moving a scaled O ({m} × {d_v}) back into L0C by an identity matmul, without HF32 so "
            "as to lose no precision: how many CUBE cycles?",
        ),
        _acc_identity,
        "cycles",
        report_line(128),
    ),
    # discussion/one-vector-core
    _e(
        "one-v-tokens-in-flight",
        "discussion/one-vector-core",
        _R,
        Text(
            "一个 VECTOR Core 最多有 {queue} 个 MTE2 请求在途，每个 gather2 请求搬 {per_request} 个 "
            "token。最多有多少个 token 在途？",
            "One VECTOR Core may have {queue} MTE2 requests in flight, and each gather2 request "
            "moves {per_request} tokens. How many tokens at most are in flight?",
        ),
        _one_v_in_flight,
        "tokens",
        report_line(138),
    ),
    _e(
        "one-v-fixpipe-break-even",
        "discussion/one-vector-core",
        _R,
        Text(
            "1C1V 下 FixPipe 每周期搬 {rate} 字节，O 每块都要搬出。B_TOPK 至少多大，MMA 才比 FixPipe 慢？",
            "Under 1C1V FixPipe moves {rate} bytes per cycle and O leaves every block. From which "
            "B_TOPK on does the MMA outlast FixPipe?",
        ),
        _one_v_break_even,
        "tokens",
        report_line(142),
        relative_tolerance=READER_ROUNDING,
    ),
    _e(
        "one-v-requests",
        "discussion/one-vector-core",
        _W,
        Text(
            "若只用一个 VECTOR Core（1C1V），B_TOPK = {b_topk}，它每块要发出多少个 MTE2 请求？队列只有 "
            "{queue} 个位置。",
            "With one VECTOR Core only (1C1V) and B_TOPK = {b_topk}, how many MTE2 requests does it "
            "issue per block? The queue holds {queue}.",
        ),
        _one_v_requests,
        "requests",
        report_line(138),
        inputs={"vector-cores": ONE_VECTOR_CORE.vector_cores},
    ),
    # discussion/nd2nz-when
    _e(
        "nd2nz-block-bytes",
        "discussion/nd2nz-when",
        _R,
        Text(
            "NZ 分形一行有 {cols} 个 bf16。一个数据块多少字节？",
            "A row of an NZ fractal holds {cols} bf16 values. How many bytes is one block?",
        ),
        _nd2nz_block,
        "B",
        report_line(152),
    ),
    _e(
        "nd2nz-blocks-per-token",
        "discussion/nd2nz-when",
        _R,
        Text(
            "一个 d_qk = {d_qk} 的 bf16 token 要切成多少个这样的数据块？",
            "Into how many such blocks does a bf16 token of d_qk = {d_qk} split?",
        ),
        _nd2nz_blocks,
        "blocks",
        report_line(152),
    ),
    # discussion/skip-scale-sync
    _e(
        "ss-buffer-bytes",
        "discussion/skip-scale-sync",
        _N,
        Text(
            "SS buffer 为每个作业槽、每个块槽、每个 VECTOR Core 各存一个标志。它一共多少字节？",
            "The SS buffer holds one flag per job slot, per block slot and per VECTOR Core. How many bytes is it?",
        ),
        _ss_bytes,
        "B",
        SS_LAYOUT_SOURCE,
    ),
    _e(
        "ss-flag-offset",
        "discussion/skip-scale-sync",
        _N,
        Text(
            "作业 {job}、块 {block}、VECTOR Core {core} 的标志在 SS buffer 的哪个字节偏移？",
            "At which byte offset of the SS buffer is the flag of job {job}, block {block}, VECTOR Core {core}?",
        ),
        _ss_offset,
        "B",
        SS_LAYOUT_SOURCE,
        inputs=FLAG_EXAMPLE,
    ),
    _e(
        "ss-flag-lead",
        "discussion/skip-scale-sync",
        _N,
        Text(
            "在 VECTOR 的流水线里，读 index 的步骤与写 skip-scale 标志的步骤相隔多少块？",
            "In the VECTOR pipeline, how many blocks apart are the step that reads the indices and the "
            "step that writes the skip-scale flag?",
        ),
        _ss_flag_lead,
        "blocks",
        report_line(162),
    ),
    # discussion/two-chips
    _e(
        "two-hopper-mma",
        "discussion/two-chips",
        _R,
        Text(
            "H800 的一个 CTA 处理 {heads} 个 head，d_k = {d_k}、d_v = {d_v}。每个 KV token 的 Tensor Core 周期是多少？",
            "One H800 CTA handles {heads} heads with d_k = {d_k} and d_v = {d_v}. How many Tensor "
            "Core cycles does each KV token take?",
        ),
        _two_mma,
        "cycles",
        H800.sources["matrix_fma_per_cycle_per_core"],
    ),
    _e(
        "two-crossover-gain",
        "discussion/two-chips",
        _N,
        Text(
            "FP8 解码时成对的 CTA 分担反量化（crossover）。模型预测快多少倍？",
            "In FP8 decoding two CTAs share the dequantisation (the crossover). How much faster "
            "does the model predict it to be?",
        ),
        _two_gain,
        RATIO_UNIT,
        _HOPPER_MMA,
        relative_tolerance=READER_ROUNDING,
    ),
    _e(
        "two-throttled-peak",
        "discussion/two-chips",
        _N,
        Text(
            "H800 降频到 {clock_ghz} GHz 时，稠密 bf16 峰值是多少 TFLOPS？",
            "At the throttled clock of {clock_ghz} GHz, what is the H800's dense bf16 peak in TFLOPS?",
        ),
        _two_peak,
        "TFLOPS",
        H800.sources["clock_hz"],
        relative_tolerance=READER_ROUNDING,
    ),
    # pipeline
    _e(
        "pipe-mma-per-block",
        "pipeline",
        _R,
        Text(
            "MMA_M = {m}、B_TOPK = {b_topk} 时，CUBE 每块做 QK 与 SV 共要多少周期？",
            "At MMA_M = {m} and B_TOPK = {b_topk}, how many cycles do a block's QK and SV take on the CUBE?",
        ),
        _pipe_mma,
        "cycles",
        report_line(170),
    ),
    _e(
        "pipe-softmax-limit",
        "pipeline",
        _N,
        Text(
            "SV 推迟一格后，P[i] 就绪到 SV[i] 开始之间，softmax 最多能用多少周期而不让 CUBE 等？",
            "With SV pushed back by one, how many cycles may softmax take between P[i] being ready "
            "and SV[i] starting, without the CUBE waiting?",
        ),
        _pipe_softmax_limit,
        "cycles",
        report_line(184),
    ),
    _e(
        "pipe-margin-alt-b-topk",
        "pipeline",
        _W,
        Text(
            "若 B_TOPK = {b_topk}，CUBE 每块的余量（CUBE 周期减去 P 搬出、softmax 与 S 拷贝的时间）是多少？",
            "With B_TOPK = {b_topk}, what is the CUBE's margin per block (its cycles less P out, "
            "softmax and the copy of S)?",
        ),
        _pipe_margin,
        "cycles",
        report_line(184),
        inputs={"b-topk": REPORT_ALTERNATIVE_B_TOPK},
    ),
    # optimizations/gather2
    _e(
        "gather2-requests",
        "optimizations/gather2",
        _R,
        Text(
            "B_TOPK = {b_topk}，由 VECTOR Core 平分，gather2 每个请求搬一对 token。每个 VECTOR Core "
            "每块发出多少个请求？",
            "B_TOPK = {b_topk}, split between the VECTOR Cores, and gather2 moves a pair of tokens "
            "per request. How many requests does each VECTOR Core issue per block?",
        ),
        _gather_requests,
        "requests",
        report_line(216),
    ),
    _e(
        "gather2-bigger-block",
        "optimizations/gather2",
        _W,
        Text(
            "若 B_TOPK = {b_topk}，每个 VECTOR Core 每块的请求比 MTE2 队列（{queue} 个）多出多少？",
            "With B_TOPK = {b_topk}, by how many requests does each VECTOR Core's block exceed the "
            "MTE2 queue of {queue}?",
        ),
        _gather_bigger,
        "requests",
        report_line(138),
        inputs={"b-topk": MARGIN_CANDIDATES[-1]},
    ),
    _e(
        "gather2-bytes",
        "optimizations/gather2",
        _N,
        Text(
            "B_TOPK = {b_topk} 的 bf16 块，每个 VECTOR Core 搬进 UB 多少？",
            "For a bf16 block of B_TOPK = {b_topk}, how much does each VECTOR Core gather into UB?",
        ),
        _gather_bytes,
        "KiB",
        report_line(216),
    ),
    # optimizations/kv-cache-layout
    _e(
        "kv-fp8-token-bytes",
        "optimizations/kv-cache-layout",
        _R,
        Text(
            "FP8 KV token：{dims} 维各一字节，每 {per_scale} 维一个 scale，再加 bf16 的 RoPE 部分。一个 "
            "token 共多少字节？",
            "An FP8 KV token: {dims} dimensions of one byte each, a scale per {per_scale} "
            "dimensions, and the RoPE part in bf16. How many bytes in all?",
        ),
        _kv_fp8_bytes,
        "B",
        _KV_FORMAT,
    ),
    _e(
        "kv-fp8-ratio",
        "optimizations/kv-cache-layout",
        _W,
        Text(
            "若 KV 以 FP8 存（每 token {token}），h_q = {heads}、topk = {topk} 时算存比是多少？",
            "With the KV stored in FP8 ({token} per token), what is the ratio at h_q = {heads}, topk = {topk}?",
        ),
        _kv_fp8_ratio,
        RATIO_UNIT,
        report_line(114),
        inputs={
            "heads": SHIPPED_KERNEL.heads_per_core,
            "topk": REPORT_TOPK[-1],
            "kv-token-bytes": kv_bytes_per_token(KvFormat.FP8),
        },
        relative_tolerance=READER_ROUNDING,
    ),
    # optimizations/fast-nd2nz
    _e(
        "fast-nd2nz-unpadded",
        "optimizations/fast-nd2nz",
        _N,
        Text(
            "每个 VECTOR Core 有 {tokens} 个 token。不加 pad 时，同一 token 相邻块的间隔对 UB 一行取余是多少？",
            "Each VECTOR Core holds {tokens} tokens. Without padding, what is the stride between a "
            "token's blocks modulo one UB row?",
        ),
        _fast_unpadded,
        "B",
        report_line(226),
    ),
    _e(
        "fast-nd2nz-padded",
        "optimizations/fast-nd2nz",
        _R,
        Text(
            "加上报告说的 pad 后，{tokens} 个 token 的 NZ buffer 里同一 token 相邻块的间隔是多少？",
            "With the report's padding, what is the stride between a token's blocks in the NZ "
            "buffer of {tokens} tokens?",
        ),
        _fast_padded,
        "B",
        report_line(228),
    ),
    _e(
        "fast-nd2nz-pad-what-if",
        "optimizations/fast-nd2nz",
        _W,
        Text(
            "若 B_TOPK = {b_topk}，至少要 pad 多少行才没有 bank 冲突？",
            "With B_TOPK = {b_topk}, how many padding rows at least avoid bank conflicts?",
        ),
        _fast_pad_rows,
        "rows",
        report_line(228),
        inputs={"b-topk": REPORT_ALTERNATIVE_B_TOPK},
    ),
    # optimizations/icache
    _e(
        "icache-drain-turns",
        "optimizations/icache",
        _N,
        Text(
            "VECTOR 的流水线有 {stages} 个步骤。主循环收尾时要多转几圈才能排空？",
            "The VECTOR pipeline has {stages} steps. How many extra turns of the main loop drain it?",
        ),
        _icache_depth,
        "blocks",
        report_line(238),
    ),
    _e(
        "icache-cube-vs-vf",
        "optimizations/icache",
        _N,
        Text(
            "CUBE Core 的 icache 是 SIMD VF 的多少倍？",
            "How many times the SIMD VF's icache is the CUBE Core's?",
        ),
        _icache_ratio,
        RATIO_UNIT,
        report_line(238),
    ),
    # optimizations/l1-banks
    _e(
        "l1-bank-size",
        "optimizations/l1-banks",
        _R,
        Text(
            "L1 平分成几个 bank。每个 bank 多大？",
            "L1 is split evenly into banks. How large is each?",
        ),
        _l1_bank,
        "KiB",
        report_line(242),
    ),
    _e(
        "l1-fuller-bank-headroom",
        "optimizations/l1-banks",
        _N,
        Text(
            "按出货内核的 L1 布局，较满的 bank 还剩多少？",
            "In the shipped kernel's L1 layout, how much is left in the fuller bank?",
        ),
        _l1_fuller,
        "KiB",
        SHIPPED_L1_LAYOUT_SOURCE,
    ),
    _e(
        "l1-kv-buffers",
        "optimizations/l1-banks",
        _N,
        Text(
            "B_TOPK = {b_topk} 的 bf16 KV 块，在 L1 里按出货的缓冲数存放，共占多少？",
            "bf16 KV blocks of B_TOPK = {b_topk}, held in L1 with the shipped number of buffers: "
            "how much do they take?",
        ),
        _l1_kv_buffer,
        "KiB",
        SHIPPED_KERNEL.sources["l1_kv_buffers"],
    ),
    # optimizations/skip-scale
    _e(
        "skip-fixpipe-saved",
        "optimizations/skip-scale",
        _N,
        Text(
            "B_TOPK = {b_topk}、1C2V 时，每块 skip 掉 scale-O 省下多少 FixPipe 周期？",
            "At B_TOPK = {b_topk} and 1C2V, how many FixPipe cycles does skipping scale-O save per block?",
        ),
        _skip_saved,
        "cycles",
        report_line(160),
    ),
    _e(
        "skip-bytes-not-moved",
        "optimizations/skip-scale",
        _N,
        Text(
            "O 是 {m} × {d_v} 的 fp32。每 skip 一次，少搬多少？",
            "O is {m} × {d_v} fp32 values. How much less is moved per skip?",
        ),
        _skip_bytes,
        "KiB",
        report_line(250),
    ),
    _e(
        "skip-one-v",
        "optimizations/skip-scale",
        _W,
        Text(
            "若只有 {vector_cores} 个 VECTOR Core 接收 FixPipe，且每块都 scale O，FixPipe 比 CUBE 多用多少周期？",
            "With {vector_cores} VECTOR Core receiving FixPipe and O scaled every block, by how "
            "many cycles does FixPipe outlast the CUBE?",
        ),
        _skip_one_v,
        "cycles",
        report_line(142),
        inputs={"vector-cores": ONE_VECTOR_CORE.vector_cores},
    ),
    # design/index
    _e(
        "design-ub-headroom",
        "design/index",
        _R,
        Text(
            "在报告的设计点（prefill），每个 VECTOR Core 的 UB 还剩多少？",
            "At the report's design point (prefill), how much of each VECTOR Core's UB is left?",
        ),
        _design_ub_headroom,
        "KiB",
        _UB_PLAN,
    ),
    _e(
        "design-ub-bigger-block",
        "design/index",
        _W,
        Text(
            "若 B_TOPK = {b_topk}，其余不变，UB 的占用是多少？",
            "With B_TOPK = {b_topk} and nothing else changed, what is the UB's use?",
        ),
        _design_ub_bigger_block,
        "%",
        _UB_PLAN,
        inputs={"b-topk": MARGIN_CANDIDATES[-1]},
        live="design-point",
    ),
    _e(
        "design-l2-fewer-heads",
        "design/index",
        _W,
        Text(
            "若每个 AI Core 只负责 {heads} 个 head（topk = {topk}），L2 roofline 的占用是多少？",
            "With {heads} heads per AI Core (topk = {topk}), what is the L2 roofline's use?",
        ),
        _design_l2_fewer_heads,
        "%",
        report_line(114),
        inputs={"heads": FEWER_HEADS.heads_per_core},
        live="design-point",
        relative_tolerance=READER_ROUNDING,
    ),
    # design/what-if
    _e(
        "what-if-half-l2",
        "design/what-if",
        _W,
        Text(
            "把 L2 总带宽减半到 {bandwidth}，其余照报告的设计（每个 AI Core {heads} 个 head，topk = {topk}）。"
            "L2 roofline 的占用是多少？",
            "Halve the L2 bandwidth to {bandwidth}, the rest as the report designs it ({heads} heads per AI Core, "
            "topk = {topk}). What is the L2 roofline's use?",
        ),
        _what_if_half_l2,
        "%",
        report_line(114),
        inputs={"l2-bandwidth": with_half_l2().bandwidth_bytes_per_s},
        live="design-point",
        relative_tolerance=READER_ROUNDING,
    ),
    _e(
        "what-if-fewer-cores",
        "design/what-if",
        _W,
        Text(
            "若只有 {cores} 个 AI Core 共用同样 {bandwidth} 的 L2，每个 AI Core 仍是 {heads} 个 head、topk = {topk}，"
            "L2 roofline 的占用是多少？",
            "If only {cores} AI Cores share the same {bandwidth} of L2, each still with {heads} heads at "
            "topk = {topk}, what is the L2 roofline's use?",
        ),
        _what_if_fewer_cores,
        "%",
        report_line(114),
        inputs={"cores": FEWER_AI_CORES},
        live="design-point",
        relative_tolerance=READER_ROUNDING,
    ),
    _e(
        "what-if-fp8-balance",
        "design/what-if",
        _N,
        Text(
            "decode 时内核读 FP8 的 KV token，每个 {fp8}，而不是 bf16 的 {bf16}。topk = {topk} 时，每个 AI Core "
            "有多少个 q head，CUBE 的周期正好等于 L2 的周期（平衡点）？",
            "In decode the kernel reads FP8 KV tokens of {fp8} instead of bf16 ones of {bf16}. At topk = {topk}, "
            "at how many q heads per AI Core do the CUBE's cycles just equal the L2's (the balance point)?",
        ),
        _what_if_fp8_balance,
        "heads",
        report_line(114),
        relative_tolerance=READER_ROUNDING,
    ),
)


def chapter_exercises(chapter: str) -> tuple[Exercise, ...]:
    """The exercises of ``chapter`` (a key of ``EXERCISE_CHAPTERS``), in order; a ValueError for another chapter."""
    if chapter not in EXERCISE_CHAPTERS:
        raise ValueError(f"chapter must be one of {', '.join(EXERCISE_CHAPTERS)}, got {shown(chapter)}")
    return tuple(exercise for exercise in EXERCISES if exercise.chapter == chapter)
