"""On-chip memory plans and their headroom. L0C holds the CUBE's fp32 results: O and P (report (zh) line 116)."""

from __future__ import annotations

from ascend_dsa.kernel_config import KernelConfig
from ascend_dsa.model import DSA_V41, ModelShape
from ascend_dsa.units import FP32_BYTES


def l0c_output_bytes(heads: int, model: ModelShape = DSA_V41) -> int:
    """fp32 O of ``heads`` rows: 128 x 512 x 4 B = 256 KiB fills L0C."""
    if heads <= 0:
        raise ValueError(f"heads must be a positive integer, got {heads!r}")
    return heads * model.d_v * FP32_BYTES


def l0c_scores_bytes(config: KernelConfig) -> int:
    """fp32 P of one block: ``MMA_M x B_TOPK x 4`` B (16 KiB at 64 x 64)."""
    return config.mma_m * config.b_topk * FP32_BYTES


def l0c_used_bytes(config: KernelConfig, model: ModelShape = DSA_V41) -> int:
    """L0C the shipped kernel uses: O at offset 0 and P after it (128 KiB + 16 KiB = 144 KiB at 64 heads)."""
    return l0c_output_bytes(config.mma_m, model) + l0c_scores_bytes(config)
