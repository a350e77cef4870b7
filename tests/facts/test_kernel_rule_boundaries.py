"""Each of the kernel's tile and format rules at its boundary and one step either side.

The multiples come from the kernel, written here as numbers: indices are read two 64-lane uint32 vectors at a time
(``2 x NUM_UINT32_IN_VEC`` = 128, config.h:12 and 32), gather2 copies tokens in pairs (config.h:56), S goes to L1 in
fractals 16 wide (``FRACTAL_W``, config.h:72), and an index group holds whole B_TOPK blocks (config.h:57).
"""

from __future__ import annotations

import dataclasses

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
    KernelRule,
    broken_format_rules,
    broken_tile_rules,
    check_kernel_rules,
)
from ascend_dsa.facts.kv_formats import KvFormat, Mode

FRACTAL_W = 16


def _broken(rule: KernelRule, b_topk: int, vector_cores: int, index_block: int) -> bool:
    """Whether ``rule``'s own predicate says (b_topk, vector_cores, index_block) breaks it, at FRACTAL_W 16."""
    tile = next(t for t in TILE_RULES if t.rule is rule)
    return bool(tile.broken(b_topk, vector_cores, index_block, FRACTAL_W))


@pytest.mark.parametrize(
    ("index_block", "broken"),
    [(128, False), (127, True), (129, True), (640, False), (639, True), (641, True), (256, False), (192, True)],
)
def test_index_block_is_whole_pairs_of_vectors(index_block: int, broken: bool) -> None:  # noqa: FBT001
    """INDEX_BLOCK_SIZE is a multiple of 128: 128 and 640 hold, one either side and 192 (1.5 x 128) do not."""
    assert _broken(INDEX_BLOCK_WHOLE_VECTOR_PAIRS, 64, 2, index_block) is broken


@pytest.mark.parametrize(
    ("b_topk", "index_block", "broken"),
    [(64, 640, False), (64, 639, True), (64, 641, True), (64, 576, False), (96, 640, True), (80, 640, False)],
)
def test_index_block_is_whole_b_topk_blocks(b_topk: int, index_block: int, broken: bool) -> None:  # noqa: FBT001
    """640 is 10 blocks of 64 and 8 of 80, not a whole number of 96; one index more or less breaks it."""
    assert _broken(INDEX_BLOCK_MULTIPLE_OF_B_TOPK, b_topk, 2, index_block) is broken


@pytest.mark.parametrize(
    ("b_topk", "vector_cores", "broken"),
    [(64, 2, False), (62, 2, True), (66, 2, True), (4, 2, False), (2, 2, True), (2, 1, False), (3, 1, True)],
)
def test_b_topk_per_vector_core_is_even(b_topk: int, vector_cores: int, broken: bool) -> None:  # noqa: FBT001
    """B_TOPK / VECTOR Cores is a whole even number: 64 / 2 and 2 / 1 hold; 62 / 2 = 31 and 2 / 2 = 1 do not."""
    assert _broken(EVEN_B_TOPK_PER_VECTOR_CORE, b_topk, vector_cores, 640) is broken


@pytest.mark.parametrize(
    ("b_topk", "broken"), [(16, False), (15, True), (17, True), (64, False), (63, True), (65, True)]
)
def test_b_topk_is_whole_fractals(b_topk: int, broken: bool) -> None:  # noqa: FBT001
    """B_TOPK is a multiple of FRACTAL_W = 16: 16 and 64 hold, one token more or less does not."""
    assert _broken(B_TOPK_WHOLE_FRACTALS, b_topk, 2, 640) is broken


@pytest.mark.parametrize(
    ("b_topk", "vector_cores", "index_block", "codes"),
    [
        (64, 2, 640, ()),
        (16, 2, 128, ()),  # the smallest tiles every rule allows at 1C2V
        (8, 2, 128, ("b-topk-whole-fractals",)),
        (64, 2, 576, ("index-block-whole-vector-pairs",)),
        (96, 2, 640, ("index-block-multiple-of-b-topk",)),
        (
            63,
            2,
            640,
            ("index-block-multiple-of-b-topk", "even-b-topk-per-vector-core", "b-topk-whole-fractals"),
        ),
    ],
)
def test_broken_tile_rules_in_report_order(
    b_topk: int, vector_cores: int, index_block: int, codes: tuple[str, ...]
) -> None:
    """A configuration names every tile rule it breaks, in TILE_RULES order."""
    config = SHIPPED_KERNEL.with_overrides(
        b_topk=b_topk, vector_cores_per_cube=vector_cores, index_block_size=index_block
    )
    assert tuple(rule.code for rule in broken_tile_rules(config)) == codes


@pytest.mark.parametrize(
    ("mode", "cache", "fp4_extra", "rules"),
    [
        (Mode.PREFILL, KvFormat.BF16, False, ()),
        (Mode.DECODE, KvFormat.FP8, False, ()),
        (Mode.DECODE, KvFormat.FP8, True, ()),
        (Mode.PREFILL, KvFormat.FP8, False, (MAIN_CACHE_MATCHES_MODE,)),
        (Mode.DECODE, KvFormat.BF16, False, (MAIN_CACHE_MATCHES_MODE,)),
        (Mode.DECODE, KvFormat.FP4, False, (FP4_NOT_MAIN_CACHE,)),
        (Mode.PREFILL, KvFormat.BF16, True, (FP4_EXTRA_DECODE_ONLY,)),
        (Mode.PREFILL, KvFormat.FP4, True, (FP4_NOT_MAIN_CACHE, FP4_EXTRA_DECODE_ONLY)),
    ],
)
def test_format_rules(mode: Mode, cache: KvFormat, fp4_extra: bool, rules: tuple[KernelRule, ...]) -> None:  # noqa: FBT001
    """Prefill reads bf16 and decode FP8, FP4 is only ever an extra cache, and only in decode."""
    assert broken_format_rules(mode, cache, fp4_extra=fp4_extra) == rules


