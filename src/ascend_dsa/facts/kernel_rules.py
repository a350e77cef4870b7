"""Combinations the kernel's code rules out, each with the line or routine that rules it out, or that it never ships.

Tile-size rules are plain arithmetic so that the same predicate answers for one design point (ints) and for a
whole grid at once (NumPy arrays). Format rules concern which KV cache each mode may read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ascend_dsa.errors import ForbiddenDesign
from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST, SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.kv_formats import KvFormat, Mode, default_main_cache
from ascend_dsa.facts.provenance import Source, code_line
from ascend_dsa.lang import Lang, Text, pick
from ascend_dsa.units import FP32_BYTES
from ascend_dsa.validate import door, require_bool, require_instance

#: Width of one VECTOR Core SIMD register: 256 B, i.e. 64 fp32 or uint32 lanes (config.h:10-13).
VECTOR_BYTES: Final = 256
VECTOR_BYTES_SOURCE: Final = code_line("config.h", 10, 13)
#: uint32 lanes of one vector: ``NUM_UINT32_IN_VEC`` (config.h:12).
UINT32_PER_VECTOR: Final = VECTOR_BYTES // FP32_BYTES

#: A tile-size predicate: (b_topk, vector_cores, index_block_size, fractal_cols) -> True where the rule is broken.
TilePredicate = Callable[[Any, Any, Any, Any], Any]


@dataclass(frozen=True)
class KernelRule:
    """One thing the kernel requires; ``code`` is short and stable, ``statement`` says it in both languages."""

    code: str
    statement: Text
    source: Source

    def describe(self, *, lang: Lang = "en") -> str:
        """The rule in one line with its source, as error messages print it."""
        return pick(
            lang,
            f"{self.code}：{self.statement.zh}（{self.source.citation}）",
            f"{self.code}: {self.statement.en} ({self.source.citation})",
        )


@dataclass(frozen=True)
class TileRule:
    """A rule on tile sizes, with a predicate that is true where it is broken."""

    rule: KernelRule
    broken: TilePredicate


_FRACTAL_W = SHIPPED_KERNEL.fractal_cols

INDEX_BLOCK_MULTIPLE_OF_B_TOPK: Final = KernelRule(
    "index-block-multiple-of-b-topk",
    Text(
        "INDEX_BLOCK_SIZE 必须是 B_TOPK 的整数倍（一组 index 装下整数个 KV 块）",
        "INDEX_BLOCK_SIZE must be a multiple of B_TOPK (an index group holds whole KV blocks)",
    ),
    code_line("config.h", 57),
)
INDEX_BLOCK_WHOLE_VECTOR_PAIRS: Final = KernelRule(
    "index-block-whole-vector-pairs",
    Text(
        f"INDEX_BLOCK_SIZE 必须是 {2 * UINT32_PER_VECTOR} 的整数倍（index 每次读两个 {UINT32_PER_VECTOR} 路的向量）",
        f"INDEX_BLOCK_SIZE must be a multiple of {2 * UINT32_PER_VECTOR} "
        f"(indices are read two {UINT32_PER_VECTOR}-lane vectors at a time)",
    ),
    Source(("config.h:32", "kernel_body.h process_kv_index_vf (static_assert on 2 x NUM_UINT32_IN_VEC)"), "code"),
)
EVEN_B_TOPK_PER_VECTOR_CORE: Final = KernelRule(
    "even-b-topk-per-vector-core",
    Text(
        "B_TOPK ÷ VECTOR Core 数必须是偶数（gather2 两个 token 一拷）",
        "B_TOPK / VECTOR Cores must be a whole, even number (gather2 copies the tokens in pairs)",
    ),
    Source(("config.h:56", "kernel_body.h run_issue_kv_gather (B_TOPK_PER_V / 2 copies of 2 tokens)"), "code"),
)
B_TOPK_WHOLE_FRACTALS: Final = KernelRule(
    "b-topk-whole-fractals",
    Text(
        f"B_TOPK 必须是分形宽度 FRACTAL_W = {_FRACTAL_W} 的整数倍（S 按 B_TOPK ÷ {_FRACTAL_W} 个分形拷到 L1）",
        f"B_TOPK must be a multiple of the fractal width FRACTAL_W = {_FRACTAL_W} "
        f"(S is copied to L1 as B_TOPK / {_FRACTAL_W} fractals)",
    ),
    Source(("config.h:72", "kernel_body.h run_softmax (asc_copy_ub2l1 of B_TOPK / FRACTAL_W)"), "code"),
)
#: Not an assertion of the code: kv_cache_format.h:48 accepts the pair (V41_FP4, V41_FP4) and config.h:37-38 lets
#: decode read it. It holds because every instantiation the kernel ships has MODEL_TYPE V41: the script that writes
#: them lists each configuration (generate_instantiations.py:17-21) with ``ModelType::V41`` as the main cache (line 45).
FP4_NOT_MAIN_CACHE: Final = KernelRule(
    "fp4-not-main-cache",
    Text(
        "FP4 只作 FP8 主缓存旁的额外缓存：没有一个发布的实例化以 FP4 作主缓存（源码的断言本身并不禁止）",
        "FP4 is only an extra cache next to an FP8 main cache: no shipped instantiation has an FP4 main cache "
        "(the code's assertions alone would allow one)",
    ),
    Source(
        (
            "generate_instantiations.py:17-21 (CONFIGURATIONS, the shipped instantiations)",
            "generate_instantiations.py:45 (MODEL_TYPE = ModelType::V41 in each)",
        ),
        "code",
    ),
)
FP4_EXTRA_DECODE_ONLY: Final = KernelRule(
    "fp4-extra-decode-only",
    Text("FP4 额外缓存只在 decode 中存在", "the FP4 extra cache exists only in decode"),
    code_line("config.h", 35, detail="HAVE_FP4 = IS_DECODE && ..."),
)
MAIN_CACHE_MATCHES_MODE: Final = KernelRule(
    "main-cache-matches-mode",
    Text("prefill 读 bf16 的 KV cache，decode 读 FP8 的", "prefill reads a bf16 KV cache and decode an FP8 one"),
    code_line("config.h", 76, detail="gathered_kv_t = IS_DECODE ? float8_e4m3_t : bf16"),
)


def _index_block_not_multiple_of_b_topk(b_topk: Any, vector_cores: Any, index_block: Any, fractal: Any) -> Any:  # noqa: ANN401, ARG001 - ints or arrays
    return index_block % b_topk != 0


def _index_block_not_whole_vector_pairs(b_topk: Any, vector_cores: Any, index_block: Any, fractal: Any) -> Any:  # noqa: ANN401, ARG001
    return index_block % (2 * UINT32_PER_VECTOR) != 0


def _odd_b_topk_per_vector_core(b_topk: Any, vector_cores: Any, index_block: Any, fractal: Any) -> Any:  # noqa: ANN401, ARG001
    return (b_topk % (vector_cores * GATHER2_TOKENS_PER_REQUEST)) != 0


def _b_topk_not_whole_fractals(b_topk: Any, vector_cores: Any, index_block: Any, fractal: Any) -> Any:  # noqa: ANN401, ARG001
    return b_topk % fractal != 0


#: Tile rules in the order they are reported; the first broken one is the one named.
TILE_RULES: Final = (
    TileRule(INDEX_BLOCK_MULTIPLE_OF_B_TOPK, _index_block_not_multiple_of_b_topk),
    TileRule(EVEN_B_TOPK_PER_VECTOR_CORE, _odd_b_topk_per_vector_core),
    TileRule(B_TOPK_WHOLE_FRACTALS, _b_topk_not_whole_fractals),
    TileRule(INDEX_BLOCK_WHOLE_VECTOR_PAIRS, _index_block_not_whole_vector_pairs),
)


def _broken_tile_rules(config: KernelConfig) -> tuple[KernelRule, ...]:
    """[`broken_tile_rules`][] of a ``config`` already checked (the package's own callers)."""
    args = (config.b_topk, config.vector_cores_per_cube, config.index_block_size, config.fractal_cols)
    return tuple(t.rule for t in TILE_RULES if bool(t.broken(*args)))


@door(_broken_tile_rules)
def broken_tile_rules(config: KernelConfig) -> tuple[KernelRule, ...]:
    """Every tile rule ``config`` breaks, in report order."""
    return _broken_tile_rules(require_instance("config", config, KernelConfig))


def _broken_format_rules(mode: Mode, main_cache: KvFormat, *, fp4_extra: bool) -> tuple[KernelRule, ...]:
    """[`broken_format_rules`][] of values already checked (the package's own callers)."""
    broken = []
    if main_cache is KvFormat.FP4:
        broken.append(FP4_NOT_MAIN_CACHE)
    elif main_cache is not default_main_cache(mode):
        broken.append(MAIN_CACHE_MATCHES_MODE)
    if fp4_extra and mode is Mode.PREFILL:
        broken.append(FP4_EXTRA_DECODE_ONLY)
    return tuple(broken)


@door(_broken_format_rules)
def broken_format_rules(mode: Mode, main_cache: KvFormat, *, fp4_extra: bool) -> tuple[KernelRule, ...]:
    """Every format rule broken by reading ``main_cache`` (plus an FP4 extra cache if asked) in ``mode``."""
    mode, main_cache = Mode(mode), KvFormat(main_cache)
    return _broken_format_rules(mode, main_cache, fp4_extra=require_bool("fp4_extra", fp4_extra))


def _check_kernel_rules(config: KernelConfig, mode: Mode, main_cache: KvFormat, *, fp4_extra: bool) -> None:
    """[`check_kernel_rules`][] of values already checked (the package's own callers)."""
    broken = _broken_format_rules(mode, main_cache, fp4_extra=fp4_extra) + _broken_tile_rules(config)
    if broken:
        rule = broken[0]
        tiles = (
            f"B_TOPK={config.b_topk}, VECTOR Cores={config.vector_cores_per_cube}, "
            f"INDEX_BLOCK_SIZE={config.index_block_size}"
        )
        zh = f"mode={mode}, main cache={main_cache}, fp4 extra={'是' if fp4_extra else '否'}, {tiles}"
        en = f"mode={mode}, main cache={main_cache}, fp4 extra={'yes' if fp4_extra else 'no'}, {tiles}"
        raise ForbiddenDesign(
            Text(
                f"违反了规则 {rule.describe(lang='zh')}；实际是 {zh}",
                f"forbidden by rule {rule.describe()}; got {en}",
            )
        )


@door(_check_kernel_rules)
def check_kernel_rules(
    config: KernelConfig, mode: Mode, main_cache: KvFormat | None = None, *, fp4_extra: bool = False
) -> None:
    """Raise [`ForbiddenDesign`][] naming the first rule the combination breaks (format rules first)."""
    config = require_instance("config", config, KernelConfig)
    fp4_extra = require_bool("fp4_extra", fp4_extra)
    cache = default_main_cache(mode) if main_cache is None else main_cache
    _check_kernel_rules(config, Mode(mode), KvFormat(cache), fp4_extra=fp4_extra)
