"""The site's two languages: choosing a sentence (`pick`), a pair of texts (`Text`) and one catalogue of short terms.

Sentences are written as ``pick(lang, zh, en)`` beside their layout; short terms (units, source kinds, task and limit
names) come from [`CATALOGUE`][ascend_dsa.lang.CATALOGUE] by name, so each is written once in both languages (a
chapter's title is its record's, in ``ascend_dsa.facts.chapters``). Imports nothing of ours: every layer may use it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal, get_args

from ascend_dsa.validate import shown

Lang = Literal["zh", "en"]

#: Chinese text's characters as a regular-expression class body: CJK punctuation, ideographs, full-width forms.
CJK_CHARACTERS: Final = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_CJK: Final = re.compile(f"[{CJK_CHARACTERS}]")


def has_chinese(text: str) -> bool:
    """Whether ``text`` holds a Chinese character (an ideograph, CJK punctuation or a full-width form)."""
    return _CJK.search(text) is not None


def check_lang(lang: str) -> Lang:
    """Return ``lang`` if the site has that language, else raise naming the choices."""
    choices: tuple[Lang, ...] = get_args(Lang)
    for choice in choices:
        if lang == choice:
            return choice
    raise ValueError(f"lang must be one of {', '.join(choices)}, got {shown(lang)}")


def pick(lang: Lang, zh: str, en: str) -> str:
    """The text for the page's language."""
    return zh if check_lang(lang) == "zh" else en


@dataclass(frozen=True)
class Text:
    """One text in both languages: what data that carries words carries."""

    zh: str
    en: str

    def __post_init__(self) -> None:
        """Reject a text missing one of its languages."""
        if not self.zh.strip() or not self.en.strip():
            raise ValueError(f"a text needs both languages, got zh={shown(self.zh)}, en={shown(self.en)}")

    def in_(self, lang: Lang) -> str:
        """The text for the page's language."""
        return pick(lang, self.zh, self.en)

    @classmethod
    def same(cls, text: str) -> Text:
        """A text that reads the same in both languages (a number, a name, a formula), written once."""
        return cls(text, text)


#: Units as a reader reads them after a number; a unit not listed reads the same in both languages.
_UNITS: Final = {
    "AI Cores": Text("个 AI Core", "AI Cores"),
    "VECTOR Cores": Text("个 VECTOR Core", "VECTOR Cores"),
    "banks": Text("个 bank", "banks"),
    "blocks": Text("块", "blocks"),
    "cycles": Text("周期", "cycles"),
    "cycles/block": Text("周期/块", "cycles/block"),
    "cycles/token": Text("周期/token", "cycles/token"),
    "fractals": Text("个分形", "fractals"),
    "heads": Text("个 head", "heads"),
    "requests": Text("个请求", "requests"),
    "rows": Text("行", "rows"),
    "tokens": Text("个 token", "tokens"),
}

#: Column headers that two or more tables share, keyed ``column:<the English header>``; a header only one table has
#: is written beside that table. One word with two translations names two columns (出处 heads a source and a where
#: column; 单元 is a hardware unit, 单位 a unit of measure), so such headers are kept apart, never merged.
_COLUMNS: Final = (
    Text("CUBE 周期", "CUBE cycles"),
    Text("每块 MMA 周期", "MMA cycles per block"),
    Text("块", "block"),
    Text("块数", "blocks"),
    Text("容量", "capacity"),
    Text("源码", "code"),
    Text("决定", "decision"),
    Text("格式", "format"),
    Text("余量", "headroom"),
    Text("编号", "id"),
    Text("类别", "kind"),
    Text("量", "quantity"),
    Text("算存比", "ratio"),
    Text("报告", "report"),
    Text("报告 (zh)", "report (zh)"),
    Text("情形", "scenario"),
    Text("出处", "source"),
    Text("状态", "status"),
    Text("步", "step"),
    Text("每个 VECTOR Core 每块的 token", "tokens per VECTOR Core per block"),
    Text("单元", "unit"),
    Text("占用率", "use"),
    Text("值", "value"),
    Text("结论", "verdict"),
    Text("做什么", "what"),
    Text("出处", "where"),
)

