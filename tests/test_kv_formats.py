import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_dsa.facts.kv_formats import KV_TOKEN_LAYOUTS, KvFormat, Mode, default_main_cache, kv_bytes_per_token


@pytest.mark.parametrize(
    ("kv_format", "data", "scales", "token", "ub_row"),
    [(KvFormat.BF16, 1024, 0, 1024, 1024), (KvFormat.FP8, 512, 16, 528, 544), (KvFormat.FP4, 256, 32, 288, 288)],
)
def test_token_layouts(kv_format: KvFormat, data: int, scales: int, token: int, ub_row: int) -> None:
    """bf16 1024 B; FP8 512 + 16 = 528 B, 544 in UB; FP4 256 + 32 = 288 B (kv_cache_format.h, config.h:48-50)."""
    layout = KV_TOKEN_LAYOUTS[kv_format]
    assert layout.data_bytes() == data
    assert layout.scales_per_token() == scales
    assert layout.bytes_per_token() == token == kv_bytes_per_token(kv_format)
    assert layout.ub_row_bytes() == ub_row
    assert layout.ub_row_bytes() % 32 == 0


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
        lambda: KV_TOKEN_LAYOUTS[KvFormat.BF16].ub_row_bytes(a),  # type: ignore[arg-type]
    ):
        with contextlib.suppress(TypeError, ValueError):
            call()
