"""FP8 and FP4 token formats: sizes against kv_cache_format.h, byte layout, and the quantisation round trip."""

from __future__ import annotations

import contextlib
import dataclasses
import tracemalloc

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_dsa import FigureMismatch
from ascend_dsa.facts.kv_formats import (
    BF16_V41,
    FP4_V41,
    FP8_V41,
    KV_TOKEN_FORMATS,
    MODEL1_FP8,
    KvTokenFormat,
    bits_per_value,
    check_token_bytes,
    token_format,
)
from ascend_dsa.models import arrays
from ascend_dsa.models.kv_quant import _GRIDS, dequantize_tokens, quantize_tokens, roundtrip_error_bound
from ascend_dsa.models.mte2 import copies_per_token, token_byte_ranges
from tests.helpers.flashmla_quant import quantize_fp4, quantize_fp8


@pytest.mark.parametrize(
    ("fmt", "data", "scales", "token", "ub", "bits"),
    [(FP8_V41, 512, 16, 528, 544, 8.25), (FP4_V41, 256, 32, 288, 288, 4.5)],
)
def test_sizes(fmt: KvTokenFormat, data: int, scales: int, token: int, ub: int, bits: float) -> None:
    """FP8 = 512 + 16 = 528 B (544 in UB), FP4 = 256 + 32 = 288 B, as kv_cache_format.h and config.h have it."""
    assert (fmt.data_bytes, fmt.scale_bytes, fmt.token_bytes, fmt.ub_token_bytes) == (data, scales, token, ub)
    assert bits_per_value(fmt) == bits
    check_token_bytes()


def test_check_catches_a_wrong_format() -> None:
    """A format whose computed size differs from the published one fails the check, naming both sizes."""
    wrong = dataclasses.replace(FP8_V41, dims_per_scale=64)
    with pytest.raises(FigureMismatch, match=r"kv_cache_format.h:19: a FP8 token is 528 B; ours is 512 \+ 8 = 520 B"):
        check_token_bytes((wrong,))


def test_element_max_is_the_top_of_the_grid() -> None:
    """The sourced largest magnitudes (448, 6) are the top of the grids the round-trip bound walks."""
    for fmt in KV_TOKEN_FORMATS:
        assert _GRIDS[fmt.element][-1] == fmt.element_max


def random_tokens(seed: int, tokens: int = 6, low: float = -6.0, high: float = 4.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    magnitude = np.exp2(rng.uniform(low, high, (tokens, 1)))
    return (rng.standard_normal((tokens, 512)) * magnitude).astype(np.float32)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), low=st.floats(-12, 0), span=st.floats(0, 8))
def test_round_trip_within_bound(seed: int, low: float, span: float) -> None:
    """Every value comes back within half a grid step times its group's scale, in both formats."""
    values = random_tokens(seed, low=low, high=low + span)
    values[0, :32] = 0.0  # an all-zero group
    for fmt in KV_TOKEN_FORMATS:
        raw = quantize_tokens(values, fmt)
        assert raw.shape == (6, fmt.token_bytes)
        assert raw.dtype == np.uint8
        restored = dequantize_tokens(raw, fmt)
        assert np.all(np.abs(restored - values) <= roundtrip_error_bound(values, fmt))
        assert np.all(restored[0, :32] == 0.0)


def test_bound_is_tight_enough_to_fail() -> None:
    """The FP8 bound is about 2^-4 relative for large values: a 10% error would break it."""
    values = random_tokens(1, low=0, high=1)
    bound = roundtrip_error_bound(values, FP8_V41)
    big = np.abs(values) > np.abs(values).max() / 2
    assert np.all(bound[big] < 0.1 * np.abs(values[big]))


def test_dequantised_values_are_exact_in_bf16() -> None:
    """Element times scale needs at most 5 significant bits, so the bf16 product the kernel forms is exact."""
    for fmt in KV_TOKEN_FORMATS:
        restored = dequantize_tokens(quantize_tokens(random_tokens(2), fmt), fmt)
        assert np.array_equal(restored.astype(ml_dtypes.bfloat16).astype(np.float32), restored)


def test_fp4_packs_even_dims_low() -> None:
    """FP4 byte 0 holds dim 0 in its low nibble and dim 1 in its high nibble; scales follow the 256 data bytes."""
    values = np.zeros((1, 512), dtype=np.float32)
    values[0, 0], values[0, 1] = 1.0, 6.0  # group scale 1: codes 0b0010 (1.0) and 0b0111 (6.0)
    raw = quantize_tokens(values, FP4_V41)
    assert raw[0, 0] == 0x72
    assert raw[0, 256:].view(ml_dtypes.float8_e4m3fn)[0].astype(np.float32) == 1.0


def test_fp8_scale_is_a_power_of_two() -> None:
    """Largest magnitude 3 x 448 needs scale 4 = 2^2 (biased exponent 129); 1344 / 4 = 336 rounds to 320 (even)."""
    values = np.zeros((1, 512), dtype=np.float32)
    values[0, 5] = 3 * 448.0
    raw = quantize_tokens(values, FP8_V41)
    assert raw[0, 512] == 129
    assert dequantize_tokens(raw, FP8_V41)[0, 5] == 4 * 320.0


