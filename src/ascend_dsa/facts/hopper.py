"""The H800 and FlashMLA's Hopper kernels as their own documents and code state them, each number with its source.

Sources are FlashMLA at commit 9241ae3 (the two deep-dive blogs, the README and the sm90 ``config.h`` files), cited
by file and line, and NVIDIA's CUDA C++ Programming Guide for the one limit those files do not state (the shared
memory one CTA may use). The published figures the Hopper ledger checks are in ``facts.hopper_figures``.
"""

from __future__ import annotations

from typing import Final

from ascend_dsa.facts.hardware import ChipSpec
from ascend_dsa.facts.model_shape import ModelShape
from ascend_dsa.facts.provenance import Citation, Source
from ascend_dsa.lang import Text
from ascend_dsa.units import BF16_BYTES, FP32_BYTES, TB, KiB, MHz

HOPPER_REPOSITORY: Final = "deepseek-ai/FlashMLA"
HOPPER_COMMIT: Final = "9241ae3ef9bac614dd25e45e507e089f888280e0"
FP8_BLOG_PATH: Final = "docs/20250929-hopper-fp8-sparse-deep-dive.md"
DENSE_BLOG_PATH: Final = "docs/20250422-new-kernel-deep-dive.md"
HOPPER_README_PATH: Final = "README.md"
DECODE_FP8_CONFIG_PATH: Final = "csrc/sm90/decode/sparse_fp8/config.h"
DECODE_FP8_COMPONENTS_PATH: Final = "csrc/sm90/decode/sparse_fp8/components/config.h"
DECODE_FP8_KERNEL_PATH: Final = "csrc/sm90/decode/sparse_fp8/splitkv_mla.cuh"
PREFILL_SPARSE_CONFIG_PATH: Final = "csrc/sm90/prefill/sparse/config.h"
#: The vendor document for the per-CTA shared-memory limit (compute capability 9.0).
CUDA_GUIDE_SMEM: Final = (
    "NVIDIA CUDA C++ Programming Guide, 'Technical Specifications per Compute Capability', compute capability 9.0: "
    "maximum shared memory per thread block 227 KB"
)


#: What a page calls each FlashMLA file it cites (the citation keeps the full path).
HOPPER_FILE_LABELS: Final = {
    FP8_BLOG_PATH: Text("FP8 博客", "FP8 blog"),
    DENSE_BLOG_PATH: Text("稠密 decode 博客", "dense blog"),
    HOPPER_README_PATH: Text("README", "README"),
    DECODE_FP8_CONFIG_PATH: Text("decode config.h", "decode config.h"),
    DECODE_FP8_COMPONENTS_PATH: Text("decode components/config.h", "decode components/config.h"),
    DECODE_FP8_KERNEL_PATH: Text("decode splitkv_mla.cuh", "decode splitkv_mla.cuh"),
    PREFILL_SPARSE_CONFIG_PATH: Text("prefill config.h", "prefill config.h"),
}


def hopper_cite(path: str, first: int, last: int | None = None) -> Citation:
    """A span of one FlashMLA file at the pinned commit."""
    return Citation(path, HOPPER_COMMIT, first, first if last is None else last, HOPPER_REPOSITORY)


def hopper_source(path: str, first: int, last: int | None = None) -> Source:
    """A source in a FlashMLA file: a blog or the README is a published document, a header is code."""
    return Source(hopper_cite(path, first, last).short, "code" if path.endswith(".h") else "report")


#: One 32-bit register, in bytes.
REGISTER_BYTES: Final = FP32_BYTES
#: 32-bit registers per SM (dense blog line 21).
H800_REGISTERS_PER_SM: Final = 65536
#: The clock the H800 throttles to under the dense kernel (dense blog line 13).
H800_THROTTLED_CLOCK_HZ: Final = 1600 * MHz

H800: Final[ChipSpec[None]] = ChipSpec(
    name="H800 SXM5",
    clock_hz=1830 * MHz,
    matrix_fma_per_cycle_per_core=2048,
    cores=132,
    bandwidth_bytes_per_s=3.35 * TB,
    accumulator_bytes_per_core=H800_REGISTERS_PER_SM * REGISTER_BYTES,
    staging_bytes_per_core=227 * KiB,
    bandwidth=Text("HBM", "HBM"),
    accumulator=Text("寄存器堆", "register file"),
    staging=Text("shared memory（每个 CTA）", "shared memory (per CTA)"),
    ascend=None,
    sources={
        "clock_hz": hopper_source(FP8_BLOG_PATH, 17),
        "matrix_fma_per_cycle_per_core": Source(
            hopper_cite(FP8_BLOG_PATH, 17).short,
            "derived",
            note=Text(
                "每个 SM 每周期 4096 FLOP，每次乘加 2 FLOP", "4096 FLOP per cycle per SM, 2 FLOP per multiply-add"
            ),
        ),
        "cores": hopper_source(FP8_BLOG_PATH, 17),
        "bandwidth_bytes_per_s": hopper_source(DENSE_BLOG_PATH, 13),
        "accumulator_bytes_per_core": Source(
            hopper_cite(DENSE_BLOG_PATH, 21).short,
            "derived",
            note=Text("65,536 个 32 位寄存器 × 4 B", "65,536 32-bit registers x 4 B"),
        ),
        "staging_bytes_per_core": Source(CUDA_GUIDE_SMEM, "report"),
    },
)

