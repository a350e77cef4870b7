"""On-chip memory plans and their headroom.

- L0C holds the CUBE's fp32 results: O and P (report (zh) line 116).
- UB (one per VECTOR Core) holds the plan ``UnifiedBufferMemoryPlan`` of config.h:77-125, field by field.
- L1 (two banks) holds Q, the gathered KV and S, each split across the banks (report (zh) line 242).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from ascend_dsa.facts.hardware import AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import (
    GATHER2_TOKENS_PER_REQUEST,
    SHIPPED_KERNEL,
    KernelConfig,
    require_spec_config_model,
)
from ascend_dsa.facts.kernel_rules import VECTOR_BYTES, check_kernel_rules
from ascend_dsa.facts.kv_formats import KvFormat, Mode, default_main_cache, kv_token_format
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import Source, code_line
from ascend_dsa.units import BF16_BYTES, FP32_BYTES, KiB
from ascend_dsa.validate import door, require_bool, require_instance, require_int

#: Bytes of an ``int64_t`` (the gather2 base offsets and strides, config.h:111-112).
INT64_BYTES: Final = 8


def _l0c_output_bytes(heads: int, model: ModelShape) -> int:
    """[`l0c_output_bytes`][] of values already checked (the package's own callers)."""
    return heads * model.d_v * FP32_BYTES


@door(_l0c_output_bytes)
def l0c_output_bytes(heads: int, model: ModelShape = DSA_V41) -> int:
    """fp32 O of ``heads`` rows: 128 x 512 x 4 B = 256 KiB fills L0C."""
    model = require_instance("model", model, ModelShape)
    return _l0c_output_bytes(require_int("heads", heads, minimum=1), model)


def _l0c_scores_bytes(config: KernelConfig) -> int:
    """[`l0c_scores_bytes`][] of a ``config`` already checked (the package's own callers)."""
    return config.mma_m * config.b_topk * FP32_BYTES


@door(_l0c_scores_bytes)
def l0c_scores_bytes(config: KernelConfig) -> int:
    """fp32 P of one block: ``MMA_M x B_TOPK x 4`` B (16 KiB at 64 x 64)."""
    return _l0c_scores_bytes(require_instance("config", config, KernelConfig))


def _l0c_used_bytes(config: KernelConfig, model: ModelShape) -> int:
    """[`l0c_used_bytes`][] of values already checked (the package's own callers)."""
    return _l0c_output_bytes(config.mma_m, model) + _l0c_scores_bytes(config)


@door(_l0c_used_bytes)
def l0c_used_bytes(config: KernelConfig, model: ModelShape = DSA_V41) -> int:
    """L0C the shipped kernel uses: O at offset 0 and P after it (128 KiB + 16 KiB = 144 KiB at 64 heads)."""
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    return _l0c_used_bytes(config, model)


def vector_cores_for_accumulator(spec: AscendSpec, heads: int, model: ModelShape = DSA_V41) -> int:
    """Fewest VECTOR Cores whose UBs can share the fp32 accumulator of ``heads`` rows (report (zh) line 116).

    Each core keeps an equal share of the rows; a share must be smaller than one UB, since the gathered KV, P and
    the row statistics need room too. Raises ValueError when even every VECTOR Core of the AI Core is not enough.
    """
    spec = require_ascend("spec", spec)
    heads = require_int("heads", heads, minimum=1)
    model = require_instance("model", model, ModelShape)
    accumulator = _l0c_output_bytes(heads, model)
    for cores in range(1, spec.ascend.vector_cores_per_ai_core + 1):
        if -(-accumulator // cores) < spec.staging_bytes_per_core:
            return cores
    raise ValueError(
        f"heads must give an fp32 accumulator that {spec.ascend.vector_cores_per_ai_core} VECTOR Cores can share "
        f"with room to spare, got {heads} heads ({accumulator} B)"
    )


# --- UB: the per-VECTOR-Core memory plan (config.h:77-125) -------------------------------------------------------

#: Per-job state is double-buffered by job parity (``[2]`` leading dimensions, ``args.job_idx & 1``; config.h:91-98).
JOB_PARITY_BUFFERS: Final = 2
#: ``row_max`` and ``row_sum`` store each row twice ("row0 row0 row1 row1", config.h:91, 94).
ROW_COPIES: Final = 2
#: ``row_scales`` holds two vectors per parity slot (config.h:98).
ROW_SCALE_VECTORS: Final = 2
#: ``row_max_max_delta[2][2]``: parity slot x block parity (config.h:123).
ROW_MAX_MAX_DELTA_SHAPE: Final = (2, 2)


@dataclass(frozen=True)
class UbField:
    """One array of ``UnifiedBufferMemoryPlan``: its shape (empty when absent), element size and source line."""

    name: str
    shape: tuple[int, ...]
    element_bytes: int
    source: Source
    condition: str = ""  # when the field has elements, e.g. "decode only"

    @property
    def elements(self) -> int:
        """Number of elements (0 for a zero-length array)."""
        return math.prod(self.shape) if self.shape else 0

    @property
    def bytes(self) -> int:
        """Bytes the array occupies."""
        return self.elements * self.element_bytes


@dataclass(frozen=True)
class UbPlan:
    """The UB plan of one VECTOR Core for one kernel instantiation; ``total_bytes`` is ``sizeof`` of the struct."""

    mode: Mode
    main_cache: KvFormat
    fp4_extra: bool
    sink: bool
    config: KernelConfig
    fields: tuple[UbField, ...]

    @property
    def total_bytes(self) -> int:
        """``sizeof(UnifiedBufferMemoryPlan)``: C layout, each array aligned to its element, the end to the widest."""
        offset = 0
        for f in self.fields:
            if f.bytes:
                offset = _align(offset, f.element_bytes) + f.bytes
        return _align(offset, max(f.element_bytes for f in self.fields))

    def headroom_bytes(self, spec: AscendSpec) -> int:
        """UB left over on one VECTOR Core (negative when the plan does not fit)."""
        return require_ascend("spec", spec).staging_bytes_per_core - self.total_bytes

    def fits(self, spec: AscendSpec) -> bool:
        """True when the plan fits the VECTOR Core's UB (the kernel's ``static_assert``, config.h:125)."""
        return self.total_bytes <= require_ascend("spec", spec).staging_bytes_per_core

    def describe(self) -> str:
        """The instantiation in a few words, e.g. ``decode, FP8 + FP4 extra, sink``."""
        cache = f"{self.main_cache.value.upper() if self.main_cache is not KvFormat.BF16 else 'bf16'}"
        extra = " + FP4 extra" if self.fp4_extra else ""
        return f"{self.mode.value}, {cache}{extra}, {'sink' if self.sink else 'no sink'}"


def _align(offset: int, alignment: int) -> int:
    return -(-offset // alignment) * alignment


def _ub_plan(
    config: KernelConfig, mode: Mode, cache: KvFormat, *, fp4_extra: bool, sink: bool, model: ModelShape
) -> UbPlan:
    """[`ub_plan`][] of values already checked, of a combination the kernel rules already allow."""
    decode = mode is Mode.DECODE
    m = config.mma_m_per_vector_core
    b = config.b_topk_per_vector_core
    ib = config.index_block_size
    v = VECTOR_BYTES // FP32_BYTES
    pairs = ib // GATHER2_TOKENS_PER_REQUEST
    main = kv_token_format(cache, model)
    fp4 = kv_token_format(KvFormat.FP4, model)
    main_row = main.ub_token_bytes if decode else model.d_v
    main_element = 1 if decode else BF16_BYTES  # gathered_kv_t: one fp8 byte per element in decode, bf16 in prefill

    def field(
        name: str, shape: tuple[int, ...], element: int, line: int, condition: str = "", *, on: bool = True
    ) -> UbField:
        return UbField(name, shape if on else (), element, code_line("config.h", line), condition)

    fields = (
        field("gathered_kv", (config.ub_kv_buffers, b, main_row), main_element, 78),
        field("fp8_scales_bf16", (b, main.scale_count), BF16_BYTES, 79, "decode only", on=decode),
        field("gathered_kv_in_nz", ((b + 1) * model.d_v,), BF16_BYTES, 81),
        field("output_accum", (m, model.d_v), FP32_BYTES, 83),
        field("cur_output_frag", (config.output_frag_buffers, m, config.output_frag_d_vo), FP32_BYTES, 84),
        field("p", (m * config.b_topk,), FP32_BYTES, 86),
        field("attn_sink", (m,), FP32_BYTES, 88, "sink only", on=sink),
        field("row_max", (JOB_PARITY_BUFFERS, max(ROW_COPIES * m, v)), FP32_BYTES, 91),
        field("row_max_for_o", (JOB_PARITY_BUFFERS, max(ROW_COPIES * m, v)), FP32_BYTES, 92),
        field("row_sum", (JOB_PARITY_BUFFERS, max(ROW_COPIES * m, v)), FP32_BYTES, 94),
        field("row_denorm", (JOB_PARITY_BUFFERS, max(m, v)), FP32_BYTES, 95),
        field("row_scales", (JOB_PARITY_BUFFERS, ROW_SCALE_VECTORS, v), FP32_BYTES, 98),
        field("indices", (ib,), FP32_BYTES, 101),
        field("global_kv_ptr_offset", (pairs,), INT64_BYTES, 111),
        field("src_stride_in_gather2", (pairs,), INT64_BYTES, 112),
        field("smaller_indices", (config.index_buffers, pairs), FP32_BYTES, 113),
        field("larger_indices", (config.index_buffers, pairs), FP32_BYTES, 114),
        field(
            "gathered_kv_fp4",
            (config.ub_kv_buffers, b, fp4.ub_token_bytes),
            1,
            119,
            "FP4 extra only",
            on=fp4_extra,
        ),
        field("fp4_scales_bf16", (b, fp4.scale_count), BF16_BYTES, 121, "FP4 extra only", on=fp4_extra),
        field("row_max_max_delta", ROW_MAX_MAX_DELTA_SHAPE, FP32_BYTES, 123),
    )
    return UbPlan(mode=mode, main_cache=cache, fp4_extra=fp4_extra, sink=sink, config=config, fields=fields)


@door(_ub_plan)
def ub_plan(
    config: KernelConfig,
    mode: Mode,
    main_cache: KvFormat | None = None,
    *,
    fp4_extra: bool = False,
    sink: bool = False,
    model: ModelShape = DSA_V41,
) -> UbPlan:
    """The per-VECTOR-Core UB plan, field by field, of the instantiation ``config`` + ``mode`` + cache options.

    Raises [`ForbiddenDesign`][] naming the rule for a combination the kernel rules out.
    """
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    fp4_extra, sink = require_bool("fp4_extra", fp4_extra), require_bool("sink", sink)
    mode = Mode(mode)
    cache = default_main_cache(mode) if main_cache is None else KvFormat(main_cache)
    check_kernel_rules.trusted(config, mode, cache, fp4_extra=fp4_extra)
    return _ub_plan(config, mode, cache, fp4_extra=fp4_extra, sink=sink, model=model)


#: The six instantiations the kernel ships (instantiations/*.asc, written from generate_instantiations.py:17-21):
#: (mode, FP4 extra cache, attention sink); the main cache is always the mode's own.
SHIPPED_INSTANTIATIONS: Final = (
    (Mode.PREFILL, False, False),
    (Mode.PREFILL, False, True),
    (Mode.DECODE, False, False),
    (Mode.DECODE, False, True),
    (Mode.DECODE, True, False),
    (Mode.DECODE, True, True),
)


def shipped_ub_plans(config: KernelConfig = SHIPPED_KERNEL, model: ModelShape = DSA_V41) -> tuple[UbPlan, ...]:
    """The UB plans of the six shipped instantiations, in the order of [`SHIPPED_INSTANTIATIONS`][]."""
    config = require_instance("config", config, KernelConfig)
    model = require_instance("model", model, ModelShape)
    plans = []
    for mode, fp4_extra, sink in SHIPPED_INSTANTIATIONS:
        cache = default_main_cache(mode)
        check_kernel_rules.trusted(config, mode, cache, fp4_extra=fp4_extra)
        plans.append(_ub_plan(config, mode, cache, fp4_extra=fp4_extra, sink=sink, model=model))
    return tuple(plans)


# --- L1: two banks, every tensor split across them (report (zh) line 242) ---------------------------------------


@dataclass(frozen=True)
class L1Tensor:
    """One tensor kept in L1, split evenly across the banks."""

    name: str
    bytes: int
    source: Source


@dataclass(frozen=True)
class L1Plan:
    """What L1 holds and how much of it lands in each bank (each tensor is split evenly, report (zh) line 242)."""

    tensors: tuple[L1Tensor, ...]
    banks: int

    @property
    def total_bytes(self) -> int:
        """Bytes of L1 in use, all banks together."""
        return sum(t.bytes for t in self.tensors)

    @property
    def bytes_per_bank(self) -> int:
        """Bytes in the fuller bank; with an even split every bank holds the same (rounded up)."""
        return sum(-(-t.bytes // self.banks) for t in self.tensors)

    def bank_capacity_bytes(self, spec: AscendSpec) -> int:
        """Bytes one bank holds: L1 over the number of banks (256 KiB on the 950)."""
        spec = require_ascend("spec", spec)
        return spec.ascend.l1_bytes // spec.ascend.l1_banks

    def headroom_bytes(self, spec: AscendSpec) -> int:
        """Bytes left in the fuller bank."""
        return self.bank_capacity_bytes(spec) - self.bytes_per_bank


#: Buffers of S in L1: a single one, across the 256K boundary (kernel_body.h ``l1_s_buf``).
L1_S_BUFFERS: Final = 1


def _l1_plan(spec: AscendSpec, config: KernelConfig, model: ModelShape) -> L1Plan:
    """[`l1_plan`][] of values already checked (the package's own callers)."""
    q = config.l1_q_buffers * config.mma_m * model.d_qk * BF16_BYTES
    kv = config.l1_kv_buffers * config.b_topk * model.d_qk * BF16_BYTES
    s = L1_S_BUFFERS * config.mma_m * config.b_topk * BF16_BYTES
    return L1Plan(
        tensors=(
            L1Tensor("Q", q, Source("config.h:66; kernel_body.h l1_q_buf_lo / l1_q_buf_hi", "code")),
            L1Tensor("KV", kv, Source("config.h:67; kernel_body.h l1_gathered_kv_buf_lo / _hi", "code")),
            L1Tensor("S", s, Source("kernel_body.h l1_s_buf (one buffer across the 256K boundary)", "code")),
        ),
        banks=spec.ascend.l1_banks,
    )


@door(_l1_plan)
def l1_plan(spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41) -> L1Plan:
    """Q (``NUM_L1_Q_BUFS`` buffers), gathered KV (``NUM_L1_KV_BUFS``) and S in L1, as the kernel places them."""
    return _l1_plan(*require_spec_config_model(spec, config, model))


@dataclass(frozen=True)
class L1Region:
    """An address range of L1 in the shipped kernel: ``[start, end)`` in bytes."""

    name: str
    start_bytes: int
    end_bytes: int

    @property
    def bytes(self) -> int:
        """Size of the region."""
        return self.end_bytes - self.start_bytes


#: Where the shipped kernel puts each L1 buffer (kernel_body.h, the ``__cbuf__`` pointers before the VECTOR branch).
SHIPPED_L1_LAYOUT: Final = (
    L1Region("Q (low half)", 0, 64 * KiB),
    L1Region("KV (low half)", 64 * KiB, 192 * KiB),
    L1Region("S", 252 * KiB, 260 * KiB),
    L1Region("KV (high half)", 288 * KiB, 416 * KiB),
    L1Region("Q (high half)", 448 * KiB, 512 * KiB),
)
SHIPPED_L1_LAYOUT_SOURCE: Final = Source("kernel_body.h l1_*_buf addresses", "code")


def layout_bytes_per_bank(spec: AscendSpec, layout: tuple[L1Region, ...] = SHIPPED_L1_LAYOUT) -> tuple[int, ...]:
    """Bytes of ``layout`` inside each bank's address range (a region across a boundary counts in both)."""
    spec = require_ascend("spec", spec)
    layout = tuple(require_instance("layout item", region, L1Region) for region in layout)
    bank = spec.ascend.l1_bytes // spec.ascend.l1_banks
    return tuple(
        sum(max(0, min(r.end_bytes, (i + 1) * bank) - max(r.start_bytes, i * bank)) for r in layout)
        for i in range(spec.ascend.l1_banks)
    )