def test_check_names_the_first_rule_and_every_value() -> None:
    """The error names the first broken rule (format rules first), its source line and every value of the design."""
    config = SHIPPED_KERNEL.with_overrides(b_topk=96)
    with pytest.raises(ForbiddenDesign) as caught:
        check_kernel_rules(config, Mode.PREFILL, KvFormat.FP8)
    assert str(caught.value) == (
        "forbidden by rule main-cache-matches-mode: prefill reads a bf16 KV cache and decode an FP8 one "
        "(config.h:76 (gathered_kv_t = IS_DECODE ? float8_e4m3_t : bf16)); "
        "got mode=prefill, main cache=fp8, fp4 extra=no, B_TOPK=96, VECTOR Cores=2, "
        "INDEX_BLOCK_SIZE=640"
    )
    with pytest.raises(ForbiddenDesign, match=r"^forbidden by rule index-block-multiple-of-b-topk: .*config\.h:57"):
        check_kernel_rules(config, Mode.PREFILL)


def test_check_passes_the_shipped_kernel_in_both_modes() -> None:
    """The shipped configuration breaks no rule in prefill (bf16) or decode (FP8, with or without FP4)."""
    check_kernel_rules(SHIPPED_KERNEL, Mode.PREFILL)
    check_kernel_rules(SHIPPED_KERNEL, Mode.DECODE)
    check_kernel_rules(SHIPPED_KERNEL, Mode.DECODE, fp4_extra=True)


#: Each rule as error messages print it, and its Chinese statement: the numbers in the words are the kernel's.
RULE_TEXTS = {
    INDEX_BLOCK_MULTIPLE_OF_B_TOPK: (
        (
            "index-block-multiple-of-b-topk: INDEX_BLOCK_SIZE must be a multiple of B_TOPK (an index group "
            "holds whole KV blocks) (config.h:57)"
        ),
        "INDEX_BLOCK_SIZE 必须是 B_TOPK 的整数倍（一组 index 装下整数个 KV 块）",
    ),
    INDEX_BLOCK_WHOLE_VECTOR_PAIRS: (
        (
            "index-block-whole-vector-pairs: INDEX_BLOCK_SIZE must be a multiple of 128 (indices are read "
            "two 64-lane vectors at a time) (config.h:32; kernel_body.h process_kv_index_vf (static_assert "
            "on 2 x NUM_UINT32_IN_VEC))"
        ),
        "INDEX_BLOCK_SIZE 必须是 128 的整数倍（index 每次读两个 64 路的向量）",
    ),
    EVEN_B_TOPK_PER_VECTOR_CORE: (
        (
            "even-b-topk-per-vector-core: B_TOPK / VECTOR Cores must be a whole, even number (gather2 "
            "copies the tokens in pairs) (config.h:56; kernel_body.h run_issue_kv_gather (B_TOPK_PER_V / 2 "
            "copies of 2 tokens))"
        ),
        "B_TOPK ÷ VECTOR Core 数必须是偶数（gather2 两个 token 一拷）",
    ),
    B_TOPK_WHOLE_FRACTALS: (
        (
            "b-topk-whole-fractals: B_TOPK must be a multiple of the fractal width FRACTAL_W = 16 (S is "
            "copied to L1 as B_TOPK / 16 fractals) (config.h:72; kernel_body.h run_softmax (asc_copy_ub2l1 "
            "of B_TOPK / FRACTAL_W))"
        ),
        "B_TOPK 必须是分形宽度 FRACTAL_W = 16 的整数倍（S 按 B_TOPK ÷ 16 个分形拷到 L1）",
    ),
    FP4_NOT_MAIN_CACHE: (
        (
            "fp4-not-main-cache: FP4 is only an extra cache next to an FP8 main cache: no shipped instantiation "
            "has an FP4 main cache (the code's assertions alone would allow one) (generate_instantiations.py:17-21 "
            "(CONFIGURATIONS, the shipped instantiations); generate_instantiations.py:45 (MODEL_TYPE = "
            "ModelType::V41 in each))"
        ),
        "FP4 只作 FP8 主缓存旁的额外缓存：没有一个发布的实例化以 FP4 作主缓存（源码的断言本身并不禁止）",
    ),
    FP4_EXTRA_DECODE_ONLY: (
        "fp4-extra-decode-only: the FP4 extra cache exists only in decode (config.h:35 (HAVE_FP4 = IS_DECODE && ...))",
        "FP4 额外缓存只在 decode 中存在",
    ),
    MAIN_CACHE_MATCHES_MODE: (
        (
            "main-cache-matches-mode: prefill reads a bf16 KV cache and decode an FP8 one (config.h:76 "
            "(gathered_kv_t = IS_DECODE ? float8_e4m3_t : bf16))"
        ),
        "prefill 读 bf16 的 KV cache，decode 读 FP8 的",
    ),
}


@pytest.mark.parametrize("rule", list(RULE_TEXTS), ids=[r.code for r in RULE_TEXTS])
def test_rule_words_and_citation(rule: KernelRule) -> None:
    """Each rule says its multiple and its source line in both languages exactly, and cannot be altered."""
    assert (rule.describe(), rule.statement.zh) == RULE_TEXTS[rule]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.code = "changed"  # type: ignore[misc]
    tile = next((t for t in TILE_RULES if t.rule is rule), None)
    if tile is not None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            tile.rule = rule  # type: ignore[misc]