#: Every short term of the site, keyed ``group:name`` (the name is the English key or enum value of the thing).
CATALOGUE: Final = MappingProxyType(
    {
        **{f"unit:{name}": text for name, text in _UNITS.items()},
        "kind:report": Text("报告", "report"),
        "kind:code": Text("源码", "code"),
        "kind:derived": Text("推导", "derived"),
        "kind:assumed": Text("假设", "assumed"),
        "verdict:compute-bound": Text("算力 bound", "compute-bound"),
        "verdict:memory-bound": Text("带宽 bound", "memory-bound"),
        "verdict:balanced": Text("均衡", "balanced"),
        "condition:decode only": Text("仅 decode", "decode only"),
        "condition:sink only": Text("仅 sink", "sink only"),
        "condition:FP4 extra only": Text("仅 FP4 额外缓存", "FP4 extra only"),
        "stage:index-read": Text("读取 index（GM → UB）", "read indices (GM -> UB)"),
        "stage:nd2nz-and-copy-to-l1": Text("ND2NZ 并经 MTE3 拷到 L1", "ND2NZ, then MTE3 copy to L1"),
        "stage:softmax": Text("softmax，结果 S 拷到 L1", "softmax, S copied to L1"),
        "stage:index-preprocess": Text("预处理 index（gather2 参数）", "preprocess indices (gather2 parameters)"),
        "stage:scale-o": Text("O scale（未 skip 时）", "scale O (unless skipped)"),
        "stage:skip-scale-flag": Text("写 skip-scale 标志到 SS buffer", "write skip-scale flag to the SS buffer"),
        "stage:kv-gather": Text("发起 MTE2 gather（GM → UB）", "issue MTE2 gather (GM -> UB)"),
        "task:index-fetch": Text("读 index", "index read"),
        "task:process-index": Text("index 预处理", "index preprocess"),
        "task:gather": Text("MTE2 gather KV", "MTE2 KV gather"),
        "task:nd2nz": Text("ND2NZ", "ND2NZ"),
        "task:kv-to-l1": Text("KV 拷到 L1", "KV to L1"),
        "task:qk": Text("QK（算 P）", "QK (P)"),
        "task:p-out": Text("P 搬出 L0C", "P out of L0C"),
        "task:softmax": Text("softmax", "softmax"),
        "task:s-to-l1": Text("S 拷到 L1", "S to L1"),
        "task:o-out": Text("O 搬出 L0C", "O out of L0C"),
        "task:scale-o": Text("O scale", "O scale"),
        "task:sv": Text("SV（累加 O）", "SV (O +=)"),
        "limit:l2-roofline": Text("L2 roofline（L2 周期 vs CUBE 周期）", "L2 roofline (L2 vs CUBE cycles)"),
        "limit:fixpipe-o-every-block": Text("FixPipe（每块都搬出 O）", "FixPipe (O leaves every block)"),
        "limit:fixpipe-p-only": Text("FixPipe（只搬 P，skip-scale）", "FixPipe (P only, skip-scale)"),
        "limit:l0c": Text("L0C 容量", "L0C capacity"),
        "limit:ub": Text("UB 容量（每个 VECTOR Core）", "UB per VECTOR Core"),
        "limit:mte2-queue": Text("MTE2 队列（每核每块的请求数）", "MTE2 queue (requests per block per core)"),
        "limit:l1-bank": Text("L1（较满的那个 bank）", "L1 (the fuller bank)"),
        "limit-short:l2-roofline": Text("L2 带宽", "L2 bandwidth"),
        "limit-short:fixpipe-o-every-block": Text("FixPipe（每块搬 O）", "FixPipe (O every block)"),
        "limit-short:fixpipe-p-only": Text("FixPipe（只搬 P）", "FixPipe (P only)"),
        "limit-short:l0c": Text("L0C", "L0C"),
        "limit-short:ub": Text("UB", "UB"),
        "limit-short:mte2-queue": Text("MTE2 队列", "MTE2 queue"),
        "limit-short:l1-bank": Text("L1 bank", "L1 bank"),
        "status:agrees": Text("一致", "agrees"),
        "status:differs": Text("不一致", "differs"),
        "status:shipped": Text("是", "yes"),
        "error-box:title": Text("构建时检查失败", "A build-time check failed"),
        "error-box:what": Text("项目", "what"),
        "error-box:report line": Text("报告位置", "report line"),
        "error-box:ours": Text("我们的值", "ours"),
        "error-box:report": Text("报告的值", "report"),
        "error-box:rule": Text("规则", "rule"),
        **{f"column:{text.en}": text for text in _COLUMNS},
    }
)


def term(name: str, lang: Lang) -> str:
    """The catalogue's term ``name`` (``group:key``) in the page's language; raise naming it if it is not there."""
    text = CATALOGUE.get(name)
    if text is None:
        raise ValueError(f"term must be a catalogue name such as 'unit:cycles', got {shown(name)}")
    return text.in_(lang)


def unit_name(unit: str, lang: Lang) -> str:
    """``unit`` as the page's language names it (``个请求`` for requests on a Chinese page)."""
    text = CATALOGUE.get(f"unit:{unit}")
    return text.in_(lang) if text is not None else pick(lang, unit, unit)


#: Count units (plural English words) the catalogue names: ``requests``, ``rows``, ...
COUNT_UNITS: Final = tuple(name for name in _UNITS if name.endswith("s") and "/" not in name)
