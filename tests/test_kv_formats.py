import pytest

from ascend_dsa.kv_formats import KV_TOKEN_LAYOUTS, KvFormat, Mode, default_main_cache, kv_bytes_per_token


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
        default_main_cache("train")  # type: ignore[arg-type]
