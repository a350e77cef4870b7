import numpy as np
import pytest

from ascend_dsa.errors import ForbiddenDesign
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kernel_rules import (
    B_TOPK_WHOLE_FRACTALS,
    EVEN_B_TOPK_PER_VECTOR_CORE,
    FP4_EXTRA_DECODE_ONLY,
    FP4_NOT_MAIN_CACHE,
    INDEX_BLOCK_MULTIPLE_OF_B_TOPK,
    INDEX_BLOCK_WHOLE_VECTOR_PAIRS,
    MAIN_CACHE_MATCHES_MODE,
    TILE_RULES,
    broken_format_rules,
    broken_tile_rules,
    check_kernel_rules,
)
from ascend_dsa.facts.kv_formats import KvFormat, Mode


def test_shipped_kernel_breaks_no_rule() -> None:
    """The shipped configuration passes every rule in both modes."""
    assert broken_tile_rules(SHIPPED_KERNEL) == ()
    check_kernel_rules(SHIPPED_KERNEL, Mode.PREFILL)
    check_kernel_rules(SHIPPED_KERNEL, Mode.DECODE, fp4_extra=True)


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"b_topk": 96}, INDEX_BLOCK_MULTIPLE_OF_B_TOPK),  # the report's "64 or 96" against 640
        ({"b_topk": 10}, EVEN_B_TOPK_PER_VECTOR_CORE),  # 5 tokens per VECTOR Core: odd
        ({"b_topk": 5, "vector_cores_per_cube": 1}, EVEN_B_TOPK_PER_VECTOR_CORE),
        ({"b_topk": 40}, B_TOPK_WHOLE_FRACTALS),
        ({"b_topk": 32, "index_block_size": 96}, INDEX_BLOCK_WHOLE_VECTOR_PAIRS),
    ],
)
def test_tile_rules(changes: dict[str, int], rule: object) -> None:
    """Each tile rule is named first for a configuration that breaks it."""
    config = SHIPPED_KERNEL.with_overrides(**changes)
    assert broken_tile_rules(config)[0] is rule
    with pytest.raises(ForbiddenDesign, match=rule.code):  # type: ignore[attr-defined]
        check_kernel_rules(config, Mode.PREFILL)


@pytest.mark.parametrize(
    ("mode", "cache", "fp4_extra", "rule"),
    [
        (Mode.DECODE, KvFormat.FP4, False, FP4_NOT_MAIN_CACHE),
        (Mode.PREFILL, KvFormat.FP4, False, FP4_NOT_MAIN_CACHE),
        (Mode.PREFILL, KvFormat.BF16, True, FP4_EXTRA_DECODE_ONLY),
        (Mode.PREFILL, KvFormat.FP8, False, MAIN_CACHE_MATCHES_MODE),
        (Mode.DECODE, KvFormat.BF16, False, MAIN_CACHE_MATCHES_MODE),
    ],
)
def test_format_rules(mode: Mode, cache: KvFormat, fp4_extra: bool, rule: object) -> None:  # noqa: FBT001
    """No shipped FP4 main cache, the FP4 extra cache is decode-only, the main cache matches the mode."""
    assert broken_format_rules(mode, cache, fp4_extra=fp4_extra)[0] is rule
    with pytest.raises(ForbiddenDesign, match=f"forbidden by rule {rule.code}"):  # type: ignore[attr-defined]
        check_kernel_rules(SHIPPED_KERNEL, mode, cache, fp4_extra=fp4_extra)


def test_fp4_main_cache_rule_cites_what_the_kernel_ships() -> None:
    """kv_cache_format.h:48 and config.h:37-38 allow an FP4 main cache in decode, so the rule cites the list of
    shipped instantiations (all with MODEL_TYPE V41) and says so, not a line that would forbid it (issue 31)."""
    assert FP4_NOT_MAIN_CACHE.source.kind == "code"
    assert FP4_NOT_MAIN_CACHE.source.citation == (
        "generate_instantiations.py:17-21 (CONFIGURATIONS, the shipped instantiations); "
        "generate_instantiations.py:45 (MODEL_TYPE = ModelType::V41 in each)"
    )
    assert "no shipped instantiation" in FP4_NOT_MAIN_CACHE.statement.en
    assert "没有一个发布的实例化" in FP4_NOT_MAIN_CACHE.statement.zh
    for words in ("never the main cache", "从不作主缓存", "kv_cache_format.h", "config.h"):
        assert words not in FP4_NOT_MAIN_CACHE.describe() + FP4_NOT_MAIN_CACHE.statement.zh


def test_tile_predicates_work_on_arrays() -> None:
    """The same predicates answer for a NumPy grid, element by element, as for single values."""
    b_topk = np.asarray([64, 96, 10, 40])
    for tile in TILE_RULES:
        vector = np.broadcast_to(tile.broken(b_topk, 2, 640, 16), b_topk.shape)
        scalar = [bool(tile.broken(int(b), 2, 640, 16)) for b in b_topk]
        assert [bool(v) for v in vector] == scalar
