"""FlashMLA's published Hopper figures, kept as published, each with the file and line it stands on.

A separate ledger from the report's (``report_figures``): the two blogs, the README and the sm90 headers at commit
9241ae3. ``report.ledger_hopper`` says what we compute for each and how the two are compared; figures that only a
measurement gives (TFLOPS achieved) are adopted as the constants below and compared by stated claims, so that what
the pages print from them is checked too.
"""

from __future__ import annotations

from functools import partial
from typing import Final

from ascend_dsa.facts.hopper import (
    DECODE_FP8_COMPONENTS_PATH,
    DECODE_FP8_CONFIG_PATH,
    DENSE_BLOG_PATH,
    FP8_BLOG_PATH,
    HOPPER_README_PATH,
    PREFILL_SPARSE_CONFIG_PATH,
    hopper_cite,
)
from ascend_dsa.facts.report_figures import FigureValue, PublishedFigure, figure_named, number_named
from ascend_dsa.units import TB, TFLOPS


def _published(path: str, key: str, value: FigureValue, unit: str, line: int, written: str = "") -> PublishedFigure:
    """A figure of the FlashMLA file ``path`` at the pinned commit."""
    return PublishedFigure(key, value, unit, hopper_cite(path, line), written)


_fp8 = partial(_published, FP8_BLOG_PATH)
_dense = partial(_published, DENSE_BLOG_PATH)
_readme = partial(_published, HOPPER_README_PATH)


#: Every published Hopper figure the Hopper ledger checks, in the order of the documents.
HOPPER_FIGURES: Final = (
    _fp8("h800-kv-cache-128k-gib", 8.72, "GiB", 3, "576 × 2 × 62 × 128 × 1024 = 8.72 GiB"),
    _fp8("h800-kv-cache-factors", (576, 2, 62, 128, 1024), "", 3, "576 × 2 × 62 × 128 × 1024"),
    _fp8("fp8-head-dims", (576, 512), "", 9, "head_dim_k = 576, head_dim_v = 512"),
    _fp8("fp8-quant-tile", 128, "elements", 9, "1 × 128"),
    _fp8("fp8-token-parts", (512, 4, 64), "", 9, "512 float8_e4m3s, 4 float32s, and 64 bfloat16s"),
    _fp8("fp8-token-bytes", 656, "B", 9),
    _fp8("h800-matrix-flop-per-cycle-per-sm", 4096, "FLOP/cycle", 17),
    _fp8("h800-peak-tflops", 989, "TFLOPS", 17, "989 TFlops / 1830 MHz / 132 SMs"),
    _fp8("h800-clock-mhz", 1830, "MHz", 17),
    _fp8("h800-sms", 132, "SMs", 17),
    _fp8("hopper-heads-per-cta", 64, "heads", 17, "64 query heads"),
    _fp8("mma-cycles-per-token-64-heads", 34, "cycles", 17, "64 × (576+512) × 2 / 4096 ≈ 34"),
    _fp8("dequant-results-per-cycle", (64, 64, 16, 256), "", 25, "(1/64 + 1/64 + 1/16 + 1/256) × 512"),
    _fp8("dequant-cycles-per-token", 50, "cycles", 25, "≈ 50"),
    _fp8("dequant-bound", 1, "", 25, "dequantization-bound"),
    _fp8("crossover-dequant-share", 0.5, "", 31, "half"),
    _fp8("crossover-cluster-size", 2, "CTAs", 39, "clusters of size 2"),
    _fp8("sparse-decode-tflops", 410, "TFLOPS", 48),
    _fp8("sparse-decode-shape", (128, 128, 2, 2048), "", 48, "batch_size=128, num_heads=128, s_q=2, topk=2048"),
    _fp8("no-crossover-tflops", 250, "TFLOPS", 48),
    _fp8("fp8-blog-dense-peak-tflops", 640, "TFLOPS", 50),
    _fp8("sparse-decode-large-topk-tflops", 460, "TFLOPS", 50, "topk 32768: 460 TFLOPS"),
    _fp8("sparse-dense-break-even-tokens", 3000, "tokens", 52, "around 3000"),
    _dense("dense-decode-tflops", 660, "TFLOPS", 3),
    _dense("compute-memory-ratio-factor", 2, "", 11, "h_q s_q · (d_k+d_v)/d_k ≈ 2 h_q s_q"),
    _dense("h800-hbm-tb-per-s", 3.35, "TB/s", 13),
    _dense("h800-nominal-peak-tflops", 990, "TFLOPS", 13),
    _dense("h800-throttled-clock-mhz", 1600, "MHz", 13, "~1600 MHz"),
    _dense("h800-throttled-peak-tflops", 865, "TFLOPS", 13, "~865 TFlops"),
    _dense("compute-bound-heads", 128, "heads", 13, "1/2 · 865/3.35 = 128"),
    _dense("o-registers", 32768, "registers", 21, "64 × 512 → 32,768 32-bit registers"),
    _dense("h800-registers-per-sm", 65536, "registers", 21),
    _dense("seesaw-output-half", (64, 256), "", 25, "O_L and O_R (each 64 × 256)"),
    _dense("tma-copies-per-k-block", 9, "copies", 54, "64 × 576 K block: 9 TMA copies of 64 × 64"),
    _dense(
        "dense-tensor-core-utilisation",
        80,
        "%",
        57,
        "up to 80% Tensor Core utilization (of the throttled theoretical peak)",
    ),
    _dense("dense-achieved-tb-per-s", 3, "TB/s", 57, "3 TB/s memory bandwidth"),
    _readme("readme-sparse-prefill-tflops", 640, "TFLOPS", 51),
    _readme("readme-dense-decode-tflops", 660, "TFLOPS", 35),
    PublishedFigure("hopper-b-topk", 64, "tokens", hopper_cite(DECODE_FP8_CONFIG_PATH, 33), "TOPK_BLOCK_SIZE = 64"),
    PublishedFigure("hopper-block-m", 64, "heads", hopper_cite(DECODE_FP8_CONFIG_PATH, 32), "BLOCK_M = 64"),
    PublishedFigure(
        "prefill-b-h-b-topk", (64, 64), "", hopper_cite(PREFILL_SPARSE_CONFIG_PATH, 26, 27), "B_H = 64, B_TOPK = 64"
    ),
    PublishedFigure(
        "components-quant-tile", 128, "elements", hopper_cite(DECODE_FP8_COMPONENTS_PATH, 16), "QUANT_TILE_SIZE"
    ),
)


