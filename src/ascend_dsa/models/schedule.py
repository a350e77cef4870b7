"""The kernel's software pipeline as the code states it (report (zh) lines 170-200; kernel_body.h).

CUBE side (lines 174-184): for each block the CUBE runs ``QK[i+1]`` (scores of the next block) before ``SV[i]``
(output update of this block), so the scores ``P[i]`` wait for the VECTOR Cores' softmax while the CUBE runs
``SV[i-1]`` and ``QK[i+1]``.

VECTOR side (lines 188-200): every step of the loop activates seven stages, each on a block some distance ahead
of the block ``i`` whose O is being scaled. The kernel writes these distances as ``ACTIVATE(offset, stage)`` in a
"systolic array" of depth 6 (kernel_body.h).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final, Literal, Protocol

from ascend_dsa.facts.hardware import AscendSpec
from ascend_dsa.facts.kernel_config import KernelConfig, require_spec_config_model
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.provenance import Source, code_line
from ascend_dsa.lang import Text
from ascend_dsa.validate import require_instance, require_int, require_items, shown

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True)
class VectorStage:
    """One stage of the VECTOR Cores' loop: the report's step, the block offset the code activates it at."""

    key: str
    report_step: int
    report_line: int
    offset: int
    source: Source


#: Prefill order of ``ACTIVATE`` in kernel_body.h, numbered as the report lists the steps (lines 188-200).
VECTOR_STAGES: Final = (
    VectorStage("index-read", 1, 188, 5, code_line("kernel_body.h", 1297)),
    VectorStage("nd2nz-and-copy-to-l1", 2, 190, 3, code_line("kernel_body.h", 1299)),
    VectorStage("softmax", 3, 192, 1, code_line("kernel_body.h", 1300)),
    VectorStage("index-preprocess", 4, 194, 5, code_line("kernel_body.h", 1304)),
    VectorStage("scale-o", 5, 196, 0, code_line("kernel_body.h", 1305)),
    VectorStage(
        "skip-scale-flag",
        6,
        198,
        1,
        Source(
            Text(
                "kernel_body.h:1312 或 1316（取决于是哪一块）",
                "kernel_body.h:1312 or 1316 (which one depends on the block)",
            ),
            "code",
        ),
    ),
    VectorStage("kv-gather", 7, 200, 5, code_line("kernel_body.h", 1314)),
)

#: Depth of the kernel's systolic array of in-flight blocks (kernel_body.h, ``SYSTOLIC_ARR_DEPTH = 6``).
SYSTOLIC_ARRAY_DEPTH: Final = 6


def vector_stage(key: str) -> VectorStage:
    """The stage named ``key``."""
    for stage in VECTOR_STAGES:
        if stage.key == key:
            return stage
    raise ValueError(f"key must name a VECTOR stage ({', '.join(s.key for s in VECTOR_STAGES)}), got {shown(key)}")


class HasOffset(Protocol):
    """Anything scheduled at a block offset: a [`VectorStage`][], or a pipeline model's activation."""

    @property
    def offset(self) -> int:
        """Blocks ahead of block ``i``."""
        ...


def pipeline_depth(stages: Iterable[HasOffset] = VECTOR_STAGES) -> int:
    """Blocks in flight at once: the largest offset plus the block itself (6, the systolic array's depth)."""
    offsets = [s.offset for s in stages]
    if not offsets:
        raise ValueError("stages must list at least one stage, got none")
    return max(offsets) + 1


def qk_cycles_per_block(spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41) -> Fraction:
    """CUBE cycles of ``P = Q K^T`` for one block: ``MMA_M x B_TOPK x d_qk`` MACs (64 x 64 x 512 / 4096 = 512)."""
    spec, config, model = require_spec_config_model(spec, config, model)
    return Fraction(config.mma_m * config.b_topk * model.d_qk, spec.matrix_fma_per_cycle_per_core)


def sv_cycles_per_block(spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41) -> Fraction:
    """CUBE cycles of ``O += S V`` for one block: ``MMA_M x B_TOPK x d_v`` MACs (64 x 64 x 512 / 4096 = 512)."""
    spec, config, model = require_spec_config_model(spec, config, model)
    return Fraction(config.mma_m * config.b_topk * model.d_v, spec.matrix_fma_per_cycle_per_core)


@dataclass(frozen=True)
class CubeStep:
    """One matrix product of the CUBE's loop: scores ``qk`` or output ``sv``, on the block ``offset`` from ``i``."""

    product: Literal["qk", "sv"]
    offset: int


#: The CUBE's loop around block ``i`` (report (zh) lines 174-180): ``QK[i]``, ``SV[i-1]``, ``QK[i+1]``, ``SV[i]``.
CUBE_STEPS: Final = (CubeStep("qk", 0), CubeStep("sv", -1), CubeStep("qk", 1), CubeStep("sv", 0))


def steps_between_scores_and_use(steps: tuple[CubeStep, ...] = CUBE_STEPS) -> tuple[CubeStep, ...]:
    """The CUBE's steps after ``P[i] = QK[i]`` is ready and before ``SV[i]`` uses ``S[i]``: the softmax's time."""
    chosen = require_items("steps", steps, CubeStep)
    ready, use = CubeStep("qk", 0), CubeStep("sv", 0)
    if ready not in chosen or use not in chosen or chosen.index(use) < chosen.index(ready):
        raise ValueError(f"steps must hold QK[i] before SV[i], got {chosen!r:.120}")
    return chosen[chosen.index(ready) + 1 : chosen.index(use)]


def softmax_slack_cycles(spec: AscendSpec, config: KernelConfig, model: ModelShape = DSA_V41) -> Fraction:
    """CUBE cycles between ``P[i]`` ready and ``S[i]`` needed: ``SV[i-1]`` then ``QK[i+1]`` (512 + 512 = 1024)."""
    spec, config, model = require_spec_config_model(spec, config, model)
    cycles = {"qk": qk_cycles_per_block(spec, config, model), "sv": sv_cycles_per_block(spec, config, model)}
    return sum((cycles[step.product] for step in steps_between_scores_and_use()), Fraction(0))


def index_group_remainder(config: KernelConfig) -> int:
    """Indices left over when a group of ``INDEX_BLOCK_SIZE`` is cut into blocks (0 is required, config.h:57)."""
    config = require_instance("config", config, KernelConfig)
    return config.index_block_size % config.b_topk


def blocks_per_index_group(config: KernelConfig) -> int:
    """KV blocks that share one read of indices: ``INDEX_BLOCK_SIZE / B_TOPK`` (640 / 64 = 10)."""
    config = require_instance("config", config, KernelConfig)
    if index_group_remainder(config):
        raise ValueError(
            f"b_topk must divide index_block_size = {config.index_block_size} (config.h:57), got {config.b_topk}"
        )
    return config.index_block_size // config.b_topk


def flag_before_gather(block_ahead: int, config: KernelConfig) -> bool:
    """Whether the code runs step 6 (flag) before step 7 (gather), as the report lists them.

    The code does so only when the block being gathered (``i+5``) starts a new group of indices: then the gather
    must wait for that group's preprocessing, and the flag is written first so the scalar core does not idle.
    """
    config = require_instance("config", config, KernelConfig)
    block_ahead = require_int("block_ahead", block_ahead, minimum=0)
    return block_ahead % blocks_per_index_group(config) == 0


def report_order_share(config: KernelConfig) -> Fraction:
    """Share of loop steps in which the code's order of steps 6 and 7 equals the report's (1/10 shipped)."""
    config = require_instance("config", config, KernelConfig)
    return Fraction(1, blocks_per_index_group(config))
