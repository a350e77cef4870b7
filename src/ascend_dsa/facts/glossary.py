"""What each hardware unit and kernel term means, in both languages, for the glossary page and hover definitions.

A term is written as the pages write it (``MTE2``, ``online softmax``); its definition says what it is and what
this kernel does with it, in a sentence short enough for a tooltip. The site generates both the glossary page and
each edition's abbreviation list from [`GLOSSARY_TERMS`][] at build time, so the two cannot drift apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ascend_dsa.lang import Lang, Text
from ascend_dsa.validate import shown

#: How a term may be written: letters, digits, ``_``, ``-`` and single spaces, starting with a letter or digit.
_TERM: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\- ]*[A-Za-z0-9]")


@dataclass(frozen=True)
class GlossaryTerm:
    """One term: as the pages write it, its anchor on the glossary page, and its definition in both languages."""

    term: str
    definition: Text
    unit: bool = False  # a hardware unit or memory of the AI Core figure

    def __post_init__(self) -> None:
        """Reject a term the abbreviation syntax cannot hold, or a definition with a line break or a bracket."""
        if not _TERM.fullmatch(self.term):
            raise ValueError(f"term must be letters, digits, '_', '-' and spaces, got {shown(self.term)}")
        for text in (self.definition.zh, self.definition.en):
            if not text.strip() or any(ch in text for ch in "\n[]"):
                raise ValueError(f"definition of {self.term} must be one line without brackets, got {shown(text)}")

    @property
    def anchor(self) -> str:
        """The term's id on the glossary page: lower case, spaces and ``_`` as ``-``."""
        return re.sub(r"[ _]+", "-", self.term.lower())

    def text(self, lang: Lang) -> str:
        """The definition in the page's language."""
        return self.definition.in_(lang)


def _t(term: str, zh: str, en: str) -> GlossaryTerm:
    return GlossaryTerm(term, Text(zh, en))


def _unit(term: str, zh: str, en: str) -> GlossaryTerm:
    return GlossaryTerm(term, Text(zh, en), unit=True)


#: Every term of the glossary, in reading order: the chip, the units of an AI Core, the copy paths, layouts, the
#: kernel's ideas.
GLOSSARY_TERMS: Final = (
    _unit(
        "AI Core",
        "昇腾芯片的计算单元：一个 CUBE Core 加上它的 VECTOR Core；算子在每个 AI Core 上跑一个 job。",
        "One compute unit of the Ascend chip: a CUBE Core and its VECTOR Cores; the kernel runs one job on each.",
    ),
    _unit(
        "HBM",
        "芯片的主存（全局内存）：Q、KV cache、index 和输出 O 都在这里。",
        "The chip's main (global) memory: Q, the KV cache, the indices and the output O live here.",
    ),
    _unit(
        "L2",
        "所有 AI Core 共用、位于 HBM 之前的缓存；它的带宽由各个 AI Core 分摊。",
        "The cache in front of HBM that all AI Cores share; its bandwidth is divided among them.",
    ),
    _unit(
        "CUBE",
        "AI Core 的矩阵计算单元：执行 MMAD（QK 和 SV），从 L0A、L0B 读操作数，结果累加到 L0C。",
        "The AI Core's matrix unit: runs the MMADs (QK and SV), reading L0A and L0B and accumulating into L0C.",
    ),
    _unit(
        "VECTOR",
        "VECTOR Core：CUBE 旁边的 SIMD 单元，有自己的 UB；做 softmax、ND2NZ 和 O 的 rescale。",
        "A VECTOR Core: the SIMD unit beside the CUBE, with its own UB; runs the softmax, ND2NZ and the O rescale.",
    ),
    _unit(
        "MMAD",
        "矩阵乘累加：CUBE 的指令，把 L0A 与 L0B 里的分块相乘，再累加到 L0C。",
        "Matrix multiply-accumulate: the CUBE instruction that multiplies tiles from L0A and L0B into L0C.",
    ),
    _unit(
        "L1",
        "CUBE Core 的片上缓冲，分成几个 bank，存放矩阵乘要用的 Q、KV 块和 S。",
        "The CUBE Core's on-chip buffer, split into banks; holds Q, the KV blocks and S for the matrix products.",
    ),
    _unit(
        "L0A",
        "CUBE 左操作数的缓冲：这里放 Q 的一片，从 L1 装入。",
        "The CUBE's left-operand buffer: here a slice of Q, loaded from L1.",
    ),
    _unit(
        "L0B",
        "CUBE 右操作数的缓冲：这里放 K 或 V 的一片，从 L1 装入。",
        "The CUBE's right-operand buffer: here a slice of K or V, loaded from L1.",
    ),
    _unit(
        "L0C",
        "CUBE 的累加缓冲：MMAD 的 fp32 结果，这里是打分 P 和输出 O。",
        "The CUBE's accumulator buffer: MMAD results in fp32, here the scores P and the output O.",
    ),
    _unit(
        "UB",
        "Unified Buffer：每个 VECTOR Core 自己的片上内存，VECTOR 指令在这里读写。",
        "Unified Buffer: each VECTOR Core's own on-chip memory, where its instructions read and write.",
    ),
    _unit(
        "MTE2",
        "搬运引擎：从全局内存（经 L2）拷到 UB 或 L1；KV token 的 gather 就靠它。",
        "Memory transfer engine from global memory (through L2) into UB or L1; it gathers the KV tokens.",
    ),
    _unit(
        "MTE3",
        "搬运引擎：从 UB 往外拷，拷到 CUBE 的 L1（NZ 格式的 KV、S），或写回全局内存（O）。",
        "Memory transfer engine out of UB: to the CUBE's L1 (KV in NZ, S) or back to global memory (O).",
    ),
    _unit(
        "FixPipe",
        "把 CUBE 的结果搬出 L0C 的通路（这里把 P 和 O 搬到 UB），途中可以转换格式。",
        "The path that moves CUBE results out of L0C (here P and O to UB), converting formats on the way.",
    ),
    _t(
        "ND",
        "矩阵按行连续存放的普通布局，KV cache 就是这样存的。",
        "A matrix stored row after row, the plain layout the KV cache uses.",
    ),
    _t(
        "NZ",
        "CUBE 要求的分形布局：矩阵切成小方块，一块接一块存放。",
        "The CUBE's fractal layout: the matrix cut into small square tiles stored one tile after another.",
    ),
    _t(
        "ND2NZ",
        "从 ND 到 NZ 的转换；这里由 VECTOR Core 在 UB 里完成，再经 MTE3 拷到 L1。",
        "Conversion from ND to NZ; here the VECTOR Cores do it in UB before MTE3 copies the KV to L1.",
    ),
    _t(
        "B_TOPK",
        "KV 块的大小：算子每一步处理一个 q token 选中的 KV token 中的多少个。",
        "The KV block size: how many of a q token's selected KV tokens the kernel handles per step.",
    ),
    _t(
        "1C1V",
        "一个 CUBE 配一个 VECTOR Core。",
        "One CUBE with one VECTOR Core working for it.",
    ),
    _t(
        "1C2V",
        "一个 CUBE 配两个 VECTOR Core，各管一半的行；发布的内核就是这样。",
        "One CUBE with two VECTOR Cores, each taking half the rows; the shipped kernel's choice.",
    ),
    _t(
        "online softmax",
        "逐块计算的 softmax：维护到目前为止的行最大值和指数和，最大值变大时先 rescale 之前的部分结果。",
        "Softmax block by block with a running row maximum and sum, rescaling earlier partial results when the "
        "maximum grows.",
    ),
    _t(
        "skip-scale",
        "行最大值只变大一点时不换新的最大值、跳过这一块对 O 的 rescale，O 就不必搬出 L0C。",
        "Keeping the old row maximum when the new one is only slightly larger, so the block skips the O rescale "
        "and O need not leave L0C.",
    ),
    _t(
        "roofline",
        "由算力和带宽给出的上限：算子受耗时更长的那一项限制。",
        "The bound set by compute and bandwidth: a kernel is limited by whichever of the two takes longer.",
    ),
)


