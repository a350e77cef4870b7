"""What each hardware unit and kernel term means, in both languages, and what a GPU engineer knows it as.

A term is written as the pages write it (``MTE2``, ``online softmax``). Its one-line definition says what it is and
what this kernel does with it, short enough for a tooltip; its explanation says more; its counterpart names the
nearest thing on an NVIDIA Hopper GPU (or says there is none), ``breaks`` says where that analogy stops holding, and
``gpu_source`` cites NVIDIA's documents or FlashMLA's Hopper code for the GPU side. The site generates the glossary
page and each edition's hover definitions from [`GLOSSARY_TERMS`][] at build time, so the two cannot drift apart;
the chapters using a term are found in the pages' sources when the page is built, never typed here.

Counts in the texts (buffers, banks, tokens per request) come from the kernel's configuration and the chip preset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ascend_dsa.facts.chapters import chapter_named
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.hopper import (
    DENSE_BLOG_PATH,
    FP8_BLOG_PATH,
    HOPPER_COMMIT,
    HOPPER_REPOSITORY,
    PREFILL_SPARSE_CONFIG_PATH,
    hopper_cite,
)
from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST, SHIPPED_KERNEL
from ascend_dsa.lang import Lang, Text
from ascend_dsa.validate import shown

#: How a term may be written: letters, digits, ``_``, ``-`` and single spaces, starting with a letter or digit.
_TERM: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\- ]*[A-Za-z0-9]")

#: NVIDIA's documents the GPU side cites (HTML editions, whole pages: section anchors move between releases).
CUDA_GUIDE_URL: Final = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html"
HOPPER_GUIDE_URL: Final = "https://docs.nvidia.com/cuda/hopper-tuning-guide/index.html"
PTX_GUIDE_URL: Final = "https://docs.nvidia.com/cuda/parallel-thread-execution/index.html"


@dataclass(frozen=True)
class GpuSource:
    """Where the GPU side of an analogy is written down: its label as a page shows it, and its address."""

    label: str
    url: str

    def __post_init__(self) -> None:
        """Reject an empty label, or an address that is not an https URL."""
        if not isinstance(self.label, str) or not self.label.strip():
            raise ValueError(f"label must name the document, got {shown(self.label)}")
        if not isinstance(self.url, str) or not re.fullmatch(r"https://[^\s\"'<>]+", self.url):
            raise ValueError(f"url must be an https URL without blanks or quotes, got {shown(self.url)}")


def nvidia(document: str, url: str, section: str) -> GpuSource:
    """A section of one of NVIDIA's documents."""
    return GpuSource(f"NVIDIA {document}, '{section}'", url)


def flashmla(path: str, first: int, last: int | None = None) -> GpuSource:
    """Lines of a FlashMLA Hopper file at the commit the package pins, labelled ``path:line`` and linked there."""
    citation = hopper_cite(path, first, last)
    anchor = f"L{citation.first_line}" + (
        f"-L{citation.last_line}" if citation.last_line != citation.first_line else ""
    )
    return GpuSource(
        f"FlashMLA {path}:{citation.lines}",
        f"https://github.com/{HOPPER_REPOSITORY}/blob/{HOPPER_COMMIT}/{path}#{anchor}",
    )


@dataclass(frozen=True)
class GlossaryTerm:
    """One term: as the pages write it, its definition and explanation, and its nearest counterpart on a GPU.

    ``counterpart`` is None when a Hopper GPU has nothing like it; ``breaks`` then says why, else where the analogy
    stops holding. ``unit`` marks a hardware unit or memory of the AI Core figure. ``chapter`` is the key of the
    chapter whose text explains what the term is (``algorithm/flow``; ``facts.chapters.SITE_CHAPTERS``), not one that
    only uses it; None when only the glossary does. The site's search weighs the term there as a heading.
    """

    term: str
    definition: Text
    explanation: Text
    counterpart: Text | None
    breaks: Text
    gpu_source: GpuSource
    unit: bool = False
    chapter: str | None = None

    def __post_init__(self) -> None:
        """Reject a term abbreviations cannot hold, a definition on two lines or with a bracket, an unknown chapter."""
        if self.chapter is not None:
            chapter_named(self.chapter)
        if not isinstance(self.term, str) or not _TERM.fullmatch(self.term):
            raise ValueError(f"term must be letters, digits, '_', '-' and spaces, got {shown(self.term)}")
        for text in (self.definition.zh, self.definition.en):
            if not text.strip() or any(ch in text for ch in "\n[]"):
                raise ValueError(f"definition of {self.term} must be one line without brackets, got {shown(text)}")
        if not isinstance(self.gpu_source, GpuSource):
            raise TypeError(f"gpu_source of {self.term} must be a GpuSource, got {shown(self.gpu_source)}")

    @property
    def anchor(self) -> str:
        """The term's id on the glossary page: lower case, spaces and ``_`` as ``-``."""
        return re.sub(r"[ _]+", "-", self.term.lower())

    def text(self, lang: Lang) -> str:
        """The one-line definition in the page's language (the hover text)."""
        return self.definition.in_(lang)


def _term(
    term: str,
    definition: Text,
    explanation: Text,
    counterpart: Text | None,
    breaks: Text,
    gpu_source: GpuSource,
    *,
    unit: bool = False,
    chapter: str | None = None,
) -> GlossaryTerm:
    return GlossaryTerm(term, definition, explanation, counterpart, breaks, gpu_source, unit=unit, chapter=chapter)


_K = SHIPPED_KERNEL
_VECTORS = _K.vector_cores_per_cube
_BANKS = ASCEND_950.ascend.l1_banks
_QUEUE = ASCEND_950.ascend.mte2_outstanding_requests
_FRACTAL = f"{_K.fractal_rows}×{_K.fractal_cols}"


def _cite(field: str) -> str:
    """Where the shipped kernel's ``field`` is set (``config.h:66``)."""
    return _K.sources[field].citation


