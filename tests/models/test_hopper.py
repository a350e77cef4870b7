"""FlashMLA's Hopper numbers on this project's model: each reproduces as the issue checked it by hand."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from ascend_dsa.facts.hardware import ASCEND_950, peak_flops
from ascend_dsa.facts.hopper import (
    H800,
    H800_THROTTLED_CLOCK_HZ,
    MLA_V32,
    SMEM_S_ALIGN_BYTES,
    V32_CACHE_LAYERS,
    V32_CONTEXT_TOKENS,
)
from ascend_dsa.models.hopper import (
    break_even_tokens,
    crossover_gain,
    dense_compute_bound_heads,
    dequant_cycles_per_token,
    fp8_decode_bound_flops,
    fp8_decode_smem_bytes,
    fp8_decode_smem_member_bytes,
    fp8_decode_smem_plan,
    fp8_token_bytes,
    fp8_token_parts,
    kv_cache_bytes,
    mma_cycles_per_token,
    tma_boxes_per_k_block,
)


def test_peaks() -> None:
    """4096 FLOP x 1830 MHz x 132 SMs is 989.4 TFLOPS; at 1600 MHz 865.1."""
    assert peak_flops(H800) / 1e12 == pytest.approx(989.43, abs=0.01)
    assert peak_flops(H800, H800_THROTTLED_CLOCK_HZ) / 1e12 == pytest.approx(865.08, abs=0.01)


def test_cycles_per_token() -> None:
    """34 MMA cycles at 64 heads, 50 dequantisation cycles, 25 with the crossover; 17 on the 950's AI Core."""
    assert mma_cycles_per_token(H800) == 34
    assert dequant_cycles_per_token() == 50
    assert dequant_cycles_per_token(sharing_ctas=2) == 25
    assert mma_cycles_per_token(ASCEND_950) == 17


def test_token_and_cache_bytes() -> None:
    """656 B per FP8 token (512 + 4 x 4 + 64 x 2); a 128K-token cache over 62 layers is 8.72 GiB."""
    assert fp8_token_parts() == (512, 4, 64)
    assert fp8_token_bytes() == 656
    assert round(kv_cache_bytes(V32_CONTEXT_TOKENS, V32_CACHE_LAYERS) / 2**30, 2) == 8.72


def test_compute_bound_heads() -> None:
    """The blog's formula gives 129.1 at 1600 MHz; the exact (d_k + d_v) / d_k gives 136.7."""
    assert dense_compute_bound_heads(H800, H800_THROTTLED_CLOCK_HZ, exact=False) == pytest.approx(129.12, abs=0.01)
    assert dense_compute_bound_heads(H800, H800_THROTTLED_CLOCK_HZ) == pytest.approx(136.71, abs=0.01)


def test_crossover_and_break_even() -> None:
    """The model's crossover gain is 50/34; dense decoding matches topk 2048 sparse near 3297 tokens."""
    assert crossover_gain(H800) == Fraction(50, 34)
    assert break_even_tokens(2048, 410e12, 660e12) == pytest.approx(3296.78, abs=0.01)


def test_fp8_decoding_bound() -> None:
    """The model's ceiling for FP8 decoding: 50 dequantisation cycles per 34-cycle token hold it to 588.25 TFLOPS at
    1600 MHz (250 measured), the crossover's 25 lift it to the MMA peak, 865.08 (410 measured); 672.81 at 1830 MHz."""
    assert fp8_decode_bound_flops(H800, H800_THROTTLED_CLOCK_HZ) / 1e12 == pytest.approx(588.25, abs=0.01)
    assert fp8_decode_bound_flops(H800, H800_THROTTLED_CLOCK_HZ, sharing_ctas=2) == pytest.approx(
        peak_flops(H800, H800_THROTTLED_CLOCK_HZ)
    )
    assert fp8_decode_bound_flops(H800) / 1e12 == pytest.approx(672.81, abs=0.01)
    with_and_without = fp8_decode_bound_flops(H800, sharing_ctas=2) / fp8_decode_bound_flops(H800)
    assert with_and_without == pytest.approx(float(crossover_gain(H800)))


def test_tma_boxes() -> None:
    """9 TMA boxes per 64 x 576 K block."""
    assert tma_boxes_per_k_block() == 9


def test_shared_memory_is_what_the_kernel_allocates() -> None:
    """sizeof(SharedMemoryPlan): the members' 230,584 B rounded up to alignas(1024), 231,424 of 232,448 B."""
    assert fp8_decode_smem_member_bytes() == 230584
    assert fp8_decode_smem_bytes() == 231424
    assert fp8_decode_smem_bytes() % SMEM_S_ALIGN_BYTES == 0
    assert fp8_decode_smem_bytes() <= H800.staging_bytes_per_core


def test_shared_memory_pads_before_the_aligned_member() -> None:
    """With d_k = 572, q and u end 512 B short of a 1024 B boundary: ``s`` starts after padding, as in C++."""
    model = dataclasses.replace(MLA_V32, d_qk=572)
    members = fp8_decode_smem_plan(model)
    assert sum(part.size_bytes for part in members[:2]) % SMEM_S_ALIGN_BYTES == 512
    assert fp8_decode_smem_member_bytes(model) == 229048
    # s at 220,160 (not 219,648), then 8,192 + 128 + 1,024 + 56 end at 229,560; sizeof rounds to 230,400.
    assert fp8_decode_smem_bytes(model) == 230400


@pytest.mark.parametrize("bad", [0, -1, 1.5, "64", True])
def test_heads_must_be_a_positive_whole_number(bad: object) -> None:
    """Heads that are not a positive whole number raise ValueError or TypeError."""
    with pytest.raises((ValueError, TypeError)):
        mma_cycles_per_token(H800, bad)  # type: ignore[arg-type]