@dataclass(frozen=True)
class Symbol:
    """A letter the formulas, figures and tables use for one matrix: how a legend names it and what it is.

    The model chapter defines them (P = Q Kᵀ, the scores; S = softmax(P · sm_scale)); a figure's legend or a
    table's header writes ``legend``, so every page names a letter the same way.
    """

    symbol: str
    legend: Text
    definition: Text

    def __post_init__(self) -> None:
        """Reject a legend that does not start with its letter."""
        for text in (self.legend.zh, self.legend.en):
            if not text.startswith(self.symbol):
                raise ValueError(f"legend of {self.symbol} must start with the letter, got {shown(text)}")


#: The matrices of the kernel's two matrix products, as the model chapter names them (docs/algorithm/model.md).
NOTATION: Final = (
    Symbol(
        "P",
        Text("P（打分）", "P (scores)"),
        Text(
            "打分 P = Q Kᵀ：每个 head 对每个选中 token 的点积，fp32，在 L0C 里算出。",
            "The scores P = Q Kᵀ: each head's dot product with each selected token, fp32, computed into L0C.",
        ),
    ),
    Symbol(
        "S",
        Text("S = softmax(P)", "S = softmax(P)"),
        Text(
            "S = softmax(P · sm_scale)：按行归一化后的打分，VECTOR Core 算出，再乘 V。",
            "S = softmax(P · sm_scale): the scores normalised row by row, by the VECTOR Cores, then multiplied by V.",
        ),
    ),
)


def notation_symbol(symbol: str) -> Symbol:
    """The entry of the letter ``symbol``; raise naming the letters there are."""
    for entry in NOTATION:
        if entry.symbol == symbol:
            return entry
    raise KeyError(f"{symbol!r} is not in the notation; letters: {', '.join(e.symbol for e in NOTATION)}")


def glossary_term(term: str) -> GlossaryTerm:
    """The entry of ``term``; raise naming the terms there are."""
    for entry in GLOSSARY_TERMS:
        if entry.term == term:
            return entry
    raise KeyError(f"{term!r} is not in the glossary; terms: {', '.join(e.term for e in GLOSSARY_TERMS)}")