def test_byte_ranges() -> None:
    """Adjacent: one range of 528 B per token; split: data then, after all data, the token's scales."""
    assert [(r.offset, r.length) for r in token_byte_ranges(FP8_V41, 2, 4)] == [(1056, 528)]
    split = token_byte_ranges(FP8_V41, 2, 4, adjacent=False)
    assert [(r.offset, r.length) for r in split] == [(1024, 512), (2048 + 32, 16)]
    assert copies_per_token(FP4_V41, adjacent=True) == 1
    assert copies_per_token(FP4_V41, adjacent=False) == 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: quantize_tokens(np.zeros((2, 500), np.float32), FP8_V41), r"shape \[tokens, 512\], got shape"),
        (lambda: quantize_tokens(np.full((1, 512), np.nan, np.float32), FP8_V41), "values must be finite"),
        (lambda: quantize_tokens(np.zeros((1, 512), np.float32), "fp16"), "fmt must be a KvTokenFormat or one of"),
        (lambda: dequantize_tokens(np.zeros((1, 500), np.uint8), FP4_V41), r"\[tokens, 288\] for FP4"),
        (lambda: token_byte_ranges(FP8_V41, 4, 4), r"token must lie in \[0, block_tokens = 4\), got 4"),
        (lambda: KvTokenFormat("x", 500, "e4m3", 32, "ue8m0", {}), "dims must be a positive multiple of"),
        (lambda: quantize_tokens(np.zeros((1, 512), np.float32), BF16_V41), "fmt must be a quantised format"),
    ],
)
def test_bad_input(call: object, message: str) -> None:
    """Wrong shapes, non-finite values and bad formats raise ValueError."""
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def spread_tokens(seed: int, count: int, dtype: type) -> np.ndarray:
    """Tokens whose groups span many magnitudes (tiny, ordinary, huge, all-zero) in the given dtype."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((count, 512)) * np.exp2(rng.integers(-30, 30, (count, 32, 1))).repeat(
        16, axis=2
    ).reshape(count, 512)
    values[0, :64] = 0.0  # all-zero groups
    values[1, :16] = 6.0 * np.arange(16)  # exact grid points and ties
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", [ml_dtypes.bfloat16, np.float32], ids=["bf16", "float32"])
@pytest.mark.parametrize("seed", range(3))
def test_bytes_equal_flashmlas_quantiser(seed: int, dtype: type) -> None:
    """FP8 and FP4 bytes equal the NumPy port of FlashMLA's tests/quant.py, byte for byte, on random tokens."""
    tokens = spread_tokens(seed, 64, dtype)
    assert np.array_equal(quantize_tokens(tokens, FP8_V41), quantize_fp8(tokens))
    assert np.array_equal(quantize_tokens(tokens, FP4_V41), quantize_fp4(tokens))


def test_fp4_saturates_like_upstream() -> None:
    """An FP4 group whose amax / 6 rounds down saturates its largest value at 6 x scale instead of raising."""
    values = np.zeros((1, 512), dtype=np.float32)
    values[0, 0] = 6.0 * 1.0625  # amax / 6 = 1.0625 rounds to the e4m3 scale 1.0 (ties to even): 6.375 -> 6
    raw = quantize_tokens(values, FP4_V41)
    assert np.array_equal(raw, quantize_fp4(values))
    assert dequantize_tokens(raw, FP4_V41)[0, 0] == 6.0
    huge = np.full((1, 512), 1e6, dtype=np.float32)  # beyond 6 x 448: saturates at the largest scale
    assert np.all(dequantize_tokens(quantize_tokens(huge, FP4_V41), FP4_V41) == 6.0 * 448.0)


def test_format_by_name() -> None:
    """A format may be named by string, in any case; quantize_tokens(x, "fp8") is quantize_tokens(x, FP8_V41)."""
    tokens = spread_tokens(7, 4, np.float32)
    assert np.array_equal(quantize_tokens(tokens, "fp8"), quantize_tokens(tokens, FP8_V41))
    assert np.array_equal(
        dequantize_tokens(quantize_tokens(tokens, "FP4"), "fp4"),
        dequantize_tokens(quantize_tokens(tokens, FP4_V41), FP4_V41),
    )


@settings(max_examples=100, deadline=None)
@given(
    values=st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=3),
        st.floats(),
        st.lists(st.floats(), max_size=3),
        st.just(np.zeros((1, 512), dtype=np.int32)),
        st.just(np.full((1, 512), 1e39)),
        st.just(np.zeros((2, 512), dtype=np.float32)),
    ),
    fmt=st.one_of(st.sampled_from([FP8_V41, FP4_V41, "fp8", "FP4", "fp16", ""]), st.integers(), st.none()),
)
def test_property_bad_arguments_raise_only_type_or_value_errors(values: object, fmt: object) -> None:
    """Any values and format give bytes or a TypeError / ValueError, never another exception."""
    for call in (
        lambda: quantize_tokens(values, fmt),  # type: ignore[arg-type]
        lambda: dequantize_tokens(values, fmt),  # type: ignore[arg-type]
        lambda: roundtrip_error_bound(values, fmt),  # type: ignore[arg-type]
    ):
        with contextlib.suppress(TypeError, ValueError):
            call()


