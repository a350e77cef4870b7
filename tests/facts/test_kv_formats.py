import contextlib
import dataclasses

import ml_dtypes
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts import kv_formats
from ascend_dsa.facts.kv_formats import (
    ELEMENT_MAX,
    FP4_V41,
    TOKEN_FORMATS,
    KvFormat,
    KvTokenFormat,
    Mode,
    default_main_cache,
    kv_bytes_per_token,
    kv_token_format,
    token_format,
)
from ascend_dsa.facts.model_shape import DSA_V41


@pytest.mark.parametrize(
    ("kv_format", "data", "scales", "token", "ub_row"),
    [(KvFormat.BF16, 1024, 0, 1024, 1024), (KvFormat.FP8, 512, 16, 528, 544), (KvFormat.FP4, 256, 32, 288, 288)],
)
def test_token_layouts(kv_format: KvFormat, data: int, scales: int, token: int, ub_row: int) -> None:
    """bf16 1024 B; FP8 512 + 16 = 528 B, 544 in UB; FP4 256 + 32 = 288 B (kv_cache_format.h, config.h:48-50)."""
    layout = TOKEN_FORMATS[kv_format]
    assert layout == kv_token_format(kv_format)
    assert layout.data_bytes == data
    assert layout.scale_count == scales
    assert layout.token_bytes == token == kv_bytes_per_token(kv_format)
    assert layout.ub_token_bytes == ub_row
    assert layout.ub_token_bytes % 32 == 0


@pytest.mark.parametrize(
    ("element", "dtype"),
    [("bf16", ml_dtypes.bfloat16), ("e4m3", ml_dtypes.float8_e4m3fn), ("e2m1", ml_dtypes.float4_e2m1fn)],
)
def test_element_max_matches_ml_dtypes(element: str, dtype: type) -> None:
    """The largest magnitudes stated as constants (448 for e4m3, 6 for e2m1) are what ml_dtypes computes."""
    assert ELEMENT_MAX[element] == float(ml_dtypes.finfo(dtype).max)


def test_format_for_another_model() -> None:
    """A model with wider tokens scales every size; one the scale groups do not divide is refused."""
    wide = dataclasses.replace(DSA_V41, d_qk=1024)
    assert kv_token_format(KvFormat.FP8, wide).token_bytes == 1024 + 32
    assert kv_bytes_per_token(KvFormat.BF16, wide) == 2048
    with pytest.raises(ValueError, match="dims must be a positive multiple of dims_per_scale = 32, got 520"):
        kv_token_format(KvFormat.FP8, dataclasses.replace(DSA_V41, d_qk=520))


def test_format_refuses_half_given_scales() -> None:
    """A format has both a scale type and a group size, or neither; the element type must be known."""
    with pytest.raises(ValueError, match="both given or both None"):
        KvTokenFormat("x", 512, "e4m3", 32, None, {})
    with pytest.raises(ValueError, match="element must be one of bf16, e4m3, e2m1"):
        KvTokenFormat("x", 512, "fp16", None, None, {})  # type: ignore[arg-type]


def test_default_main_cache() -> None:
    """Prefill reads bf16, decode FP8 (config.h:76)."""
    assert default_main_cache(Mode.PREFILL) is KvFormat.BF16
    assert default_main_cache(Mode.DECODE) is KvFormat.FP8
    with pytest.raises(ValueError, match="'train'"):
        default_main_cache("train")


def test_wrong_types_and_names() -> None:
    """A format or mode that is not a string raises TypeError; an unknown name ValueError; a bad model TypeError."""
    assert kv_bytes_per_token("fp8") == 528
    with pytest.raises(TypeError, match=r"^kv_format must be one of bf16, fp8, fp4"):
        kv_bytes_per_token(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^kv_format must be one of"):
        kv_bytes_per_token("fp16")
    with pytest.raises(TypeError, match=r"^model must be a ModelShape"):
        kv_bytes_per_token(KvFormat.FP8, model=512)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^mode must be one of"):
        default_main_cache(None)  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(a=st.one_of(st.none(), st.integers(), st.text(max_size=4), st.floats(), st.sampled_from(["fp8", "decode"])))
def test_property_only_type_or_value_errors(a: object) -> None:
    """Any argument gives a result or a TypeError / ValueError, never another exception."""
    for call in (
        lambda: kv_bytes_per_token(a),  # type: ignore[arg-type]
        lambda: kv_bytes_per_token(KvFormat.FP4, a),  # type: ignore[arg-type]
        lambda: default_main_cache(a),  # type: ignore[arg-type]
        lambda: kv_token_format(KvFormat.BF16, a),  # type: ignore[arg-type]
    ):
        with contextlib.suppress(TypeError, ValueError):
            call()


def test_four_bit_values_must_fill_whole_bytes() -> None:
    """4 e2m1 values are 2 bytes; 3 are a byte and a half, refused naming both numbers."""
    assert KvTokenFormat("t", 4, "e2m1", None, None, FP4_V41.sources).token_bytes == 2
    with pytest.raises(ValueError, match=r"^dims x element bits must fill whole bytes, got 3 x 4$"):
        KvTokenFormat("t", 3, "e2m1", None, None, FP4_V41.sources)


def test_a_format_name_must_match_exactly() -> None:
    """Names match without regard to case, and only exactly: 'zz' (which sorts after both) names no format."""
    assert token_format("fp4") is FP4_V41
    with pytest.raises(ValueError, match=r"^fmt must be a KvTokenFormat or one of the names FP8, FP4, got 'zz'$"):
        token_format("zz")


def test_the_model1_size_guard_fires(monkeypatch: pytest.MonkeyPatch) -> None:
    """If upstream's MODEL1 token were 585 B, not the 584 we compute, the check would say so with both sizes."""
    monkeypatch.setattr(kv_formats, "PUBLISHED_MODEL1_TOKEN_BYTES", 585)
    with pytest.raises(FigureMismatch, match=r"a MODEL1 token is 585 B; ours is .* = 584 B$"):
        kv_formats.check_token_bytes()