_CUDA_HW = nvidia("CUDA C++ Programming Guide", CUDA_GUIDE_URL, "Hardware Implementation")
_CUDA_SMEM = nvidia("CUDA C++ Programming Guide", CUDA_GUIDE_URL, "Shared Memory")
_CUDA_GLOBAL = nvidia("CUDA C++ Programming Guide", CUDA_GUIDE_URL, "Device Memory Accesses")
_HOPPER_TMA = nvidia("Hopper Tuning Guide", HOPPER_GUIDE_URL, "Tensor Memory Accelerator")
_HOPPER_L2 = nvidia("Hopper Tuning Guide", HOPPER_GUIDE_URL, "Increased L2 Capacity")
_PTX_WGMMA = nvidia("PTX ISA", PTX_GUIDE_URL, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions")
_PTX_LDMATRIX = nvidia("PTX ISA", PTX_GUIDE_URL, "Warp-level matrix load instruction: ldmatrix")
_SMEM_PLAN = flashmla(PREFILL_SPARSE_CONFIG_PATH, 69, 81)
_QK_MMA = flashmla(PREFILL_SPARSE_CONFIG_PATH, 84, 86)
_SWIZZLE = flashmla(PREFILL_SPARSE_CONFIG_PATH, 31, 36)
_THREADS = flashmla(PREFILL_SPARSE_CONFIG_PATH, 28)
_STMATRIX = flashmla(PREFILL_SPARSE_CONFIG_PATH, 118)
_LDG_GATHER = flashmla(FP8_BLOG_PATH, 40, 43)
_PING_PONG = flashmla(DENSE_BLOG_PATH, 21)
_SEESAW = flashmla(DENSE_BLOG_PATH, 25, 42)

#: Every term of the glossary, in reading order: the chip, the units of an AI Core, the copy paths, layouts, the
#: kernel's ideas.
GLOSSARY_TERMS: Final = (
    _term(
        "AI Core",
        Text(
            "昇腾芯片的计算单元：一个 CUBE Core 加上它的 VECTOR Core；算子在每个 AI Core 上跑一个 job。",
            "One compute unit of the Ascend chip: a CUBE Core and its VECTOR Cores; the kernel runs one job on each.",
        ),
        Text(
            f"一个 AI Core 由一个做矩阵乘的 CUBE Core（AIC）和 {_VECTORS} 个做其余运算的 VECTOR Core（AIV）组成"
            "。它们是各自取指、"
            "各有片上内存的核：CUBE 用 L1 和 L0A/L0B/L0C，每个 VECTOR 用自己的 UB；数据在它们之间只能靠 MTE3 "
            "和 FixPipe 搬，"
            "进度靠 cross-core flag 同步。",
            f"An AI Core is one CUBE Core (AIC) for matrix products and {_VECTORS} VECTOR Cores (AIV) for everything "
            "else. Each fetches its own instructions and owns its own on-chip memory (L1 and L0A/L0B/L0C for the CUBE, "
            "a UB for each VECTOR Core); data crosses between them only through MTE3 and FixPipe, and they keep in "
            "step with cross-core flags.",
        ),
        Text(
            "SM（流式多处理器）。",
            "An SM (streaming multiprocessor).",
        ),
        Text(
            "SM 是一个核：Tensor Core 和 CUDA Core 由同一批 warp 调度，共享寄存器和 shared memory。AI Core 是几个"
            "异构的核拼在一起，没有 warp 切换来掩盖延迟，重叠要靠算子自己排流水线。",
            "An SM is one core: its Tensor Cores and CUDA cores are driven by the same warps and share registers and "
            "shared memory. An AI Core is several separate cores side by side, with no warp switching to hide "
            "latency; the kernel overlaps work by scheduling the pipeline itself.",
        ),
        _CUDA_HW,
        unit=True,
        chapter="algorithm/model",
    ),
    _term(
        "AIC",
        Text("AI Cube Core：昇腾代码里对 CUBE Core 的叫法。", "AI Cube Core: Ascend code's name for the CUBE Core."),
        Text(
            "报告和源码把一个 AI Core 里的 CUBE Core 记作 AIC，把 VECTOR Core 记作 AIV；1C2V 里的 C 和 V 也是"
            "这个意思。",
            "The report and the source call the CUBE Core of an AI Core the AIC and a VECTOR Core an AIV; the C and V "
            "of 1C2V mean the same.",
        ),
        Text(
            "FlashMLA 中发出 wgmma 的 warpgroup 加上 Tensor Core。",
            "The warpgroup issuing wgmma in FlashMLA, together with the Tensor Cores.",
        ),
        Text(
            "FlashMLA 的每个 warpgroup 都能既算矩阵乘又算 softmax；AIC 只能做矩阵乘和搬运，softmax 全在 AIV 上。",
            "FlashMLA's warpgroups can each issue matrix products and run the softmax; the AIC only multiplies and "
            "copies, and the softmax runs on the AIVs.",
        ),
        _THREADS,
    ),
    _term(
        "AIV",
        Text(
            "AI Vector Core：昇腾代码里对 VECTOR Core 的叫法。", "AI Vector Core: Ascend code's name for a VECTOR Core."
        ),
        Text(
            f"每个 AI Core 有 {_VECTORS} 个 AIV，各有一个 UB。报告说 O 的累加器放在 UB 里时“必须用两个 AIV”"
            "（报告 (zh) 第 116 行），因为一个 UB 放不下全部行的 O。",
            f"Each AI Core has {_VECTORS} AIVs, each with a UB. With O's accumulator in UB the kernel "
            "“必须用两个 AIV” (report (zh) line 116); in the English edition, line 116 says it “requires two AIVs”, "
            "as one UB cannot hold O for all rows.",
        ),
        Text(
            "FlashMLA 中跑 softmax 和 rescale 的 warpgroup（CUDA Core 上的 SIMT 代码）。",
            "The warpgroups running the softmax and rescale in FlashMLA (SIMT code on the CUDA cores).",
        ),
        Text(
            "warpgroup 与 Tensor Core 共享寄存器，累加器就在它的寄存器里；AIV 看不到 L0C，结果要经 FixPipe 拷到 UB。",
            "A warpgroup shares the SM's registers with the Tensor Cores, so the accumulator is already in its "
            "registers; an AIV cannot see L0C, and results reach its UB only through FixPipe.",
        ),
        _THREADS,
    ),
    _term(
        "HBM",
        Text(
            "芯片的主存（全局内存）：Q、KV cache、index 和输出 O 都在这里。",
            "The chip's main (global) memory: Q, the KV cache, the indices and the output O live here.",
        ),
        Text(
            "昇腾代码把它叫 GM（global memory）。算子从这里按 index 逐 token 地 gather KV，读写都经过 L2。",
            "Ascend code calls it GM (global memory). The kernel gathers the KV from it token by token, following the "
            "indices; every read and write passes through L2.",
        ),
        Text("GPU 的全局内存（H800 上也是 HBM）。", "The GPU's global memory (HBM on the H800 too)."),
        Text(
            "几乎一一对应。不同在于本站的昇腾模型用 L2 的带宽作为上限，而 H800 的模型用 HBM 带宽。",
            "Nearly one to one. The difference is in the models: this site bounds the Ascend kernel by L2 bandwidth "
            "and the H800 kernel by HBM bandwidth.",
        ),
        _CUDA_GLOBAL,
        unit=True,
    ),
    _term(
        "L2",
        Text(
            "所有 AI Core 共用、位于 HBM 之前的缓存；它的带宽由各个 AI Core 分摊。",
            "The cache in front of HBM that all AI Cores share; its bandwidth is divided among them.",
        ),
        Text(
            "报告的 roofline 用 L2 带宽除以 AI Core 数，得到每个 AI Core 每周期能取的字节数；head 数一章由此算"
            "出访存周期。",
            "The report's roofline divides the L2 bandwidth by the number of AI Cores to get the bytes each AI "
            "Core can "
            "fetch per cycle; the heads-per-core chapter computes its memory cycles from it.",
        ),
        Text("GPU 的 L2 cache。", "The GPU's L2 cache."),
        Text(
            "作用相同；但 Hopper 的 L2 之前还有每个 SM 的 L1/shared memory 可作缓存，而昇腾的 L1 只是 CUBE 的暂存区，"
            "不缓存任何东西。",
            "Same role; but on Hopper each SM's L1 also caches global loads, whereas the Ascend L1 is only the CUBE's "
            "scratchpad and caches nothing.",
        ),
        _HOPPER_L2,
        unit=True,
        chapter="design/index",
    ),
    _term(
        "CUBE",
        Text(
            "AI Core 的矩阵计算单元：执行 MMAD（QK 和 SV），从 L0A、L0B 读操作数，结果累加到 L0C。",
            "The AI Core's matrix unit: runs the MMADs (QK and SV), reading L0A and L0B and accumulating into L0C.",
        ),
        Text(
            "CUBE Core 是一个独立的核：它自己发射 MMAD 和 L1、L0 之间的搬运，不做逐元素运算。报告的峰值算力就是所有"
            "CUBE 每周期的 FMA 数之和。",
            "The CUBE Core is a core of its own: it issues the MMADs and the copies between L1 and the L0 buffers, "
            "and does no element-wise work. The report's peak is the sum of every CUBE's multiply-adds per cycle.",
        ),
        Text("Tensor Core（Hopper 上用 wgmma 驱动）。", "The Tensor Cores (driven by wgmma on Hopper)."),
        Text(
            "Tensor Core 没有自己的指令流，由 warpgroup 发射 wgmma，操作数直接从 shared memory（或寄存器）读，"
            "累加到寄存器；CUBE 只从 L0A/L0B 读，累加到 L0C，再由 FixPipe 搬出。",
            "Tensor Cores have no instruction stream of their own: a warpgroup issues wgmma, which reads operands "
            "straight from shared memory (or registers) and accumulates in registers. The CUBE reads only L0A/L0B "
            "and accumulates in L0C, which FixPipe empties.",
        ),
        _QK_MMA,
        unit=True,
        chapter="algorithm/model",
    ),
    _term(
        "VECTOR",
        Text(
            "VECTOR Core：CUBE 旁边的 SIMD 单元，有自己的 UB；做 softmax、ND2NZ 和 O 的 rescale。",
            "A VECTOR Core: the SIMD unit beside the CUBE, with its own UB; runs the softmax, ND2NZ and the O rescale.",
        ),
        Text(
            f"每个 AI Core 有 {_VECTORS} 个 VECTOR Core（AIV），1C2V 时各管 P 和 O 的一半行。它由一个标量核发射指令，"
            "向量运算以 SIMD VF 的形式在 UB 上进行；它还发起把 KV gather 进 UB 的 MTE2 拷贝。",
            f"Each AI Core has {_VECTORS} VECTOR Cores (AIVs); under 1C2V each takes half the rows of P and O. "
            "A scalar "
            "core issues its instructions and the vector work runs as SIMD VFs over the UB; it also issues the MTE2 "
            "copies that gather the KV into UB.",
        ),
        Text(
            "SM 的 CUDA Core（做 softmax 的 warpgroup 所用的 SIMT 单元）。",
            "The SM's CUDA cores (the SIMT units the softmax warpgroups run on).",
        ),
        Text(
            "CUDA Core 以 SIMT 方式执行（每个线程一条标量指令流），且与 Tensor Core 同在一个 SM 上共享寄存器；"
            "VECTOR Core "
            "是显式的 SIMD，只读写自己的 UB，和 CUBE 不是同一个核。",
            "CUDA cores run SIMT code (one scalar instruction stream per thread) and share the SM's registers with "
            "the Tensor Cores; a VECTOR Core is explicit SIMD over its own UB, and a separate core from the CUBE.",
        ),
        nvidia("CUDA C++ Programming Guide", CUDA_GUIDE_URL, "SIMT Architecture"),
        unit=True,
        chapter="algorithm/model",
    ),
    _term(
        "MMAD",
        Text(
            "矩阵乘累加：CUBE 的指令，把 L0A 与 L0B 里的分块相乘，再累加到 L0C。",
            "Matrix multiply-accumulate: the CUBE instruction that multiplies tiles from L0A and L0B into L0C.",
        ),
        Text(
            "本算子每个 KV 块做 QK 和 SV 各一次 MMAD：打分 P = Q Kᵀ（QK）和输出 O += S V（SV）。操作数须是 NZ 布局。",
            "Each KV block takes two MMADs: the scores P = Q Kᵀ (QK) and the output O += S V (SV). Operands must be "
            "in the NZ layout.",
        ),
        Text("wgmma.mma_async（CUTLASS 里的 GMMA）。", "wgmma.mma_async (GMMA in CUTLASS)."),
        Text(
            "wgmma 是异步的，由 warpgroup 发射、用 fence 和 commit/wait 等待；MMAD 在 CUBE 的顺序流水线上执行，"
            "等待靠流水线之间的同步标志。",
            "wgmma is asynchronous, issued by a warpgroup and awaited with fences and commit/wait; an MMAD runs in "
            "order on the CUBE's pipeline, and other pipelines wait on it with sync flags.",
        ),
        _PTX_WGMMA,
        unit=True,
        chapter="algorithm/model",
    ),
    _term(
        "L1",
        Text(
            "CUBE Core 的片上缓冲，分成几个 bank，存放矩阵乘要用的 Q、KV 块和 S。",
            "The CUBE Core's on-chip buffer, split into banks; holds Q, the KV blocks and S for the matrix products.",
        ),
        Text(
            f"L1 按地址分成 {_BANKS} 个 bank（报告 (zh) 第 242 行）。本算子在 L1 里放 Q {_K.l1_q_buffers} 份"
            f"（{_cite('l1_q_buffers')}）、KV 块 {_K.l1_kv_buffers} 份（{_cite('l1_kv_buffers')}）和 S。份数即"
            "多缓冲：CUBE 在用一份时，MTE2 或 MTE3 "
            f"可以往另一份里写下一份数据。Q 只在 job 换到下一个 q token 时才变，{_K.l1_q_buffers} 份让下一个 Q "
            "提前装入；"
            f"KV 块每一步都换，{_K.l1_kv_buffers} 份让 CUBE 在算当前块的 QK 和 SV 时，VECTOR Core 已经把后面的"
            "块写进来。"
            "这是我们对份数的解读，源码只给出份数。",
            f"L1 is split by address into {_BANKS} banks (report (zh) line 242). The kernel keeps Q in "
            f"{_K.l1_q_buffers} buffers ({_cite('l1_q_buffers')}), the KV block in {_K.l1_kv_buffers} "
            f"({_cite('l1_kv_buffers')}) "
            "and S. The "
            "counts are multi-buffering: while the CUBE reads one buffer, MTE2 or MTE3 fills another. Q changes only "
            f"when the job moves to its next q token, so {_K.l1_q_buffers} buffers let the next Q load early; the KV "
            f"block changes every step, so {_K.l1_kv_buffers} buffers let the VECTOR Cores write later blocks while "
            "the CUBE runs the QK and SV of the current one. That is our reading; the source gives only the counts.",
        ),
        Text(
            "SM 的 shared memory（作 Tensor Core 操作数的暂存区，如 FlashMLA 的 SharedMemoryPlan）。",
            "The SM's shared memory, as the staging area of Tensor Core operands (FlashMLA's SharedMemoryPlan).",
        ),
        Text(
            "shared memory 对 SM 上所有线程可读写；L1 只有 CUBE 能读，VECTOR Core 只能经 MTE3 往里写，不能读回。"
            "Tensor Core 直接读 shared memory，CUBE 却要先经 MTE1 拷到 L0A/L0B。",
            "Shared memory is read and written by every thread of the SM; only the CUBE reads L1, and the VECTOR "
            "Cores can only write into it through MTE3. Tensor Cores read shared memory directly, while the CUBE "
            "needs MTE1 to copy into L0A/L0B first.",
        ),
        _SMEM_PLAN,
        unit=True,
        chapter="optimizations/l1-banks",
    ),
    _term(
        "L0A",
        Text(
            "CUBE 左操作数的缓冲：这里放 Q 的一片，从 L1 装入。",
            "The CUBE's left-operand buffer: here a slice of Q, loaded from L1.",
        ),
        Text(
            f"MTE1 把 L1 里的 Q（或 S）一片片装进 L0A，供 MMAD 读取；本算子给它 {_K.l0a_buffers} 份"
            f"（{_cite('l0a_buffers')}）"
            "。",
            f"MTE1 loads Q (or S) from L1 into L0A slice by slice for the MMADs; the kernel gives it {_K.l0a_buffers} "
            f"buffers ({_cite('l0a_buffers')}).",
        ),
        None,
        Text(
            "没有对应物：Hopper 的 wgmma 直接从 shared memory 读 A（或从寄存器读，即 RS 变体），中间没有一级专"
            "用的操作数缓冲。",
            "No counterpart: Hopper's wgmma reads A straight from shared memory (or from registers, the RS variant); "
            "there is no dedicated operand buffer in between.",
        ),
        _QK_MMA,
        unit=True,
        chapter="optimizations/l1-banks",
    ),
    _term(
        "L0B",
        Text(
            "CUBE 右操作数的缓冲：这里放 K 或 V 的一片，从 L1 装入。",
            "The CUBE's right-operand buffer: here a slice of K or V, loaded from L1.",
        ),
        Text(
            "MTE1 把 L1 里的 KV 块一片片装进 L0B。MLA 的 V 是 K 的前若干列，所以同一个 KV 块既作 QK 的 K 也作"
            " SV 的 V。",
            "MTE1 loads the KV block from L1 into L0B slice by slice. In MLA, V is the first columns of K, so one KV "
            "block serves as K in QK and as V in SV.",
        ),
        None,
        Text(
            "没有对应物：wgmma 的 B 操作数总是直接从 shared memory 读取，通过描述符给出地址。",
            "No counterpart: wgmma always reads its B operand straight from shared memory, addressed by a descriptor.",
        ),
        _QK_MMA,
        unit=True,
        chapter="optimizations/l1-banks",
    ),
    _term(
        "L0C",
        Text(
            "CUBE 的累加缓冲：MMAD 的 fp32 结果，这里是打分 P 和输出 O。",
            "The CUBE's accumulator buffer: MMAD results in fp32, here the scores P and the output O.",
        ),
        Text(
            "L0C 的大小限制了一个 AI Core 能同时持有多少行 O：讨论一章“FA 的 output accumulator 在哪里做”就是"
            "在问 O 放在"
            "L0C 还是 UB。结果只能经 FixPipe 搬出。",
            "L0C's size bounds how many rows of O one AI Core can hold; the chapter on where the FA output "
            "accumulator lives asks whether O stays in L0C or goes to UB. Results leave only through FixPipe.",
        ),
        Text(
            "wgmma 累加器所在的寄存器（fp32 fragment）。",
            "The registers holding wgmma's accumulator (fp32 fragments).",
        ),
        Text(
            "GPU 的累加器就在做 softmax 的线程的寄存器里，rescale O 是几条乘法；L0C 对 VECTOR Core 不可见，rescale "
            "要把 O "
            "经 FixPipe 拷到 UB 再算，所以昇腾上才有 skip-scale 这样的优化。",
            "On a GPU the accumulator sits in the registers of the threads that run the softmax, so rescaling O is a "
            "few multiplies; L0C is invisible to the VECTOR Cores, so a rescale means copying O to UB through "
            "FixPipe, which is why the Ascend kernel needs skip-scale.",
        ),
        _QK_MMA,
        unit=True,
        chapter="discussion/accumulator",
    ),
    _term(
        "UB",
        Text(
            "Unified Buffer：每个 VECTOR Core 自己的片上内存，VECTOR 指令在这里读写。",
            "Unified Buffer: each VECTOR Core's own on-chip memory, where its instructions read and write.",
        ),
        Text(
            f"UB 里放 gather 来的 KV 块（ND 格式）、P 与 S、O 的累加器和 index。KV 块有 {_K.ub_kv_buffers} 份"
            f"（{_cite('ub_kv_buffers')}）：按我们的解读，一份在由 MTE2 gather 填入，一份在由 SIMD VF 做 ND2NZ，"
            "一份在由 MTE3 拷往 L1，"
            "每个阶段各占一份，这些阶段才能同时进行。",
            f"UB holds the gathered KV block (in ND), P and S, O's accumulator and the indices. The KV block has "
            f"{_K.ub_kv_buffers} buffers ({_cite('ub_kv_buffers')}): in our reading, one being filled by MTE2's "
            "gather, one being "
            "converted ND2NZ by a SIMD VF, one being copied to L1 by MTE3; each stage needs a buffer of its own for "
            "the stages to run at once.",
        ),
        Text(
            "shared memory 加寄存器：softmax 线程的工作区。",
            "Shared memory plus registers: the softmax threads' working space.",
        ),
        Text(
            "UB 只属于一个 VECTOR Core，另一个 VECTOR Core 和 CUBE 都读不到；VECTOR 指令直接在 UB 上运算，没有"
            "同样大小的"
            "寄存器堆。",
            "A UB belongs to one VECTOR Core; neither the other VECTOR Core nor the CUBE can read it, and vector "
            "instructions compute on the UB itself, with no register file of comparable size.",
        ),
        _CUDA_SMEM,
        unit=True,
        chapter="design/index",
    ),
    _term(
        "MTE1",
        Text(
            "搬运引擎：在 CUBE Core 内部把 L1 的数据装进 L0A、L0B。",
            "Memory transfer engine inside the CUBE Core: loads L1 data into L0A and L0B.",
        ),
        Text(
            "MTE1 在 CUBE 一侧的流水线上与 MMAD 交替进行：装入下一片操作数的同时 CUBE 计算当前片。",
            "MTE1 alternates with the MMADs on the CUBE's side of the pipeline: it loads the next slice of operands "
            "while the CUBE multiplies the current one.",
        ),
        Text(
            "最接近的是 ldmatrix（shared memory 到寄存器）。",
            "Closest is ldmatrix (shared memory to registers).",
        ),
        Text(
            "Hopper 的 wgmma 不需要这一步，直接读 shared memory；ldmatrix 是 Ampere 式 mma.sync 的做法，而且是"
            "线程执行的"
            "指令，不是独立的引擎。",
            "Hopper's wgmma needs no such step, reading shared memory directly; ldmatrix belongs to Ampere-style "
            "mma.sync and is an instruction threads execute, not an engine of its own.",
        ),
        _PTX_LDMATRIX,
        unit=True,
    ),
    _term(
        "MTE2",
        Text(
            "搬运引擎：从全局内存（经 L2）拷到 UB 或 L1；KV token 的 gather 就靠它。",
            "Memory transfer engine from global memory (through L2) into UB or L1; it gathers the KV tokens.",
        ),
        Text(
            f"每个 VECTOR Core 同时最多有 {_QUEUE} 个未完成的 MTE2 请求（报告 (zh) 第 138 行），这限制了稀疏 gather 的"
            f"并行度；gather2 让一个请求拷 {GATHER2_TOKENS_PER_REQUEST} 个 token。",
            f"Each VECTOR Core may have at most {_QUEUE} MTE2 requests outstanding (report (zh) line 138), which "
            f"bounds how many tokens a sparse gather keeps in flight; gather2 lets one request copy "
            f"{GATHER2_TOKENS_PER_REQUEST} tokens.",
        ),
        Text(
            "TMA（张量内存加速器，cp.async.bulk.tensor），从全局内存异步拷到 shared memory。",
            "TMA (the Tensor Memory Accelerator, cp.async.bulk.tensor): asynchronous copies from global to shared "
            "memory.",
        ),
        Text(
            "TMA 一次搬一个由 tensor map 描述的整块，适合稠密的 tile；稀疏的 KV 在 FlashMLA 里由线程各自用宽 __ldg "
            "读取。MTE2 则以 token 为粒度一个请求一个请求地 gather，受请求队列深度的限制。",
            "TMA moves a whole tile described by a tensor map, made for dense tiles; FlashMLA's sparse kernels load "
            "the scattered KV tokens with wide per-thread __ldg loads instead. MTE2 gathers token by token, one "
            "request each, limited by its queue depth.",
        ),
        _HOPPER_TMA,
        unit=True,
        chapter="algorithm/model",
    ),
    _term(
        "MTE3",
        Text(
            "搬运引擎：从 UB 往外拷，拷到 CUBE 的 L1（NZ 格式的 KV、S），或写回全局内存（O）。",
            "Memory transfer engine out of UB: to the CUBE's L1 (KV in NZ, S) or back to global memory (O).",
        ),
        Text(
            "MTE3 是 VECTOR Core 把数据交给 CUBE 的唯一通路：转成 NZ 的 KV 块和 softmax 之后的 S 都由它写进 L1。",
            "MTE3 is the only way a VECTOR Core hands data to the CUBE: the KV block in NZ and the softmax output S "
            "both reach L1 through it.",
        ),
        Text(
            "写回全局内存这一半对应 TMA store；写进 L1 这一半没有对应物。",
            "Its half that writes to global memory is a TMA store; its half that writes into L1 has no counterpart.",
        ),
        Text(
            "GPU 上 softmax 线程直接用 st.shared 或 stmatrix 把 S 写进 shared memory，不需要跨核拷贝。",
            "On a GPU the softmax threads write S into shared memory themselves (st.shared or stmatrix); no copy "
            "between cores is needed.",
        ),
        _STMATRIX,
        unit=True,
        chapter="algorithm/model",
    ),
    _term(
        "FixPipe",
        Text(
            "把 CUBE 的结果搬出 L0C 的通路（这里把 P 和 O 搬到 UB），途中可以转换格式。",
            "The path that moves CUBE results out of L0C (here P and O to UB), converting formats on the way.",
        ),
        Text(
            "FixPipe 的带宽有限（报告 (zh) 第 142 行），每块的 P 都要经它到 UB；若每块都 rescale O，O 也要经它往返，"
            "这正是 skip-scale 要省下的流量。",
            "FixPipe's bandwidth is limited (report (zh) line 142), and every block's P goes through it to UB; "
            "rescaling O every block would send O through it too, the traffic skip-scale saves.",
        ),
        None,
        Text(
            "没有对应物：GPU 的累加器已在线程的寄存器里，转换和写出由 epilogue 代码（如 stmatrix）完成，不经专"
            "门的通路。",
            "No counterpart: a GPU's accumulator is already in the threads' registers, and converting and storing it "
            "is epilogue code (stmatrix, for one), not a dedicated path.",
        ),
        _STMATRIX,
        unit=True,
        chapter="algorithm/model",
    ),
    _term(
        "scalar core",
        Text(
            "VECTOR Core 里发射指令的标量核；只有它能读写 SS buffer。",
            "The scalar core inside a VECTOR Core that issues its instructions; only it can read and write the "
            "SS buffer.",
        ),
        Text(
            "标量核按顺序把指令发往各条硬件流水线（PIPE_V、MTE2、MTE3……）。SIMD VF 自己还有一个小标量核（报告"
            " (zh) 第 230 行）。",
            "The scalar core issues instructions, in order, to the hardware pipelines (PIPE_V, MTE2, MTE3, ...). A "
            "SIMD VF has a small scalar core of its own as well (report (zh) line 230).",
        ),
        Text(
            "warp 调度器与 uniform datapath 的合体，最接近。",
            "Closest is the warp scheduler together with the uniform datapath.",
        ),
        Text(
            "warp 调度器在许多 warp 之间切换以掩盖延迟；标量核只有一条指令流，一条等不到的指令会堵住后面的全部指令。",
            "A warp scheduler switches among many warps to hide latency; the scalar core has one instruction stream, "
            "and an instruction that must wait holds up all behind it.",
        ),
        _CUDA_HW,
        unit=True,
        chapter="discussion/skip-scale-sync",
    ),
    _term(
        "SIMD VF",
        Text(
            "VECTOR Core 上一段成块执行的向量函数：softmax、ND2NZ 和 gather2 的参数都由它计算。",
            "A vector function run as one SIMD block on a VECTOR Core: the softmax, ND2NZ and gather2's parameters.",
        ),
        Text(
            "VF 在 PIPE_V 上按发射顺序执行；前一个 VF 的条件没满足就会堵住整条流水线（报告 (zh) 第 206 行）。"
            "skip-scale 的"
            "信号由 VF 算出，而只有标量核能写 SS buffer，所以每块都要一次 VF 到标量核的同步（报告 (zh) 第 204 行）。",
            "VFs run on PIPE_V in the order they are issued; one whose condition is not met blocks the whole pipeline "
            "(report (zh) line 206). The skip-scale signal is computed by a VF while only the scalar core can write "
            "the SS buffer, so every block needs a VF-to-scalar-core synchronisation (report (zh) line 204).",
        ),
        Text(
            "一段在 CUDA Core 上跑的 SIMT 设备代码（FlashMLA 的 softmax 部分）。",
            "A piece of SIMT device code on the CUDA cores (FlashMLA's softmax part).",
        ),
        Text(
            "GPU 代码里的每个线程自带标量控制，warp 间可以乱序调度；VF 是显式的 SIMD 块，和其他 VF 严格按序执行。",
            "In GPU code every thread carries its own scalar control and warps are scheduled out of order; a VF is an "
            "explicit SIMD block that runs strictly in order with the other VFs.",
        ),
        nvidia("CUDA C++ Programming Guide", CUDA_GUIDE_URL, "SIMT Architecture"),
        chapter="discussion/nd2nz-when",
    ),
    _term(
        "SS buffer",
        Text(
            "AI Core 内 CUBE 与 VECTOR Core 都能访问的小缓冲；本算子用它传递 skip-scale 的信号。",
            "A small buffer both the CUBE and the VECTOR Cores of an AI Core can reach; it carries the skip-scale "
            "signal.",
        ),
        Text(
            "VECTOR Core 决定这一块要不要 rescale O，CUBE 要据此决定是否清空 L0C 里的 O；信号写在 SS buffer 里"
            "，再用 cross-core "
            "flag 通知对方（报告 (zh) 第 162 行）。",
            "A VECTOR Core decides whether a block rescales O, and the CUBE must know it to decide whether to clear O "
            "in L0C; the signal is written to the SS buffer and the other side is told with a cross-core flag "
            "(report (zh) line 162).",
        ),
        Text(
            "shared memory 里的一个标志加上 mbarrier（或命名 barrier）。",
            "A flag in shared memory plus an mbarrier (or a named barrier).",
        ),
        Text(
            "GPU 上任何线程都能读写 shared memory 里的标志；SS buffer 只有标量核能读写，所以信号先要从 SIMD VF "
            "同步到标量核。",
            "On a GPU any thread can read and write a flag in shared memory; only the scalar core can touch the SS "
            "buffer, so the signal must first be synchronised from the SIMD VF to the scalar core.",
        ),
        flashmla(PREFILL_SPARSE_CONFIG_PATH, 107, 116),
        chapter="discussion/skip-scale-sync",
    ),
    _term(
        "HF32",
        Text(
            "CUBE 的快速 fp32 模式：截短 fp32 的尾数换取更高算力；要求精确时须关闭。",
            "The CUBE's fast fp32 mode: a shortened fp32 mantissa for more throughput; off when exact fp32 is needed.",
        ),
        Text(
            "若用 CUBE 乘一个对角矩阵来 rescale O，为不损失精度必须关闭 HF32，CUBE 的 fp32 算力随之大降（报告"
            " (zh) 第 128 行），"
            "这是 O 的累加器不放在 L0C 的原因之一。",
            "Rescaling O on the CUBE (multiplying by a diagonal matrix) without losing precision needs HF32 off, and "
            "then the CUBE's fp32 rate drops steeply (report (zh) line 128); one reason O's accumulator does not stay "
            "in L0C.",
        ),
        Text("TF32（Tensor Core 的截短 fp32 格式）。", "TF32 (the Tensor Cores' shortened fp32 format)."),
        Text(
            "TF32 与 HF32 都是用更短的尾数换速度；但 GPU 上的 rescale 由 CUDA Core 以完整 fp32 在寄存器里完成"
            "，根本不需要 Tensor Core。",
            "Both trade mantissa bits for speed; but on a GPU the rescale is done by the CUDA cores in full fp32 in "
            "registers, without the Tensor Cores at all.",
        ),
        nvidia("CUDA C++ Programming Guide", CUDA_GUIDE_URL, "Warp Matrix Functions"),
        chapter="discussion/accumulator",
    ),
    _term(
        "ND",
        Text(
            "矩阵按行连续存放的普通布局，KV cache 就是这样存的。",
            "A matrix stored row after row, the plain layout the KV cache uses.",
        ),
        Text(
            "KV 在显存中以 ND 存放，shape 为 [s_kv, d_qk]（报告 (zh) 第 150 行）；gather 进 UB 的 KV 块仍是 ND。",
            "The KV lives in memory in ND, shape [s_kv, d_qk] (report (zh) line 150); the KV block gathered into UB "
            "is still ND.",
        ),
        Text("行主序（row-major）布局。", "A row-major layout."),
        Text("完全对应。", "The same thing."),
        _SWIZZLE,
        chapter="algorithm/nd-nz",
    ),
    _term(
        "NZ",
        Text(
            "CUBE 要求的分形布局：矩阵切成小方块，一块接一块存放。",
            "The CUBE's fractal layout: the matrix cut into small square tiles stored one tile after another.",
        ),
        Text(
            f"矩阵切成 {_FRACTAL} 个元素的分形（fractal），分形之间按列（N）排、分形之内按行（Z）排；CUBE 的操"
            "作数必须是 NZ。",
            f"The matrix is cut into fractals of {_FRACTAL} elements, the fractals ordered down the columns (N) and "
            "the elements inside one row by row (Z); the CUBE's operands must be in NZ.",
        ),
        Text(
            "wgmma 要求的 shared memory 布局（CUTLASS 的 GMMA swizzle 布局，如 Layout_K_SW128_Atom）。",
            "The shared-memory layouts wgmma requires (CUTLASS's GMMA swizzled layouts, such as Layout_K_SW128_Atom).",
        ),
        Text(
            "swizzle 通过异或重排地址以避开 bank 冲突，TMA 搬运时即可完成；NZ 是分块重排，稀疏 gather 时 MTE2 "
            "做不了，只好由"
            "VECTOR Core 在 UB 里转换（ND2NZ）。",
            "A swizzle permutes addresses with an XOR to avoid bank conflicts and TMA applies it while copying; NZ "
            "regroups the matrix into tiles, which MTE2 cannot do during a sparse gather, so the VECTOR Cores convert "
            "in UB (ND2NZ).",
        ),
        _SWIZZLE,
        chapter="algorithm/nd-nz",
    ),
    _term(
        "fractal",
        Text(
            "NZ 布局里的小方块：CUBE 一次读取的最小矩阵分块。",
            "The small square tile of the NZ layout: the smallest block of a matrix the CUBE reads.",
        ),
        Text(
            f"本算子的分形是 {_FRACTAL} 个元素（{_cite('fractal_rows')}、{_cite('fractal_cols')}）。",
            f"The kernel's fractal is {_FRACTAL} elements ({_cite('fractal_rows')}, {_cite('fractal_cols')}).",
        ),
        Text(
            "wgmma 的 core matrix（swizzle atom 里的基本块）。",
            "wgmma's core matrix (the basic block inside a swizzle atom).",
        ),
        Text(
            "core matrix 在 shared memory 里怎么排由描述符和 swizzle 模式决定，可以有多种；分形的排法固定为 NZ。",
            "How core matrices sit in shared memory is set by a descriptor and a swizzle mode, several are allowed; "
            "fractals are always arranged as NZ.",
        ),
        _SWIZZLE,
        chapter="algorithm/nd-nz",
    ),
    _term(
        "ND2NZ",
        Text(
            "从 ND 到 NZ 的转换；这里由 VECTOR Core 在 UB 里完成，再经 MTE3 拷到 L1。",
            "Conversion from ND to NZ; here the VECTOR Cores do it in UB before MTE3 copies the KV to L1.",
        ),
        Text(
            "稠密搬运时 MTE2 可以在 GM 到 L1 的路上随路完成 ND2NZ；本算子逐 token gather，用不上，所以先拷到 "
            "UB，由 SIMD VF 转换"
            "（报告 (zh) 第 150-154 行）。高速 ND2NZ 一章讲怎样让这个 VF 足够快。",
            "For dense copies MTE2 can convert ND2NZ on the way from GM to L1; a token-by-token gather cannot, so the "
            "kernel copies to UB and converts with a SIMD VF (report (zh) lines 150-154). The fast ND2NZ chapter makes "
            "that VF fast enough.",
        ),
        Text(
            "把数据按 swizzle 布局写进 shared memory（TMA 搬运时自动完成，或由线程写入）。",
            "Writing data into shared memory in the swizzled layout (done by TMA while copying, or by the threads).",
        ),
        Text(
            "FlashMLA 的稀疏 decode 线程在反量化后直接按目标布局写 shared memory，不需要单独的一趟转换。",
            "FlashMLA's sparse decoding threads write shared memory in the target layout right after dequantising, "
            "with no separate conversion pass.",
        ),
        _LDG_GATHER,
        chapter="discussion/nd2nz-when",
    ),
    _term(
        "gather2",
        Text(
            f"一次 MTE2 请求拷 {GATHER2_TOKENS_PER_REQUEST} 个 KV token 的技巧，省下请求数。",
            f"Copying {GATHER2_TOKENS_PER_REQUEST} KV tokens with one MTE2 request, to save requests.",
        ),
        Text(
            f"把 MTE2 请求的 burst_count 设为 {GATHER2_TOKENS_PER_REQUEST}、src_stride 设为这对 token 起始地址"
            "之差（报告 (zh) 第 216 行），"
            f"一个请求就拷 {GATHER2_TOKENS_PER_REQUEST} 个 token；请求参数由 SIMD VF 算好，不阻塞标量核。",
            f"Setting an MTE2 request's burst_count to {GATHER2_TOKENS_PER_REQUEST} and its src_stride to the "
            f"distance between two tokens' addresses (report (zh) line 216) copies {GATHER2_TOKENS_PER_REQUEST} tokens "
            "with one request; a SIMD VF computes the parameters so the scalar core is not held up.",
        ),
        None,
        Text(
            "没有对应物：GPU 上的稀疏 gather 由许多线程各自发起读取（FlashMLA 用宽 __ldg），没有需要节省的请求队列。",
            "No counterpart: on a GPU many threads each issue their own loads for a sparse gather (FlashMLA uses wide "
            "__ldg loads), with no request queue to economise.",
        ),
        _LDG_GATHER,
        chapter="optimizations/gather2",
    ),
    _term(
        "KV",
        Text(
            "注意力的键和值；MLA 里 K 和 V 共用一份缓存，V 是 K 的前若干列。",
            "Attention's keys and values; in MLA, K and V share one cache and V is the first columns of K.",
        ),
        Text(
            "本算子按 index 从 KV cache 里 gather 被选中的 token，每块 B_TOPK 个；decode 时 KV cache 是量化的"
            "（FP8 或 FP4 加 scale）。",
            "The kernel gathers the selected tokens from the KV cache by index, B_TOPK per block; for decoding the "
            "cache is quantised (FP8 or FP4 with scales).",
        ),
        Text("同一个概念：FlashMLA 的 KV cache。", "The same idea: FlashMLA's KV cache."),
        Text(
            "概念相同；不同在存放格式：昇腾的 decode KV cache 把每个 token 的数据和 scale 放在一起，以少一次 "
            "MTE2 拷贝。",
            "Same idea; the difference is the layout: the Ascend decoding cache keeps each token's data and scales "
            "together, to save an MTE2 copy.",
        ),
        _SMEM_PLAN,
        chapter="algorithm/model",
    ),
    _term(
        "B_TOPK",
        Text(
            "KV 块的大小：算子每一步处理一个 q token 选中的 KV token 中的多少个。",
            "The KV block size: how many of a q token's selected KV tokens the kernel handles per step.",
        ),
        Text(
            f"发布的内核取 B_TOPK = {_K.b_topk}（{_cite('b_topk')}）；1C2V 时每个 VECTOR Core gather 其中一半。",
            f"The shipped kernel has B_TOPK = {_K.b_topk} ({_cite('b_topk')}); under 1C2V each VECTOR Core gathers "
            "half of "
            "them.",
        ),
        Text(
            "FlashMLA 稀疏 prefill 的 B_TOPK（prefill 的 config.h 第 27 行）。",
            "B_TOPK of FlashMLA's sparse prefill (its prefill config.h, line 27).",
        ),
        Text(
            "含义相同；取值各由自己芯片的片上内存和流水线决定。",
            "The same meaning; each kernel sizes it for its own chip's on-chip memory and pipeline.",
        ),
        flashmla(PREFILL_SPARSE_CONFIG_PATH, 27),
        chapter="algorithm/flow",
    ),
    _term(
        "1C1V",
        Text("一个 CUBE 配一个 VECTOR Core。", "One CUBE with one VECTOR Core working for it."),
        Text(
            "讨论一章“能不能用 1C1V”问只用一个 VECTOR Core 够不够：UB、MTE2 队列和 FixPipe 都会先不够。",
            "The chapter on 1C1V asks whether one VECTOR Core is enough: UB, the MTE2 queue and FixPipe each run "
            "short first.",
        ),
        Text(
            "一个消费者 warpgroup 配 Tensor Core。",
            "One consumer warpgroup feeding the Tensor Cores.",
        ),
        Text(
            "在 GPU 上 warpgroup 的个数是软件选择，共享同一个 SM 的资源；在昇腾上 VECTOR Core 的个数是硬件给定"
            "的，1C1V 意味着"
            "另一个 VECTOR Core 闲着。",
            "On a GPU the number of warpgroups is a software choice sharing one SM's resources; on the Ascend chip the "
            "VECTOR Cores are hardware, and 1C1V leaves one idle.",
        ),
        _THREADS,
        chapter="discussion/one-vector-core",
    ),
    _term(
        "1C2V",
        Text(
            f"一个 CUBE 配 {_VECTORS} 个 VECTOR Core，各管一半的行；发布的内核就是这样。",
            f"One CUBE with {_VECTORS} VECTOR Cores, each taking half the rows; the shipped kernel's choice.",
        ),
        Text(
            f"{_VECTORS} 个 VECTOR Core 各 gather 一半 token、各持有一半行的 P 与 O，UB、MTE2 队列和 FixPipe 的"
            "负担都减半。",
            "The two VECTOR Cores each gather half the tokens and hold half the rows of P and O, halving the load on "
            "UB, the MTE2 queue and FixPipe.",
        ),
        Text(
            "FlashMLA 的消费者 warpgroup 各管 O 的左右半边（“seesaw” 调度）。",
            "FlashMLA's consumer warpgroups each holding one half of O (its “seesaw” schedule).",
        ),
        Text(
            "FlashMLA 按 O 的列（d_v）分给各个 warpgroup；1C2V 按行（head）分给各个 VECTOR Core。",
            "FlashMLA splits O between its warpgroups by columns (d_v); 1C2V splits it between the VECTOR Cores "
            "by rows "
            "(heads).",
        ),
        _SEESAW,
        chapter="discussion/one-vector-core",
    ),
    _term(
        "ping-pong",
        Text(
            "多缓冲：一份在被使用时，另一份在被填入，使搬运和计算重叠。",
            "Multi-buffering: one buffer is used while another is filled, so copies overlap computation.",
        ),
        Text(
            f"AI Core 图上的份数都是多缓冲：UB 里的 KV 块 {_K.ub_kv_buffers} 份、L1 里的 KV 块 {_K.l1_kv_buffers} "
            "份、Q "
            f"{_K.l1_q_buffers} 份（{_cite('l1_q_buffers')}、{_cite('l1_kv_buffers')}、{_cite('ub_kv_buffers')}）"
            "；它们的理由见 UB 和 L1 两条。",
            f"The counts on the AI Core figure are multi-buffering: the KV block {_K.ub_kv_buffers} times in UB and "
            f"{_K.l1_kv_buffers} times in L1, Q {_K.l1_q_buffers} times ({_cite('l1_q_buffers')}, "
            f"{_cite('l1_kv_buffers')}, "
            f"{_cite('ub_kv_buffers')}); the UB and L1 entries say "
            "why.",
        ),
        Text(
            "shared memory 里的多级流水缓冲（FlashMLA 的 K 缓冲数组 k），以及 FA3 的 ping-pong 调度。",
            "The multi-stage buffers in shared memory (FlashMLA's array of K buffers, k) and FA3's ping-pong schedule.",
        ),
        Text(
            "思想相同；但 GPU 还能靠 warp 切换掩盖延迟，昇腾只能靠缓冲份数和流水线排布。",
            "The same idea; but a GPU can also hide latency by switching warps, while the Ascend kernel has only its "
            "buffer counts and its schedule.",
        ),
        _PING_PONG,
        chapter="algorithm/double-buffering",
    ),
    _term(
        "online softmax",
        Text(
            "逐块计算的 softmax：维护到目前为止的行最大值和指数和，最大值变大时先 rescale 之前的部分结果。",
            "Softmax block by block with a running row maximum and sum, rescaling earlier partial results when the "
            "maximum grows.",
        ),
        Text(
            "每来一个 KV 块，更新行最大值 m 和指数和 l；m 变大时，已经累加的 O 要乘以 exp(m_old - m_new)。",
            "For each KV block the row maximum m and the sum l are updated; when m grows, the O accumulated so far is "
            "multiplied by exp(m_old - m_new).",
        ),
        Text("FlashAttention 的 online softmax，完全相同。", "FlashAttention's online softmax, the same algorithm."),
        Text(
            "算法相同，代价不同：GPU 上 rescale 在寄存器里，几乎免费；昇腾上 O 要经 FixPipe 到 UB，所以有 skip-scale。",
            "Same algorithm, different cost: on a GPU the rescale happens in registers, almost free; on the Ascend "
            "chip O must travel through FixPipe to UB, hence skip-scale.",
        ),
        _SEESAW,
        chapter="algorithm/flow",
    ),
    _term(
        "skip-scale",
        Text(
            "行最大值只变大一点时不换新的最大值、跳过这一块对 O 的 rescale，O 就不必搬出 L0C。",
            "Keeping the old row maximum when the new one is only slightly larger, so the block skips the O rescale "
            "and O need not leave L0C.",
        ),
        Text(
            "只要新最大值超出旧值不多，用旧值算 exp 也不会溢出；这一块就不 rescale O。信号经 SS buffer 和 cross-core "
            "flag 传给 CUBE。",
            "While the new maximum exceeds the old by little, exponentials taken against the old one cannot overflow, "
            "and the block skips the O rescale; the signal reaches the CUBE through the SS buffer and cross-core "
            "flags.",
        ),
        None,
        Text(
            "FlashMLA 的 Hopper 内核没有这一步：O 在做 softmax 的线程的寄存器里，每块都 rescale 也只是几条乘法"
            "。昇腾上跳过的是 O "
            "经 FixPipe 的往返，所以值得做。",
            "FlashMLA's Hopper kernels have no such step: O sits in the registers of the threads running the softmax, "
            "so rescaling every block costs a few multiplies. On the Ascend chip a skip saves O's round trip through "
            "FixPipe, which is why it pays.",
        ),
        _SEESAW,
        chapter="algorithm/flow",
    ),
    _term(
        "roofline",
        Text(
            "由算力和带宽给出的上限：算子受耗时更长的那一项限制。",
            "The bound set by compute and bandwidth: a kernel is limited by whichever of the two takes longer.",
        ),
        Text(
            "head 数一章对每个 (head 数, topk) 比较 CUBE 周期和访存周期：较大者就是下限，两者相等处是均衡点。",
            "The heads-per-core chapter compares, for each (heads, topk), the CUBE cycles with the memory cycles: the "
            "larger is the bound, and where they meet the kernel is balanced.",
        ),
        Text("同一个模型，GPU 上也用。", "The same model, used on GPUs too."),
        Text(
            "模型相同；本站的昇腾一侧用每个 AI Core 分到的 L2 带宽，H800 一侧用每个 SM 分到的 HBM 带宽。",
            "The same model; this site's Ascend side uses each AI Core's share of L2 bandwidth, the H800 side each "
            "SM's share of HBM bandwidth.",
        ),
        _CUDA_GLOBAL,
        chapter="algorithm/roofline",
    ),
)

#: Every entry by its term.
GLOSSARY_BY_TERM: Final = MappingProxyType({entry.term: entry for entry in GLOSSARY_TERMS})

#: Hardware or kernel words that the pages use on two or more pages but that get no entry, each with the reason.
NOT_IN_GLOSSARY: Final = MappingProxyType(
    {
        "TB": "a unit of measure (terabytes), not a term",
        "TFLOPS": "a unit of measure (tera floating-point operations per second), not a term",
        "FP8": "a number format with the same meaning on GPUs; the KV cache layout chapter defines the kernel's",
        "FP4": "a number format with the same meaning on GPUs; the KV cache layout chapter defines the kernel's",
        "V4": "part of the model's name, DeepSeek V4",
        "DSA": "the algorithm's name (DeepSeek Sparse Attention), spelt out in the preface",
        "NPU": "the class of chip (neural processing unit), not a unit of it",
        "GPU": "the class of chip the readers know, not a unit of the Ascend one; each entry compares with it",
        "QK": "the name of the product Q Kᵀ, defined with the mathematics; the MMAD entry uses it",
        "VF": "the pages' short form of SIMD VF, which has the entry",
        "MMA": "the generic name of a matrix multiply-accumulate; the CUBE's instruction is MMAD",
        "FLOP": "a unit of measure (floating-point operations), not a term; the roofline primer counts them",
        "SV": "the name of the product S V, defined with the mathematics beside QK; the MMAD entry uses it",
        "Tensor Core": "NVIDIA's matrix unit, the GPU side of a comparison: the CUBE entry names it as the counterpart",
    }
)


@dataclass(frozen=True)
class Symbol:
    """A letter the formulas, figures and tables use for one matrix: how a legend names it and what it is.

    The model chapter defines them (P = Q Kᵀ, the scores; S = softmax(P · sm_scale)); a figure's legend or a
    table's header writes ``legend``, so every page names a letter the same way. ``chapter`` is the key of the chapter
    that defines the letter, as for a `GlossaryTerm`.
    """

    symbol: str
    legend: Text
    definition: Text
    chapter: str | None = None

    def __post_init__(self) -> None:
        """Reject a legend that does not start with its letter, a chapter the site does not have."""
        if self.chapter is not None:
            chapter_named(self.chapter)
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
        "algorithm/model",
    ),
    Symbol(
        "S",
        Text("S = softmax(P)", "S = softmax(P)"),
        Text(
            "S = softmax(P · sm_scale)：按行归一化后的打分，VECTOR Core 算出，再乘 V。",
            "S = softmax(P · sm_scale): the scores normalised row by row, by the VECTOR Cores, then multiplied by V.",
        ),
        "algorithm/model",
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
    if isinstance(term, str) and term in GLOSSARY_BY_TERM:
        return GLOSSARY_BY_TERM[term]
    raise KeyError(f"{term!r} is not in the glossary; terms: {', '.join(e.term for e in GLOSSARY_TERMS)}")