def test_model1_is_upstreams_earlier_split_layout() -> None:
    """MODEL1 FP8: 576 B of data (e4m3 + bf16 RoPE) and 8 B of scales (7 ue8m0 + 1 pad) apart: 584 B, two copies."""
    assert (MODEL1_FP8.data_bytes, MODEL1_FP8.scale_bytes, MODEL1_FP8.token_bytes) == (576, 8, 584)
    ranges = token_byte_ranges(MODEL1_FP8, 1, 4)
    assert [(r.offset, r.length) for r in ranges] == [(576, 576), (4 * 576 + 8, 8)]
    assert copies_per_token(MODEL1_FP8) == 2
    assert copies_per_token(FP8_V41) == 1


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (
            lambda: token_byte_ranges("FP8", 0, 4),
            TypeError,
            r"^layout must be a KvTokenFormat or a SplitTokenLayout, got str$",
        ),  # type: ignore[arg-type]
        (lambda: token_byte_ranges(FP8_V41, 0.5, 4), TypeError, r"^token must be a whole number, got 0\.5 \(float\)$"),  # type: ignore[arg-type]
        (lambda: token_byte_ranges(FP8_V41, 0, 0), ValueError, r"^block_tokens must be a positive integer, got 0$"),
        (
            lambda: quantize_tokens(np.zeros((1, 512), np.float32), 8),
            TypeError,
            r"^fmt must be a KvTokenFormat or one of the names FP8, FP4, got int$",
        ),  # type: ignore[arg-type]
        (lambda: quantize_tokens("x", FP8_V41), TypeError, r"^values must be a float array .*got dtype <U1$"),  # type: ignore[arg-type]
        (
            lambda: check_token_bytes([FP8_V41]),
            TypeError,
            r"^formats must be a tuple of KvTokenFormat, got \[KvTokenFormat\(name=.FP8.",
        ),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_raise_type_error(call: object, error: type[Exception], words: str) -> None:
    """Arguments of the wrong type raise TypeError, out-of-range ones ValueError (exactly), naming the value."""
    with pytest.raises(error, match=words) as raised:
        call()  # type: ignore[operator]
    assert type(raised.value) is error


@settings(max_examples=100, deadline=None)
@given(
    layout=st.one_of(st.sampled_from([FP8_V41, FP4_V41, MODEL1_FP8]), st.text(max_size=3), st.none(), st.integers()),
    token=st.one_of(st.integers(-5, 10**20), st.floats(), st.none()),
    block=st.one_of(st.integers(-5, 10**20), st.floats(), st.text(max_size=2)),
    adjacent=st.one_of(st.booleans(), st.integers(0, 1), st.none()),
)
def test_property_layout_functions_raise_only_type_or_value_errors(
    layout: object, token: object, block: object, adjacent: object
) -> None:
    """Byte ranges, copies, bits per value and format lookup: a result or a TypeError / ValueError, nothing else."""
    for call in (
        lambda: token_byte_ranges(layout, token, block, adjacent=adjacent),  # type: ignore[arg-type]
        lambda: copies_per_token(layout, adjacent=adjacent),  # type: ignore[arg-type]
        lambda: bits_per_value(layout),  # type: ignore[arg-type]
        lambda: token_format(layout),
        lambda: check_token_bytes(layout),  # type: ignore[arg-type]
    ):
        with contextlib.suppress(TypeError, ValueError):
            call()


def test_a_value_that_is_not_finite_is_named_by_token_and_dimension() -> None:
    """An inf at token 3, dimension 7 is refused saying [3, 7]."""
    values = np.zeros((5, 512), np.float32)
    values[3, 7] = np.inf
    with pytest.raises(ValueError, match=r"^values must be finite in float32, got np\.float32\(inf\) at \[3, 7\]$"):
        quantize_tokens(values, FP8_V41)


def test_a_scale_byte_decoding_to_nan_is_named_by_token_group_and_byte() -> None:
    """ue8m0's 0xff is NaN: put in token 1's third scale (byte 512 + 2), the message names token 1, group 2, 0xff."""
    raw = quantize_tokens(np.ones((2, 512), np.float32), FP8_V41)
    raw[1, 512 + 2] = 0xFF
    with pytest.raises(
        ValueError, match=r"^raw token 1, group 2 of FP8 decodes to NaN or an infinity \(scale byte 0xff\)"
    ):
        dequantize_tokens(raw, FP8_V41)


def test_quantisation_works_a_chunk_of_tokens_at_a_time() -> None:
    """16384 FP8 tokens peak at the 32 MiB result plus one 16 MiB chunk's temporaries, not all tokens' (~420 MiB)."""
    values = np.ones((16384, 512), np.float32)
    tracemalloc.start()
    try:
        roundtrip_error_bound(values, FP8_V41)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert arrays.CHUNK_BYTES == 16 * 2**20  # the models' stated budget
    assert peak <= 10 * arrays.CHUNK_BYTES + values.nbytes