def hopper_figure(key: str) -> PublishedFigure:
    """The published Hopper figure named ``key``."""
    return figure_named(HOPPER_FIGURES, key, "published Hopper figure")


def hopper_number(key: str) -> float:
    """The published Hopper figure named ``key``, which must be a single number."""
    return number_named(HOPPER_FIGURES, key, "published Hopper figure")


#: Measured throughputs the pages take as given (each compared by a stated claim of the Hopper ledger).
SPARSE_DECODE_ACHIEVED_FLOPS: Final = 410 * TFLOPS  # fp8 blog line 48; README line 35
NO_CROSSOVER_ACHIEVED_FLOPS: Final = 250 * TFLOPS  # fp8 blog line 48
DENSE_DECODE_ACHIEVED_FLOPS: Final = 660 * TFLOPS  # dense blog line 3; README line 35
SPARSE_PREFILL_ACHIEVED_FLOPS: Final = 640 * TFLOPS  # README line 51
#: The FP8 blog's own figure for the earlier bf16 dense decoding kernel (fp8 blog line 50); the README and the dense
#: blog say 660 (a stated disagreement). Its break-even sentence (line 52) compares with this kernel.
FP8_BLOG_DENSE_PEAK_FLOPS: Final = 640 * TFLOPS
#: Memory bandwidth the dense decoding kernel achieved in memory-bound settings (dense blog line 57).
DENSE_DECODE_ACHIEVED_BYTES_PER_S: Final = 3 * TB
LARGE_TOPK_ACHIEVED_FLOPS: Final = 460 * TFLOPS  # fp8 blog line 50 (topk 32768)
#: The fp8 blog's benchmark: batch, heads, s_q, topk (fp8 blog line 48).
SPARSE_DECODE_SHAPE: Final = (128, 128, 2, 2048)