#: DeepSeek V3.2's MLA in MQA mode: K heads of 576 (512 + 64 RoPE), V heads of 512, bf16 in the MMAs.
MLA_V32 = ModelShape(
    d_qk=576,
    d_v=512,
    element_bytes=BF16_BYTES,
    sources={
        "d_qk": hopper_source(FP8_BLOG_PATH, 9),
        "d_v": hopper_source(FP8_BLOG_PATH, 9),
        "element_bytes": hopper_source(FP8_BLOG_PATH, 11),
    },
)
#: Head-dimension elements that stay bf16 in the FP8 cache (the RoPE part; components/config.h line 15).
ROPE_DIM: Final = 64
#: Elements per FP8 quantisation tile, one fp32 scale each (fp8 blog line 9; components/config.h line 16).
QUANT_TILE_ELEMENTS: Final = 128
#: Bytes of one float8_e4m3 value.
FP8_BYTES: Final = 1
#: Query heads of DeepSeek V3.2 (fp8 blog line 31).
V32_QUERY_HEADS: Final = 128
#: Layers the fp8 blog counts in its 128K-token cache size (fp8 blog line 3).
V32_CACHE_LAYERS: Final = 62
#: Tokens of the 128K context the fp8 blog sizes (fp8 blog line 3: ``128 x 1024``).
V32_CONTEXT_TOKENS: Final = 128 * 1024

#: Query heads one CTA owns: ``BLOCK_M`` (decode sparse_fp8 config.h line 32; prefill sparse config.h line 26).
HOPPER_HEADS_PER_CTA: Final = 64
#: KV tokens per block: ``TOPK_BLOCK_SIZE`` (decode config.h line 33) and ``B_TOPK`` (prefill config.h line 27).
HOPPER_B_TOPK: Final = 64
#: K buffers in shared memory (decode config.h line 34).
HOPPER_K_BUFFERS: Final = 2
#: Warpgroups that hold the output between them in the dense kernel's "seesaw" schedule (dense blog lines 25, 40).
SEESAW_WARPGROUPS: Final = 2
#: The dense kernel's "seesaw" schedule: one running max shared by both warpgroups, O rescaled every block (dense
#: blog lines 25-40). The FP8 blog states no rescale rule for the sparse decoding kernel.
SEESAW_SCHEDULE_CITATION: Final = hopper_cite(DENSE_BLOG_PATH, 25, 40)
#: Columns of one TMA box (dense blog line 54: each copy moves 64 x 64).
TMA_BOX_COLUMNS: Final = 64

#: The dequantisation steps of one FP8 element on H800 and each step's results per cycle per SM (fp8 blog
#: lines 19-25, from NVIDIA's table of native arithmetic throughput): fp8->half, half->float, float->bf16, scale.
DEQUANT_RESULTS_PER_CYCLE: Final = (
    (Text("float8_e4m3 → half", "float8_e4m3 -> half"), 64),
    (Text("half → float32", "half -> float32"), 64),
    (Text("float32 → bfloat16", "float32 -> bfloat16"), 16),
    (Text("乘 scale", "multiply by the scale"), 256),
)

#: Shared-memory plan of the FP8 decoding kernel (decode config.h lines 91-103): ``CUTE_ALIGNAS(1024)`` on ``s``
#: (line 98), the largest alignment of any member and so the struct's own, and the barriers' size (a
#: ``transac_bar_t`` holds one ``uint64_t``, aligned to its size).
SMEM_S_ALIGN_BYTES: Final = 1024
SMEM_BARRIER_BYTES: Final = 8
#: The plan itself: ``struct SharedMemoryPlan``, decode config.h lines 91-103.
SMEM_PLAN_CITATION: Final = hopper_cite(DECODE_FP8_CONFIG_PATH, 91, 103)
#: Where ``s`` takes its alignment: decode config.h line 98.
SMEM_S_ALIGN_CITATION: Final = hopper_cite(DECODE_FP8_CONFIG_PATH, 98)
#: Alignment of a ``cute::array_aligned`` (``q`` and the members of the union ``u``): its default ``Alignment = 16``
#: (CUTLASS ``include/cute/container/array_aligned.hpp``, the submodule FlashMLA pins at 9241ae3).
SMEM_ARRAY_ALIGN_BYTES: Final = 16
#: What the kernel allocates: ``smem_size = sizeof(SharedMemoryPlan)`` (decode splitkv_mla.cuh line 753), so the
#: members' bytes rounded up to the struct's alignment, not their sum.
SMEM_ALLOCATION_CITATION: Final = hopper_cite(DECODE_FP8_KERNEL_PATH, 753)
#: ``bar_q``, then ``bar_k_local_ready``, ``bar_k_remote_ready`` and ``bar_k_avail`` per K buffer (line 102).
SMEM_BARRIERS: Final = 1 + 3 * HOPPER_K_BUFFERS
#: The per-row fp32 arrays ``sM``, ``sL``, ``sScale``, ``sOScale`` (line 101).
SMEM_ROW_ARRAYS: Final = 4
